"""Which nodes collide right after a successful exchange, in ns-2 and in wlansim (README
"ns-2 compatibility", "Both points with many seeds"): the TCP case of `validate ns2` with
ns-2's stations on a circle or a half circle around the AP.

    python scripts/ns2_tie_collisions.py 1 50 1,2,3,4 --layout circle   # k, B, seeds

After a data frame and its ACK, the next access is a single frame or a collision of two
frames started within 30 us. A collision is classed by who collides: the node that sent
the ACK ("acker") and the node whose frame it acknowledged ("acked"), "acker+third" (the
ACK's sender and a node of neither), "acked+third". ns-2: from its MAC trace (`s` lines of
data and ACK frames); wlansim: from a capture of the BSS (`pcap_per = "bss"`: every attempt
with its bad-FCS flag), read with tshark. Both measure from the warm-up's end (10 s) for
`--duration` seconds in all. ns-2 gives each pair of nodes its own propagation delay
(distance / c); wlansim one for all (33 ns here, as `validate ns2`): with the stations on
the circle, each upload station faces a download station across the AP, and ns-2's delays
on that line add up exactly. Needs `ns` and `tshark` (Debian ns2, tshark).
"""

from __future__ import annotations

import argparse
import glob
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

import wlansim
from wlansim.evidence.validations import ns2 as v

GAP_S = 30e-6  # two frames starting closer than this collided


def classify(accesses: list[tuple[str, str, list[str]]]) -> Counter:
    """Per success (sender, receiver) the next access (its senders): the classes above."""
    out: Counter = Counter()
    for sender, receiver, senders in accesses:
        out["successes"] += 1
        if len(senders) < 2:
            continue
        both = set(senders[:2])
        if both == {sender, receiver}:
            out["acker+acked"] += 1
        elif receiver in both:
            out["acker+third"] += 1
        elif sender in both:
            out["acked+third"] += 1
        else:
            out["third+third"] += 1
    return out


def ns2_accesses(trace: Path, t0: float) -> list[tuple[str, str, list[str]]]:
    frames = []  # (time, node, destination, kind)
    for line in trace.read_text().splitlines():
        f = line.split()
        if len(f) > 9 and f[0] == "s" and f[3] == "MAC" and f[6] in ("tcp", "ack", "ACK"):
            frames.append((float(f[1]), f[2].strip("_"), str(int(f[9], 16)), f[6]))
    out = []
    for i in range(len(frames) - 3):
        t, node, dst, kind = frames[i]
        if kind == "ACK" or frames[i + 1][3] != "ACK" or t < t0 or frames[i + 2][3] == "ACK":
            continue
        nxt, after = frames[i + 2], frames[i + 3]
        senders = [nxt[1]]
        if after[3] != "ACK" and after[0] - nxt[0] < GAP_S:
            senders.append(after[1])
        out.append((node, dst, senders))
    return out


def wlansim_accesses(pcap: str, t0: float) -> list[tuple[str, str, list[str]]]:
    fields = ["frame.time_relative", "wlan.ta", "wlan.ra", "radiotap.flags.badfcs"]
    cmd = ["tshark", "-r", pcap, "-T", "fields"] + [a for x in fields for a in ("-e", x)]
    frames = []
    for line in subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines():
        t, ta, ra, bad = line.split("\t")
        frames.append((float(t), ta, ra, bad not in ("0", "False")))
    out = []
    for i in range(len(frames) - 2):
        t, ta, ra, bad = frames[i]
        if bad or t < t0:
            continue
        nxt, after = frames[i + 1], frames[i + 2]
        senders = [nxt[1]] + ([after[1]] if after[0] - nxt[0] < GAP_S else [])
        out.append((ta, ra, senders))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("k", type=int)
    p.add_argument("buffer", type=int)
    p.add_argument("seeds", help="comma-separated, e.g. 1,2,3,4")
    p.add_argument("--layout", choices=v.TCP_LAYOUTS, default="circle")
    p.add_argument("--duration", type=float, default=40.0, help="seconds per run (40)")
    a = p.parse_args()
    totals = {"ns-2": Counter(), "wlansim": Counter()}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (int(s) for s in a.seeds.split(",")):
            tcl = v.tcp_updown_tcl(a.buffer, a.duration, v.WARMUP_S, seed, a.k, layout=a.layout)
            (Path(tmp) / "run.tcl").write_text(tcl.replace("-macTrace OFF", "-macTrace ON"))
            subprocess.run(["ns", "run.tcl"], cwd=tmp, capture_output=True, check=True)
            totals["ns-2"] += classify(ns2_accesses(Path(tmp) / "trace.tr", v.WARMUP_S))
            s = v.tcp_updown_scenario(a.buffer, a.duration, v.WARMUP_S, a.k)
            s["output"] = {"pcap": str(Path(tmp) / f"pcap{seed}"), "pcap_per": "bss"}
            wlansim.run(s, seed=seed)
            (pcap,) = glob.glob(str(Path(tmp) / f"pcap{seed}" / "bss-*.pcap"))
            totals["wlansim"] += classify(wlansim_accesses(pcap, v.WARMUP_S))
    print(
        f"k = {a.k}, B = {a.buffer}, seeds {a.seeds}, ns-2's stations on the {a.layout}, "
        f"{a.duration - v.WARMUP_S:g} s measured per run: accesses after a success"
    )
    keys = ["successes", "acker+acked", "acker+third", "acked+third", "third+third"]
    print(f"{'':8s}" + "".join(f"{key:>13s}" for key in keys))
    for sim, c in totals.items():
        print(f"{sim:8s}" + "".join(f"{c[key]:13d}" for key in keys))


if __name__ == "__main__":
    main()
