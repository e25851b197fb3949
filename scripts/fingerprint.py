"""Fingerprints of simulation results, to show that a refactoring changed no number.

    python scripts/fingerprint.py > before.txt   # on the old commit
    python scripts/fingerprint.py > after.txt    # on the new one
    diff before.txt after.txt

One line per (scenario, seed): a SHA-256 of the results' JSON without the wall-clock
time and the core's build (`meta.build`, a digest of its sources: it differs whenever the
code does, and fingerprints compare builds), over every example scenario in `scenarios/`
(shortened to `--duration`), every benchmark case of `wlansim bench`, and two lossy
cases: pilosof-1up-1down with frame errors, and fotiadis2005's inf-RL case at PER 15 %
under ns-2's MAC rules (it tells a rule for frames that reach an empty queue inside an
EIFS apart, which no other case does); and saturated-11ac under `profile = "ns3"`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from wlansim import _core
from wlansim.bench import cases
from wlansim.evidence.studies import fotiadis2005
from wlansim.scenario import load


def fingerprint(scenario: dict, seed: int, without: list[str]) -> str:
    data = _core.run(scenario, seed)
    data["meta"].pop("wall_s")
    data["meta"].pop("build", None)  # absent from a core older than meta.build
    for key in without:
        data["meta"].pop(key, None)
        for table in ("flows", "nodes", "access_categories", "bss"):
            for row in data.get(table, []):
                row.pop(key, None)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", default="20 s", help="simulated time per run (20 s)")
    ap.add_argument("--seeds", type=int, default=2, help="seeds 1..N per scenario (2)")
    ap.add_argument(
        "--without",
        action="append",
        default=[],
        metavar="KEY",
        help="leave out this `meta` key or table column too (repeatable): e.g. `events`, "
        "for a change to the event loop that must keep every other result, or a new "
        "column",
    )
    args = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    named = {p.name: load(str(p)) for p in sorted((root / "scenarios").glob("*.toml"))}
    named.update(cases())
    # The channel's loss draws: frame errors on every station's link.
    lossy = load(str(root / "scenarios" / "pilosof-1up-1down.toml"))
    for g in lossy["stations"]:
        g["fer"] = 0.05
    named["pilosof-1up-1down-fer"] = lossy
    # ns-2's MAC rules with bursts of losses on a TCP upload (fotiadis2005's inf-RL case
    # at PER 15 %): EIFS after errored frames, and frames reaching an empty queue inside it.
    point = {"case": next(iter(fotiadis2005.CASES)), "variant": "main", "per": 15,
             "method": "inf-rl"}  # fmt: skip
    named["fotiadis2005-per15-inf-rl-ns2"] = fotiadis2005.build(point, "ns2")
    # ns-3.37's PPDU timing (profile "ns3"): 802.11ac frames without VHT-SIG-B.
    named["saturated-11ac-ns3"] = dict(named["saturated-11ac.toml"], profile="ns3")
    for name, scenario in named.items():
        short = dict(scenario, duration=args.duration)
        for seed in range(1, args.seeds + 1):
            try:
                line = fingerprint(short, seed, args.without)
            except ValueError:  # a flow starts after the shortened end: the whole run
                line = fingerprint(scenario, seed, args.without)
            print(f"{name} seed={seed} {line}", flush=True)


if __name__ == "__main__":
    main()
