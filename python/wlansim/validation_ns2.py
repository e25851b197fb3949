"""wlansim with ``profile = "ns2"`` beside ns-2.35 itself on matched scenarios
(``wlansim validate ns2``).

A matched scenario is written twice: as a wlansim scenario (:func:`udp_uplink_scenario`)
and as an ns-2 Tcl script (:func:`udp_uplink_tcl`) with the same PHY and MAC parameters,
queue, packet size, load, warm-up and length. Both are run with several seeds and the
delivered packets per second of the measurement window are compared (means and 95 %
confidence intervals over the seeds). Users can compare their own cells of this shape by
calling :func:`compare_udp_uplink` with other parameters.

How the ns-2 side is matched (ns-2.35, ``tcl/lib/ns-default.tcl`` defaults otherwise):

- 802.11 (``Mac/802_11``) at ``dataRate_`` with control frames at ``basicRate_`` and the
  1 Mb/s long PLCP (``PLCPDataRate_``, 144 + 48 bits): wlansim's 802.11b with the same
  data and control rates and the long preamble;
- ``RTSThreshold_`` 3000 (basic access) or 0 (RTS/CTS on every data frame);
- ad hoc nodes without routing (``DumbAgent``): node 0 plays the AP and receives every
  station's packets over one hop, which is what an uplink to an AP is on the air;
- the stations on a circle of 10 m around node 0, so every frame arrives with the same
  power and ns-2's capture rule (``CPThresh_``, 10 dB) never saves one of two colliding
  frames (wlansim's reception model is "any overlap destroys both");
- saturated sources: CBR at a packet every 0.5 ms (above what the cell carries), packets
  of ``ip_bytes`` (ns-2's agents put no further header on them; wlansim's UDP payload is
  ``ip_bytes`` − 28 so that its IP packets have the same size); ns-2's MAC header
  (34 bytes, no LLC/SNAP) is what wlansim's ns-2 profile uses;
- interface queue ``ifqLen_`` = B (drop-tail ``PriQueue``): ns-2.35's ``DropTail::enque``
  refuses a packet once the queue holds B − 1, and the MAC holds one more, so the node
  keeps B packets in all, as wlansim's queue of B does (:func:`buffer_check_tcl` shows
  it: a burst of 20 packets into an idle node with ``ifqLen_`` B delivers B; B = 1 is
  degenerate in ns-2, whose queue then refuses every packet, while wlansim's holds one);
- start-up: ns-2 resolves each station's first packet with an ARP exchange at the start
  (broadcast requests, which collide with the saturated stations' frames and are sent
  again only with the station's next packet). With 20 stations its start-up transient
  lasts seconds (ARP, we think; raising ns-2's capture threshold changed nothing):
  measured from 2 s on, ns-2 carried 8-10 % fewer packets than wlansim with a wide
  spread between seeds; from 10 s on, within 0.5 %. The measurement therefore starts
  after a 10 s warm-up (wlansim has no ARP and measures after the same warm-up);
- the packets received by node 0's ``LossMonitor`` between the end of the warm-up and
  the end of the run, per second.

The TCP case (:func:`tcp_updown_scenario`, :func:`tcp_updown_tcl`,
:func:`compare_tcp_updown`) puts `k` NewReno uploads and `k` downloads through the AP,
whose buffer B carries both the downloads' data and the uploads' ACKs; it compares each
direction's goodput, the up/down ratio and the total, and, to explain a difference, each
direction's timeouts, fast retransmits and retransmitted segments per run (ns-2's
``nrexmit_``, ``ncwndcuts_`` − ``nrexmit_`` and ``nrexmitpack_``; wlansim's per-flow
columns of the same names).
"""

from __future__ import annotations

import json
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import wlansim

#: IPv4 + UDP header bytes (wlansim's payload = ns-2's packet size − this).
UDP_IP_HEADER = 28
#: Seconds not measured at the start of each run (ns-2's ARP start-up, see above).
WARMUP_S = 10.0
#: ns-2's CBR interval that saturates every cell compared here (16 Mb/s of 1000 B).
SATURATING_INTERVAL_S = 0.0005


def ns_binary() -> str | None:
    """The `ns` executable on the PATH, or None."""
    return shutil.which("ns")


INSTALL_HINT = (
    "ns-2 is not installed: `make ns2` installs the Debian package ns2 (ns-2.35), or "
    "`sudo apt-get install ns2`; then run `wlansim validate ns2` again."
)


@dataclass(frozen=True)
class Cell:
    """One matched case: `n` saturated stations sending `ip_bytes` packets to the AP."""

    n: int
    rts: bool
    control_rate_mbps: int
    ip_bytes: int = 1000
    queue: int = 50
    data_rate_mbps: int = 11

    @property
    def label(self) -> str:
        access = "rts" if self.rts else "basic"
        return f"n={self.n} {access} control {self.control_rate_mbps} Mb/s"


def udp_uplink_scenario(cell: Cell, duration_s: float, warmup_s: float) -> dict:
    """The wlansim side of `cell` (profile ns2)."""
    return {
        "name": f"ns2-match-{cell.n}-{'rts' if cell.rts else 'basic'}-{cell.control_rate_mbps}",
        "profile": "ns2",
        "duration": f"{duration_s} s",
        "warmup": f"{warmup_s} s",
        "phy": {
            "standard": "802.11b",
            "data_rate": f"{cell.data_rate_mbps} Mb/s",
            "control_rate": f"{cell.control_rate_mbps} Mb/s",
        },
        "mac": {"rts_threshold": 0 if cell.rts else "off", "queue": cell.queue},
        "stations": [{"name": "sta", "count": cell.n}],
        "flows": [
            {
                "name": "up",
                "direction": "uplink",
                "stations": "sta",
                "traffic": "saturated",
                "packet_size": f"{cell.ip_bytes - UDP_IP_HEADER} B",
            }
        ],
    }


def _preamble(seed: int, nodes: int, cell: Cell, ap_queue: int) -> str:
    """The common head of a script: simulator, 802.11 parameters of `cell`, the node
    configuration (interface queue `ap_queue` for the AP, created here as `$ap`)."""
    return f"""$defaultRNG seed {seed}
set ns [new Simulator]
set tf [open /dev/null w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 100 100
create-god {nodes}
Mac/802_11 set dataRate_ {cell.data_rate_mbps}Mb
Mac/802_11 set basicRate_ {cell.control_rate_mbps}Mb
Mac/802_11 set RTSThreshold_ {0 if cell.rts else 3000}
$ns node-config -adhocRouting DumbAgent -llType LL -macType Mac/802_11 \\
    -ifqType Queue/DropTail/PriQueue -ifqLen {ap_queue} -antType Antenna/OmniAntenna \\
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \\
    -channel [new Channel/WirelessChannel] -topoInstance $topo \\
    -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
{_place("ap", 50.0, 50.0)}"""


def _place(var: str, x: float, y: float) -> str:
    """A static node `$var` at (x, y)."""
    return (
        f"set {var} [$ns node]\n${var} random-motion 0\n"
        f"${var} set X_ {x:.6f}\n${var} set Y_ {y:.6f}\n${var} set Z_ 0\n"
    )


def _tcp_transfer(name: str, src: str, dst: str, start: float) -> str:
    """An endless FTP over `Agent/TCP/Newreno` `$name` from node `$src` to a `TCPSink` on
    node `$dst`, started at `start`."""
    return (
        f"set {name} [new Agent/TCP/Newreno]\n$ns attach-agent ${src} ${name}\n"
        f"set {name}_sink [new Agent/TCPSink]\n$ns attach-agent ${dst} ${name}_sink\n"
        f"$ns connect ${name} ${name}_sink\n"
        f"set {name}_ftp [new Application/FTP]\n${name}_ftp attach-agent ${name}\n"
        f'$ns at {start} "${name}_ftp start"\n'
    )


def _arp_prime(name: str, src: str, dst: str, at: float) -> str:
    """One 28-byte UDP packet from node `$src` to node `$dst` at `at`: it makes ns-2's ARP
    (`mac/arp.cc`, which wlansim does not model) resolve `$dst` at `$src` before the TCP
    flows start. Without it the AP's broadcast ARP request for a download station can be
    dropped by its interface queue, already full of upload ACKs, and ARP asks again only
    when the next packet comes (a TCP timeout, seconds later; three tries at most): some
    downloads then never start."""
    return (
        f"set {name} [new Agent/UDP]\n$ns attach-agent ${src} ${name}\n"
        f"set {name}_null [new Agent/Null]\n$ns attach-agent ${dst} ${name}_null\n"
        f"$ns connect ${name} ${name}_null\n"
        f"set {name}_cbr [new Application/Traffic/CBR]\n${name}_cbr set packetSize_ 28\n"
        f"${name}_cbr set maxpkts_ 1\n${name}_cbr attach-agent ${name}\n"
        f'$ns at {at} "${name}_cbr start"\n'
    )


def udp_uplink_tcl(cell: Cell, duration_s: float, warmup_s: float, seed: int) -> str:
    """The ns-2 side of `cell`: a Tcl script that prints `packets N` (received after the
    warm-up) when it ends."""
    stations = []
    for i in range(1, cell.n + 1):
        angle = 2 * math.pi * (i - 1) / cell.n
        x, y = 50 + 10 * math.cos(angle), 50 + 10 * math.sin(angle)
        stations.append(
            _place(f"n({i})", x, y)
            + f"set u({i}) [new Agent/UDP]\n$ns attach-agent $n({i}) $u({i})\n"
            f"$ns connect $u({i}) $sink\n"
            f"set c({i}) [new Application/Traffic/CBR]\n"
            f"$c({i}) set packetSize_ {cell.ip_bytes}\n"
            f"$c({i}) set interval_ {SATURATING_INTERVAL_S}\n"
            f'$c({i}) attach-agent $u({i})\n$ns at 0.{i:04d} "$c({i}) start"\n'
        )
    return f"""# ns-2.35 script written by wlansim (validation_ns2.py): {cell.label}
{_preamble(seed, cell.n + 1, cell, cell.queue)}set sink [new Agent/LossMonitor]
$ns attach-agent $ap $sink
{"".join(stations)}
set start 0
proc mark {{}} {{ global sink start; set start [$sink set npkts_] }}
proc finish {{}} {{ global sink start; puts "packets [expr [$sink set npkts_] - $start]"; exit 0 }}
$ns at {warmup_s} "mark"
$ns at {duration_s} "finish"
$ns run
"""


#: Packets of the burst that :func:`compare_buffer` offers to an idle station.
BURST_PACKETS = 20


def buffer_check_tcl(buffer: int, seed: int = 1) -> str:
    """ns-2: one station with interface queue `buffer` gets a burst of
    :data:`BURST_PACKETS` UDP packets at 2 s (after a packet at 1 s that resolves ARP);
    prints `packets N`, the burst's packets node 0 received."""
    cell = Cell(n=1, rts=False, control_rate_mbps=1)
    return f"""# ns-2.35 script by wlansim (validation_ns2.py): burst into ifqLen {buffer}
{_preamble(seed, 2, cell, buffer)}$ns node-config -ifqLen {buffer}
{_place("s1", 60.0, 50.0)}set udp [new Agent/UDP]
$ns attach-agent $s1 $udp
set sink [new Agent/LossMonitor]
$ns attach-agent $ap $sink
$ns connect $udp $sink
proc warm {{}} {{ global udp; $udp send 100 }}
proc burst {{}} {{
    global udp
    for {{set i 0}} {{$i < {BURST_PACKETS}}} {{incr i}} {{ $udp send 1000 }}
}}
set start 0
proc mark {{}} {{ global sink start; set start [$sink set npkts_] }}
proc finish {{}} {{ global sink start; puts "packets [expr [$sink set npkts_] - $start]"; exit 0 }}
$ns at 1.0 "warm"
$ns at 1.5 "mark"
$ns at 2.0 "burst"
$ns at 5.0 "finish"
$ns run
"""


def buffer_check_scenario(buffer: int) -> dict:
    """wlansim: the same burst (CBR at 8 Gb/s for 19.5 µs: 20 packets of 1000 IP bytes
    1 µs apart) into a station whose queue holds `buffer`."""
    return {
        "name": f"ns2-match-burst-b{buffer}",
        "profile": "ns2",
        "duration": "5 s",
        "phy": {"standard": "802.11b", "data_rate": "11 Mb/s", "control_rate": "1 Mb/s"},
        "mac": {"rts_threshold": "off", "queue": buffer},
        "stations": [{"name": "sta"}],
        "flows": [
            {"name": "burst", "direction": "uplink", "stations": "sta", "traffic": "cbr",
             "rate": "8 Gb/s", "packet_size": f"{1000 - UDP_IP_HEADER} B", "start": "2 s",
             "stop": "2.0000195 s"},
        ],
    }  # fmt: skip


def compare_buffer(buffers: list[int]) -> list[dict]:
    """Per interface-queue length B: the packets of a burst of :data:`BURST_PACKETS` that
    ns-2 and wlansim (profile ns2) deliver from an idle station, i.e. how many packets a
    queue of B holds, the one in service included."""
    rows = []
    for b in buffers:
        out = _run_ns2_text(buffer_check_tcl(b))
        flows = wlansim.run(buffer_check_scenario(b), seed=1).flows
        rows.append(
            {
                "buffer": b,
                "ns2_delivered": int(re.search(r"^packets (\d+)$", out, re.MULTILINE).group(1)),
                "wlansim_offered": int(flows["offered_packets"].sum()),
                "wlansim_delivered": int(flows["delivered_packets"].sum()),
            }
        )
    return rows


def _run_ns2_text(script: str) -> str:
    """Run an ns-2 script; what it printed."""
    ns = ns_binary()
    if ns is None:
        raise RuntimeError(INSTALL_HINT)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "cell.tcl"
        path.write_text(script)
        out = subprocess.run([ns, str(path)], cwd=d, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(f"ns-2 failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def run_ns2(script: str) -> tuple[int, float]:
    """Run an ns-2 script of a UDP cell; the packets it printed and the wall time."""
    t0 = time.perf_counter()
    out = _run_ns2_text(script)
    wall = time.perf_counter() - t0
    m = re.search(r"^packets (\d+)$", out, re.MULTILINE)
    if m is None:
        raise RuntimeError(f"ns-2 printed no packet count:\n{out}")
    return int(m.group(1)), wall


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (Student t; 0 for one value)."""
    from scipy import stats

    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, 0.0
    return m, stats.t.ppf(0.975, len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))


def compare_udp_uplink(
    cells: list[Cell], seeds: list[int], duration_s: float = 40.0, warmup_s: float = WARMUP_S
) -> list[dict]:
    """Per cell: packets per second of the measurement window by ns-2 and by wlansim
    (profile ns2), means and 95 % intervals over `seeds`."""
    rows = []
    window = duration_s - warmup_s
    for cell in cells:
        ns2 = [
            run_ns2(udp_uplink_tcl(cell, duration_s, warmup_s, seed))[0] / window for seed in seeds
        ]
        s = udp_uplink_scenario(cell, duration_s, warmup_s)
        ours = [wlansim.run(s, seed=seed).metrics["delivered_packets"] / window for seed in seeds]
        (m2, c2), (m1, c1) = _mean_ci(ns2), _mean_ci(ours)
        rows.append(
            {
                "n": cell.n,
                "access": "rts" if cell.rts else "basic",
                "control_mbps": cell.control_rate_mbps,
                "ns2_pkts": m2,
                "ns2_ci95": c2,
                "wlansim_pkts": m1,
                "wlansim_ci95": c1,
                "diff_pct": 100 * (m1 / m2 - 1),
            }
        )
    return rows


def wall_clock(n: int = 20, duration_s: float = 100.0) -> dict:
    """Wall-clock seconds of both simulators on the saturated `n`-station basic cell:
    ns-2's whole process, and wlansim's event loop (in-process), its whole run through
    the Python API (building, running, reporting) and a whole Python process that imports
    wlansim and runs the scenario."""
    cell = Cell(n=n, rts=False, control_rate_mbps=1)
    _, ns2_wall = run_ns2(udp_uplink_tcl(cell, duration_s, WARMUP_S, 1))
    s = udp_uplink_scenario(cell, duration_s, WARMUP_S)
    t0 = time.perf_counter()
    r = wlansim.run(s, seed=1)
    whole = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", "import json, sys, wlansim; wlansim.run(json.loads(sys.argv[1]))",
         json.dumps(s)],
        check=True,
    )  # fmt: skip
    process = time.perf_counter() - t0
    return {
        "ns2_s": ns2_wall,
        "wlansim_loop_s": r.meta["wall_s"],
        "wlansim_run_s": whole,
        "wlansim_process_s": process,
    }


def tcp_updown_scenario(buffer: int, duration_s: float, warmup_s: float, k: int = 1) -> dict:
    """The wlansim side of the TCP case: `k` uploads and `k` downloads, one per station,
    between the stations and a host behind the AP, AP buffer `buffer`, profile ns2
    (NewReno, 1000-byte segments, window 20, an ACK per segment). The host's link
    (10 Gb/s, 1 µs) stands for ns-2's endpoints on the AP node itself: it adds about 2 µs
    per packet."""
    return {
        "name": f"ns2-match-tcp-{k}up-{k}down-b{buffer}",
        "profile": "ns2",
        "duration": f"{duration_s} s",
        "warmup": f"{warmup_s} s",
        "phy": {"standard": "802.11b", "data_rate": "11 Mb/s", "control_rate": "1 Mb/s"},
        "mac": {"rts_threshold": "off", "queue": 50},
        "ap": {"queue": buffer},
        "stations": [{"name": "u", "count": k}, {"name": "d", "count": k}],
        "servers": [{"name": "h", "rate": "10 Gb/s", "delay": "1 us"}],
        "flows": [
            {"name": "up", "protocol": "tcp", "direction": "uplink", "stations": "u",
             "server": "h"},
            {"name": "down", "protocol": "tcp", "direction": "downlink", "stations": "d",
             "server": "h"},
        ],
    }  # fmt: skip


def tcp_updown_tcl(buffer: int, duration_s: float, warmup_s: float, seed: int, k: int = 1) -> str:
    """The ns-2 side: `Agent/TCP/Newreno` + FTP at each of `k` upload stations towards a
    `TCPSink` on the AP node, and from the AP node towards each of `k` download stations
    (stations on a circle of 10 m; at 10 ms one UDP packet from the AP to each download
    station resolves ns-2's ARP first, `_arp_prime`); the AP's interface queue holds
    `buffer` (its data
    towards the download stations and its ACKs towards the upload stations share it, as
    at wlansim's AP), the stations' 50. Prints, summed over each direction's flows, what
    changed between the warm-up's end and the run's: packets acknowledged
    (`up-packets N`, ns-2's `ack_`), timeouts (`nrexmit_`), window cuts (`ncwndcuts_`)
    and retransmitted packets (`nrexmitpack_`), e.g. `down-timeouts N`. Every second
    from the warm-up's end it also prints, per flow, its smoothed RTT (`srtt_` in ticks
    of `tcpTick_`, shifted by `T_SRTT_BITS`), its retransmission timeout (worked out from
    `srtt_`, `rttvar_` and `backoff_` as `TcpAgent::rtt_timeout` does) and its highest
    ACK (`ack_`): `sample T FLOW SRTT_S RTO_S ACK`."""
    cell = Cell(n=2 * k, rts=False, control_rate_mbps=1)
    flows = []
    for i in range(2 * k):
        angle = 2 * math.pi * i / (2 * k)
        station = f"s{i}"
        flows.append(_place(station, 50 + 10 * math.cos(angle), 50 + 10 * math.sin(angle)))
        if i < k:
            flows.append(_tcp_transfer(f"up{i}", station, "ap", 0.1 + 0.01 * i))
        else:
            flows.append(_arp_prime(f"arp{i}", "ap", station, 0.01 + 0.001 * i))
            flows.append(_tcp_transfer(f"dn{i}", "ap", station, 0.2 + 0.01 * i))
    agents = " ".join(f"up $up{i}" if i < k else f"down $dn{i}" for i in range(2 * k))
    # Flows named as wlansim names them (up-0.., down-0..) for the series; sampled every
    # second from the warm-up's end, the last second before the run's end included (as
    # wlansim's series, whose last sample comes before the end).
    samples = " ".join(f"up-{i} $up{i}" if i < k else f"down-{i - k} $dn{i}" for i in range(2 * k))
    last = math.ceil(duration_s) - 1
    schedule = "".join(f'$ns at {t:g} "sample"\n' for t in range(math.ceil(warmup_s), last + 1))
    return f"""# ns-2.35 script by wlansim (validation_ns2.py): TCP {k} up + {k} down, B = {buffer}
{_preamble(seed, 2 * k + 1, cell, buffer)}$ns node-config -ifqLen 50
{"".join(flows)}set marks {{}}
proc counters {{}} {{
    global {" ".join(f"up{i}" if i < k else f"dn{i}" for i in range(2 * k))}
    array set c {{}}
    foreach {{name agent}} [list {agents}] {{
        foreach {{key var}} {{packets ack_ timeouts nrexmit_ cuts ncwndcuts_ \
                              rexmits nrexmitpack_}} {{
            if {{![info exists c($name-$key)]}} {{ set c($name-$key) 0 }}
            set c($name-$key) [expr $c($name-$key) + [$agent set $var]]
        }}
    }}
    return [array get c]
}}
proc mark {{}} {{
    global marks
    set marks [counters]
}}
proc sample {{}} {{
    global lastcur {" ".join(f"up{i}" if i < k else f"dn{i}" for i in range(2 * k))}
    set now [[Simulator instance] now]
    foreach {{name agent}} [list {samples}] {{
        set bits [$agent set T_SRTT_BITS]
        set tick [$agent set tcpTick_]
        set srtt [$agent set srtt_]
        # t_rtxcur_ (not bound in Tcl) and rtt_timeout's clamps (rfc2988_): before the
        # first RTT sample (rtt_ 0) rtt_init's rtxcur_init_; then rtt_update's value from
        # srtt_ and rttvar_, which rtt_backoff leaves stale when it clears srtt_ (beyond 8
        # backoffs): the value of the last sample taken with srtt_ set stands for it.
        set shift [expr [$agent set rttvar_exp_] + $bits - [$agent set T_RTTVAR_BITS]]
        if {{[$agent set rtt_] == 0}} {{
            set cur [$agent set rtxcur_init_]
        }} elseif {{$srtt != 0 || ![info exists lastcur($name)]}} {{
            set cur [expr ((([$agent set rttvar_] << $shift) + $srtt) >> $bits) * $tick]
            set lastcur($name) $cur
        }} else {{
            set cur $lastcur($name)
        }}
        if {{$cur < [$agent set minrto_]}} {{ set cur [$agent set minrto_] }}
        set rto [expr $cur * [$agent set backoff_]]
        if {{$rto > [$agent set maxrto_]}} {{ set rto [$agent set maxrto_] }}
        if {{$rto < 2.0 * $tick}} {{ set rto [expr 2.0 * $tick] }}
        puts "sample $now $name [expr ($srtt >> $bits) * $tick] $rto [$agent set ack_]"
    }}
}}
proc finish {{}} {{
    global marks
    array set m0 $marks
    foreach {{k v}} [counters] {{
        puts "$k [expr $v - $m0($k)]"
    }}
    exit 0
}}
$ns at {warmup_s} "mark"
{schedule}$ns at {duration_s} "finish"
$ns run
"""


def _ns2_counters(out: str) -> dict[str, int]:
    """The `name value` lines an ns-2 TCP script printed."""
    return {k: int(v) for k, v in re.findall(r"^(\S+-\S+) (-?\d+)$", out, re.MULTILINE)}


def _ns2_samples(out: str) -> list[tuple[float, str, float, float, int]]:
    """The `sample T FLOW SRTT_S RTO_S ACK` lines an ns-2 TCP script printed."""
    return [
        (float(t), flow, float(srtt), float(rto), int(ack))
        for t, flow, srtt, rto, ack in re.findall(
            r"^sample (\S+) (\S+) (\S+) (\S+) (-?\d+)$", out, re.MULTILINE
        )
    ]


def _ns2_series(samples: list[tuple[float, str, float, float, int]]) -> list[dict]:
    """Per flow and second after the warm-up: the SRTT and RTO at the second's end and
    whether the flow's highest ACK moved during it (the flow was active)."""
    last: dict[str, int] = {}
    rows = []
    for t, flow, srtt, rto, ack in samples:
        if flow in last:
            rows.append({"t_s": t, "flow": flow, "srtt_s": srtt, "rto_s": rto,
                         "active": ack > last[flow]})  # fmt: skip
        last[flow] = ack
    return rows


def _wlansim_series(result) -> list[dict]:
    """The same rows from a wlansim run's `srtt` and `rto` series and its per-flow
    throughput (a flow is active in a second in which it delivered data)."""
    srtt, rto, rate = (result.series[k] for k in ("srtt", "rto", "flow_throughput"))
    rows = []
    for flow in (name for name in srtt if name != "t_s"):
        for t, value, timeout, bps in zip(srtt["t_s"], srtt[flow], rto[flow], rate[flow]):
            rows.append({"t_s": t, "flow": flow, "srtt_s": value, "rto_s": timeout,
                         "active": bps > 0})  # fmt: skip
    return rows


def _series_summary(rows: list[dict], direction: str, k: int) -> tuple[float, float, float]:
    """Over one direction's flows: the mean SRTT (ms; samples before a flow's first RTT
    measurement, None in wlansim's series, left out), the mean RTO (ms, backoff
    included) and the mean number of its flows active per second."""
    mine = [r for r in rows if r["flow"].startswith(f"{direction}-")]
    srtts = [r["srtt_s"] for r in mine if r["srtt_s"] is not None and r["srtt_s"] > 0]
    rtos = [r["rto_s"] for r in mine if r["rto_s"] is not None]
    seconds = len(mine) / k if mine else 1
    return (
        1e3 * statistics.fmean(srtts) if srtts else math.nan,
        1e3 * statistics.fmean(rtos) if rtos else math.nan,
        sum(r["active"] for r in mine) / seconds,
    )


# Per-flow counters compared, as (ns-2 key, wlansim flows column): timeouts (ns-2's
# `nrexmit_`), fast retransmits (ns-2: `ncwndcuts_` − `nrexmit_`, every window cut that
# was not a timeout) and retransmitted segments (`nrexmitpack_`).
TCP_COUNTERS = (("timeouts", "timeouts"), ("fast_retransmits", "fast_retransmits"),
                ("rexmits", "retransmissions"))  # fmt: skip


def compare_tcp_updown(
    buffers: list[int],
    seeds: list[int],
    duration_s: float = 70.0,
    warmup_s: float = WARMUP_S,
    k: int = 1,
    series: list[dict] | None = None,
) -> list[dict]:
    """Per AP buffer, with `k` uploads and `k` downloads: each direction's packets per
    second (summed over its flows) by ns-2 and by wlansim, the up/down ratio and the total
    (means over `seeds`, 95 % intervals), and per direction the mean timeouts, fast
    retransmits and retransmitted segments per run, the mean SRTT (`..._srtt_ms`), the
    mean RTO (`..._rto_ms`) and the mean number of its flows active per second
    (`..._active`). When `series` is a
    list, each flow's per-second SRTT and activity of every run are appended to it (one
    dict per flow and second, with `sim`, `k`, `buffer` and `seed`)."""
    rows = []
    window = duration_s - warmup_s
    for b in buffers:
        rates: dict[str, list[float]] = {}
        counts: dict[str, float] = {}
        for seed in seeds:
            tcl = tcp_updown_tcl(b, duration_s, warmup_s, seed, k)
            out = _run_ns2_text(tcl)
            c = _ns2_counters(out)
            scenario = tcp_updown_scenario(b, duration_s, warmup_s, k)
            scenario["output"] = {
                "series": ["srtt", "rto", "flow_throughput"],
                "series_interval": "1 s",
            }
            r = wlansim.run(scenario, seed=seed)
            f = r.flows
            runs = {"ns2": _ns2_series(_ns2_samples(out)), "wlansim": _wlansim_series(r)}
            for sim, per_second in runs.items():
                for direction in ("up", "down"):
                    srtt_ms, rto_ms, active = _series_summary(per_second, direction, k)
                    for name, value in (("srtt_ms", srtt_ms), ("rto_ms", rto_ms),
                                        ("active", active)):  # fmt: skip
                        key = f"{sim}_{direction}_{name}"
                        counts[key] = counts.get(key, 0.0) + value / len(seeds)
                if series is not None:
                    common = {"sim": sim, "k": k, "buffer": b, "seed": seed}
                    series.extend({**common, **row} for row in per_second)
            for flow in ("up", "down"):
                c[f"{flow}-fast_retransmits"] = c[f"{flow}-cuts"] - c[f"{flow}-timeouts"]
                rates.setdefault(f"ns2_{flow}", []).append(c[f"{flow}-packets"] / window)
                ours = f[f["name"].str.startswith(f"{flow}-")]
                rates.setdefault(f"wlansim_{flow}", []).append(ours["goodput_bps"].sum() / 8000.0)
                for key, column in TCP_COUNTERS:
                    for sim, value in (
                        ("ns2", c[f"{flow}-{key}"]),
                        ("wlansim", ours[column].sum()),
                    ):
                        name = f"{sim}_{flow}_{key}"
                        counts[name] = counts.get(name, 0.0) + float(value) / len(seeds)
        row: dict = {"k": k, "buffer": b}
        for name, xs in rates.items():
            row[name], row[f"{name}_ci95"] = _mean_ci(xs)
        ns2_ratio = row["ns2_up"] / row["ns2_down"]
        ours_ratio = row["wlansim_up"] / row["wlansim_down"]
        row["ratio_diff_pct"] = 100 * (ours_ratio / ns2_ratio - 1)
        row["total_diff_pct"] = 100 * (
            (row["wlansim_up"] + row["wlansim_down"]) / (row["ns2_up"] + row["ns2_down"]) - 1
        )
        row.update(counts)
        rows.append(row)
    return rows


def cells(quick: bool) -> list[Cell]:
    """The cases of the issue: n = 1, 5, 10, 20, basic and RTS/CTS, control rate 1 and
    2 Mb/s (quick: n = 1 and 10, basic, 1 Mb/s)."""
    if quick:
        return [Cell(n, False, 1) for n in (1, 10)]
    return [Cell(n, rts, rate) for rate in (1, 2) for rts in (False, True) for n in (1, 5, 10, 20)]
