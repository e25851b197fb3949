"""`wlansim bench [--json]`: the benchmark suite (see wlansim.bench), with the peak memory
of its memory cases; `wlansim bench --startup`: whole-process start-up times of the command
line; `wlansim bench --grid`: the spatial medium's cost against the number of BSSs;
`wlansim bench --scale`: the shared medium's cost against the number of stations."""

from __future__ import annotations

from .output import json_dumps


def register(subparsers) -> None:
    p = subparsers.add_parser("bench", help="run the benchmark suite")
    p.add_argument(
        "--reps",
        type=int,
        default=None,
        metavar="N",
        help="runs per case; best is kept (default 3)",
    )
    p.add_argument("--only", default=None, help="run the cases whose name contains this")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.add_argument(
        "--startup",
        action="store_true",
        help="time whole processes of the quick commands instead: --help, --version, "
        "model bianchi, results, and run of every example scenario (wall median, min, max "
        "and CPU median of --reps runs, default 10, after an untimed run that byte-compiles "
        "their modules, and the load average; run it from the repository root)",
    )
    p.add_argument(
        "--grid",
        action="store_true",
        help="the cost of the spatial medium per event and per frame for grids of 1, 3, 10, "
        "30 and 100 BSSs of 10 saturated stations (20 s each, best of --reps, default 3), "
        "beside the 20-station cell; prints the load average",
    )
    p.add_argument(
        "--scale",
        action="store_true",
        help="the cost per event and per channel access of one collision domain of 20, 100, "
        "1000, 2000, 5000 and 10000 saturated stations (20 s each, best of --reps, "
        "default 3); prints the load average",
    )
    p.set_defaults(func=run_bench)


def run_bench(args) -> int:
    if args.startup:
        return run_startup(args)
    if args.grid:
        return run_grid(args)
    if args.scale:
        return run_scale(args)
    import platform

    from wlansim.bench import run_benchmarks
    from wlansim.machine import load_average

    args.reps = max(1, args.reps or 3)
    results = run_benchmarks(repeat=args.reps, only=args.only)
    if args.json:
        print(json_dumps(results))
        return 0
    print(
        f"wlansim bench on {platform.processor() or platform.machine()}, one core, "
        f"best of {args.reps}; load average {load_average()}"
    )
    print(
        f"{'case':35} {'wall s':>9} {'events':>10} {'events/s':>12} {'sim s/wall s':>13} "
        f"{'sessions/wall s':>16} {'peak RSS MB':>12}"
    )
    for r in results:
        sessions, rss = r.get("sessions_per_wall_s"), r.get("peak_rss_mb")
        print(
            f"{r['name']:35} {r['wall_s']:9.4f} {r['events']:10d} {r['events_per_s']:12.3g} "
            f"{r['sim_s_per_wall_s']:13.0f} {'' if sessions is None else f'{sessions:16.0f}':16} "
            f"{'' if rss is None else f'{rss:12.1f}':12}"
        )
    by_name = {r["name"]: r.get("peak_rss_mb") for r in results}
    small, large = (by_name.get(n) for n in ("cbr-1000sta-1s", "cbr-10000sta-1s"))
    if small is not None and large is not None:
        print(
            "peak RSS: a process that imports the core and runs the case alone; "
            f"{(large - small) / 9:.1f} MB per 1,000 stations between the two CBR cells"
        )
    return 0


def run_startup(args) -> int:
    from wlansim.bench import startup_times

    results = startup_times(repeat=max(1, args.reps or 10))
    if args.json:
        print(json_dumps(results))
        return 0
    print(
        f"whole-process start-up, {results[0]['runs']} runs each (seconds); load average "
        f"(1, 5, 15 min) {results[0]['load_before']} at the start, "
        f"{results[-1]['load_after']} at the end"
    )
    print(f"{'command':56} {'median':>7} {'min':>7} {'max':>7} {'cpu':>7} {'target':>7}")
    for r in results:
        print(
            f"{r['name']:56} {r['median_s']:7.3f} {r['min_s']:7.3f} {r['max_s']:7.3f} "
            f"{r['cpu_median_s']:7.3f} {r['target_s']:7.1f}"
        )
    return 0


def run_grid(args) -> int:
    import os

    from wlansim.bench import grid_costs

    repeat = max(1, args.reps or 3)
    rows = grid_costs(repeat=repeat)
    if args.json:
        print(json_dumps(rows))
        return 0
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        "BSS grids of 10 saturated stations each (spatial medium), 20 s, seed 1, best of "
        f"{repeat}; load average {load}"
    )
    print(
        f"{'case':26} {'medium':>8} {'nodes':>6} {'events':>10} {'wall s':>8} "
        f"{'events/s':>10} {'ns/event':>9} {'ns/frame':>9}"
    )
    for r in rows:
        print(
            f"{r['case']:26} {r['medium']:>8} {r['nodes']:6d} {r['events']:10d} "
            f"{r['wall_s']:8.3f} {r['events_per_s']:10.3g} {r['ns_per_event']:9.0f} "
            f"{r['ns_per_frame']:9.0f}"
        )
    return 0


def run_scale(args) -> int:
    from wlansim.bench import scale_costs
    from wlansim.machine import load_average

    repeat = max(1, args.reps or 3)
    rows = scale_costs(repeat=repeat)
    if args.json:
        print(json_dumps(rows))
        return 0
    print(
        "One collision domain of saturated stations (shared medium, 802.11b, unlimited "
        f"retries), 20 s, seed 1, best of {repeat}; load average {load_average()}"
    )
    print(
        f"{'stations':>8} {'events':>10} {'attempts':>10} {'wall s':>8} {'ns/event':>9} "
        f"{'ns/attempt':>10} {'vs first':>8}"
    )
    for r in rows:
        print(
            f"{r['stations']:8d} {r['events']:10d} {r['attempts']:10d} {r['wall_s']:8.3f} "
            f"{r['ns_per_event']:9.0f} {r['ns_per_attempt']:10.0f} "
            f"{r['per_event_vs_first']:8.2f}"
        )
    return 0
