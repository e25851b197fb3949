"""`wlansim model ...`: evaluate an analytical model from the command line.

wlansim model bianchi --phy 802.11b --stations 1:50 --access rts [--payload "1472 B"]
                      [--rate "1 Mb/s"] [--collision standard|bianchi] [--json]
wlansim model shadowing [--distances 50,100] [--path-loss-exponent 2.7]
                        [--tx-power "24.5 dBm"] [--rx-threshold "-64.4 dBm"] [--json] ...
wlansim model capture --stations 1:50 --access rts [--power "-60 dBm"] [--noise "-94 dBm"]
wlansim model error-rate [--modulation dsss|ofdm] [--psdu "1536 B"] [--sinr-db 0:20:2]

Powers are read as the scenario reads them ("dBm", "mW" or "W") and printed in dBm with
watts beside them; sizes and rates with their units (:mod:`wlansim.cli.flags`).
"""

from __future__ import annotations

from wlansim.errors import ScenarioError
from wlansim.models import bianchi
from wlansim.phy import UDP_PAYLOAD_BYTES
from wlansim.units import dbm

from .flags import POWER, RATE, SIZE
from .output import json_dumps

MAX_STATIONS = 10_000
#: `model shadowing` options: the scenario's `[channel.propagation]` keys (flag, model
#: parameter, type, ns-2.35's default, what it is): powers in any of the scenario's units
SHADOWING_KEYS = (
    ("tx-power", "tx_power_w", POWER, "0.28183815 W", "transmit power"),
    ("frequency-mhz", "frequency_mhz", float, 914.0, "carrier frequency, MHz"),
    ("reference-distance-m", "reference_distance_m", float, 1.0, "reference distance d0, m"),
    ("path-loss-exponent", "path_loss_exponent", float, 2.0, "path-loss exponent beta"),
    ("sigma-db", "sigma_db", float, 4.0, "shadowing standard deviation, dB"),
    ("rx-threshold", "rx_threshold_w", POWER, "3.652e-10 W", "receive threshold"),
    ("cs-threshold", "cs_threshold_w", POWER, "1.559e-11 W", "carrier-sense threshold"),
)


def power_text(watts: float) -> str:
    """A power as the model commands print it: dBm, with watts beside."""
    return f"{dbm(watts):.2f} dBm ({watts:.4g} W)"


def add_saturation_flags(parser) -> None:
    """The flags `model bianchi` and `model capture` share: PHY, rate, stations, access,
    payload."""
    parser.add_argument("--phy", default="802.11b", help="PHY preset (default: %(default)s)")
    parser.add_argument(
        "--rate",
        type=RATE,
        default=None,
        metavar="RATE",
        help='data rate of the frames, e.g. "1 Mb/s" (default: the PHY preset\'s)',
    )
    parser.add_argument(
        "--stations",
        required=True,
        metavar="N",
        help="number of stations: N, a comma list (5,10,20) or an inclusive range "
        "FIRST:LAST[:STEP] (1:50)",
    )
    parser.add_argument("--access", choices=bianchi.ACCESS_MODES, default="basic")
    parser.add_argument(
        "--payload",
        type=SIZE,
        default=f"{UDP_PAYLOAD_BYTES} B",
        metavar="SIZE",
        help="UDP payload (default: %(default)s, as `wlansim validate bianchi`)",
    )


def register(subparsers) -> None:
    """Add the ``model`` sub-command and its nested model sub-commands."""
    parser = subparsers.add_parser("model", help="evaluate an analytical model")
    models = parser.add_subparsers(dest="model", required=True, metavar="MODEL")
    sat = models.add_parser(
        "bianchi",
        help="Bianchi (2000) saturation throughput of the 802.11 DCF",
        description="Bianchi (2000) saturation model on a PHY's timing: collision "
        "probability p, attempt probability tau, normalised throughput S and UDP payload "
        "throughput for each number of saturated stations.",
    )
    add_saturation_flags(sat)
    sat.add_argument(
        "--collision",
        choices=bianchi.COLLISION_MODELS,
        default="standard",
        help="collision time: 'standard' (EIFS after a collision, as the simulator) or "
        "Bianchi's original 'bianchi' (default: %(default)s)",
    )
    sat.add_argument("--json", action="store_true", help="print one JSON document")
    sat.set_defaults(func=run_bianchi)
    sh = models.add_parser(
        "shadowing",
        help="reception probability vs distance under log-distance shadowing (ns-2's)",
        description="The mean received power and the probability that a frame is received "
        '(and sensed) at each distance under [channel.propagation] model = "shadowing": '
        "Q((RXThresh - mean Pr(d)) / sigma). Defaults are ns-2.35's.",
    )
    sh.add_argument(
        "--distances", default="10,25,50,75,100,150,200", metavar="M",
        help="distances in metres, comma-separated (default: %(default)s)",
    )  # fmt: skip
    for flag, key, kind, default, what in SHADOWING_KEYS:
        sh.add_argument(
            f"--{flag}", dest=key, type=kind, default=default,
            help=f"{what} (default: %(default)s)",
        )  # fmt: skip
    sh.add_argument("--json", action="store_true", help="print one JSON document")
    sh.set_defaults(func=run_shadowing)
    cap = models.add_parser(
        "capture",
        help="Bianchi's model with capture at the AP (equal powers), beside Bianchi's",
        description="Saturation throughput when the AP locks onto one of k colliding first "
        "frames (RTS, or the data frame under basic access) and gets it with the "
        "probability the PHY's error curve gives at SINR = P / ((k - 1) P + N): "
        "wlansim.models.capture, as `wlansim validate capture` uses it.",
    )
    add_saturation_flags(cap)
    cap.add_argument(
        "--power", type=POWER, default="-60 dBm", help="received power (default: %(default)s)"
    )
    cap.add_argument(
        "--noise", type=POWER, default="-94 dBm", help="noise floor (default: %(default)s)"
    )
    cap.add_argument("--json", action="store_true", help="print one JSON document")
    cap.set_defaults(func=run_capture)
    er = models.add_parser(
        "error-rate",
        help="probability that a frame is received at a SINR, per rate",
        description="PPDU success (PLCP header, then the PSDU) against the SINR for every "
        'rate of a modulation: the curves of [channel.reception] model = "sinr" '
        "(wlansim.models.error_rate).",
    )
    er.add_argument("--modulation", choices=("dsss", "ofdm"), default="dsss")
    er.add_argument(
        "--psdu", type=SIZE, default="1536 B", metavar="SIZE", help="PSDU (default: %(default)s)"
    )
    er.add_argument("--sinr-db", default="-4:20:2", metavar="FIRST:LAST:STEP", help="SINRs in dB")
    er.add_argument("--json", action="store_true", help="print one JSON document")
    er.set_defaults(func=run_error_rate)


def parse_stations(text: str) -> list[int]:
    """Parse ``--stations``: ``N``, ``A,B,C`` or ``FIRST:LAST[:STEP]`` (inclusive), or a
    comma list mixing both. Raises ScenarioError on anything else."""
    stations: list[int] = []
    for item in text.split(","):
        parts = item.strip().split(":")
        try:
            numbers = [int(part) for part in parts]
        except ValueError:
            numbers = []
        if not 1 <= len(numbers) <= 3 or (len(numbers) == 3 and numbers[2] < 1):
            raise ScenarioError(
                f"--stations: {item.strip()!r} is not N or FIRST:LAST[:STEP] with integers "
                f"(STEP >= 1), in {text!r}"
            )
        first, last = numbers[0], numbers[1] if len(numbers) > 1 else numbers[0]
        step = numbers[2] if len(numbers) == 3 else 1
        if first < 1 or last < first:
            raise ScenarioError(
                f"--stations: {item.strip()!r} must satisfy 1 <= FIRST <= LAST, in {text!r}"
            )
        stations.extend(range(first, last + 1, step))
        if len(stations) > MAX_STATIONS:
            raise ScenarioError(f"--stations: at most {MAX_STATIONS} values, got {text!r}")
    return stations


def _saturation_inputs(args) -> tuple[list[int], int, dict]:
    """--stations, --payload and the timing of --phy (at --rate) for that payload."""
    from wlansim import phy

    if args.payload < 1:
        raise ScenarioError(f"--payload must be at least 1 B, got {args.payload} B")
    table = {"standard": args.phy}
    if args.rate is not None:
        table["data_rate"] = f"{int(args.rate)} b/s"
    return parse_stations(args.stations), args.payload, phy.timing(table, args.payload)


def _setting(args, payload: int, timing: dict) -> str:
    """What a saturation model ran with, for its heading."""
    return (
        f"{args.phy} at {timing['data_rate_bps'] / 1e6:g} Mb/s (control "
        f"{timing['control_rate_bps'] / 1e6:g} Mb/s), {args.access} access, {payload}-byte "
        "UDP payload"
    )


def run_bianchi(args) -> int:
    """Evaluate the Bianchi model for each requested station count and print the result."""
    stations, payload, timing = _saturation_inputs(args)
    try:
        rows = [
            {"n": n, **bianchi.saturation(n, timing, access=args.access, collision=args.collision)}
            for n in stations
        ]
    except ValueError as exc:
        raise ScenarioError(f"model bianchi: {exc}") from exc
    if args.json:
        document = {
            "model": "bianchi",
            "phy": args.phy,
            "access": args.access,
            "collision": args.collision,
            "payload_bytes": payload,
            "data_rate_bps": timing["data_rate_bps"],
            "control_rate_bps": timing["control_rate_bps"],
            "results": rows,
        }
        print(json_dumps(document, indent=2))
        return 0
    setting = _setting(args, payload, timing)
    print(f"Bianchi saturation model: {setting}, {args.collision} collision time")
    print(f"{'n':>5}  {'p':>8}  {'tau':>9}  {'S':>7}  {'throughput Mb/s':>15}")
    for row in rows:
        print(
            f"{row['n']:>5}  {row['p']:>8.4f}  {row['tau']:>9.5f}  {row['S']:>7.4f}  "
            f"{row['throughput_bps'] / 1e6:>15.3f}"
        )
    return 0


def run_shadowing(args) -> int:
    """Print the shadowing model's reception probability at each distance."""
    import math

    from wlansim.models.shadowing import Shadowing

    try:
        distances = [float(x) for x in args.distances.split(",") if x.strip()]
    except ValueError:
        distances = []
    if not distances or any(not (d > 0 and math.isfinite(d)) for d in distances):
        raise ScenarioError(
            f"--distances: {args.distances!r} must be distances in metres above 0, comma-separated"
        )
    params = {key: getattr(args, key) for _, key, _, _, _ in SHADOWING_KEYS}
    for key, value in params.items():
        low_ok = key in ("path_loss_exponent", "sigma_db")
        if not math.isfinite(value) or value < 0 or (value == 0 and not low_ok):
            flag = next(f for f, k, _, _, _ in SHADOWING_KEYS if k == key)
            raise ScenarioError(f"--{flag}: {value} must be {'≥' if low_ok else '>'} 0")
    m = Shadowing(**params)
    rows = [
        {
            "distance_m": d,
            "mean_power_dbm": float(m.mean_power_db(d)) + 30.0,
            "reception_probability": float(m.reception_probability(d)),
            "sensed_probability": float(m.carrier_sense_probability(d)),
        }
        for d in distances
    ]
    if args.json:
        print(json_dumps({"model": "shadowing", **params, "results": rows}, indent=2))
        return 0
    print(
        f"Log-distance shadowing (ns-2's form): Pt {power_text(m.tx_power_w)}, "
        f"{m.frequency_mhz:g} MHz, d0 {m.reference_distance_m:g} m, beta "
        f"{m.path_loss_exponent:g}, sigma {m.sigma_db:g} dB, RXThresh "
        f"{power_text(m.rx_threshold_w)}, CSThresh {power_text(m.cs_threshold_w)}"
    )
    print(f"{'d (m)':>8}  {'mean Pr (dBm)':>13}  {'P(received)':>11}  {'P(sensed)':>9}")
    for r in rows:
        print(
            f"{r['distance_m']:>8g}  {r['mean_power_dbm']:>13.2f}  "
            f"{r['reception_probability']:>11.4f}  {r['sensed_probability']:>9.4f}"
        )
    return 0


def run_capture(args) -> int:
    """Bianchi's model with and without capture, per number of stations."""
    from wlansim.models import capture

    stations, payload, timing = _saturation_inputs(args)
    try:
        rows = [
            {
                "n": n,
                "bianchi_bps": bianchi.saturation(n, timing, access=args.access)["throughput_bps"],
                **capture.saturation(
                    n,
                    timing,
                    access=args.access,
                    powers_dbm=dbm(args.power),
                    noise_dbm=dbm(args.noise),
                ),
            }  # fmt: skip
            for n in stations
        ]
    except ValueError as exc:
        raise ScenarioError(f"model capture: {exc}") from exc
    if args.json:
        print(json_dumps({"model": "capture", "phy": args.phy, "access": args.access,
                          "data_rate_bps": timing["data_rate_bps"], "payload_bytes": payload,
                          "power_dbm": dbm(args.power), "noise_dbm": dbm(args.noise),
                          "results": rows}, indent=2))  # fmt: skip
        return 0
    print(
        f"Bianchi with capture: {_setting(args, payload, timing)}, every frame at "
        f"{power_text(args.power)}, noise {power_text(args.noise)}"
    )
    print(f"{'n':>5}  {'q2':>10}  {'p':>8}  {'Mb/s':>8}  {'Bianchi Mb/s':>12}")
    for r in rows:
        print(
            f"{r['n']:>5}  {r['q2']:>10.6f}  {r['p']:>8.4f}  {r['throughput_bps'] / 1e6:>8.3f}  "
            f"{r['bianchi_bps'] / 1e6:>12.3f}"
        )
    return 0


def run_error_rate(args) -> int:
    """The PPDU success table of every rate of a modulation."""
    from wlansim.models import error_rate

    try:
        first, last, step = (float(x) for x in args.sinr_db.split(":"))
    except ValueError:
        raise ScenarioError(f"--sinr-db: {args.sinr_db!r} is not FIRST:LAST:STEP in dB") from None
    if not (last >= first and step > 0) or (last - first) / step > 10_000:
        raise ScenarioError(f"--sinr-db: {args.sinr_db!r} needs FIRST <= LAST and a STEP > 0")
    if args.psdu < 1:
        raise ScenarioError(f"--psdu: {args.psdu} B must be at least 1 B")
    count = int(round((last - first) / step)) + 1
    grid = [first + i * step for i in range(count)]
    table = error_rate.table(args.modulation, args.psdu, grid)
    if args.json:
        print(table.reset_index().to_json(orient="records"))
        return 0
    print(f"P(frame received) of a {args.psdu}-byte PSDU, {args.modulation}, per rate (Mb/s):")
    print(table.to_string(float_format=lambda v: f"{v:.4f}"))
    return 0
