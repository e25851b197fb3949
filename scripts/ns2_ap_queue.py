"""The AP's buffer in `validate ns2`'s TCP grid, on both sides (README "ns-2 compatibility",
k = 3, B = 50): how often it is full at fixed instants and when a download's timeout
sends a segment, and how long its full periods last.

    python scripts/ns2_ap_queue.py 3 50 1,2,3   # k, AP buffer B, seeds

The buffer is what the AP holds: its interface queue and the frame its MAC is serving,
full at B (ns-2's `DropTail::enque` refuses a packet when the IFQ holds B - 1 while the MAC
holds one; wlansim's queue of B holds the served frame as its head).

- ns-2.35 has no Tcl command for a queue's length, so it is rebuilt from the trace (agent
  and MAC traces on): +1 when a packet the AP's agents send reaches the IFQ (the agent's
  `s` plus LL's `delay_`, 25 us, `LL::sendDown`) unless the IFQ drops it (`D ... IFQ`); -1
  when the AP's MAC ends a frame: the MAC ACK it receives (`r ... MAC ... ACK`) or a retry
  drop (`D ... MAC RET`). Its level at the warm-up's end is taken from the drops (every IFQ
  drop finds B); the script prints how many drops found another level (0 when the rebuild
  holds).
- wlansim: the `queue_length` series of node `ap`.

Both are sampled every millisecond from the warm-up's end. A download's data segment is
classed "ack" when it left at the instant an ACK of its flow reached the sender, else
"timer" (a timeout; ns-2's `send_much` from `timeout`), and counted as finding the buffer
full when the AP's queue refused it (ns-2: the agent trace; wlansim: the downloads'
per-packet records). Printed per simulator, over the seeds: the share of samples full,
the mean level and its quantiles; the share of each class of segments that found the
buffer full; the full periods (runs of full samples) with their mean and quantile
lengths, and the full indicator's autocorrelation at lags of 1, 10, 100 and 1000 ms.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import wlansim
from wlansim.evidence.ns2.run import TRACE_FILE
from wlansim.evidence.validations import ns2 as v

#: ns-2's `LL set delay_ 25us` (`tcl/lib/ns-default.tcl`): an agent's packet reaches the IFQ
#: this long after its `s` line.
LL_DELAY_S = 25e-6
DURATION_S = 70.0
STEP_S = 1e-3


def _grid() -> np.ndarray:
    return np.arange(v.WARMUP_S, DURATION_S, STEP_S)


def ns2_side(k: int, buffer: int, seed: int) -> dict:
    """ns-2: the AP's level every millisecond and at each download segment's arrival."""
    script = v.tcp_updown_tcl(buffer, DURATION_S, v.WARMUP_S, seed, k)
    script = script.replace("-agentTrace OFF", "-agentTrace ON")
    script = script.replace("-macTrace OFF", "-macTrace ON")
    with tempfile.TemporaryDirectory() as d:
        Path(d, "c.tcl").write_text(script)
        subprocess.run(["ns", "c.tcl"], cwd=d, capture_output=True, check=True)
        lines = Path(d, TRACE_FILE).read_text().splitlines()
    # (at the IFQ, uid, packet type, destination node, agent's send time)
    arrivals: list[tuple[float, str, str, int, float]] = []
    ack_times: dict[int, set] = {}
    ends: list[float] = []
    dropped: set[str] = set()
    for line in lines:
        f = line.split()
        if len(f) < 8 or f[2] != "_0_":
            continue
        event, t, layer, kind = f[0], float(f[1]), f[3], f[6]
        if layer == "AGT":
            m = re.search(r"\[(\d+):\d+ (\d+):\d+", line[line.index("-------") :])
            if m is None:
                continue
            src, dst = int(m.group(1)), int(m.group(2))
            if event == "s":
                arrivals.append((t + LL_DELAY_S, f[5], kind, dst, round(t, 9)))
            elif event == "r" and kind == "ack" and src > k:
                ack_times.setdefault(src, set()).add(round(t, 9))
        elif layer == "MAC" and event == "r" and kind == "ACK":
            ends.append(t)
        elif event == "D" and layer == "MAC" and f[4] == "RET":
            ends.append(t)
        elif event == "D" and layer == "IFQ":
            dropped.add(f[5])
    events = [(t, +1, uid) for t, uid, *_ in arrivals if uid not in dropped]
    events += [(t, -1, None) for t in ends]
    events.sort(key=lambda e: e[0])
    times = np.array([e[0] for e in events])
    level = np.cumsum([e[1] for e in events])  # up to an unknown offset
    # The offset: the level a drop finds is B (the most common value at drops).
    at_drop = []
    for t, uid, *_ in arrivals:
        if uid in dropped and t >= v.WARMUP_S:
            i = np.searchsorted(times, t, side="right") - 1
            at_drop.append(level[i] if i >= 0 else 0)
    values, counts = np.unique(at_drop, return_counts=True)
    offset = buffer - values[np.argmax(counts)]
    level = level + offset
    grid = _grid()
    samples = level[np.clip(np.searchsorted(times, grid, side="right") - 1, 0, None)]
    segments = []  # (class, full) of each download segment after the warm-up
    for t, uid, kind, dst, sent in arrivals:
        if kind == "tcp" and dst > k and t >= v.WARMUP_S:
            cls = "ack" if sent in ack_times.get(dst, ()) else "timer"
            segments.append((cls, uid in dropped))
    return {"samples": samples, "segments": segments,
            "misfits": int(len(at_drop) - counts.max()) if len(at_drop) else 0}  # fmt: skip


def wlansim_side(k: int, buffer: int, seed: int) -> dict:
    """wlansim: the AP's `queue_length` every millisecond and its downloads' segments."""
    s = v.tcp_updown_scenario(buffer, DURATION_S, v.WARMUP_S, k)
    s["output"] = {"series": ["queue_length"], "series_interval": "1 ms",
                   "packets": [f"down{i}" for i in range(k)]}  # fmt: skip
    r = wlansim.run(s, seed=seed)
    samples = np.asarray(r.series["queue_length"]["ap"])
    p = r.packets[r.packets.created_s > v.WARMUP_S]
    segments = []
    for flow in p.flow.unique():
        x = p[p.flow == flow]
        acks = set(np.round(x[x.direction == "reverse"].delivered_s.dropna().values, 9))
        fwd = x[x.direction == "forward"]
        for created, why in zip(fwd.created_s, fwd.dropped):
            cls = "ack" if round(created, 9) in acks else "timer"
            segments.append((cls, why == "queue"))
    return {"samples": samples, "segments": segments, "misfits": 0}


def _runs(full: np.ndarray) -> np.ndarray:
    """Lengths (samples) of the runs of True in `full`."""
    edges = np.diff(np.concatenate([[0], full.astype(int), [0]]))
    return np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)


def _autocorr(x: np.ndarray, lag: int) -> float:
    x = x - x.mean()
    return float((x[:-lag] * x[lag:]).mean() / x.var()) if x.var() > 0 else float("nan")


def summary(name: str, sides: list[dict], buffer: int) -> None:
    samples = np.concatenate([s["samples"] for s in sides])
    full = [s["samples"] >= buffer for s in sides]
    runs = np.concatenate([_runs(f) for f in full]) * STEP_S * 1e3
    segs = [seg for s in sides for seg in s["segments"]]
    q = np.percentile(samples, [10, 25, 50, 75, 90])
    print(f"{name}: full {100 * np.mean(samples >= buffer):.1f} % of 1 ms samples, "
          f"mean level {samples.mean():.1f}, quantiles 10/25/50/75/90 % "
          f"{' '.join(f'{x:g}' for x in q)}; level >= B - 1: "
          f"{100 * np.mean(samples >= buffer - 1):.1f} %")  # fmt: skip
    for cls in ("timer", "ack"):
        mine = [d for c, d in segs if c == cls]
        print(f"  {cls} segments: {len(mine)}, found full {100 * np.mean(mine):.1f} %")
    print(f"  full periods: {len(runs)}, mean {runs.mean():.1f} ms, quantiles 50/90/99 % "
          f"{' '.join(f'{x:g}' for x in np.percentile(runs, [50, 90, 99]))} ms; "
          "autocorrelation of full at 1/10/100/1000 ms: "
          + " ".join(f"{np.mean([_autocorr(f, lag) for f in full]):.2f}"
                     for lag in (1, 10, 100, 1000)))  # fmt: skip
    misfits = sum(s["misfits"] for s in sides)
    if name == "ns-2":
        print(f"  IFQ drops that did not find the rebuilt level at B: {misfits}")


def main() -> None:
    k, buffer = int(sys.argv[1]), int(sys.argv[2])
    seeds = [int(x) for x in sys.argv[3].split(",")]
    for name, side in (("ns-2", ns2_side), ("wlansim", wlansim_side)):
        summary(name, [side(k, buffer, seed) for seed in seeds], buffer)


if __name__ == "__main__":
    main()
