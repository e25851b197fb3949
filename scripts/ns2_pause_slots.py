"""How many idle slots ns-2.35's backoff counts when it pauses (README "ns-2 compatibility",
`MacRules::slots_counted_after_own_frame`): measured inside ns-2 with gdb.

    python scripts/ns2_pause_slots.py 3 50 1 --duration 40   # k, AP buffer B, seed

ns-2's `BackoffTimer::pause` (mac/mac-timers.cc) counts `int((now - (stime + difs_wait)) /
slot)` slots from doubles. The script runs the TCP case of `validate ns2` (k uploads and k
downloads, AP buffer B, MAC trace on) under gdb with a breakpoint on `BackoffTimer::pause`
and `BackoffTimer::handle`, logging the clock and the timer's `stime`, `rtime` and
`difs_wait` (read at their offsets in Debian's ns2 2.35+dfsg-5 build), then matches each
pause with the transmission that caused it (the MAC trace's `s` line at most 100 ns earlier)
and the frame before that one. A pause is *aligned* when `now - (stime + difs_wait)` is
within 10^-6 slot of a whole number of slots: the exact count is that number, and ns-2
counts one fewer when the double comes out below it ("lost") or all of them ("counted").
Printed per binade of the clock (pauses after at least half a slot): for pauses where the
transmitter also sent the frame before (the last frame's sender won) and for the others,
the aligned pauses lost and counted, the unaligned ones, and the share lost among the
aligned. Needs `gdb` and `ns` (Debian packages gdb and ns2); 1-2 minutes for 40 s of k = 3.
"""

from __future__ import annotations

import argparse
import bisect
import subprocess
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from wlansim.evidence.validations import ns2 as v

SLOT = 20e-6

# gdb's Python: log each pause (clock, timer, stime, rtime, difs_wait) and each expiry.
GDB_SCRIPT = r"""
import gdb, struct
out = open("backoff_events.txt", "w")
def rd(a): return struct.unpack("<d", gdb.selected_inferior().read_memory(a, 8).tobytes())[0]
def rp(a): return struct.unpack("<Q", gdb.selected_inferior().read_memory(a, 8).tobytes())[0]
SCHED = [None]
def clock():
    if SCHED[0] is None:
        SCHED[0] = int(gdb.parse_and_eval("(long)&_ZN9Scheduler9instance_E"))
    return rd(rp(SCHED[0]) + 0x20)
class Pause(gdb.Breakpoint):
    def stop(self):
        this = int(gdb.parse_and_eval("$rdi"))
        out.write(f"P {clock()!r} {rp(this + 8):x} {rd(this + 0x40)!r} {rd(this + 0x48)!r} "
                  f"{rd(this + 0x50)!r}\n")
        return False
class Handle(gdb.Breakpoint):
    def stop(self):
        out.write(f"H {clock()!r} {rp(int(gdb.parse_and_eval('$rdi')) + 8):x}\n")
        return False
gdb.execute("set breakpoint pending on")
Pause("_ZN12BackoffTimer5pauseEv")
Handle("_ZN12BackoffTimer6handleEP5Event")
"""


def binade(t: float) -> str:
    lo = 1
    while lo * 2 <= t:
        lo *= 2
    return f"[{lo}, {2 * lo}) s" if t >= 1 else "[0, 1) s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("k", type=int)
    ap.add_argument("buffer", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--duration", type=float, default=40.0, help="simulated seconds (40)")
    a = ap.parse_args()
    tcl = v.tcp_updown_tcl(a.buffer, a.duration, v.WARMUP_S, a.seed, a.k)
    tcl = tcl.replace("-macTrace OFF", "-macTrace ON")
    with tempfile.TemporaryDirectory() as d:
        Path(d, "run.tcl").write_text(tcl)
        Path(d, "pause.py").write_text(GDB_SCRIPT)
        subprocess.run(
            ["gdb", "-batch", "-x", "pause.py", "-ex", "run", "--args", "ns", "run.tcl"],
            cwd=d, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        starts = []
        for line in Path(d, "trace.tr").read_text().splitlines():
            f = line.split()
            if len(f) >= 7 and f[0] == "s" and f[3] == "MAC":
                starts.append((float(f[1]), int(f[2].strip("_"))))
        events = [line.split() for line in Path(d, "backoff_events.txt").read_text().splitlines()]
    times = [t for t, _ in starts]
    # Which node each timer belongs to: its expiries coincide with that node's sends.
    owners: dict[str, Counter] = defaultdict(Counter)
    for e in events:
        if e[0] == "H":
            t = float(e[1])
            i = bisect.bisect_left(times, t - 1e-9)
            if i < len(starts) and abs(starts[i][0] - t) < 1e-9:
                owners[e[2]][starts[i][1]] += 1
    node = {m: c.most_common(1)[0][0] for m, c in owners.items()}
    table: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for e in events:
        if e[0] != "P":
            continue
        now, stime, difs = float(e[1]), float(e[3]), float(e[5])
        sr = now - (stime + difs)
        if sr < SLOT / 2:
            continue
        x = sr / SLOT
        frac = x - int(x)
        cls = "lost" if frac > 1 - 1e-6 else "counted" if frac < 1e-6 else "unaligned"
        i = bisect.bisect_right(times, now + 1e-10) - 1
        while i >= 0 and starts[i][1] == node.get(e[2]):
            i -= 1
        if i < 1 or now - starts[i][0] > 1e-7:
            continue
        who = "last sender won" if starts[i][1] == starts[i - 1][1] else "another node won"
        table[(binade(now), who)][cls] += 1
    print(f"ns-2.35, k = {a.k}, B = {a.buffer}, seed {a.seed}, {a.duration:g} s: backoff pauses")
    print(f"{'clock':>14} {'transmitter':>17} {'lost':>6} {'counted':>8} {'unaligned':>10} "
          f"{'lost/aligned':>13}")  # fmt: skip
    order = sorted(table, key=lambda key: (float(key[0].strip("[").split(",")[0]), key[1]))
    for key in order:
        c = table[key]
        aligned = c["lost"] + c["counted"]
        share = f"{c['lost'] / aligned:.2f}" if aligned else "-"
        print(f"{key[0]:>14} {key[1]:>17} {c['lost']:>6} {c['counted']:>8} "
              f"{c['unaligned']:>10} {share:>13}")  # fmt: skip


if __name__ == "__main__":
    main()
