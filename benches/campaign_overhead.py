"""Overhead of the campaign layer: runs per second for 200 tiny runs (1 simulated second
of the saturated 802.11b cell each), three ways:

1. ``wlansim.run`` in a loop (one process, no store) — the baseline; also with
   ``.to_dict()`` (computing the metrics), which is what a campaign worker returns;
2. a campaign executed in-process (``in_process=True``): the same runs plus resolving,
   hashing and one durable SQLite transaction per run — the pure overhead of the campaign
   layer;
3. a campaign on one worker process (``jobs=1``, what ``--jobs 1`` does: a crashing run
   cannot take the campaign down), and on the local process pool (``jobs=N``, default all
   cores).

    python benches/campaign_overhead.py [--runs 200] [--stations 5] [--jobs N] [--scenario F]

Numbers are reported, never asserted.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import wlansim
from wlansim.campaign import Campaign, Space, replication_seed

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "saturated-11b.toml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--stations", type=int, default=5)
    ap.add_argument("--scenario", default=str(SCENARIO), help="base scenario")
    ap.add_argument("--jobs", type=int, default=None, help="pool size (default: all cores)")
    args = ap.parse_args()
    jobs = args.jobs or os.cpu_count() or 1
    overrides = {"duration": "1 s", "warmup": "0 s", "stations.sta.count": args.stations}
    seeds = [replication_seed(1, r) for r in range(args.runs)]

    t0 = time.perf_counter()
    for seed in seeds:
        wlansim.run(args.scenario, seed=seed, overrides=overrides)
    loop_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    for seed in seeds:
        wlansim.run(args.scenario, seed=seed, overrides=overrides).to_dict()
    loop_dict_s = time.perf_counter() - t0

    def campaign(store: str, jobs: int, in_process: bool = False) -> float:
        c = Campaign(
            args.scenario, Space(), reps=args.runs, store=store, seed=1, overrides=overrides
        )
        t = time.perf_counter()
        report = c.run(jobs=jobs, progress=False, in_process=in_process)
        elapsed = time.perf_counter() - t
        assert report.ok == args.runs, report
        return elapsed

    with tempfile.TemporaryDirectory() as tmp:
        inproc_s = campaign(os.path.join(tmp, "inproc"), 1, in_process=True)
        one_s = campaign(os.path.join(tmp, "one"), 1)
        pool_s = campaign(os.path.join(tmp, "pool"), jobs)

    n = args.runs
    print(f"campaign overhead: {n} runs of 1 simulated second, {args.stations} stations")
    print(f"  wlansim.run loop (1 process):  {n / loop_s:8.1f} runs/s  ({loop_s:.2f} s)")
    print(
        f"  wlansim.run(...).to_dict() loop: {n / loop_dict_s:8.1f} runs/s  ({loop_dict_s:.2f} s;"
        " what a campaign worker does)"
    )
    print(
        f"  campaign, in-process:          {n / inproc_s:8.1f} runs/s  ({inproc_s:.2f} s; "
        f"overhead {(inproc_s - loop_dict_s) / n * 1e3:+.2f} ms/run over to_dict loop)"
    )
    print(f"  campaign, one worker (jobs=1):  {n / one_s:8.1f} runs/s  ({one_s:.2f} s)")
    print(f"  campaign, local pool (jobs={jobs}): {n / pool_s:8.1f} runs/s  ({pool_s:.2f} s)")


if __name__ == "__main__":
    main()
