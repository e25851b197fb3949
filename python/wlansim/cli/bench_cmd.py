"""`wlansim bench [--json]`: the benchmark suite (see wlansim.bench);
`wlansim bench --startup`: whole-process start-up times of the command line."""

from __future__ import annotations

import platform

from .output import json_dumps


def register(subparsers) -> None:
    p = subparsers.add_parser("bench", help="run the benchmark suite")
    p.add_argument(
        "--repeat", type=int, default=None, help="runs per case; best is kept (default 3)"
    )
    p.add_argument("--only", default=None, help="run the cases whose name contains this")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.add_argument(
        "--startup",
        action="store_true",
        help="time whole processes of the quick commands instead: --help, --version, "
        "model bianchi, results, and run of every example scenario (wall median, min, max "
        "and CPU median of --repeat runs, default 10; run it from the repository root)",
    )
    p.set_defaults(func=run_bench)


def run_bench(args) -> int:
    if args.startup:
        return run_startup(args)
    from wlansim.bench import run_benchmarks

    args.repeat = max(1, args.repeat or 3)
    results = run_benchmarks(repeat=args.repeat, only=args.only)
    if args.json:
        print(json_dumps(results))
        return 0
    print(
        f"wlansim bench on {platform.processor() or platform.machine()}, one core, "
        f"best of {args.repeat}"
    )
    print(
        f"{'case':32} {'wall s':>9} {'events':>10} {'events/s':>12} {'sim s/wall s':>13} "
        f"{'sessions/wall s':>16}"
    )
    for r in results:
        sessions = r.get("sessions_per_wall_s")
        print(
            f"{r['name']:32} {r['wall_s']:9.4f} {r['events']:10d} {r['events_per_s']:12.3g} "
            f"{r['sim_s_per_wall_s']:13.0f} {'' if sessions is None else f'{sessions:16.0f}'}"
        )
    return 0


def run_startup(args) -> int:
    from wlansim.bench import startup_times

    results = startup_times(repeat=max(1, args.repeat or 10))
    if args.json:
        print(json_dumps(results))
        return 0
    print(f"whole-process start-up, {results[0]['runs']} runs each (seconds)")
    print(f"{'command':56} {'median':>7} {'min':>7} {'max':>7} {'cpu':>7} {'target':>7}")
    for r in results:
        print(
            f"{r['name']:56} {r['median_s']:7.3f} {r['min_s']:7.3f} {r['max_s']:7.3f} "
            f"{r['cpu_median_s']:7.3f} {r['target_s']:7.1f}"
        )
    return 0
