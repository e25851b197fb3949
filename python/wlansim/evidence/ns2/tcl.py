"""Pieces of ns-2.35 Tcl shared by the scripts wlansim writes (the validations' and the
studies'): nodes placed at a position (and attached to a base station), TCP transfers,
ARP priming, and the settings that match wlansim's side."""

from __future__ import annotations

import math

from wlansim.evidence.ns2.run import TRACE_FILE

#: The scripts' nodes run ns-2's DumbAgent, which adds no header of its own: wlansim's
#: ``routing_agent`` matching it (the ns2 profile's default is DSDV's 20 bytes).
DUMB_AGENT = "none"


#: IPv4 + UDP header bytes: ns-2's CBR `packetSize_` is the IP packet, a wlansim UDP
#: flow's `packet_size` its payload.
UDP_IP_HEADER = 28


#: ns-2 without capture: `Mac802_11::recv` ignores a frame arriving during a reception
#: when the received one is `CPThresh_` times stronger (10 by default); no power ratio of
#: these cells reaches 10⁹, so every overlap is a collision.
NO_CAPTURE_TCL = "Phy/WirelessPhy set CPThresh_ 1e9\n"


#: ns-2's wired host behind the AP in the wired-cum-wireless scripts (:func:`_preamble`
#: with `host`): its link, as wlansim's host link in :func:`tcp_updown_scenario`.
HOST_LINK = "10Gb 1us"


def place(var: str, x: float, y: float, address: str | None = None) -> str:
    """A static node `$var` at (x, y); with a hierarchical `address` ("1.0.3"), made at
    that address and, unless it is a base station itself (the first node of its domain,
    "D.0.0": the AP), attached to `$ap` as its base station."""
    node = f"[$ns node {address}]" if address else "[$ns node]"
    base = (
        f"${var} base-station [AddrParams addr2id [$ap node-addr]]\n"
        if address and address.split(".")[1:] != ["0", "0"]
        else ""
    )
    return (
        f"set {var} {node}\n${var} random-motion 0\n"
        f"${var} set X_ {x:.6f}\n${var} set Y_ {y:.6f}\n${var} set Z_ 0\n{base}"
    )


def tcp_transfer(
    name: str, src: str, dst: str, start: float | None, agent: str = "Agent/TCP/Newreno",
    sink: str = "Agent/TCPSink",
) -> str:  # fmt: skip
    """An FTP `${name}_ftp` over `agent` (`Agent/TCP/Newreno`) `$name` from node `$src` to
    a `sink` (`TCPSink`) `${name}_sink` on node `$dst`: an endless transfer started at
    `start`, or with None not started (the script has it send what it wants)."""
    return (
        f"set {name} [new {agent}]\n$ns attach-agent ${src} ${name}\n"
        f"set {name}_sink [new {sink}]\n$ns attach-agent ${dst} ${name}_sink\n"
        f"$ns connect ${name} ${name}_sink\n"
        f"set {name}_ftp [new Application/FTP]\n${name}_ftp attach-agent ${name}\n"
        + (f'$ns at {start} "${name}_ftp start"\n' if start is not None else "")
    )


def arp_prime(name: str, src: str, dst: str, at: float) -> str:
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


#: ns-2's TCP senders by the name a wlansim scenario gives the variant (`[tcp] variant`).
TCP_AGENTS = {"tahoe": "Agent/TCP", "reno": "Agent/TCP/Reno", "newreno": "Agent/TCP/Newreno"}


def tcp_agent(variant: str) -> str:
    """ns-2's sender class of TCP `variant` (:data:`TCP_AGENTS`); a clear error otherwise."""
    if variant not in TCP_AGENTS:
        raise ValueError(
            f"tcp variant {variant!r}: stock ns-2.35 scripts here run {', '.join(TCP_AGENTS)}"
        )
    return TCP_AGENTS[variant]


def mac_802_11(data_rate: str, basic_rate: str, rts: bool, **more) -> str:
    """`Mac/802_11` class settings: the data and control rates (ns-2 bandwidth strings,
    e.g. "11Mb"), RTS/CTS before every data frame (`RTSThreshold_` 0) or never (3000,
    above any frame here), then each of `more` as `Mac/802_11 set NAME_ VALUE` (e.g.
    `CWMin_=31`)."""
    lines = [
        f"Mac/802_11 set dataRate_ {data_rate}",
        f"Mac/802_11 set basicRate_ {basic_rate}",
        f"Mac/802_11 set RTSThreshold_ {0 if rts else 3000}",
        *(f"Mac/802_11 set {k} {v}" for k, v in more.items()),
    ]
    return "\n".join(lines) + "\n"


def arc_positions(n: int, arc: float, radius: float = 10.0, center=(50.0, 50.0)):
    """`n` points `radius` m from `center`, evenly in angle over `arc` radians from angle
    0 (π: a half circle, where no two points stand in line with the centre)."""
    return [
        (center[0] + radius * math.cos(arc * i / n), center[1] + radius * math.sin(arc * i / n))
        for i in range(n)
    ]


def wired_cum_wireless(
    seed: int,
    stations: int,
    mac: str,
    ap_queue: int,
    link: str,
    station_queue: int = 50,
    agent_trace: bool = False,
    capture: bool = False,
    trace: bool = True,
    wired_trace: bool = True,
    mac_trace: bool = False,
) -> str:
    """The head of a script with a wired host `$host` (address 0.0.0, node 0 of the trace)
    behind an AP `$ap` (1.0.0, node 1, at (50, 50)) that is the base station of `stations`
    wireless nodes to be placed with :func:`place` at addresses 1.0.1, 1.0.2, ... (nodes 2,
    3, ...). `mac`: :func:`mac_802_11`'s lines; the AP's interface queue holds `ap_queue`
    packets, the stations' `station_queue`; the wired link is `link` ("100Mb 1ms") each way
    with room for 10,000 packets. The wireless nodes run DSDV (its 20 bytes on every packet
    a wireless node originates, as wlansim's ``routing_agent = "dsdv"``, the ns2 profile's
    default) over two-ray ground; capture off unless `capture` (:data:`NO_CAPTURE_TCL`).
    Everything goes to :data:`TRACE_FILE` via `trace-all` (to /dev/null without `trace`):
    the wired link's events (unless not `wired_trace`: the link is made while `trace-all`
    is unset) and the wireless nodes' drops, with `agent_trace` their agents' sends and
    receptions (`s`/`r` ... `AGT`), with `mac_trace` the stations' MAC frames (`s` ...
    `MAC`, and `r` for the frames addressed to them)."""
    flag = "ON" if agent_trace else "OFF"
    target = TRACE_FILE if trace else "/dev/null"
    untraced, retraced = (
        ("", "") if wired_trace else ("$ns unset traceAllFile_\n", "$ns set traceAllFile_ $tf\n")
    )
    return f"""$defaultRNG seed {seed}
set ns [new Simulator]
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 2
AddrParams set cluster_num_ {{1 1}}
AddrParams set nodes_num_ {{1 {stations + 1}}}
set tf [open {target} w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 100 100
create-god {stations + 1}
{mac}{"" if capture else NO_CAPTURE_TCL}set host [$ns node 0.0.0]
$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 \\
    -ifqType Queue/DropTail/PriQueue -ifqLen {ap_queue} -antType Antenna/OmniAntenna \\
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \\
    -channel [new Channel/WirelessChannel] -topoInstance $topo -wiredRouting ON \\
    -agentTrace {flag} -routerTrace OFF -macTrace OFF -movementTrace OFF
{place("ap", 50.0, 50.0, "1.0.0")}$ns node-config -wiredRouting OFF -ifqLen {station_queue} \
    -macTrace {"ON" if mac_trace else "OFF"}
{untraced}$ns duplex-link $host $ap {link} DropTail
{retraced}$ns queue-limit $host $ap 10000
$ns queue-limit $ap $host 10000
"""


def packet_type_loss(
    proc: str, ptype: int, period: int, burst: int, made: str, offset_var: str
) -> str:
    """A Tcl proc `proc` for ``node-config -OutgoingErrProc`` / ``-IncomingErrProc``: each
    node made after it gets a ``Filter/Field`` on the common header's packet type that
    sends the packets of type `ptype` (``common/packet.h``, e.g. 0 for TCP data) through
    an ``ErrorModel/Periodic`` (unit pkt: `burst` errored in each `period`, after
    ``offset_`` − 1 good ones, ``offset_`` read from the global `offset_var` when the node
    is made) and passes the others. An errored frame still goes on the air and its
    receiver's MAC drops it, unacknowledged. The error models are appended to the list
    `made`, in the nodes' order; set each one's ``target`` after its node is made (the
    node's ``netif_(0)`` for outgoing frames, ``mac_(0)`` for incoming ones)."""
    return f"""set {made} {{}}
proc {proc} {{}} {{
    global {made} {offset_var}
    set f [new Filter/Field]
    $f set offset_ [PktHdr_offset PacketHeader/Common ptype_]
    $f set match_ {ptype}
    set em [new ErrorModel/Periodic]
    $em unit pkt
    $em set period_ {period}
    $em set burstlen_ {burst}
    $em set offset_ ${offset_var}
    $f filter-target $em
    lappend {made} $em
    return $f
}}
"""


def trace_tcp_vars(agent: str, names: tuple[str, ...]) -> str:
    """Trace TCP agent `$agent`'s variables `names` (``nrexmit_``, ``rtt_``, ``ack_``,
    ``cwnd_``…) to stdout: a line ``TIME ADDR PORT DADDR DPORT NAME VALUE``
    (``TcpAgent::traceVar``; ``rtt_`` in seconds, whole ticks of ``tcpTick_``) whenever
    one changes (an assignment of the value it holds prints nothing)."""
    return f"${agent} attach stdout\n" + "".join(f"${agent} trace {n}\n" for n in names)
