"""`wlansim validate bianchi` (the simulator beside Bianchi's model), `capture` (SINR
reception beside Bianchi's model with capture), `tcp-drops` (Fall & Floyd's drop tests)
and `ns2` (wlansim's ns-2 profile beside ns-2.35 itself)."""

from __future__ import annotations

from pathlib import Path

from wlansim.cli.model_cmd import parse_stations
from wlansim.phy import UDP_PAYLOAD_BYTES

from .output import json_dumps

DEFAULT_STATIONS = "1,2,3,5,7,10,15,20,25,30,40,50"


def register(subparsers) -> None:
    parser = subparsers.add_parser("validate", help="compare the simulator with a model")
    which = parser.add_subparsers(dest="validation", required=True, metavar="MODEL")
    p = which.add_parser(
        "bianchi",
        help="saturated 802.11b cell vs Bianchi's model",
        description="Simulate saturated cells (unlimited retries, ideal channel) for each n "
        "and access mode, and compare throughput and collision probability with Bianchi.",
    )
    p.add_argument(
        "--stations",
        default=DEFAULT_STATIONS,
        metavar="N",
        help="N, a list or FIRST:LAST[:STEP] (default: %(default)s)",
    )
    p.add_argument("--access", default="basic,rts", help="basic, rts or both (default)")
    p.add_argument("--duration", default="100 s", help="simulated time per run (default 100 s)")
    p.add_argument(
        "--warmup", default="1 s", help="warm-up of each run, not measured (default 1 s)"
    )
    p.add_argument(
        "--payload",
        type=int,
        default=UDP_PAYLOAD_BYTES,
        help="UDP payload bytes (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    p.add_argument("--seeds", type=int, default=5, help="runs per point, seeds SEED.. (default 5)")
    p.add_argument("--out", default="out/validate-bianchi", help="directory for CSV and PNG")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(func=run_validate)
    c = which.add_parser(
        "capture",
        help="saturated 802.11b cells, reception none and sinr, vs Bianchi with capture",
        description="Simulate saturated 802.11b cells (basic access and RTS/CTS, control "
        "frames at 1 Mb/s) with reception none, sinr at equal powers and sinr with the "
        "stations at random distances, beside Bianchi's model and Bianchi's model with a "
        "capture probability (wlansim.models.capture) on the same powers.",
    )
    c.add_argument("--quick", action="store_true", help="n = 5 and 20, 20 s per run, 3 seeds")
    c.add_argument(
        "--stations", default=DEFAULT_STATIONS, metavar="N", help="N, a list or FIRST:LAST[:STEP]"
    )
    c.add_argument("--duration", default="100 s", help="simulated time per run (default 100 s)")
    c.add_argument(
        "--seed", type=int, default=1, help="the first seed of the runs and the placements"
    )
    c.add_argument("--seeds", type=int, default=5, help="runs per point (default 5)")
    c.add_argument("--out", default="out/validate-capture", help="directory for CSV and PNG")
    c.add_argument("--json", action="store_true", help="print the table as JSON")
    c.set_defaults(func=run_capture)
    t = which.add_parser(
        "tcp-drops",
        help="Fall & Floyd 1996: 1 to 4 drops from one window, per TCP variant",
        description="One TCP upload over a wired bottleneck (0.8 Mb/s, 100 ms, queue 8) "
        "with segments 14, 16, 18, 20 (the first 1 to 4 of them) dropped at the router, for "
        "Tahoe, Reno, NewReno, SACK, Vegas and CUBIC: a table (timeouts, retransmissions, "
        "recovery time) and the paper's time-sequence and cwnd plots.",
    )
    t.add_argument(
        "--variants",
        default="tahoe,reno,newreno,sack,vegas,cubic",
        help="TCP variants, comma-separated (default: %(default)s)",
    )
    t.add_argument("--quick", action="store_true", help="4 s per run instead of 6 s, no plots")
    t.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    t.add_argument("--seeds", type=int, default=3, help="runs per case (default 3)")
    t.add_argument("--out", default="out/validate-tcp-drops", help="directory for CSV and PNG")
    t.add_argument("--json", action="store_true", help="print the table as JSON")
    t.set_defaults(func=run_tcp_drops)
    n = which.add_parser(
        "ns2",
        help='profile = "ns2" beside ns-2.35 on matched saturated cells',
        description="Write an ns-2 Tcl script for each matched cell (saturated UDP uplink, n = "
        "1, 5, 10, 20; basic access and RTS/CTS; control rate 1 and 2 Mb/s), run ns-2 and "
        "wlansim (profile ns2) with several seeds and print packets per second side by side "
        "with 95 % intervals; then how many packets an interface queue of B holds; then TCP "
        "NewReno with k uploads and k downloads through the AP (k = 1: buffers 5, 20, 50, "
        "100; k = 2 and 4: the remaining gaps) with each direction's timeouts, fast "
        "retransmits and retransmitted segments, SRTT and flows active per second; then "
        "the wall-clock time of both on 20 stations for 100 s. "
        "Needs `ns` on the PATH (`make ns2`); without it, says how to install it and exits.",
    )
    n.add_argument("--quick", action="store_true", help="n = 1 and 10, basic, 1 Mb/s, 3 seeds")
    n.add_argument("--seeds", type=int, default=5, help="seeds per UDP cell (default 5)")
    n.add_argument(
        "--tcp-seeds",
        type=int,
        default=20,
        help="seeds per TCP case with k = 1 (default 20: with B = 5 a run's ratio varies by "
        "about 20 %%); half as many for k = 2 and 4",
    )
    n.add_argument(
        "--duration",
        type=float,
        default=40.0,
        help="seconds per run, the first 10 not measured (default 40)",
    )
    n.add_argument("--out", default="out/validate-ns2", help="directory for the CSV")
    n.add_argument("--json", action="store_true", help="print the table as JSON")
    n.set_defaults(func=run_ns2)


def run_validate(args) -> int:
    from wlansim.errors import ScenarioError
    from wlansim.validation import bianchi_claims, compare_bianchi, plot_bianchi

    accesses = [a.strip() for a in args.access.split(",") if a.strip()]
    for a in accesses:
        if a not in ("basic", "rts"):
            raise ScenarioError(f"--access {a!r}: allowed values are basic, rts")
    stations = parse_stations(args.stations)
    _check_times(args.duration, args.warmup)
    table = compare_bianchi(
        stations,
        accesses,
        duration=args.duration,
        payload_bytes=args.payload,
        seeds=_seeds(args.seed, args.seeds),
        warmup=args.warmup,
    )
    out, png = _save(table, args.out, "bianchi", plot_bianchi)
    verdicts = _decide(bianchi_claims(), table, out)
    if args.json:
        print(json_dumps(table.to_dict(orient="records")))
        return 0
    means = table.groupby(["access", "stations"], sort=False).mean(numeric_only=True)
    means = means.reset_index()
    shown = _in_mbps(means).assign(p_diff=means["sim_p"] - means["model_p"])[
        ["access", "stations", "sim_mbps", "model_mbps", "error_pct", "sim_p", "model_p", "p_diff"]
    ]
    print(
        f"Saturated 802.11b cell (11 Mb/s data, 1 Mb/s control, long preamble, "
        f"{args.payload}-byte UDP payload, unlimited retries), {args.duration} per run, "
        f"means of {args.seeds} runs per point:"
    )
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(f"\nsimulated {len(table)} runs in {table['wall_s'].sum():.2f} s of event loop")
    _print_claims(verdicts)
    print(f"wrote {out / 'bianchi.csv'}, {out / 'claims.csv'} and {png}")
    return 0


def run_capture(args) -> int:
    from wlansim.validation_capture import capture_claims, compare_capture, plot_capture

    stations = [5, 20] if args.quick else parse_stations(args.stations)
    duration = "20 s" if args.quick else args.duration
    _check_times(duration, "1 s")
    seeds = _seeds(args.seed, 3 if args.quick else args.seeds)
    table = compare_capture(stations, duration=duration, seeds=seeds)
    out, png = _save(table, args.out, "capture", plot_capture)
    verdicts = _decide(capture_claims(), table, out)
    if args.json:
        print(json_dumps(table.to_dict(orient="records")))
        return 0
    columns = ["access", "reception", "stations", "sim_mbps", "model_mbps", "error_pct",
               "sim_p", "model_p", "sim_capture_share", "model_q2"]  # fmt: skip
    means = table.groupby(["access", "reception", "stations"], sort=False)
    shown = _in_mbps(means.mean(numeric_only=True).reset_index())[columns]
    print(
        f"Saturated 802.11b cells (11 Mb/s data, 1 Mb/s control, 1500-byte IP packets, "
        f"unlimited retries), {duration} per run, means of {len(seeds)} runs. reception none: "
        "any overlap destroys every frame; sinr-equal: every link at -60 dBm, noise -94 dBm; "
        "sinr-distance: stations at random distances (exponent 3). sim_capture_share: "
        "attempts received out of those that overlapped another; model_q2: probability "
        "that one of two colliding first frames gets through."
    )
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    _print_claims(verdicts)
    print(f"wrote {out / 'capture.csv'}, {out / 'claims.csv'} and {png}")
    return 0


def run_tcp_drops(args) -> int:
    from wlansim.errors import ScenarioError
    from wlansim.scenario import resolve
    from wlansim.validation_tcp_drops import compare, plot, scenario, tcp_drops_claims

    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        try:
            resolve(scenario(v, 1))
        except ScenarioError as exc:
            raise ScenarioError(f"--variants {v!r}: {exc}") from None
    duration = "4 s" if args.quick else "6 s"
    table, runs = compare(variants, duration=duration, seeds=_seeds(args.seed, args.seeds))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "tcp-drops.csv", index=False)
    verdicts = _decide(tcp_drops_claims(), table, out)
    if args.json:
        print(json_dumps(table.to_dict(orient="records")))
        return 0
    written = [out / "tcp-drops.csv"]
    if not args.quick:
        written.append(plot(runs, out / "tcp-drops-sequence.png"))
        written.append(plot(runs, out / "tcp-drops-cwnd.png", kind="cwnd"))
    shown = table[table["seed"] == args.seed][
        [
            "variant",
            "drops",
            "timeouts",
            "retransmissions",
            "fast_retransmits",
            "queue_drops",
            "recovery_s",
            "recovery_rtts",
            "in_recovery_rtts",
            "cwnd_to_one",
        ]
    ]
    rtt = table["rtt_s"].min()
    print(
        "Fall & Floyd 1996: one TCP upload, bottleneck 0.8 Mb/s 100 ms, router queue 8, "
        f"MSS 1000 B, segments 14, 16, 18, 20 dropped at the router; {duration} per run, "
        f"smallest RTT {rtt * 1e3:.0f} ms. recovery = first drop (in_recovery: first "
        "retransmission) until the recovery point is acknowledged:"
    )
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    _print_claims(verdicts)
    print("wrote " + ", ".join(str(w) for w in [*written, out / "claims.csv"]))
    return 0


def run_ns2(args) -> int:
    import pandas as pd

    from wlansim.errors import ScenarioError
    from wlansim.validation_ns2 import (
        INSTALL_HINT,
        TCP_COUNTERS,
        WARMUP_S,
        cells,
        compare_buffer,
        compare_tcp_updown,
        compare_udp_uplink,
        ns_binary,
        wall_clock,
    )

    if ns_binary() is None:
        print(INSTALL_HINT)
        return 0
    for flag, value in (("--seeds", args.seeds), ("--tcp-seeds", args.tcp_seeds)):
        if value < 1:
            raise ScenarioError(f"{flag} {value}: at least 1")
    if args.duration <= WARMUP_S:
        raise ScenarioError(f"--duration {args.duration}: longer than the {WARMUP_S:g} s warm-up")
    seeds = list(range(1, (3 if args.quick else args.seeds) + 1))
    tcp_seeds = list(range(1, (3 if args.quick else args.tcp_seeds) + 1))
    few_seeds = tcp_seeds[: max(1, len(tcp_seeds) // 2)]
    udp = pd.DataFrame(compare_udp_uplink(cells(args.quick), seeds, args.duration, WARMUP_S))
    buffers = pd.DataFrame(compare_buffer([2, 5] if args.quick else [1, 2, 5, 10, 50]))
    per_second: list[dict] = []
    tcp = pd.DataFrame(
        compare_tcp_updown(
            [20, 50] if args.quick else [5, 20, 50, 100], tcp_seeds, series=per_second
        )
    )
    cases = [(2, [50])] if args.quick else [(2, [20, 50, 100]), (4, [50, 100])]
    tcp_k = pd.DataFrame(
        [
            row
            for k, bs in cases
            for row in compare_tcp_updown(bs, few_seeds, k=k, series=per_second)
        ]
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tables = {
        "udp": udp,
        "buffer": buffers,
        "tcp": tcp,
        "tcp-k": tcp_k,
        "tcp-series": pd.DataFrame(per_second),
    }
    for name, table in tables.items():
        table.to_csv(out / f"ns2-{name}.csv", index=False)
    if args.json:
        print(json_dumps({n: t.to_dict(orient="records") for n, t in tables.items()}))
        return 0
    fmt2 = {"float_format": lambda v: f"{v:.2f}", "index": False}
    print(
        f"Saturated UDP uplink, 1000-byte IP packets, queue 50, 802.11b 11 Mb/s, {args.duration:g} "
        f"s per run ({WARMUP_S:g} s warm-up), {len(seeds)} seeds: packets/s received by the AP"
    )
    print(udp.to_string(**fmt2))
    print(f"largest difference {udp['diff_pct'].abs().max():.2f} % (target: within 1 %)")
    print("\nA burst of 20 packets into an idle station's interface queue of B: packets delivered")
    print(buffers.to_string(index=False))
    print(
        "\nTCP NewReno, k uploads + k downloads through the AP (buffer B), 60 s measured: "
        "packets/s per direction"
    )
    rates = ["k", "buffer", "ns2_up", "ns2_down", "wlansim_up", "wlansim_down",
             "ratio_diff_pct", "total_diff_pct"]  # fmt: skip
    print(f"k = 1, {len(tcp_seeds)} seeds (95 % intervals in {out / 'ns2-tcp.csv'}):")
    print(tcp[rates].to_string(**fmt2))
    print("targets for k = 1: up/down ratio within 10 %, total within 2 %")
    print(f"k = {', '.join(str(k) for k, _ in cases)}, {len(few_seeds)} seeds:")
    print(tcp_k[rates].to_string(**fmt2))
    print(
        "\nLoss recovery per run (means over seeds): timeouts, fast retransmits (ns-2: window "
        "cuts that were not timeouts), retransmitted segments"
    )
    for direction in ("down", "up"):
        counters = [
            f"{sim}_{direction}_{key}" for key, _ in TCP_COUNTERS for sim in ("ns2", "wlansim")
        ]
        both = pd.concat([tcp, tcp_k])[["k", "buffer", *counters]]
        print(f"{direction}loads:")
        print(both.to_string(index=False, float_format=lambda v: f"{v:.1f}"))
    print(
        "\nSmoothed RTT and RTO (ms, means over each direction's flows and seconds) and "
        "flows active per second (mean count of the direction's k flows that moved data "
        f"in a second; per flow and second in {out / 'ns2-tcp-series.csv'})"
    )
    columns = [
        f"{sim}_{direction}_{key}"
        for key in ("srtt_ms", "rto_ms", "active")
        for direction in ("up", "down")
        for sim in ("ns2", "wlansim")
    ]
    both = pd.concat([tcp, tcp_k])[["k", "buffer", *columns]]
    print(both.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    if not args.quick:
        w = wall_clock()
        print(
            f"\nwall clock, 20 stations, 100 s: ns-2 {w['ns2_s']:.2f} s (whole process); "
            f"wlansim {w['wlansim_loop_s'] * 1e3:.1f} ms event loop, "
            f"{w['wlansim_run_s'] * 1e3:.1f} ms whole run in-process "
            f"({w['ns2_s'] / w['wlansim_run_s']:.0f}x), {w['wlansim_process_s']:.2f} s whole "
            f"process ({w['ns2_s'] / w['wlansim_process_s']:.0f}x)"
        )
    print("wrote " + ", ".join(str(out / f"ns2-{name}.csv") for name in tables))
    return 0


def _seeds(first: int, count: int) -> list[int]:
    from wlansim.errors import ScenarioError

    if count < 1:
        raise ScenarioError(f"--seeds {count}: at least 1")
    return list(range(first, first + count))


def _decide(claims, runs, out: Path) -> list:
    """Decide a validation's claims on its runs (the verdict engine of the studies) and
    write OUT/claims.csv."""
    from wlansim import claims as cl

    verdicts = cl.decide_all(claims, {"runs": runs})
    cl.write_csv(out / "claims.csv", verdicts, "standard")
    return verdicts


def _print_claims(verdicts) -> None:
    from wlansim import claims as cl

    print("\nChecks (95 % confidence intervals over the runs):")
    for v in verdicts:
        print(f"- {v.claim.id}: {v.sentence}")
    c = cl.counts(verdicts)
    print(", ".join(f"{c[k]} {k}" for k in cl.VERDICTS if c[k]))


def _save(table, out_dir: str, name: str, plot) -> tuple[Path, Path]:
    """Write `table` as NAME.csv and its figure as NAME.png under `out_dir`."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / f"{name}.csv", index=False)
    return out, plot(table, out / f"{name}.png")


def _in_mbps(table):
    """A simulator-vs-model table with its throughputs in Mb/s and the error in %."""
    return table.assign(
        sim_mbps=table["sim_bps"] / 1e6,
        model_mbps=table["model_bps"] / 1e6,
        error_pct=table["error"] * 100,
    )


def _check_times(duration: str, warmup: str) -> None:
    """Check --duration and --warmup before running, in the words of the command line
    (the scenario keys behind them are not the user's)."""
    from wlansim.errors import ScenarioError
    from wlansim.scenario import resolve
    from wlansim.validation import saturated_cell

    try:
        resolve(saturated_cell(1, "basic", duration=duration, warmup=warmup))
    except ScenarioError as exc:
        text = str(exc)
        if "`warmup`" in text and "duration" in text:
            raise ScenarioError(
                f"--duration {duration!r} must be longer than the warm-up (--warmup "
                f"{warmup!r}; default 1 s)"
            ) from None
        text = text.replace("scenario key `duration`", "--duration")
        raise ScenarioError(text.replace("scenario key `warmup`", "--warmup")) from None
