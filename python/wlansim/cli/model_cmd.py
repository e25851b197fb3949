"""`wlansim model ...`: evaluate an analytical model from the command line.

wlansim model bianchi --phy 802.11b --stations 1:50 --access rts [--payload 1472]
                      [--collision standard|bianchi] [--json]
wlansim model shadowing [--distances 50,100] [--path-loss-exponent 2.7] [--json] ...
"""

from __future__ import annotations

import json

from wlansim.errors import ScenarioError
from wlansim.models import bianchi
from wlansim.phy import UDP_PAYLOAD_BYTES

MAX_STATIONS = 10_000
#: `model shadowing` options: the scenario's `[channel.propagation]` keys, ns-2's defaults
SHADOWING_KEYS = (
    ("tx_power_w", 0.28183815, "transmit power, W"),
    ("frequency_mhz", 914.0, "carrier frequency, MHz"),
    ("reference_distance_m", 1.0, "reference distance d0, m"),
    ("path_loss_exponent", 2.0, "path-loss exponent beta"),
    ("sigma_db", 4.0, "shadowing standard deviation, dB"),
    ("rx_threshold_w", 3.652e-10, "receive threshold, W"),
    ("cs_threshold_w", 1.559e-11, "carrier-sense threshold, W"),
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
    sat.add_argument("--phy", default="802.11b", help="PHY preset (default: %(default)s)")
    sat.add_argument(
        "--stations",
        required=True,
        metavar="N",
        help="number of stations: N, a comma list (5,10,20) or an inclusive range "
        "FIRST:LAST[:STEP] (1:50)",
    )
    sat.add_argument("--access", choices=bianchi.ACCESS_MODES, default="basic")
    sat.add_argument(
        "--payload",
        default=str(UDP_PAYLOAD_BYTES),
        metavar="BYTES",
        help="UDP payload (default: %(default)s, as `wlansim validate bianchi`)",
    )
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
    for key, default, unit in SHADOWING_KEYS:
        sh.add_argument(
            f"--{key.replace('_', '-')}", type=float, default=default,
            help=f"{unit} (default: %(default)s)",
        )  # fmt: skip
    sh.add_argument("--json", action="store_true", help="print one JSON document")
    sh.set_defaults(func=run_shadowing)


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


def _payload_bytes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ScenarioError(f"--payload must be a whole number of bytes >= 1, got {text!r}")
    return value


def run_bianchi(args) -> int:
    """Evaluate the Bianchi model for each requested station count and print the result."""
    from wlansim import phy

    stations = parse_stations(args.stations)
    payload = _payload_bytes(args.payload)
    timing = phy.timing(args.phy, payload)
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
            "results": rows,
        }
        print(json.dumps(document, indent=2))
        return 0
    print(
        f"Bianchi saturation model: {args.phy}, {args.access} access, "
        f"{payload}-byte UDP payload, {args.collision} collision time"
    )
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
    params = {key: getattr(args, key) for key, _, _ in SHADOWING_KEYS}
    for key, value in params.items():
        low_ok = key in ("path_loss_exponent", "sigma_db")
        if not math.isfinite(value) or value < 0 or (value == 0 and not low_ok):
            raise ScenarioError(
                f"--{key.replace('_', '-')}: {value} must be {'≥' if low_ok else '>'} 0"
            )
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
        print(json.dumps({"model": "shadowing", **params, "results": rows}, indent=2))
        return 0
    print(
        f"Log-distance shadowing (ns-2's form): Pt {m.tx_power_w} W, {m.frequency_mhz} MHz, "
        f"d0 {m.reference_distance_m} m, beta {m.path_loss_exponent}, sigma {m.sigma_db} dB, "
        f"RXThresh {m.rx_threshold_w} W, CSThresh {m.cs_threshold_w} W"
    )
    print(f"{'d (m)':>8}  {'mean Pr (dBm)':>13}  {'P(received)':>11}  {'P(sensed)':>9}")
    for r in rows:
        print(
            f"{r['distance_m']:>8g}  {r['mean_power_dbm']:>13.2f}  "
            f"{r['reception_probability']:>11.4f}  {r['sensed_probability']:>9.4f}"
        )
    return 0
