"""CPU of `wlansim validate ns2 --speed`'s whole process, invocation by invocation, beside
a control process that runs no wlansim, under `perf stat`'s software events (task-clock,
page faults, context switches, CPU migrations): to tell the process's own cost from the
machine's state when its CPU time moves from one invocation to the next.

    python scripts/process_cpu.py TREE [TREE ...] [--rounds 20] [--pause 2]

Each TREE is a directory holding the package `wlansim` (a checkout's `python/`, its
extension built in place), imported through PYTHONPATH. Every round runs each tree's
process, then the control (a pure-Python loop of about the same CPU), in
`wlansim.machine.byte_compiled()`'s environment after one untimed run of each, as
`validate ns2 --speed` does. Prints one line per run, then per tree the medians and the
correlation of its runs' task-clock with the control run after each.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from wlansim.evidence.validations.ns2 import (
    SPEED_PROCESS,
    WARMUP_S,
    speed_cell,
    speed_file,
    udp_uplink_scenario,
)
from wlansim.machine import byte_compiled, load_average

EVENTS = ("task-clock", "page-faults", "context-switches", "cpu-migrations")
CONTROL = "x = 0\nfor i in range(300000):\n    x += i * i % 7"


def perf_stat(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """`perf stat`'s counts of `command`'s run (task-clock in ms)."""
    with tempfile.NamedTemporaryFile("r", suffix=".perf") as out:
        subprocess.run(["perf", "stat", "-x", ",", "-o", out.name, "-e", ",".join(EVENTS),
                        "--", *command], env=env, check=True)  # fmt: skip
        counts = {}
        for line in out:
            fields = line.strip().split(",")
            if len(fields) > 2 and fields[2] in EVENTS:
                counts[fields[2]] = float(fields[0])
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+", type=Path, help="directories holding `wlansim`")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--pause", type=float, default=0.0, help="seconds between rounds")
    args = ap.parse_args()
    scenario = udp_uplink_scenario(speed_cell(), 100.0, WARMUP_S)
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory() as tmp, byte_compiled() as base:
        path = str(speed_file(scenario, Path(tmp)))
        runs = {str(tree): [sys.executable, "-c", SPEED_PROCESS, path] for tree in args.trees}
        runs["control"] = [sys.executable, "-c", CONTROL]
        rows: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
        envs = {str(tree): dict(base, PYTHONPATH=str(tree.resolve())) for tree in args.trees}
        envs["control"] = base
        for name, command in runs.items():
            subprocess.run(command, env=envs[name], check=True)
        print(f"{'round':>5} {'process':40} " + " ".join(f"{e:>16}" for e in EVENTS))
        for r in range(args.rounds):
            time.sleep(args.pause)
            for tree in map(str, args.trees):
                for name in (tree, "control"):
                    counts = perf_stat(runs[name], envs[name])
                    rows[name].append(counts)
                    print(f"{r:5d} {name[-40:]:40} "
                          + " ".join(f"{counts[e]:16.1f}" for e in EVENTS), flush=True)  # fmt: skip
    print(f"load average after: {load_average()}")
    control = [c["task-clock"] for c in rows["control"]]
    for name, counts in rows.items():
        clock = [c["task-clock"] for c in counts]
        medians = ", ".join(f"{e} {statistics.median(c[e] for c in counts):.1f}" for e in EVENTS)
        print(f"{name}: task-clock min {min(clock):.1f} max {max(clock):.1f} ms; medians {medians}")
        if name != "control":
            k = list(rows).index(name)
            after = control[k :: len(args.trees)]
            r = statistics.correlation(clock, after)
            print(f"  correlation with the control run after it: {r:.2f}")


if __name__ == "__main__":
    main()
