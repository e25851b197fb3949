"""`wlansim bench [--json]`: the benchmark suite (see wlansim.bench)."""

from __future__ import annotations

import json
import platform

from wlansim.bench import run_benchmarks


def register(subparsers) -> None:
    p = subparsers.add_parser("bench", help="run the benchmark suite")
    p.add_argument("--repeat", type=int, default=3, help="runs per case; best is kept")
    p.add_argument("--only", default=None, help="run the cases whose name contains this")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=run_bench)


def run_bench(args) -> int:
    results = run_benchmarks(repeat=max(1, args.repeat), only=args.only)
    if args.json:
        print(json.dumps(results))
        return 0
    print(
        f"wlansim bench on {platform.processor() or platform.machine()}, one core, "
        f"best of {args.repeat}"
    )
    print(f"{'case':32} {'wall s':>9} {'events':>10} {'events/s':>12} {'sim s/wall s':>13}")
    for r in results:
        print(
            f"{r['name']:32} {r['wall_s']:9.4f} {r['events']:10d} {r['events_per_s']:12.3g} "
            f"{r['sim_s_per_wall_s']:13.0f}"
        )
    return 0
