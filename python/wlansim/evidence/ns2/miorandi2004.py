"""miorandi2004's scenarios in ns-2.35 (``wlansim reproduce miorandi2004 --against ns2``):
saturated stations (Figs 1-2), persistent downloads (Figs 3-5, 13, §3.1's 802.11a runs)
and the HTTP-like on/off sessions (Tables 2-3, Figs 7-10), each the study's wlansim
scenario (:mod:`wlansim.evidence.studies.miorandi2004` under ``profile = "ns2"``) written
for ns-2.35.

The cell: a wired host on a 100 Mb/s, 0.1 ms link behind the AP (the study's server),
stations 10 m from the AP on a half circle with capture off (every overlap destroys both
frames: wlansim's shared medium; :mod:`wlansim.evidence.ns2.pilosof2003` says why the
half circle), DSDV on the wireless nodes (its 20 bytes on what they originate, as the
profile's ``routing_agent``), ARP and DSDV's routes primed by one UDP packet each way
between the host and every station at 10 ms, and nothing measured before
:data:`WARMUP_S`. `Mac/802_11` with Table 1: 802.11b at 11 Mb/s, control frames at 2 Mb/s,
the long PLCP (144 + 48 bits at 1 Mb/s), slot 20 µs, SIFS 10 µs (DIFS 50 µs),
`CWMin_` 31 and `CWMax_` 1023 (ns-2 draws the backoff in 0..CW: Table 1's CW_min 32 and
CW_max 1024 in its "0..CW − 1"), RTS/CTS before every frame (`RTSThreshold_` 0), a short
retry limit of 7 (m); for §3.1's 802.11a runs 54 Mb/s data, 6 Mb/s control, slot 9 µs,
SIFS 16 µs and a 20 µs PLCP (96 + 24 bits at 6 Mb/s), the window as on 802.11b (wlansim's
ns2 profile keeps CWMin_ 31 on every PHY). TCP: ns-2's `Agent/TCP` (Tahoe; `/Newreno`
where swept), 1000-byte packets, `window_` W*, `windowInit_` d, `minrto_` as the point
says; the receivers a `TCPSink` (d = 1) or a `TCPSink/DelAck` (d = 2) whose `interval_`
is the delayed-ACK timer τ. ns-2.35 has no sink that ACKs every d > 2 segments and not
Altman and Jiménez's dynamic delayed ACK: :func:`needs` says so for such points.

Saturated stations send 1000-byte UDP payloads (1028 IP bytes, ns-2's CBR
`packetSize_`) to a `LossMonitor` on the AP, each at four times its share of the cell;
the stations' MAC frames are traced: P_C is the share of their RTS frames no CTS answered,
P_drop the share of their packets dropped at the retry limit (`D ... MAC ... RET`).

Sessions: each station's files and think times come from an `RNG` of its own, seeded
from the run's seed and the station, so that one seed downloads the same files whatever
W*, d or the buffer (paired comparisons, as wlansim's). A file is requested when the
station's think time ends (the first one too); its transfer resets the host's agent and
the station's sink (a fresh connection: ns-2's one-way TCP models the SYN with a 40-byte
first packet, `syn_`) and sends the file with `Application/FTP send` (padded to whole
packets, footnote 1); the session ends when the agent calls `done` (its last packet
acknowledged, as wlansim's sessions end), and its delay is the time from the request.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

from wlansim.evidence.ns2.run import TRACE_FILE, per_seed, run_script, stored
from wlansim.evidence.ns2.tcl import (
    UDP_IP_HEADER,
    arc_positions,
    arp_prime,
    mac_802_11,
    place,
    tcp_agent,
    tcp_transfer,
    wired_cum_wireless,
)

#: seconds before anything is measured: DSDV's routes and ARP (primed at 10 ms)
WARMUP_S = 10.0
#: the study's server link
LINK = "100Mb 0.1ms"
#: the study's TCP packets (L_TCP = 8000 bits)
MSS = 1000
#: trace node id of the AP (the host is 0; stations from 2 on)
AP_NODE = 1
#: `Mac/802_11` by PHY: Table 1's 802.11b and the study's 802.11a
PHYS = {
    "802.11b": mac_802_11(
        "11Mb", "2Mb", True, SlotTime_="0.000020", SIFS_="0.000010", PreambleLength_=144,
        PLCPHeaderLength_=48, PLCPDataRate_="1.0e6", CWMin_=31, CWMax_=1023,
        ShortRetryLimit_=7, LongRetryLimit_=4,
    ),
    "802.11a": mac_802_11(
        "54Mb", "6Mb", True, SlotTime_="0.000009", SIFS_="0.000016", PreambleLength_=96,
        PLCPHeaderLength_=24, PLCPDataRate_="6.0e6", CWMin_=31, CWMax_=1023,
        ShortRetryLimit_=7, LongRetryLimit_=4,
    ),
}  # fmt: skip
#: what stock ns-2.35 lacks for a delayed-ACK option
NEEDS = {
    "d": "a receiver that ACKs every d-th segment for d > 2 (ns-2.35's TCPSink/DelAck ACKs "
    "every 2nd)",
    "dynamic": "Altman and Jiménez's dynamic delayed ACK (not in ns-2.35)",
}


def needs(d) -> str:
    """What stock ns-2.35 lacks to run delayed-ACK option `d` (1, 2, 3, ... or
    "dynamic"): "" when it can."""
    if str(d) == "dynamic":
        return NEEDS["dynamic"]
    return NEEDS["d"] if int(d) > 2 else ""


def _sink(d, tau_ms: float) -> tuple[str, str]:
    """The receiver class of delayed-ACK option `d` and its settings."""
    why = needs(d)
    if why:
        raise ValueError(f"delayed ACK d = {d}: ns-2.35 cannot run it; it needs {why}")
    if int(d) == 1:
        return "Agent/TCPSink", ""
    return "Agent/TCPSink/DelAck", f"Agent/TCPSink/DelAck set interval_ {tau_ms / 1e3:g}\n"


def _cell(seed: int, stations: int, ap_queue: int, station_queue: int = 50, phy="802.11b",
          **trace) -> tuple[str, list[str]]:  # fmt: skip
    """The head of a script and its stations' names: the wired host `$host`, the AP and
    `stations` stations `$s0`.. on a half circle, each primed both ways at 10 ms."""
    head = wired_cum_wireless(seed, stations, PHYS[phy], ap_queue, LINK, station_queue, **trace)
    names = []
    for i, (x, y) in enumerate(arc_positions(stations, math.pi)):
        s = f"s{i}"
        names.append(s)
        head += place(s, x, y, f"1.0.{i + 1}")
        head += arp_prime(f"down{i}", "host", s, 0.01 + 0.002 * i)
        head += arp_prime(f"up{i}", s, "host", 0.011 + 0.002 * i)
    return head, names


def _tcp_settings(w_star: int, d, variant: str, min_rto_ms: float, tau_ms: float) -> str:
    """`Agent/TCP`'s class settings of a point (before the agents are made, so that
    ssthresh_ starts at the window) and its sink's."""
    _, sink = _sink(d, tau_ms)
    tcp_agent(variant)  # a clear error for a variant the scripts do not run
    return (
        f"Agent/TCP set packetSize_ {MSS}\nAgent/TCP set window_ {w_star}\n"
        f"Agent/TCP set windowInit_ {int(d)}\nAgent/TCP set minrto_ {min_rto_ms / 1e3:g}\n" + sink
    )


# --------------------------------------------------------------------------- saturated

#: the largest rate of the 802.11b cell in 1000-byte packets per second (RTS/CTS)
CELL_PACKETS_S = 600.0

_MAC = re.compile(r"^([srD]) (\S+) _(\d+)_ MAC +(\S+) +\d+ (RTS|CTS|ACK|cbr) ", re.MULTILINE)


def saturated_script(n_b: int, seed: int, duration_s: float = 60.0) -> str:
    """Figs 1-2: `n_b` stations each offering four times its share of the cell in
    1000-byte UDP payloads to the AP, measured for `duration_s` after the warm-up."""
    head, names = _cell(seed, n_b, 50, mac_trace=True, wired_trace=False)
    interval = n_b / (4 * CELL_PACKETS_S)
    parts = [f"# ns-2.35 script by wlansim (evidence/ns2/miorandi2004.py): {n_b} saturated\n",
             head, "set sink [new Agent/LossMonitor]\n$ns attach-agent $ap $sink\n"]  # fmt: skip
    for i, s in enumerate(names):
        parts.append(
            f"set u{i} [new Agent/UDP]\n$ns attach-agent ${s} $u{i}\n$ns connect $u{i} $sink\n"
            f"set c{i} [new Application/Traffic/CBR]\n$c{i} set packetSize_ {MSS + UDP_IP_HEADER}\n"
            f"$c{i} set interval_ {interval:.9g}\n$c{i} attach-agent $u{i}\n"
            f'$ns at {WARMUP_S - 1 + 0.001 * i:.6f} "$c{i} start"\n'
        )  # fmt: skip
    parts.append(_finish(WARMUP_S + duration_s))
    return "".join(parts)


def _finish(at: float, body: str = "", globals_: str = "") -> str:
    return f"""proc finish {{}} {{
    global ns tf {globals_}
{body}    $ns flush-trace
    close $tf
    exit 0
}}
$ns at {at} "finish"
$ns run
"""


def saturated_run(n_b: int, seed: int, duration_s: float = 60.0, store: Path | None = None):
    """One saturated run: the stations' RTS frames (``sta_attempts``), the share no CTS
    answered (``p_collision_sta``) and the share of their packets dropped at the retry
    limit (``p_drop_sta``), after the warm-up; `wall_s`, `cpu_s`; kept in `store`
    (:func:`wlansim.evidence.ns2.run.stored`)."""
    text = saturated_script(n_b, seed, duration_s)
    return stored(store, text, lambda: _saturated_row(text, seed))


def _saturated_row(text: str, seed: int) -> dict:
    run = run_script(text, read=(TRACE_FILE,), drops=False)
    rts = cts = acks = drops = 0
    for ev, t, node, what, kind in _MAC.findall(run.files[TRACE_FILE]):
        if float(t) < WARMUP_S or int(node) == AP_NODE:
            continue
        if ev == "s" and kind == "RTS":
            rts += 1
        elif ev == "r" and kind == "CTS":
            cts += 1
        elif ev == "r" and kind == "ACK":
            acks += 1
        elif ev == "D" and what == "RET" and kind == "cbr":
            drops += 1
    return {
        "seed": seed,
        "sta_attempts": float(rts),
        "p_collision_sta": 1 - cts / rts if rts else math.nan,
        "p_drop_sta": drops / (acks + drops) if acks + drops else math.nan,
        "wall_s": run.wall_s,
        "cpu_s": run.cpu_s,
    }


def saturated_ties(n_b: int, seed: int, duration_s: float = 5.0, rts: bool = True) -> dict:
    """Who transmits first after a success among `n_b` saturated stations (every node's
    MAC traced), and where on the slot grid: for each first transmission (RTS, or the
    data frame without RTS/CTS) after a station received its MAC ACK, whether that
    station sent it (``last_sender``) and its offset past DIFS + whole slots from that
    ACK's end, in µs to 3 decimals. Returns ``{"firsts": {(last_sender, offset): count},
    "p_collision_sta": ...}``: how ns-2.35 times the deferring stations against the last
    sender (miorandi2004's ``DIFFERENCES``)."""
    script = saturated_script(n_b, seed, duration_s).replace("-macTrace OFF", "-macTrace ON")
    if not rts:
        script = script.replace("RTSThreshold_ 0", "RTSThreshold_ 3000")
    run = run_script(script, read=(TRACE_FILE,), drops=False)
    first = "RTS" if rts else "cbr"
    slot, difs = 20.0, 50.0
    firsts: dict[tuple[bool, float], int] = {}
    ack_end, sender = None, None
    sent = answered = 0
    for ev, t, node, _what, kind in _MAC.findall(run.files[TRACE_FILE]):
        if float(t) < WARMUP_S or int(node) == AP_NODE:
            continue
        if ev == "r" and kind == "ACK":
            ack_end, sender = float(t), node
            answered += not rts
        elif ev == "r" and kind == "CTS":
            answered += 1
        elif ev == "s" and kind == first:
            sent += 1
            if ack_end is not None:
                gap = (float(t) - ack_end) * 1e6 - difs
                key = (node == sender, round(gap - slot * math.floor(gap / slot + 1e-9), 3) + 0.0)
                firsts[key] = firsts.get(key, 0) + 1
                ack_end = None
    return {"firsts": firsts, "p_collision_sta": 1 - answered / sent if sent else math.nan}


# --------------------------------------------------------------------------- persistent

_DROP = re.compile(rf"^D (\S+) _{AP_NODE}_ IFQ +\S+ \d+ tcp ", re.MULTILINE)


def persistent_script(p: dict, seed: int, duration_s: float = 60.0, warmup_s: float = 1.0):
    """A persistent point (the study's ``PERSISTENT`` keys): an endless download from the
    host to each station from :data:`WARMUP_S`, measured over `duration_s` after
    `warmup_s` more (the study's 1 s). Prints per flow what changed over the window:
    `flow I packets N timeouts N rexmits N`."""
    tcp = _tcp_settings(p["w_star"], p["d"], p["variant"], p.get("min_rto_ms", 200), p["tau_ms"])
    head, names = _cell(seed, p["stations"], p["ap_queue"], phy=p["phy"], wired_trace=False)
    sink = _sink(p["d"], p["tau_ms"])[0]
    agent = tcp_agent(p["variant"])
    parts = [f"# ns-2.35 script by wlansim (evidence/ns2/miorandi2004.py): persistent {p}\n",
             head, tcp]  # fmt: skip
    for i, s in enumerate(names):
        parts.append(tcp_transfer(f"f{i}", "host", s, WARMUP_S, agent, sink))
    agents = " ".join(f"f{i}" for i in range(len(names)))
    start = WARMUP_S + warmup_s
    parts.append(f"""proc counters {{}} {{
    global {agents}
    set out {{}}
    foreach a [list {" ".join(f"$f{i}" for i in range(len(names)))}] {{
        lappend out [list [$a set ack_] [$a set nrexmit_] [$a set nrexmitpack_]]
    }}
    return $out
}}
set marks {{}}
proc mark {{}} {{ global marks; set marks [counters] }}
$ns at {start} "mark"
""")
    body = """    set i 0
    foreach now [counters] then $marks {
        puts "flow $i packets [expr [lindex $now 0] - [lindex $then 0]] timeouts [expr \\
            [lindex $now 1] - [lindex $then 1]] rexmits [expr [lindex $now 2] - [lindex $then 2]]"
        incr i
    }
"""
    parts.append(_finish(start + duration_s, body, "marks"))
    return "".join(parts)


def persistent_run(p: dict, seed: int, store: Path | None = None, duration_s: float = 60.0,
                   warmup_s: float = 1.0) -> dict:  # fmt: skip
    """One persistent run: the study's columns (goodput over the window, timeouts,
    retransmitted packets, the AP's queue drops of data) from ns-2.35; kept in `store`."""
    text = persistent_script(p, seed, duration_s, warmup_s)
    return stored(store, text, lambda: _persistent_row(text, p, seed, duration_s, warmup_s))


def _persistent_row(text: str, p: dict, seed: int, duration_s: float, warmup_s: float):
    run = run_script(text, read=(TRACE_FILE,), drops=False)
    flows = re.findall(r"^flow \d+ packets (-?\d+) timeouts (\d+) rexmits (\d+)$", run.stdout,
                       re.MULTILINE)  # fmt: skip
    if len(flows) != p["stations"]:
        raise RuntimeError(f"ns-2 printed {len(flows)} flows of {p['stations']}:\n{run.stdout}")
    start = WARMUP_S + warmup_s
    drops = sum(float(t) >= start for t in _DROP.findall(run.files[TRACE_FILE]))
    return {
        "seed": seed,
        "goodput_bps": sum(int(f[0]) for f in flows) * MSS * 8 / duration_s,
        "timeouts": float(sum(int(f[1]) for f in flows)),
        "retransmissions": float(sum(int(f[2]) for f in flows)),
        "ap_queue_drops_data": float(drops),
        "dropped_packets": float(drops),
        "wall_s": run.wall_s,
        "cpu_s": run.cpu_s,
    }


# --------------------------------------------------------------------------- sessions


def _size_rv(size: str, mean_bytes: float) -> str:
    """A `RandomVariable` of the file sizes (bytes): Pareto of shape 1.5 or exponential."""
    if size == "pareto":
        return f"RandomVariable/Pareto]\n$size set avg_ {mean_bytes:g}\n$size set shape_ 1.5"
    if size == "exponential":
        return f"RandomVariable/Exponential]\n$size set avg_ {mean_bytes:g}"
    raise ValueError(f"size {size!r}: pareto or exponential")


def sessions_script(p: dict, seed: int) -> str:
    """A sessions point (the study's ``SESSION`` keys): `files` files per station, each
    after a think time (see the module). Prints `session STATION BYTES DELAY_S TIMEOUTS
    REXMITS` per finished file and, at the end (when every station is done, or at the
    study's limit), `left STATION N` for the files not done."""
    tcp = _tcp_settings(p["w_star"], p["d"], p["variant"], p["min_rto_ms"], p["tau_ms"])
    trace = p["ap_queue"] < LARGE  # drops are possible: trace them
    head, names = _cell(seed, p["stations"], p["ap_queue"], station_queue=LARGE, trace=trace,
                        wired_trace=False)  # fmt: skip
    sink = _sink(p["d"], p["tau_ms"])[0]
    agent = tcp_agent(p["variant"])
    end = WARMUP_S + p["files"] * (p["think_s"] + 5) + 1000
    parts = [f"# ns-2.35 script by wlansim (evidence/ns2/miorandi2004.py): sessions {p}\n",
             head, tcp]  # fmt: skip
    for i, s in enumerate(names):
        parts.append(tcp_transfer(f"t{i}", "host", s, None, agent, sink))
        parts.append(f"""set rng [new RNG]
$rng seed {seed * 1000 + i + 1}
set size [new {_size_rv(p["size"], p["mean_bytes"])}
$size use-rng $rng
set think [new RandomVariable/Exponential]
$think set avg_ {p["think_s"]:g}
$think use-rng $rng
set sizes({i}) $size
set thinks({i}) $think
set left({i}) {p["files"]}
$t{i} proc done {{}} "finished {i}"
$ns at [expr {{{WARMUP_S} + [$think value]}}] "request {i}"
""")
    parts.append("""proc request {i} {
    global ns sizes start bytes
    set bytes($i) [expr {max(1, int(ceil([$sizes($i) value])))}]
    set start($i) [$ns now]
    [set ::t$i] reset
    [set ::t${i}_sink] reset
    [set ::t${i}_ftp] send $bytes($i)
}
proc finished {i} {
    global ns thinks start bytes left
    set now [$ns now]
    set a [set ::t$i]
    puts "session $i $bytes($i) [expr {$now - $start($i)}] [$a set nrexmit_] \\
        [$a set nrexmitpack_]"
    incr left($i) -1
    if {$left($i) > 0} {
        $ns at [expr {$now + [$thinks($i) value]}] "request $i"
    } elseif {[alldone]} {
        finish
    }
}
proc alldone {} {
    global left
    foreach i [array names left] { if {$left($i) > 0} { return 0 } }
    return 1
}
""")
    body = """    foreach i [lsort -integer [array names left]] { puts "left $i $left($i)" }
"""
    parts.append(_finish(end, body, "left"))
    return "".join(parts)


#: "no drops": the study's buffers of 10,000 packets
LARGE = 10_000
_SESSION = re.compile(r"^session (\d+) (\d+) (\S+) (\d+)\s+(\d+)$", re.MULTILINE)
#: the study's size classes (wlansim.session_stats)
MICE_BYTES = 100_000


def sessions_run(p: dict, seed: int, per_file=None, store: Path | None = None) -> dict:
    """One sessions run: the study's columns (mean session delay, of mice and elephants,
    sessions done and not, the mean file size, timeouts and retransmitted packets, the
    AP's queue drops) from ns-2.35, and `per_file(sizes)`'s columns (the finished files'
    sizes in bytes, in the order they finished); kept in `store`."""
    text = sessions_script(p, seed)
    row = dict(stored(store, text, lambda: _sessions_row(text, seed)))
    sizes = row.pop("file_sizes")
    return {**(per_file(sizes) if per_file is not None and sizes else {}), **row}


def _sessions_row(text: str, seed: int) -> dict:
    run = run_script(text, read=(TRACE_FILE,), drops=False)
    rows = [(int(i), int(b), float(d), int(t), int(r))
            for i, b, d, t, r in _SESSION.findall(run.stdout)]  # fmt: skip
    left = sum(int(n) for n in re.findall(r"^left \d+ (\d+)$", run.stdout, re.MULTILINE))
    delays = [r[2] for r in rows]
    mice = [r[2] for r in rows if r[1] < MICE_BYTES]
    elephants = [r[2] for r in rows if r[1] >= MICE_BYTES]
    drops = len(_DROP.findall(run.files.get(TRACE_FILE, "")))

    def mean(xs):
        return sum(xs) / len(xs) if xs else math.nan

    return {
        "file_sizes": [r[1] for r in rows],
        "seed": seed,
        "session_delay_mean_s": mean(delays),
        "session_delay_mice_s": mean(mice),
        "session_delay_elephants_s": mean(elephants),
        "sessions": float(len(rows)),
        "sessions_unfinished": float(left),
        "sessions_with_timeout": float(sum(r[3] > 0 for r in rows)),
        "file_bytes_mean": mean([r[1] for r in rows]),
        "timeouts": float(sum(r[3] for r in rows)),
        "retransmissions": float(sum(r[4] for r in rows)),
        "ap_queue_drops_data": float(drops),
        "dropped_packets": float(drops),
        "wall_s": run.wall_s,
        "cpu_s": run.cpu_s,
    }


# --------------------------------------------------------------------------- tables


def runs(points: list[dict], seeds: list[int], run, jobs: int = 1) -> pd.DataFrame:
    """One row per point and seed: the point's keys, then `run(point, seed)`'s columns;
    `jobs` ns-2 processes at a time."""
    results = per_seed(run, points, seeds, jobs)
    return pd.DataFrame([{**p, **r} for p, rs in zip(points, results) for r in rs])
