"""Where a download's segments are lost at the AP, by what sent them: at a retransmission
timeout, or on an ACK (`validate ns2`'s TCP grid, README "ns-2 compatibility").

    python scripts/ns2_timeout_drops.py 3 50 1,2,3   # k, AP buffer B, seeds

For ns-2.35 (`tcp_updown_tcl` with ns-2's agent trace on) and wlansim (the same scenario
with per-packet records of the downloads), from the warm-up's end: every data segment a
download's sender emits is classed "ack" when it left at the instant an ACK of that flow
reached the sender, else "timer" (a timeout; ns-2's `send_much` from `timeout`), and
counted as dropped when the AP's interface queue refused it. Prints per simulator and
class: segments, drops, share dropped.
"""

from __future__ import annotations

import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import wlansim
from wlansim import validation_ns2 as v


def ns2_counts(k: int, buffer: int, seed: int, tally: dict) -> None:
    """ns-2: the AP node (node 0) is the downloads' sender; its agent trace gives the ACKs
    received (`r` ... `ack`) and the segments sent (`s` ... `tcp`), its IFQ trace the
    drops (`D` ... `IFQ`)."""
    script = v.tcp_updown_tcl(buffer, 70.0, v.WARMUP_S, seed, k)
    script = script.replace("-agentTrace OFF", "-agentTrace ON")
    with tempfile.TemporaryDirectory() as d:
        Path(d, "c.tcl").write_text(script)
        subprocess.run(["ns", "c.tcl"], cwd=d, capture_output=True, check=True)
        lines = Path(d, v.TRACE_FILE).read_text().splitlines()
    acks: dict[int, set] = collections.defaultdict(set)
    sends, drops = [], set()
    for line in lines:
        f = line.split()
        if len(f) < 8 or float(f[1]) < v.WARMUP_S:
            continue
        event, t, node, layer = f[0], round(float(f[1]), 9), f[2], f[3]
        if layer == "AGT" and node == "_0_":
            m = re.search(r"\[(\d+):\d+ (\d+):\d+", line[line.index("-------") :])
            if m is None:
                continue
            src, dst = int(m.group(1)), int(m.group(2))
            if event == "r" and f[6] == "ack" and src > k:
                acks[src].add(t)
            if event == "s" and f[6] == "tcp" and dst > k:
                sends.append((t, f[5], dst))
        if event == "D" and node == "_0_" and layer == "IFQ" and f[6] == "tcp":
            drops.add(f[5])
    for t, uid, dst in sends:
        kind = "ack" if t in acks[dst] else "timer"
        tally[kind][0] += 1
        tally[kind][1] += uid in drops


def wlansim_counts(k: int, buffer: int, seed: int, tally: dict) -> None:
    """wlansim: the downloads' per-packet records (data forward, ACKs reverse)."""
    s = v.tcp_updown_scenario(buffer, 70.0, v.WARMUP_S, k)
    s["output"] = {"packets": [f"down{i}" for i in range(k)]}
    p = wlansim.run(s, seed=seed).packets
    p = p[p.created_s > v.WARMUP_S]
    for flow in p.flow.unique():
        x = p[p.flow == flow]
        acks = set(np.round(x[x.direction == "reverse"].delivered_s.dropna().values, 9))
        for created, dropped in zip(x[x.direction == "forward"].created_s,
                                    x[x.direction == "forward"].dropped):  # fmt: skip
            kind = "ack" if round(created, 9) in acks else "timer"
            tally[kind][0] += 1
            tally[kind][1] += dropped == "queue"


def main() -> None:
    k, buffer = int(sys.argv[1]), int(sys.argv[2])
    seeds = [int(x) for x in sys.argv[3].split(",")]
    for name, count in (("ns-2", ns2_counts), ("wlansim", wlansim_counts)):
        tally = {"timer": [0, 0], "ack": [0, 0]}
        for seed in seeds:
            count(k, buffer, seed, tally)
        print(name, "  ".join(f"{kind}: {n} sent, {d} dropped ({100 * d / n:.1f} %)"
                             for kind, (n, d) in tally.items()))  # fmt: skip


if __name__ == "__main__":
    main()
