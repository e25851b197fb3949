"""`wlansim validate bianchi` (the simulator beside Bianchi's model), `capture` (SINR
reception beside Bianchi's model with capture), `tcp-drops` (Fall & Floyd's drop tests),
`ns2` (wlansim's ns-2 profile beside ns-2.35 itself), `hidden` (the spatial medium:
hidden and exposed terminals, channels) and `ns3` (beside ns-3.37:
`wlansim.evidence.validations.ns3`)."""

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
        help='profile = "ns2" beside ns-2.35 on matched cells',
        description="Write an ns-2 Tcl script for each matched cell, run ns-2 and wlansim "
        "(profile ns2) with several seeds and print them side by side: saturated UDP uplink "
        "(n = 1, 5, 10, 20; basic access and RTS/CTS; control rate 1 and 2 Mb/s; packets "
        "per second with 95 %% intervals); ns-2's capture rule on both sides (20 stations "
        "on the circle and spread 5-45 m from the AP, capture on and off); how many "
        "packets an interface queue of B holds; "
        "a NewReno download whose window (128, 390) the path and an IFQ of 25 cannot hold, "
        "beside CBR through the same queue (goodput, timeouts, retransmissions, drops at "
        "the AP); TCP NewReno with k uploads and k downloads through the AP, k = 1-4 and "
        "B = 5, 20, 50, 100 (up/down ratio of means with a bootstrap interval and a "
        "permutation test per point, timeouts, retransmissions and drops at the AP per "
        "direction, SRTT, RTO and flows active per second); the totals of that grid with "
        "ns-2's DSDV and wlansim's routing_agent = dsdv (the profile's frame sizes). "
        "--speed instead times both simulators (ns-2 at its cheapest saturating load). "
        "Needs `ns` on the PATH (`make ns2`); without it, says how to install it and exits.",
    )
    n.add_argument(
        "--quick",
        action="store_true",
        help="n = 1 and 10, basic, 1 Mb/s, 3 seeds; the capture case spread only; window "
        "128, 2 seeds; k = 1, 2 at B = 20, 50 with 3 seeds and no --tcp-seeds-wide; one "
        "point of the frame-size check",
    )
    n.add_argument("--seeds", type=int, default=5, help="seeds per UDP cell (default 5)")
    n.add_argument(
        "--tcp-seeds",
        type=int,
        default=10,
        help="seeds per point of the TCP grid and of the window case (default 10)",
    )
    n.add_argument(
        "--tcp-seeds-wide",
        type=int,
        default=240,
        help="seeds for a TCP grid point where neither simulator starves and whose 95 %% "
        "interval of the ratio difference is wider than ±10 %% with --tcp-seeds (decided on "
        "the width only; 0: never; default 240; not in --quick)",
    )
    n.add_argument(
        "--duration",
        type=float,
        default=40.0,
        help="seconds per UDP run, the first 10 not measured (default 40)",
    )
    n.add_argument(
        "--speed",
        action="store_true",
        help="only time ns-2 and wlansim on 20 saturated stations for 100 s (alternating "
        "runs, with the machine's load)",
    )
    n.add_argument("--speed-runs", type=int, default=5, help="rounds of --speed (default 5)")
    n.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="seeds run at a time, each an ns-2 process and a wlansim run (default 1)",
    )
    n.add_argument("--out", default="out/validate-ns2", help="directory for the CSV")
    n.add_argument("--json", action="store_true", help="print the tables as JSON")
    n.set_defaults(func=run_ns2)
    h = which.add_parser(
        "hidden",
        help="the spatial medium: hidden stations (beside ns-2.35 and a model), exposed "
        "senders, BSSs on channels 1, 6, 11",
        description="(a) Two saturated stations hidden from each other, the AP between "
        "them, basic access and RTS/CTS: wlansim (ns2 profile) beside ns-2.35 with the same "
        "geometry and thresholds, wlansim (standard) beside the vulnerable-period model; "
        "(b) two exposed senders; (c) three BSSs on channels 1, 6, 11 and on channel 1. "
        "Without `ns` on the PATH the ns-2 column is left out, with a note.",
    )
    h.add_argument("--quick", action="store_true", help="3 seeds, 20 s per run")
    h.add_argument("--seeds", type=int, default=10, help="seeds per case (default 10)")
    h.add_argument(
        "--duration", type=float, default=40.0, help="seconds per run (default 40, 10 not measured)"
    )
    h.add_argument("--out", default="out/validate-hidden", help="directory for CSV and PNG")
    h.add_argument("--json", action="store_true", help="print the tables as JSON")
    h.set_defaults(func=run_hidden)
    from wlansim.evidence.validations import ns3

    ns3.register(which)


def run_validate(args) -> int:
    from wlansim.errors import ScenarioError
    from wlansim.evidence.validations.bianchi import bianchi_claims, compare_bianchi, plot_bianchi

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
    from wlansim.evidence.validations.capture import capture_claims, compare_capture, plot_capture

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
    from wlansim.evidence.validations.tcp_drops import compare, plot, scenario, tcp_drops_claims
    from wlansim.scenario import resolve

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
    from wlansim.evidence.ns2.run import INSTALL_HINT, ns_binary
    from wlansim.evidence.validations.ns2 import (
        CAPTURE_CELL,
        LAYOUTS,
        RATIO_TARGET_PCT,
        STARVATION_RATIO,
        TCP_COUNTERS,
        WARMUP_S,
        cells,
        compare_buffer,
        compare_capture,
        compare_sizes,
        compare_udp_uplink,
        compare_window_case,
        ns2_claims,
        ratio_too_wide,
        summarize_tcp_point,
        tcp_updown_runs,
    )

    if ns_binary() is None:
        print(INSTALL_HINT)
        return 0
    for flag, value in (("--seeds", args.seeds), ("--tcp-seeds", args.tcp_seeds),
                        ("--speed-runs", args.speed_runs), ("--jobs", args.jobs)):  # fmt: skip
        if value < 1:
            raise ScenarioError(f"{flag} {value}: at least 1")
    if args.tcp_seeds_wide < 0:
        raise ScenarioError(f"--tcp-seeds-wide {args.tcp_seeds_wide}: 0 (never) or more")
    if args.duration <= WARMUP_S:
        raise ScenarioError(f"--duration {args.duration}: longer than the {WARMUP_S:g} s warm-up")
    if args.speed:
        return _ns2_speed(args)
    seeds = list(range(1, (3 if args.quick else args.seeds) + 1))
    tcp_seeds = list(range(1, (3 if args.quick else args.tcp_seeds) + 1))
    jobs = args.jobs
    udp_runs: list[dict] = []
    udp = pd.DataFrame(
        compare_udp_uplink(
            cells(args.quick), seeds, args.duration, WARMUP_S, runs=udp_runs, jobs=jobs
        )
    )
    capture_runs: list[dict] = []
    capture = pd.DataFrame(
        compare_capture(
            ["spread"] if args.quick else list(LAYOUTS),
            seeds,
            args.duration,
            WARMUP_S,
            runs=capture_runs,
            jobs=jobs,
        )
    )
    buffers = pd.DataFrame(compare_buffer([2, 5] if args.quick else [1, 2, 5, 10, 50]))
    window_runs: list[dict] = []
    window = pd.DataFrame(
        compare_window_case(
            [128] if args.quick else [128, 390],
            tcp_seeds[:2] if args.quick else tcp_seeds,
            duration_s=30.1 if args.quick else 60.1,
            warmup_s=0.1,
            runs=window_runs,
            jobs=jobs,
        )
    )
    per_second: list[dict] = []
    runs: list[dict] = []
    grid = [(k, b) for k in (1, 2) for b in (20, 50)] if args.quick else [
        (k, b) for k in (1, 2, 3, 4) for b in (5, 20, 50, 100)
    ]  # fmt: skip
    duration = 40.0 if args.quick else 70.0
    wide = 0 if args.quick else args.tcp_seeds_wide

    def tcp_point(k: int, b: int) -> dict:
        """A point of the grid with `tcp_seeds`, and with `wide` seeds (the same first
        ones and more) when those cannot judge its ratio (:func:`ratio_too_wide`)."""
        point = tcp_updown_runs(b, tcp_seeds, duration, k=k, series=per_second, jobs=jobs)
        row = summarize_tcp_point(point)
        if ratio_too_wide(row) and wide > len(tcp_seeds):
            more = list(range(len(tcp_seeds) + 1, wide + 1))
            point += tcp_updown_runs(b, more, duration, k=k, series=per_second, jobs=jobs)
            row = summarize_tcp_point(point)
        runs.extend(point)
        return {**row, "seeds": len(point) // 2}

    tcp = pd.DataFrame([tcp_point(k, b) for k, b in grid])
    size_points = [(2, 50)] if args.quick else grid
    sizes = pd.DataFrame(compare_sizes(size_points, seeds, duration, jobs=jobs))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tables = {
        "udp": udp,
        "capture": capture,
        "capture-runs": pd.DataFrame(capture_runs),
        "buffer": buffers,
        "window": window,
        "window-runs": pd.DataFrame(window_runs),
        "tcp": tcp,
        "tcp-runs": pd.DataFrame(runs),
        "tcp-series": pd.DataFrame(per_second),
        "sizes": sizes,
    }
    for name, table in tables.items():
        table.to_csv(out / f"ns2-{name}.csv", index=False)
    starving = dict(zip(zip(tcp["k"], tcp["buffer"]), tcp["starving"]))
    tcp_runs = tables["tcp-runs"]
    tcp_runs["starving"] = [starving[kb] for kb in zip(tcp_runs["k"], tcp_runs["buffer"])]
    verdicts = _decide(
        ns2_claims(),
        {
            "udp": pd.DataFrame(udp_runs),
            "capture": tables["capture-runs"],
            "window": tables["window-runs"],
            "tcp": tcp_runs,
        },  # fmt: skip
        out,
    )
    if args.json:
        print(json_dumps({n: t.to_dict(orient="records") for n, t in tables.items()}))
        return 0
    fmt2 = {"float_format": lambda v: f"{v:.2f}", "index": False}
    print(
        f"Saturated UDP uplink, 1000-byte IP packets, queue 50, 802.11b 11 Mb/s, {args.duration:g} "
        f"s per run ({WARMUP_S:g} s warm-up), {len(seeds)} seeds: packets/s received by the AP "
        "(capture on in both, CPThresh_ 10 dB: ns-2's stations on a circle of 10 m around "
        "the AP, wlansim's without positions, so every frame reaches the AP with one power)"
    )
    print(udp.to_string(**fmt2))
    print(f"largest difference {udp['diff_pct'].abs().max():.2f} % (target: within 0.5 %)")
    print(
        f"\nCapture: {CAPTURE_CELL.n} saturated stations, basic access, placed alike in both "
        "(circle: 10 m from the AP; spread: 5-45 m), powers from ns-2's two-ray ground "
        "model; capture on (ns-2's defaults, the ns2 profile's) and off (ns-2: CPThresh_ "
        f"1e9; wlansim: reception none), {len(seeds)} seeds: packets/s received by the AP"
    )
    print(capture.to_string(**fmt2))
    print("\nA burst of 20 packets into an idle station's interface queue of B: packets delivered")
    print(buffers.to_string(index=False))
    print(
        "\nNewReno download, window W (initial ssthresh W in both), IFQ 25, beside "
        "3 Mb/s of CBR through the AP's queue, measured from 0.1 s (the initial slow start "
        f"included), {len(window_runs) // (2 * len(window))} seeds: goodput (Mb/s) and per run "
        "timeouts, fast retransmits, retransmitted segments, TCP drops at the AP"
    )
    cols = ["window", "ns2_mbps", "wlansim_mbps", "goodput_diff_pct"] + [
        f"{sim}_{key}"
        for key in ("timeouts", "fast_retransmits", "rexmits", "ap_drops")
        for sim in ("ns2", "wlansim")
    ] + ["timeouts_diff_pct"]  # fmt: skip
    print(window[cols].to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print("targets: goodput within 5 %, timeouts within 30 %")
    print(
        f"\nTCP NewReno, k uploads + k downloads through the AP (buffer B), "
        f"{duration - WARMUP_S:g} s measured, {len(tcp_seeds)} seeds"
        + (
            f" ({wide} where neither starves and the ratio's interval is wider than "
            f"±{RATIO_TARGET_PCT:g} % with "
            f"{len(tcp_seeds)})"
            if wide > len(tcp_seeds)
            else ""
        )
        + ": packets/s per direction, up/down ratio of means (95 % bootstrap interval of the "
        "difference), permutation p-value; * starvation regime (a ratio above "
        f"{STARVATION_RATIO:g})"
    )
    shown = tcp.assign(
        ratio_ci=[f"[{lo:+.0f}, {hi:+.0f}]" for lo, hi in zip(tcp["ratio_diff_lo"],
                                                              tcp["ratio_diff_hi"])],
        regime=["*" if s else "" for s in tcp["starving"]],
    )  # fmt: skip
    rates = ["k", "buffer", "seeds", "ns2_up", "ns2_down", "wlansim_up", "wlansim_down",
             "ns2_ratio", "wlansim_ratio", "ratio_diff_pct", "ratio_ci", "p_value",
             "total_diff_pct", "regime"]  # fmt: skip
    print(shown[rates].to_string(**fmt2))
    sharing = tcp[~tcp["starving"]]
    starving = tcp[tcp["starving"]]
    largest = sharing["ratio_diff_pct"].abs().max()
    print(
        f"where neither starves: largest ratio difference {largest:.1f} "
        f"% (target {RATIO_TARGET_PCT:g} %); starvation points with p <= 0.05: "
        f"{int((starving['p_value'] <= 0.05).sum())} of {len(starving)} (target: at most 2)"
    )
    print(
        "\nPer run (means over seeds): timeouts, fast retransmits (ns-2: window cuts that "
        "were not timeouts), retransmitted segments, drops at the AP (downloads: their data; "
        "uploads: their ACKs)"
    )
    for direction in ("down", "up"):
        counters = [
            f"{sim}_{direction}_{key}"
            for key in [k for k, _ in TCP_COUNTERS] + ["ap_drops"]
            for sim in ("ns2", "wlansim")
        ]
        print(f"{direction}loads:")
        fmt1 = {"float_format": lambda v: f"{v:.1f}", "index": False}
        print(tcp[["k", "buffer", *counters]].to_string(**fmt1))
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
    print(tcp[["k", "buffer", *columns]].to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(
        "\nFrame sizes: the same grid, ns-2 with DSDV and the endpoints on a wired host "
        "behind the AP (wired-cum-wireless), wlansim with routing_agent = dsdv (the "
        "profile's default) and none (DSDV's 20 bytes left out): total packets/s, "
        f"{len(seeds)} seeds"
    )
    print(sizes.to_string(**fmt2))
    print(
        f"largest total difference: {sizes['dsdv_diff_pct'].abs().max():.2f} % with dsdv, "
        f"{sizes['none_diff_pct'].abs().max():.2f} % with none"
    )
    _print_claims(verdicts)
    written = [out / f"ns2-{name}.csv" for name in tables] + [out / "claims.csv"]
    print("wrote " + ", ".join(str(w) for w in written))
    return 0


def _ns2_speed(args) -> int:
    from wlansim.evidence.validations.ns2 import SPEED_LOAD_FACTOR, speed

    s = speed(runs=args.speed_runs)
    if args.json:
        print(json_dumps(s))
        return 0
    print(
        f"{s['n']} saturated stations (802.11b 11 Mb/s, basic access, 1000-byte IP packets), "
        f"{s['duration_s']:g} s simulated, median of {s['runs']} alternating runs; ns-2.35 "
        f"offers {SPEED_LOAD_FACTOR:g}x a station's share (a packet every "
        f"{s['ns2_interval_s'] * 1e3:.2f} ms per station), traces off"
    )
    print(
        f"delivered after the warm-up: ns-2 {s['ns2_pkts']:.1f}, wlansim {s['wlansim_pkts']:.1f} "
        "packets/s"
    )
    print(f"{'':26}{'wall s':>10}{'CPU s':>10}{'wall ratio':>12}{'CPU ratio':>11}")
    print(f"{'ns-2 (whole process)':26}{s['ns2_wall_s']:10.3f}{s['ns2_cpu_s']:10.3f}")
    for side, label in (("run", "wlansim in-process"), ("process", "wlansim whole process")):
        print(
            f"{label:26}{s[f'{side}_wall_s']:10.3f}{s[f'{side}_cpu_s']:10.3f}"
            f"{s[f'{side}_wall_ratio']:11.0f}x{s[f'{side}_cpu_ratio']:10.0f}x"
        )
    print(f"load average (1, 5, 15 min): {s['load_before']} before, {s['load_after']} after")
    return 0


def _seeds(first: int, count: int) -> list[int]:
    from wlansim.errors import ScenarioError

    if count < 1:
        raise ScenarioError(f"--seeds {count}: at least 1")
    return list(range(first, first + count))


def _decide(claims, runs, out: Path) -> list:
    """Decide a validation's claims on its runs (the verdict engine of the studies) and
    write OUT/claims.csv."""
    from wlansim.evidence import claims as cl
    from wlansim.evidence.conclusion import Evidence
    from wlansim.evidence.report import write_claims_csv

    verdicts = cl.decide_all(claims, {"runs": runs})
    write_claims_csv(out / "claims.csv", Evidence(verdicts, "standard"))
    return verdicts


def _print_claims(verdicts) -> None:
    from wlansim.evidence import claims as cl
    from wlansim.evidence.report import counts

    print("\nChecks (95 % confidence intervals over the runs):")
    for v in verdicts:
        print(f"- {v.claim.id}: {v.sentence}")
    c = counts(verdicts)
    print(", ".join(f"{c[k]} {k}" for k in cl.VERDICTS if c[k]))


def run_hidden(args) -> int:
    from wlansim.errors import ScenarioError
    from wlansim.evidence.ns2.run import INSTALL_HINT, ns_binary
    from wlansim.evidence.validations.hidden import (
        WARMUP_S,
        channels_runs,
        channels_summary,
        exposed_runs,
        exposed_summary,
        hidden_claims,
        hidden_model_table,
        hidden_runs,
        hidden_summary,
        plot,
    )

    if args.seeds < 2:
        raise ScenarioError(f"--seeds {args.seeds}: at least 2 (the checks need an interval)")
    duration = 20.0 if args.quick else args.duration
    if duration <= WARMUP_S:
        raise ScenarioError(f"--duration {duration}: longer than the {WARMUP_S:g} s warm-up")
    seeds = list(range(1, (3 if args.quick else args.seeds) + 1))
    ns2 = ns_binary() is not None
    runs = {
        "hidden": hidden_runs(seeds, duration, WARMUP_S, ns2=ns2),
        "model": hidden_model_table(),
        "exposed": exposed_runs(seeds, duration),
        "channels": channels_runs(seeds, duration),
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("hidden", "exposed", "channels"):
        runs[name].to_csv(out / f"{name}.csv", index=False)
    verdicts = _decide(hidden_claims(), runs, out)
    tables = {
        "hidden": hidden_summary(runs["hidden"], runs["model"]),
        "exposed": exposed_summary(runs["exposed"]),
        "channels": channels_summary(runs["channels"]),
    }
    figures = plot(tables["hidden"], tables["exposed"], tables["channels"], out)
    if args.json:
        print(json_dumps({n: t.to_dict(orient="records") for n, t in runs.items()}))
        return 0
    fmt = {"float_format": lambda v: f"{v:.3f}", "index": False}
    print(
        f"(a) Two saturated stations hidden from each other, the AP 100 m from each (2 Mb/s, "
        f"1000-byte packets), {duration:g} s per run ({WARMUP_S:g} s warm-up), {len(seeds)} "
        "seeds: packets/s received by the AP; p = collisions / attempts; hidden_share = "
        "collisions with a frame of another slot; one-cell: the stations 10 m "
        "from the AP"
    )
    if not ns2:
        print(f"(ns-2 column left out: {INSTALL_HINT})")
    print(tables["hidden"].T.to_string(float_format=lambda v: f"{v:.3f}", header=False))
    print(
        "\n(b) Exposed senders 100 m apart, each sending to its AP 100 m beyond it: packets/s "
        "per flow (apart: the same links 1 km apart; one cell: two stations of one AP)"
    )
    print(tables["exposed"].to_string(**fmt))
    print("\n(c) Three BSSs of 5 saturated stations in one room: each BSS beside its reference")
    print(tables["channels"].to_string(**fmt))
    _print_claims(verdicts)
    written = [out / f"{name}.csv" for name in ("hidden", "exposed", "channels", "claims")]
    print("wrote " + ", ".join(str(w) for w in written + figures))
    return 0


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
    from wlansim.evidence.validations.bianchi import saturated_cell
    from wlansim.scenario import resolve

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
