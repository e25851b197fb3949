"""fotiadis2005's baselines in ns-2.35 (`wlansim reproduce fotiadis2005 --against ns2`).

The paper ran ns-2; stock ns-2.35 has no delay injection (Algorithm 1), so what it runs here
is the two methods injection is measured against: standard 802.11 (RetryLimit 4) and
inf-RL (no retry limit at the mobiles), in every case of the study (1, 2 or 5 mobiles, 10,
15 or 20 ms wired links of 100 Mb/s) and at every PER, with the same seeds count as the
study's plan. One Tcl script per run (:func:`tcl`), as the study's wlansim scenario
(``studies/fotiadis2005.py`` ``scenario``) with ``profile = "ns2"``:

- wired-cum-wireless, as ns-2's ``tcl/ex/wired-cum-wireless-sim.tcl``: the AP is a base
  station (hierarchical addresses, DSDV on the wireless nodes, whose 20-byte header is the
  ns2 profile's ``routing_agent`` default), each mobile's wired host behind it on its own
  100 Mb/s duplex link of the case's delay; 802.11 at 11 Mb/s, control frames at 1 Mb/s,
  RTS/CTS off (``RTSThreshold_`` 3000); interface queues of ``ifqLen`` packets (drop-tail
  ``PriQueue``), the mobiles 10 m from the AP on a circle (as ``validate ns2``'s cells);
- TCP: ``Agent/TCP/Newreno`` with ``timestamps_ true`` (Algorithm 1 reads them; ns-2's
  default is false) and ns-2.35's defaults otherwise (``window_`` 20, ``packetSize_``
  1000, ``minrto_`` 0.2 s, ``tcpTick_`` 10 ms), an FTP each, to an ``Agent/TCPSink`` on
  its host;
- losses (:func:`wlansim.evidence.ns2.tcl.packet_type_loss`): each mobile's outgoing frames
  pass a ``Filter/Field`` on the common header's packet type; its TCP data frames go
  through an ``ErrorModel/Periodic`` (unit pkt, ``period_`` 100, ``burstlen_`` = PER) that
  marks them errored, so the AP drops them unacknowledged and the mobile's MAC tries
  again: the losses fall on TCP data-frame attempts (each attempt passes the model, MAC
  ACKs, ARP and DSDV frames do not), as wlansim's per-link burst model counts them. The
  pattern's phase is ns-2's: ``offset_`` − 1 attempts delivered, then the first burst,
  ``offset_`` drawn per mobile and seed from 2 to 100 − PER + 1 (:func:`loss_offsets`), as
  wlansim's ``phase = "ns2"`` draws it: a run never starts inside a burst;
- retry limits (``ShortRetryLimit_``, attempts: ``mac-802_11.cc`` drops a frame when
  ``ssrc_`` reaches it): standard 802.11 sets 4 for every node; inf-RL sets the mobiles'
  limit beyond any run and leaves the AP at ns-2.35's default, 7 (:data:`AP_RETRY_LIMIT`);
- the flows start at :data:`START_S`, after DSDV's start-up jitter (``dsdv.cc``
  ``DSDV_STARTUP_JITTER``, 2 s: a packet sent before the base station's first
  advertisement is dropped, "Route to base_stn not known", and the flow waits 3 s for its
  timeout); both simulators measure from the study's warm-up to the run's end.

What each run reports (:func:`parse`), with the study's column names: goodput (packets
the senders saw acknowledged after the warm-up, ``ack_``, times ``packetSize_``),
timeouts (``nrexmit_``), fast retransmits (``ncwndcuts_`` − ``nrexmit_``: every window cut
that was not a timeout, as ``validate ns2``), the senders' mean RTT sample, spurious
timeouts, and the packets the mobiles' and the AP's interface queues dropped. ns-2.35 has
no Eifel detection (only F-RTO, off by default); its spurious timeouts are counted by
wlansim's rule (``tcp/sender.rs``, RFC 3522 §3.2) from the sender's traced variables
(:func:`spurious_and_rtt`): after the first timeout of a series, at time T, the first ACK
that advances ``ack_`` gives an RTT sample (``rtt_``, now − the echoed timestamp, in
``tcpTick_`` units rounded to the nearest); the timeout was spurious when the echoed
timestamp lies before T (the ACK answers a copy sent before the retransmission). A
retransmission's echo is T itself and any earlier copy's at least one RTO (≥ 2 ticks)
before it (the timer restarts after every copy), so the tick's rounding (± half a tick)
cannot confuse the two. The mean RTT is that of the samples at the ACKs that advance
``ack_`` after the warm-up, as wlansim's.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import defaultdict

import numpy as np

from wlansim.evidence.ns2.run import run_script
from wlansim.evidence.ns2.tcl import packet_type_loss, place, trace_tcp_vars
from wlansim.evidence.validations.ns2 import AP_XY, station_positions

#: The methods stock ns-2.35 runs (delay injection needs Algorithm 1 at the AP).
METHODS = ("standard", "inf-rl")
#: ns-2.35's ``Mac/802_11 set ShortRetryLimit_`` (``tcl/lib/ns-default.tcl``), the AP's
#: limit when the mobiles retry without one (the paper sets inf-RL "at the mobile nodes").
AP_RETRY_LIMIT = 7
#: ns-2.35's ``LongRetryLimit_`` (unused: every frame is below ``RTSThreshold_``).
AP_LONG_RETRY_LIMIT = 4
#: A retry limit no run reaches (ns-2 has no "unlimited").
UNLIMITED = 1_000_000_000
#: Frame attempts per loss pattern: PER·100 lost in a row in each 100.
PERIOD = 100
#: When the flows start (s): after DSDV's 2 s start-up jitter; flow i at START_S + i/100.
START_S = 2.1
#: The data packet size (bytes of TCP payload, ns-2's ``packetSize_``).
PACKET_BYTES = 1000
#: ns-2's packet type of TCP data (``common/packet.h`` PT_TCP), and of its pure ACKs.
PT_TCP, PT_ACK = 0, 5
NS2_PROFILE = "ns-2.35"


@dataclasses.dataclass(frozen=True)
class Case:
    """One baseline run's parameters: `users` mobiles uploading to hosts `delay_ms` away,
    `per_pct` % of their TCP data-frame attempts lost in bursts, `method` standard or
    inf-rl, and the open settings ns-2 can express (ns-2.35's defaults unless said)."""

    users: int
    delay_ms: int
    per_pct: int
    method: str
    rwnd: int = 20
    mobile_queue: int = 50
    ap_queue: int = 50
    min_rto_s: float | None = None  # None: ns-2.35's minrto_ 0.2 s
    retry_attempts: int = 4  # standard 802.11's ShortRetryLimit_ (attempts)
    timestamps: bool = True
    tcp_tick_s: float | None = None  # None: ns-2.35's tcpTick_ 10 ms
    both_ways: bool = False  # the AP's TCP ACK frames lose in the same pattern too

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(
                f"method {self.method!r}: ns-2.35 runs {', '.join(METHODS)} (delay "
                "injection needs the AP's Algorithm 1, not in stock ns-2.35)"
            )
        if not 0 <= self.per_pct < 100:
            raise ValueError(f"per_pct {self.per_pct}: a PER in % from 0 to 99")
        if self.both_ways and self.users != 1:
            raise ValueError(
                f"both_ways with users {self.users}: the AP's ACK losses are counted at "
                "the mobile's receiver, which hears every mobile's ACKs: 1 user only"
            )


def loss_offsets(per_pct: int, users: int, seed: int, direction: int = 0) -> list[int]:
    """Each mobile's ``offset_`` of ``ErrorModel/Periodic`` for run `seed` (`direction` 0:
    its uplink, 1: its downlink): uniform from 2 to ``PERIOD`` − PER + 1 (``offset_`` − 1
    delivered attempts before the first burst: the run starts between two bursts, never
    inside one; ``offset_`` 1 would lose the first attempt, beginning a burst)."""
    rng = np.random.default_rng([seed, per_pct, users, direction])
    return [int(k) for k in rng.integers(2, PERIOD - per_pct + 2, size=users)]


def tcl(case: Case, seed: int, duration_s: float, warmup_s: float) -> str:
    """The ns-2.35 script of one run (see the module): prints, per flow, its counters at
    the warm-up's end and the run's (``mark I ACK NREXMIT CUTS`` and ``end I …``) and, as
    they change, the sender's ``nrexmit_``, ``ack_`` and ``rtt_`` (:func:`trace_tcp_vars`)."""
    n = case.users
    loss = case.per_pct > 0
    offsets = loss_offsets(case.per_pct, n, seed) if loss else []
    down_offsets = loss_offsets(case.per_pct, n, seed, 1) if loss and case.both_ways else []
    mobile_retry = case.retry_attempts if case.method == "standard" else UNLIMITED
    ap_retry = case.retry_attempts if case.method == "standard" else AP_RETRY_LIMIT
    ap_long = case.retry_attempts if case.method == "standard" else AP_LONG_RETRY_LIMIT
    tcp = [
        f"Agent/TCP set window_ {case.rwnd}",
        f"Agent/TCP set packetSize_ {PACKET_BYTES}",
        f"Agent/TCP set timestamps_ {'true' if case.timestamps else 'false'}",
    ]
    if case.min_rto_s is not None:
        tcp.append(f"Agent/TCP set minrto_ {case.min_rto_s:g}")
    if case.tcp_tick_s is not None:
        tcp.append(f"Agent/TCP set tcpTick_ {case.tcp_tick_s:g}")
    # each host a domain of its own (hierarchical routing reaches a domain through one
    # border node: hosts sharing a domain would need links between them), the wireless
    # nodes domain n
    hosts = "".join(f"set host({i}) [$ns node {i}.0.0]\n" for i in range(n))
    links = "".join(
        f"$ns duplex-link $host({i}) $ap 100Mb {case.delay_ms}ms DropTail\n" for i in range(n)
    )
    ap_x, ap_y = AP_XY
    up_loss = (
        packet_type_loss("uplink_loss", PT_TCP, PERIOD, case.per_pct, "ems", "up_offset")
        if loss
        else ""
    )
    down_loss = (
        packet_type_loss("downlink_loss", PT_ACK, PERIOD, case.per_pct, "dems", "down_offset")
        if down_offsets
        else ""
    )
    errprocs = (" -OutgoingErrProc uplink_loss" if loss else "") + (
        " -IncomingErrProc downlink_loss" if down_loss else ""
    )
    mobile_config = f"$ns node-config -wiredRouting OFF -ifqLen {case.mobile_queue}{errprocs}"
    mobiles = []
    for i, (x, y) in enumerate(station_positions("circle", n)):
        if loss:
            mobiles.append(f"set up_offset {offsets[i]}\n")
        if down_loss:
            mobiles.append(f"set down_offset {down_offsets[i]}\n")
        mobiles.append(place(f"mob({i})", x, y, f"{n}.0.{i + 1}"))
        if loss:
            mobiles.append(f"[lindex $ems {i}] target [$mob({i}) set netif_(0)]\n")
        if down_loss:
            mobiles.append(f"[lindex $dems {i}] target [$mob({i}) set mac_(0)]\n")
        mobiles.append(f"[$mob({i}) set mac_(0)] set ShortRetryLimit_ {mobile_retry}\n")
        mobiles.append(f"[$mob({i}) set mac_(0)] set LongRetryLimit_ {mobile_retry}\n")
    flows = []
    for i in range(n):
        flows.append(
            f"set tcp({i}) [new Agent/TCP/Newreno]\n$ns attach-agent $mob({i}) $tcp({i})\n"
            f"set sink({i}) [new Agent/TCPSink]\n$ns attach-agent $host({i}) $sink({i})\n"
            f"$ns connect $tcp({i}) $sink({i})\n"
            f"set ftp({i}) [new Application/FTP]\n$ftp({i}) attach-agent $tcp({i})\n"
            f'$ns at {START_S + 0.01 * i:.2f} "$ftp({i}) start"\n'
            + trace_tcp_vars(f"tcp({i})", ("nrexmit_", "ack_", "rtt_"))
        )
    return f"""# ns-2.35 script written by wlansim (evidence/ns2/fotiadis2005.py): {n} mobile(s),
# {case.delay_ms} ms, PER {case.per_pct} %, {case.method}, seed {seed}
$defaultRNG seed {seed}
set ns [new Simulator]
$ns node-config -addressType hierarchical
AddrParams set domain_num_ {n + 1}
AddrParams set cluster_num_ {{{" ".join(["1"] * (n + 1))}}}
AddrParams set nodes_num_ {{{" ".join(["1"] * n)} {n + 1}}}
set tf [open trace.tr w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 100 100
create-god {n + 1}
Mac/802_11 set dataRate_ 11Mb
Mac/802_11 set basicRate_ 1Mb
Mac/802_11 set RTSThreshold_ 3000
Mac/802_11 set ShortRetryLimit_ {ap_retry}
Mac/802_11 set LongRetryLimit_ {ap_long}
{chr(10).join(tcp)}
{hosts}$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 \\
    -ifqType Queue/DropTail/PriQueue -ifqLen {case.ap_queue} -antType Antenna/OmniAntenna \\
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \\
    -channel [new Channel/WirelessChannel] -topoInstance $topo -wiredRouting ON \\
    -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
{place("ap", ap_x, ap_y, f"{n}.0.0")}{up_loss}{down_loss}{mobile_config}
{"".join(mobiles)}# the wired links untraced (the trace file keeps the wireless nodes' drops)
$ns trace-all ""
{links}{"".join(flows)}proc counters {{tag}} {{
    global tcp
    for {{set i 0}} {{$i < {n}}} {{incr i}} {{
        puts "$tag $i [$tcp($i) set ack_] [$tcp($i) set nrexmit_] [$tcp($i) set ncwndcuts_]"
    }}
}}
proc finish {{}} {{ counters end; exit 0 }}
$ns at {warmup_s:g} "counters mark"
$ns at {duration_s:g} "finish"
$ns run
"""


@dataclasses.dataclass(frozen=True)
class VarEvent:
    """A traced-variable line of an ns-2 TCP agent (``TcpAgent::traceVar``)."""

    t: float
    agent: int
    name: str
    value: float


_VAR = re.compile(r"^(\d+\.\d+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+(\S+)\s+(-?[\d.]+)\s*$", re.MULTILINE)


def var_events(stdout: str) -> list[VarEvent]:
    """The traced-variable lines a script printed, in order."""
    return [VarEvent(float(t), int(a), name, float(v)) for t, a, name, v in _VAR.findall(stdout)]


def spurious_and_rtt(
    events: list[VarEvent], warmup_s: float, tick_s: float
) -> tuple[int, float, int]:
    """One sender's (spurious timeouts, sum of RTT samples in s, samples) after
    `warmup_s`, from its ``nrexmit_``, ``ack_`` and ``rtt_`` lines (see the module). ns-2
    traces a variable only when its value changes: ``ack_`` at every ACK that advances
    it, ``rtt_`` (``t_rtt_``, whole ticks) only when a sample differs from the one
    before, so an ACK's sample is the value ``rtt_`` holds once the ACK's instant is over.
    A series of timeouts starts at the first ``nrexmit_`` increase after an ACK advanced;
    the next ACK that advances (ns-2 takes its sample in ``newack``: after a timeout the
    first new ACK never goes to NewReno's partial-ACK path) closes it, spurious when
    now − sample lies before the series' start by more than half a tick. The RTT samples
    are the values at every advancing ACK (in fast recovery ns-2 takes none from partial
    ACKs, and the one before stands)."""
    spurious, total, samples = 0, 0.0, 0
    rtt = math.nan
    last_ack = last_rexmit = None
    series: float | None = None
    # an ACK that advanced at this instant, its sample not yet known: (time, series)
    open_: tuple[float, float | None] | None = None

    def close():
        nonlocal spurious, total, samples
        t, started = open_
        if t < warmup_s or math.isnan(rtt):
            return
        total += rtt
        samples += 1
        if started is not None and t - rtt < started - tick_s / 2:
            spurious += 1

    for e in events:
        if open_ is not None and (e.t > open_[0] or e.name != "rtt_"):
            close()
            open_ = None
        if e.name == "rtt_":
            rtt = e.value
        elif e.name == "ack_":
            if last_ack is not None and e.value > last_ack:
                open_, series = (e.t, series), None
            last_ack = e.value
        elif e.name == "nrexmit_":
            if last_rexmit is not None and e.value > last_rexmit and series is None:
                series = e.t
            last_rexmit = e.value
    if open_ is not None:
        close()
    return spurious, total, samples


_COUNTERS = re.compile(r"^(mark|end) (\d+) (-?\d+) (\d+) (\d+)$", re.MULTILINE)


def parse(stdout: str, drops, case: Case, duration_s: float, warmup_s: float) -> dict:
    """One run's row (the study's columns) from what its script printed and the drops
    it traced."""
    marks: dict[str, dict[int, tuple[int, int, int]]] = defaultdict(dict)
    for tag, i, ack, rexmit, cuts in _COUNTERS.findall(stdout):
        marks[tag][int(i)] = (int(ack), int(rexmit), int(cuts))
    if len(marks["end"]) != case.users or len(marks["mark"]) != case.users:
        raise RuntimeError(f"ns-2 printed no counters for every flow:\n{stdout[-2000:]}")
    acked = timeouts = cuts = 0
    for i in range(case.users):
        (a0, r0, c0), (a1, r1, c1) = marks["mark"][i], marks["end"][i]
        acked += a1 - max(a0, 0)
        timeouts += r1 - r0
        cuts += c1 - c0
    by_agent: dict[int, list[VarEvent]] = defaultdict(list)
    for e in var_events(stdout):
        by_agent[e.agent].append(e)
    tick = case.tcp_tick_s if case.tcp_tick_s is not None else 0.01
    spurious, rtts = 0, []
    for events in by_agent.values():
        s, total, n = spurious_and_rtt(events, warmup_s, tick)
        spurious += s
        if n:
            rtts.append(total / n)
    # the wireless nodes' interface-queue drops after the warm-up: node 0 is the AP
    # (the first wireless node), the mobiles follow
    late = [d for d in drops if d.t >= warmup_s and d.layer == "IFQ"]
    return {
        "goodput_mbps": acked * PACKET_BYTES * 8 / (duration_s - warmup_s) / 1e6,
        "timeouts": timeouts,
        "spurious_timeouts": spurious if case.timestamps else math.nan,
        "fast_retransmits": cuts - timeouts,
        "rtt_ms": 1e3 * float(np.mean(rtts)) if rtts else math.nan,
        "mobile_drops": sum(d.node != _ap_node(case) and d.kind == "tcp" for d in late),
        "ap_ack_drops": sum(d.node == _ap_node(case) and d.kind == "ack" for d in late),
    }


def _ap_node(case: Case) -> int:
    """The AP's node id in the trace: the wired hosts come first (0 … users − 1)."""
    return case.users


def run_script_row(script: str, case: Case, duration_s: float, warmup_s: float) -> dict:
    """Run `case`'s script (:func:`tcl`); its row (:func:`parse`) with the run's wall and
    CPU seconds."""
    r = run_script(script)
    row = parse(r.stdout, r.drops, case, duration_s, warmup_s)
    row.update(ns2_wall_s=r.wall_s, ns2_cpu_s=r.cpu_s)
    return row


def run_one(case: Case, seed: int, duration_s: float, warmup_s: float) -> dict:
    """Run one case at ns-2 seed `seed` (:func:`run_script_row`)."""
    return run_script_row(tcl(case, seed, duration_s, warmup_s), case, duration_s, warmup_s)
