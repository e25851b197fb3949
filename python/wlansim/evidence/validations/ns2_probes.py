"""Probes of one mechanism at one point of ``validate ns2``'s TCP grid (k uploads and k
downloads through the AP, its buffer B), on both simulators: ``wlansim validate ns2
--probe NAME --k K --buffer B --reps N --duration D [--layout L]``, seeds 1..N. Each
writes its table as ``OUT/probe-NAME.csv`` and prints it as the README quotes it. They
measure, they do not decide: the ns-2 validation's claims are in
:mod:`wlansim.evidence.validations.ns2`.

- **ap-queue** (:func:`ap_queue`): how often the AP's buffer is full, at fixed instants
  and when a download's segment reaches it, and how long its full periods last.
- **pause-slots** (:func:`pause_slots`): how many idle slots ns-2.35's backoff counts when
  it pauses, measured inside ns-2 with gdb (ns-2 only: the profile's rule,
  `MacRules::slots_counted_after_own_frame`, is tested in the core).
- **tie-collisions** (:func:`tie_collisions`): who collides right after a successful
  exchange.
"""

from __future__ import annotations

import bisect
import glob
import re
import shutil
import subprocess
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

import wlansim
from wlansim.evidence.ns2.run import INSTALL_HINT, TRACE_FILE, ns_binary, run_script
from wlansim.evidence.validation import Result, at_least, past_warmup
from wlansim.evidence.validations import ns2 as v

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: the probes, by the name ``--probe`` takes, and the programs each needs beside `ns`
PROBES = {"ap-queue": (), "pause-slots": ("gdb",), "tie-collisions": ("tshark",)}


def _traced(tcl: str, layers: tuple[str, ...]) -> str:
    """A script of :func:`ns2.tcp_updown_tcl` with the traces of `layers` ("agent", "mac")
    turned on."""
    for layer in layers:
        tcl = tcl.replace(f"-{layer}Trace OFF", f"-{layer}Trace ON")
    return tcl


def _trace(script: str) -> list[str]:
    """Run `script`; the lines of its trace."""
    return run_script(script, read=(TRACE_FILE,)).files[TRACE_FILE].splitlines()


# --------------------------------------------------------------------------- ap-queue

#: ns-2's `LL set delay_ 25us` (`tcl/lib/ns-default.tcl`): an agent's packet reaches the IFQ
#: this long after its `s` line.
LL_DELAY_S = 25e-6
#: the AP's level is sampled this often from the warm-up's end
STEP_S = 1e-3


def _ap_queue_ns2(k: int, buffer: int, seed: int, duration_s: float, layout: str) -> dict:
    """ns-2: the AP's level every millisecond and the download segments that reached it.

    ns-2.35 has no Tcl command for a queue's length, so it is rebuilt from the trace (agent
    and MAC traces on): +1 when a packet the AP's agents send reaches the IFQ (the agent's
    `s` plus LL's `delay_`, `LL::sendDown`) unless the IFQ drops it (`D ... IFQ`); -1 when
    the AP's MAC ends a frame: the MAC ACK it receives (`r ... MAC ... ACK`) or a retry
    drop (`D ... MAC RET`). The level at the warm-up's end is taken from the drops (every
    IFQ drop finds B); ``misfits`` counts the drops that found another level (0 when the
    rebuild holds). A download's segment is classed "ack" when it left at the instant an
    ACK of its flow reached the AP, else "timer" (a timeout: ns-2's `send_much` from
    `timeout`)."""
    import numpy as np

    tcl = v.tcp_updown_tcl(buffer, duration_s, v.WARMUP_S, seed, k, layout=layout)
    lines = _trace(_traced(tcl, ("agent", "mac")))
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
    events = [(t, +1) for t, uid, *_ in arrivals if uid not in dropped]
    events += [(t, -1) for t in ends]
    events.sort(key=lambda e: e[0])
    times = np.array([e[0] for e in events])
    level = np.cumsum([e[1] for e in events])  # up to an unknown offset
    at_drop = []
    for t, uid, *_ in arrivals:
        if uid in dropped and t >= v.WARMUP_S:
            i = np.searchsorted(times, t, side="right") - 1
            at_drop.append(level[i] if i >= 0 else 0)
    values, counts = np.unique(at_drop, return_counts=True)
    if len(at_drop):
        level = level + buffer - values[np.argmax(counts)]
    grid = np.arange(v.WARMUP_S, duration_s, STEP_S)
    samples = level[np.clip(np.searchsorted(times, grid, side="right") - 1, 0, None)]
    segments = [
        ("ack" if sent in ack_times.get(dst, ()) else "timer", uid in dropped)
        for t, uid, kind, dst, sent in arrivals
        if kind == "tcp" and dst > k and t >= v.WARMUP_S
    ]
    misfits = int(len(at_drop) - counts.max()) if len(at_drop) else 0
    return {"samples": samples, "segments": segments, "misfits": misfits}


def _ap_queue_wlansim(k: int, buffer: int, seed: int, duration_s: float) -> dict:
    """wlansim: the AP's `queue_length` every millisecond and its downloads' segments
    (classed as on ns-2's side; found full when the AP's queue refused them)."""
    import numpy as np

    s = v.tcp_updown_scenario(buffer, duration_s, v.WARMUP_S, k)
    s["output"] = {"series": ["queue_length"], "series_interval": f"{STEP_S * 1e3:g} ms",
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
            segments.append(("ack" if round(created, 9) in acks else "timer", why == "queue"))
    return {"samples": samples, "segments": segments, "misfits": 0}


def _runs_of(full: np.ndarray) -> np.ndarray:
    """Lengths (samples) of the runs of True in `full`."""
    import numpy as np

    edges = np.diff(np.concatenate([[0], full.astype(int), [0]]))
    return np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)


def _autocorr(x: np.ndarray, lag: int) -> float:
    x = x - x.mean()
    return float((x[:-lag] * x[lag:]).mean() / x.var()) if x.var() > 0 else float("nan")


LAGS_MS = (1, 10, 100, 1000)


def _ap_queue_row(sim: str, sides: list[dict], buffer: int) -> dict:
    """One simulator's row of :func:`ap_queue` from its seeds' sides."""
    import numpy as np

    samples = np.concatenate([s["samples"] for s in sides])
    full = [s["samples"] >= buffer for s in sides]
    periods = np.concatenate([_runs_of(f) for f in full]) * STEP_S * 1e3
    segments = [seg for s in sides for seg in s["segments"]]
    row: dict = {"sim": sim, "full_pct": 100 * np.mean(samples >= buffer),
                 "mean_level": samples.mean()}  # fmt: skip
    for q, x in zip((10, 25, 50, 75, 90), np.percentile(samples, [10, 25, 50, 75, 90])):
        row[f"level_q{q}"] = x
    row["near_full_pct"] = 100 * np.mean(samples >= buffer - 1)
    for cls in ("timer", "ack"):
        mine = [d for c, d in segments if c == cls]
        row[f"{cls}_segments"] = len(mine)
        row[f"{cls}_found_full_pct"] = 100 * np.mean(mine) if mine else float("nan")
    row["full_periods"] = len(periods)
    none = [float("nan")] * 4
    mean_and_quantiles = (
        [periods.mean(), *np.percentile(periods, [50, 90, 99])] if len(periods) else none
    )
    for key, x in zip(("period_mean_ms", "period_q50_ms", "period_q90_ms", "period_q99_ms"),
                      mean_and_quantiles):  # fmt: skip
        row[key] = x
    for lag in LAGS_MS:
        row[f"autocorr_{lag}ms"] = np.mean([_autocorr(f, lag) for f in full])
    row["misfits"] = sum(s["misfits"] for s in sides)
    return row


def ap_queue(k: int, buffer: int, seeds: list[int], duration_s: float, layout: str):
    """The AP's buffer on both sides (full = B packets: ns-2's IFQ holds B − 1 and its MAC
    one, wlansim's queue of B the served frame as its head), sampled every millisecond
    from the warm-up's end over `seeds`: the share of samples full, the mean level and its
    quantiles, the share at B − 1 or more; per class of download segment ("timer": sent by
    a timeout, "ack": sent as an ACK arrived) how many and the share that found the buffer
    full; the full periods (runs of full samples), their mean and quantile lengths, and
    the full indicator's autocorrelation at :data:`LAGS_MS`; ns-2's ``misfits``
    (:func:`_ap_queue_ns2`). A table with a row per simulator, and its lines."""
    import pandas as pd

    ns2 = [_ap_queue_ns2(k, buffer, seed, duration_s, layout) for seed in seeds]
    ours = [_ap_queue_wlansim(k, buffer, seed, duration_s) for seed in seeds]
    table = pd.DataFrame([_ap_queue_row("ns-2", ns2, buffer),
                          _ap_queue_row("wlansim", ours, buffer)])  # fmt: skip
    lines = []
    for r in table.to_dict(orient="records"):
        quantiles = " ".join(f"{r[f'level_q{q}']:g}" for q in (10, 25, 50, 75, 90))
        lines += [
            f"{r['sim']}: full {r['full_pct']:.1f} % of 1 ms samples, mean level "
            f"{r['mean_level']:.1f}, quantiles 10/25/50/75/90 % {quantiles}; level >= B - 1: "
            f"{r['near_full_pct']:.1f} %",
            *[
                f"  {c} segments: {r[f'{c}_segments']}, found full {r[f'{c}_found_full_pct']:.1f} %"
                for c in ("timer", "ack")
            ],  # fmt: skip
            f"  full periods: {r['full_periods']}, mean {r['period_mean_ms']:.1f} ms, quantiles "
            "50/90/99 % "
            + " ".join(f"{r[f'period_q{q}_ms']:g}" for q in (50, 90, 99))
            + " ms; autocorrelation of full at 1/10/100/1000 ms: "
            + " ".join(f"{r[f'autocorr_{lag}ms']:.2f}" for lag in LAGS_MS),
        ]
        if r["sim"] == "ns-2":
            lines.append(f"  IFQ drops that did not find the rebuilt level at B: {r['misfits']}")
    return table, lines


# --------------------------------------------------------------------------- pause-slots

SLOT_S = 20e-6

#: gdb's Python: log each pause of ns-2's `BackoffTimer` (clock, timer, stime, rtime,
#: difs_wait, read at their offsets in Debian's ns2 2.35+dfsg-5 build) and each expiry.
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
#: the command a run of :func:`_pause_counts` goes under
GDB = ("gdb", "-batch", "-x", "probe.py", "-ex", "run", "--args")


def binade(t: float) -> str:
    """The binade of clock value `t` s, e.g. "[8, 16) s" ("[0, 1) s" below 1 s)."""
    lo = 1
    while lo * 2 <= t:
        lo *= 2
    return f"[{lo}, {2 * lo}) s" if t >= 1 else "[0, 1) s"


def _pause_counts(k: int, buffer: int, seed: int, duration_s: float, layout: str) -> Counter:
    """ns-2's backoff pauses of one run, counted per (clock binade, transmitter, class)."""
    tcl = v.tcp_updown_tcl(buffer, duration_s, v.WARMUP_S, seed, k, layout=layout)
    events_file = "backoff_events.txt"
    run = run_script(_traced(tcl, ("mac",)), under=GDB, files={"probe.py": GDB_SCRIPT},
                     read=(TRACE_FILE, events_file))  # fmt: skip
    lines = run.files[TRACE_FILE].splitlines()
    events = [x.split() for x in run.files[events_file].splitlines()]
    starts = []
    for line in lines:
        f = line.split()
        if len(f) >= 7 and f[0] == "s" and f[3] == "MAC":
            starts.append((float(f[1]), int(f[2].strip("_"))))
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
    out: Counter = Counter()
    for e in events:
        if e[0] != "P":
            continue
        now, stime, difs = float(e[1]), float(e[3]), float(e[5])
        since = now - (stime + difs)
        if since < SLOT_S / 2:
            continue
        x = since / SLOT_S
        frac = x - int(x)
        cls = "lost" if frac > 1 - 1e-6 else "counted" if frac < 1e-6 else "unaligned"
        i = bisect.bisect_right(times, now + 1e-10) - 1
        while i >= 0 and starts[i][1] == node.get(e[2]):
            i -= 1
        if i < 1 or now - starts[i][0] > 1e-7:
            continue
        who = "last sender won" if starts[i][1] == starts[i - 1][1] else "another node won"
        out[(binade(now), who, cls)] += 1
    return out


def pause_slots(k: int, buffer: int, seeds: list[int], duration_s: float, layout: str):
    """ns-2.35's backoff pauses (`BackoffTimer::pause`, mac/mac-timers.cc, counts
    `int((now - (stime + difs_wait)) / slot)` slots from doubles), logged inside ns-2 with
    gdb (breakpoints on `BackoffTimer::pause` and `handle`), each matched with the
    transmission that caused it (the MAC trace's `s` line at most 100 ns earlier) and the
    frame before that one. A pause is *aligned* when `now - (stime + difs_wait)` is within
    10⁻⁶ slot of a whole number of slots: the exact count is that number, and ns-2 counts
    one fewer when the double comes out below it ("lost") or all of them ("counted").
    Summed over `seeds`, per binade of the clock (pauses after at least half a slot) and
    transmitter (whether it also sent the frame before: "last sender won"): the aligned
    pauses lost and counted, the unaligned ones, and the share lost among the aligned. A
    table with a row per (clock, transmitter), and its lines."""
    import pandas as pd

    total: Counter = Counter()
    for seed in seeds:
        total += _pause_counts(k, buffer, seed, duration_s, layout)
    keys = sorted({key[:2] for key in total}, key=lambda c: (float(c[0][1:].split(",")[0]), c[1]))
    rows = []
    for clock, who in keys:
        c = {cls: total[(clock, who, cls)] for cls in ("lost", "counted", "unaligned")}
        aligned = c["lost"] + c["counted"]
        rows.append({"clock": clock, "transmitter": who, **c,
                     "lost_share": c["lost"] / aligned if aligned else float("nan")})  # fmt: skip
    seeds_text = ",".join(map(str, seeds))
    lines = [
        f"ns-2.35, k = {k}, B = {buffer}, seeds {seeds_text}, {duration_s:g} s: backoff pauses",
        f"{'clock':>14} {'transmitter':>17} {'lost':>6} {'counted':>8} {'unaligned':>10} "
        f"{'lost/aligned':>13}",
    ]
    for r in rows:
        share = "-" if r["lost_share"] != r["lost_share"] else f"{r['lost_share']:.2f}"
        lines.append(f"{r['clock']:>14} {r['transmitter']:>17} {r['lost']:>6} "
                     f"{r['counted']:>8} {r['unaligned']:>10} {share:>13}")  # fmt: skip
    columns = ["clock", "transmitter", "lost", "counted", "unaligned", "lost_share"]
    return pd.DataFrame(rows, columns=columns), lines


# --------------------------------------------------------------------------- tie-collisions

#: two frames starting closer than this collided
GAP_S = 30e-6
CLASSES = ("successes", "acker+acked", "acker+third", "acked+third", "third+third")


def classify(accesses: list[tuple[str, str, list[str]]]) -> Counter:
    """Per success (sender, receiver) the next access (its senders), classed by who
    collides: the node that sent the ACK ("acker"), the node whose frame it acknowledged
    ("acked"), or a node of neither ("third")."""
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


def ns2_accesses(lines: list[str], t0: float) -> list[tuple[str, str, list[str]]]:
    """From ns-2's MAC trace (`s` lines of data frames and ACKs) after `t0`: per data frame
    and its ACK, (sender, receiver, the senders of the next access)."""
    frames = []  # (time, node, destination, kind)
    for line in lines:
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
    """The same from a capture of the BSS (every attempt with its bad-FCS flag: one without
    it was acknowledged), read with tshark; the ACK records are left out."""
    fields = ["frame.time_relative", "wlan.ta", "wlan.ra", "radiotap.flags.badfcs"]
    cmd = ["tshark", "-r", pcap, "-Y", "wlan.fc.type_subtype != 0x001d", "-T", "fields"]
    cmd += [a for x in fields for a in ("-e", x)]
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


def tie_collisions(k: int, buffer: int, seeds: list[int], duration_s: float, layout: str):
    """After a data frame and its ACK, the next access is one frame or a collision of two
    frames started within :data:`GAP_S`; summed over `seeds`, the successes and the
    collisions after them by who collides (:func:`classify`): ns-2 from its MAC trace
    (stations on `layout`), wlansim from a capture of the BSS (``pcap_per = "bss"``), both
    from the warm-up's end. ns-2 gives each pair of nodes its own propagation delay
    (distance / c), wlansim one for all. A table with a row per simulator, and its lines."""
    import pandas as pd

    totals = {"ns-2": Counter(), "wlansim": Counter()}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            tcl = v.tcp_updown_tcl(buffer, duration_s, v.WARMUP_S, seed, k, layout=layout)
            trace = _trace(_traced(tcl, ("mac",)))
            totals["ns-2"] += classify(ns2_accesses(trace, v.WARMUP_S))
            s = v.tcp_updown_scenario(buffer, duration_s, v.WARMUP_S, k)
            s["output"] = {"pcap": str(Path(tmp) / f"pcap{seed}"), "pcap_per": "bss"}
            wlansim.run(s, seed=seed)
            (pcap,) = glob.glob(str(Path(tmp) / f"pcap{seed}" / "bss-*.pcap"))
            totals["wlansim"] += classify(wlansim_accesses(pcap, v.WARMUP_S))
    table = pd.DataFrame([{"sim": sim, **{key: c[key] for key in CLASSES}}
                          for sim, c in totals.items()])  # fmt: skip
    lines = [
        f"k = {k}, B = {buffer}, seeds {','.join(map(str, seeds))}, ns-2's stations on the "
        f"{layout}, {duration_s - v.WARMUP_S:g} s measured per run: accesses after a success",
        f"{'':8s}" + "".join(f"{key:>13s}" for key in CLASSES),
        *[f"{sim:8s}" + "".join(f"{c[key]:13d}" for key in CLASSES) for sim, c in totals.items()],
    ]
    return table, lines


# --------------------------------------------------------------------------- the command

_RUN = {"ap-queue": ap_queue, "pause-slots": pause_slots, "tie-collisions": tie_collisions}


def probe(name: str, k: int, buffer: int, seeds: int, duration_s: float, layout: str,
          out: str | Path) -> Result:  # fmt: skip
    """``wlansim validate ns2 --probe NAME``: run probe `name` at (`k`, `buffer`) with seeds
    1..`seeds` of `duration_s` seconds, ns-2's stations on `layout`; write its table as
    ``out/probe-NAME.csv``; the lines it prints, and its rows for ``--json``."""
    from wlansim.errors import ScenarioError

    if name not in PROBES:
        raise ScenarioError(f"--probe {name!r}: one of {', '.join(PROBES)}")
    if ns_binary() is None:
        return Result(INSTALL_HINT)
    missing = [p for p in PROBES[name] if shutil.which(p) is None]
    if missing:
        return Result(f"--probe {name} needs {', '.join(missing)} on the PATH (Debian "
                      f"package{'s' if len(missing) > 1 else ''} {' '.join(missing)})")  # fmt: skip
    at_least("--k", k)
    at_least("--buffer", buffer, 2, "ns-2's interface queue of 1 refuses every packet")
    at_least("--reps", seeds)
    past_warmup(duration_s, v.WARMUP_S)
    if layout not in v.TCP_LAYOUTS:
        raise ScenarioError(f"--layout {layout!r}: one of {', '.join(v.TCP_LAYOUTS)}")
    table, lines = _RUN[name](k, buffer, list(range(1, seeds + 1)), duration_s, layout)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"probe-{name}.csv"
    table.to_csv(path, index=False)
    return Result("\n".join([*lines, f"wrote {path}"]), table.to_dict(orient="records"),
                  {name: table}, [], [path])  # fmt: skip
