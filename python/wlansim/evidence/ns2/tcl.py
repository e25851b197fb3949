"""Pieces of ns-2.35 Tcl shared by the scripts wlansim writes (the validations' and the
studies'): nodes placed at a position (and attached to a base station), TCP transfers,
ARP priming, and the settings that match wlansim's side."""

from __future__ import annotations

#: The scripts' nodes run ns-2's DumbAgent, which adds no header of its own: wlansim's
#: ``routing_agent`` matching it (the ns2 profile's default is DSDV's 20 bytes).
DUMB_AGENT = "none"


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


def tcp_transfer(name: str, src: str, dst: str, start: float) -> str:
    """An endless FTP over `Agent/TCP/Newreno` `$name` from node `$src` to a `TCPSink` on
    node `$dst`, started at `start`."""
    return (
        f"set {name} [new Agent/TCP/Newreno]\n$ns attach-agent ${src} ${name}\n"
        f"set {name}_sink [new Agent/TCPSink]\n$ns attach-agent ${dst} ${name}_sink\n"
        f"$ns connect ${name} ${name}_sink\n"
        f"set {name}_ftp [new Application/FTP]\n${name}_ftp attach-agent ${name}\n"
        f'$ns at {start} "${name}_ftp start"\n'
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
