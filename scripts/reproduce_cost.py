"""What a `wlansim reproduce` invocation costs, in CPU time (the machine may be busy).

    python scripts/reproduce_cost.py janevski2009 --quick --jobs 2 --out /tmp/j
    python scripts/reproduce_cost.py all --jobs 2 --out /tmp/all

runs ``wlansim reproduce ARGS...`` in this process, then prints its wall time, the CPU
time (user + system) of this process (planning, the store, tables, claims, figures,
report) and of its child processes (the runs' workers; with ``all``, each study's report
process too), and, from the campaign stores under the output directory (ns-2.35's
apart), the runs and simulated events of wlansim's runs under the study's profile and the
other one, with the children's CPU time per event (of one study: the runs' cost). Run it
into a fresh output directory: runs already stored are reused, not timed, but counted.
"""

from __future__ import annotations

import json
import resource
import sqlite3
import sys
import time
from pathlib import Path


def stored(out: Path) -> dict[str, list[int]]:
    """{"main" | "other": [runs, events]} of the wlansim runs stored under `out`."""
    parts = {"main": [0, 0], "other": [0, 0]}
    for db in sorted(out.rglob("campaign.sqlite")):
        rel = db.relative_to(out).parts  # [NAME/] [other-PROFILE/ | ns2/] ...
        if "ns2" in rel:
            continue
        part = parts["other" if any(d.startswith("other-") for d in rel) else "main"]
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            for (meta,) in conn.execute("SELECT meta FROM runs WHERE status = 'ok'"):
                part[0] += 1
                part[1] += json.loads(meta).get("events", 0)
        finally:
            conn.close()
    return parts


def cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def main(argv: list[str]) -> int:
    from wlansim.cli import main as cli

    if "--out" not in argv:
        print("reproduce_cost.py: give --out DIR (a fresh directory)", file=sys.stderr)
        return 2
    out = Path(argv[argv.index("--out") + 1])
    start = time.perf_counter()
    status = cli(["reproduce", *argv])
    wall = time.perf_counter() - start
    own, workers = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
    parts = stored(out)
    runs = sum(p[0] for p in parts.values())
    events = sum(p[1] for p in parts.values())
    print(
        f"wall {wall:.1f} s; CPU: this process {own:.1f} s, its children {workers:.1f} s; "
        f"stored wlansim runs {runs} ({parts['main'][0]} under the study's profile, "
        f"{parts['other'][0]} under the other), {events / 1e6:.1f} M events"
        + (f", children {workers / events * 1e9:.0f} ns per event" if events else "")
    )
    return status or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
