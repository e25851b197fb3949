"""ns-2.35 on janevski2009's home network (Fig 1, Tables 1-3), written from the same
case as wlansim's scenario (:func:`wlansim.evidence.studies.janevski2009.scenario`).

One script per case and seed (:func:`script`): ns-2's wired-cum-wireless network with
hierarchical addresses (domain 0 the wired nodes A0-A3, domain 1 BS0 and its stations,
domain 2 BS1 and its), DSDV on the wireless nodes (ns-2's wired-cum-wireless examples,
``tcl/ex/wired-cum-wireless-sim.tcl``; wlansim's ns2 profile adds DSDV's 20 bytes to what
a station originates, ``routing_agent``), every wireless node on one
``Channel/WirelessChannel``, ``Propagation/Shadowing`` (β, σ from the scenario; its own
random stream seeded from the run's seed: the class seeds it from ``seed_`` at creation,
whatever ``$defaultRNG`` says), ``Mac/802_11`` at 20 Mb/s with the PHY reading's control
rate and timing, ``LongRetryLimit_`` = the attempts per data frame, drop-tail
``PriQueue`` interface queues of the IFQ at every wireless node, and wired links as
Table 1 (queues of 1000 packets, wlansim's default: never full at 100 Mb/s). The
positions, each station's BS and n3's walk come from the study's
:func:`~wlansim.evidence.studies.janevski2009.place`, shifted so that every coordinate is
positive (ns-2's flat grid).

Traffic, byte for byte as wlansim sends it (ns-2's UDP adds no header: its packet size is
the IP packet's, so the scripts add wlansim's 28 bytes of UDP/IP header):

- the game: UDP packets of 200 + 28 bytes A1 → n1 every 50 ms from 10 s and of 42 + 28
  bytes n1 → A1 every 60 ms from 10.1 s, each sent from Tcl (``$udp send``) with its
  send time as its data; the receiving agent's ``process_data`` sums the delays (ns-2's
  ``Agent/UDP`` hands PacketData to Tcl: ``apps/udp.cc``);
- the movie (BS0 → n0) and the chat (A2 ↔ n2): ``Application/Traffic/Trace`` over UDP
  agents of ``packetSize_`` 1028 reading the trace as ns-2's binary records (written by
  the script itself, :func:`trace_records`): a frame of S bytes, which wlansim cuts into k
  payloads of at most 1000 bytes, becomes a record of S + 28k bytes, which ns-2's
  ``UdpAgent::sendmsg`` cuts into the same k IP packets; each source starts at a random
  record (``trace/traffictrace.cc``), as wlansim's ``start = "random"``;
- the FTP A3 → n3: ``Agent/TCP`` (Tahoe), ``/Reno``, ``/Newreno``, ``/Vegas`` or
  ``/Sack1`` with a ``TCPSink`` (``TCPSink/Sack1`` for SACK), 512-byte segments, the
  reading's ``window_``, from 35 s.

ARP (which wlansim does not model) is resolved before the traffic starts: one 28-byte
UDP packet each way between every BS and each of its stations at 5-8 s, and again for n3
at 30-33 s (:func:`~wlansim.evidence.ns2.tcl.arp_prime`; a broadcast request lost to
shadowing is asked again only with the next packet).

What a run prints (:func:`metrics`): the FTP sink's in-order bytes (``bytes_``, headers
included), the sender's timeouts (``nrexmit_``) and window cuts (``ncwndcuts_``), its
smoothed RTT sampled every second of the FTP, the game's delays and counts; the drops
come from ns-2's trace (interface queue drops per node, the MAC's retry drops per node
and packet type). The metrics carry the names of the study's (``run_case``): ns-2 has no
counter of attempts or channel errors, so those are NaN.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from pathlib import Path

from wlansim.evidence.ns2.run import run_script
from wlansim.evidence.ns2.tcl import arp_prime

#: ns-2's TCP agent and sink per variant of the study
AGENTS = {
    "tahoe": ("Agent/TCP", "Agent/TCPSink"),
    "reno": ("Agent/TCP/Reno", "Agent/TCPSink"),
    "newreno": ("Agent/TCP/Newreno", "Agent/TCPSink"),
    "vegas": ("Agent/TCP/Vegas", "Agent/TCPSink"),
    "sack": ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1"),
}
#: UDP/IP header bytes wlansim puts on every UDP payload (ns-2's agents add none)
UDP_IP = 28
#: TCP/IP header bytes of a segment (ns-2's tcpip_base_hdr_size_)
TCP_IP = 40
#: what ns-2's Mac/802_11 is told per PHY reading of the study (its PHYS): the control
#: rate and, for OFDM timing, the slot, SIFS and a 20 µs PLCP (96 + 24 bits at 6 Mb/s);
#: CWMin_ stays ns-2's 31 (as the ns2 profile keeps it on every PHY)
MAC_SETTINGS = {
    "dsss-1": {"basicRate_": "1Mb"},
    "dsss-20": {"basicRate_": "20Mb"},
    "ofdm-6": {"basicRate_": "6Mb", "SlotTime_": "0.000009", "SIFS_": "0.000010",
               "PreambleLength_": "96", "PLCPHeaderLength_": "24", "PLCPDataRate_": "6Mb"},
}  # fmt: skip


@functools.lru_cache(maxsize=8)
def trace_records(path: str | Path, payload: int) -> tuple[tuple[int, int], ...]:
    """The frames of a verbose text trace as ns-2's binary records (µs to the next
    frame, bytes): each frame's size grows by :data:`UDP_IP` per packet of at most
    `payload` bytes that wlansim cuts it into; the last frame's gap is the mean gap."""
    from wlansim.traces import read_frames

    rows = read_frames(path)
    times = [t for _, t, _, _ in rows]
    mean_gap = (times[-1] - times[0]) / max(len(times) - 1, 1)
    out = []
    for i, (_, t, _, size) in enumerate(rows):
        gap_ms = times[i + 1] - t if i + 1 < len(rows) else mean_gap
        out.append((round(gap_ms * 1000), size + UDP_IP * math.ceil(size / payload)))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class Traffic:
    """What the scenario's flows send, read from the study's scenario: the game's
    directions (payload bytes, interval s, start s) and the trace flows (name, records,
    packet payload bytes, start s)."""

    game_down: tuple[int, float, float]
    game_up: tuple[int, float, float]
    traces: tuple[tuple[str, tuple[tuple[int, int], ...], int, float], ...]


def _tcl_list(records) -> str:
    return " ".join(f"{t} {s}" for t, s in records)


def script(case: dict, traffic: Traffic, duration_s: float, ftp_start_s: float) -> str:
    """The ns-2.35 script of one case (keys of :func:`case_of`), without its seeds: it
    expects Tcl variables ``seed`` and ``shadow_seed`` set before it (:func:`seeds`)."""
    nodes = case["nodes"]  # name -> (bs or None, x, y)
    bss = [n for n, (bs, _, _) in nodes.items() if bs is None]
    members = {b: [n for n, (bs, _, _) in nodes.items() if bs == b] for b in bss}
    nodes_num = " ".join(str(1 + len(members[b])) for b in bss)
    mac = "".join(f"Mac/802_11 set {k} {v}\n" for k, v in MAC_SETTINGS[case["phy"]].items())
    tcp, sink = AGENTS[case["variant"]]
    lines = [
        f"# ns-2.35 script by wlansim (evidence/ns2/janevski2009.py): {case['label']}",
        "$defaultRNG seed $seed",
        "set ns [new Simulator]",
        "$ns node-config -addressType hierarchical",
        f"AddrParams set domain_num_ {1 + len(bss)}",
        f"AddrParams set cluster_num_ {{{' '.join(['1'] * (1 + len(bss)))}}}",
        f"AddrParams set nodes_num_ {{4 {nodes_num}}}",
        "set tf [open trace.tr w]",
        "$ns trace-all $tf",
        "set topo [new Topography]",
        f"$topo load_flatgrid {case['grid']} {case['grid']}",
        f"create-god {len(nodes)}",
        "Mac/802_11 set dataRate_ 20Mb",
        f"Mac/802_11 set RTSThreshold_ {0 if case['rts'] else 3000}",
        f"Mac/802_11 set LongRetryLimit_ {case['attempts']}",
        mac.rstrip("\n"),
        "set prop [new Propagation/Shadowing]",
        f"$prop set pathlossExp_ {case['beta']}",
        f"$prop set std_db_ {case['sigma_db']}",
        "$prop set dist0_ 1.0",
        "$prop seed raw $shadow_seed",
        "set chan [new Channel/WirelessChannel]",
        "for {set i 0} {$i < 4} {incr i} { set A($i) [$ns node 0.0.$i] }",
        "$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 \\",
        f"    -ifqType Queue/DropTail/PriQueue -ifqLen {case['ifq']} \\",
        "    -antType Antenna/OmniAntenna -propInstance $prop -phyType Phy/WirelessPhy \\",
        "    -channel $chan -topoInstance $topo -wiredRouting ON \\",
        "    -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF",
    ]
    for d, b in enumerate(bss, start=1):
        _, x, y = nodes[b]
        lines += [f"set {b} [$ns node {d}.0.0]", f"${b} random-motion 0",
                  f"${b} set X_ {x:.6f}", f"${b} set Y_ {y:.6f}", f"${b} set Z_ 0"]  # fmt: skip
    lines.append("$ns node-config -wiredRouting OFF")
    for d, b in enumerate(bss, start=1):
        for i, n in enumerate(members[b], start=1):
            _, x, y = nodes[n]
            lines += [f"set {n} [$ns node {d}.0.{i}]", f"${n} random-motion 0",
                      f"${n} set X_ {x:.6f}", f"${n} set Y_ {y:.6f}", f"${n} set Z_ 0",
                      f"${n} base-station [AddrParams addr2id [${b} node-addr]]"]  # fmt: skip
    # the wired links untraced (the trace holds the wireless nodes' drops only)
    lines.append("$ns unset traceAllFile_")
    links = [("A(1)", "A(0)", 10), ("A(2)", "A(0)", 20), ("A(3)", "A(0)", 30)]
    links += [("A(0)", b, 10) for b in bss]
    for a, b, ms in links:
        lines += [f"$ns duplex-link ${a} ${b} 100Mb {ms}ms DropTail",
                  f"$ns queue-limit ${a} ${b} 1000", f"$ns queue-limit ${b} ${a} 1000"]  # fmt: skip
    for b in bss:
        lines.append(f'puts "node {b} [${b} id]"')
    for n in nodes:
        if nodes[n][0] is not None:
            lines.append(f'puts "node {n} [${n} id]"')
    # ARP before the traffic: every BS with each of its stations, both ways; n3 again
    prime = []
    for b in bss:
        for i, n in enumerate(members[b]):
            prime += [(f"p{b}{n}", b, n, 5.0 + 0.1 * i), (f"p{n}{b}", n, b, 6.0 + 0.1 * i)]
    for k in range(4):
        prime += [(f"pn3d{k}", "A(3)", "n3", 30.0 + k), (f"pn3u{k}", "n3", "A(3)", 30.5 + k)]
    text = "\n".join(lines) + "\n"
    text += "".join(arp_prime(name, a, b, at) for name, a, b, at in prime)
    text += _game(traffic, duration_s)
    text += _traces(traffic, case, duration_s)
    text += _ftp(tcp, sink, case, ftp_start_s)
    if case.get("walk"):
        x, y = case["walk"]
        text += f'$ns at {ftp_start_s} "$n3 setdest {x:.6f} {y:.6f} 4.0"\n'
    text += _finish(duration_s, ftp_start_s)
    return text


def _game(traffic: Traffic, duration_s: float) -> str:
    """The game's two directions, each packet sent from Tcl with its send time as data."""
    out = []
    for name, src, dst, (payload, interval, start), kind in (
        ("gd", "A(1)", "n1", traffic.game_down, GAME_TYPES["down"][0]),
        ("gu", "n1", "A(1)", traffic.game_up, GAME_TYPES["up"][0]),
    ):
        count = math.ceil((duration_s - start) / interval - 1e-9)
        out.append(
            f"set {name} [new Agent/UDP]\n${name} set_pkttype {kind}\n"
            f"$ns attach-agent ${src} ${name}\n"
            f"set {name}r [new Agent/UDP]\n$ns attach-agent ${dst} ${name}r\n"
            f"$ns connect ${name} ${name}r\n"
            f"set {name}n 0\nset {name}sum 0.0\n"
            f"${name}r proc process_data {{from data}} {{\n"
            f"    global ns {name}n {name}sum\n    incr {name}n\n"
            f"    set {name}sum [expr ${name}sum + [$ns now] - $data]\n}}\n"
            f"for {{set i 0}} {{$i < {count}}} {{incr i}} {{\n"
            f"    set t [expr {start!r} + $i * {interval!r}]\n"
            f'    $ns at $t "${name} send {payload + UDP_IP} $t"\n}}\n'
        )
    return "".join(out)


def _traces(traffic: Traffic, case: dict, duration_s: float) -> str:
    out = []
    ends = {"movie": ("bs0", "n0"), "chat-down": ("A(2)", "n2"), "chat-up": ("n2", "A(2)")}
    for i, (name, records, payload, start) in enumerate(traffic.traces):
        src, dst = ends[name]
        out.append(
            f"set tfile{i} [open trace{i}.bin w]\nfconfigure $tfile{i} -translation binary\n"
            f"foreach {{gap size}} {{{_tcl_list(records)}}} {{\n"
            f"    puts -nonewline $tfile{i} [binary format II $gap $size]\n}}\n"
            f"close $tfile{i}\n"
            f"set tr{i} [new Tracefile]\n$tr{i} filename trace{i}.bin\n"
            f"set v{i} [new Agent/UDP]\n$v{i} set packetSize_ {payload + UDP_IP}\n"
            f"$ns attach-agent ${src} $v{i}\n"
            f"set v{i}r [new Agent/Null]\n$ns attach-agent ${dst} $v{i}r\n"
            f"$ns connect $v{i} $v{i}r\n"
            f"set app{i} [new Application/Traffic/Trace]\n$app{i} attach-tracefile $tr{i}\n"
            f'$app{i} attach-agent $v{i}\n$ns at {start} "$app{i} start"\n'
        )
    return "".join(out)


def _ftp(tcp: str, sink: str, case: dict, start: float) -> str:
    return (
        f"set tcp [new {tcp}]\n$tcp set packetSize_ {case['mss']}\n"
        f"$tcp set window_ {case['window']}\n"
        f"$ns attach-agent $A(3) $tcp\nset sink [new {sink}]\n$ns attach-agent $n3 $sink\n"
        f"$ns connect $tcp $sink\nset ftp [new Application/FTP]\n$ftp attach-agent $tcp\n"
        f'$ns at {start} "$ftp start"\n'
    )


def _finish(duration_s: float, ftp_start_s: float) -> str:
    samples = "".join(
        f'$ns at {t:g} "srtt"\n' for t in range(math.ceil(ftp_start_s) + 1, math.ceil(duration_s))
    )
    return (
        "set srtts {}\n"
        "proc srtt {} {\n    global tcp srtts\n"
        "    set bits [$tcp set T_SRTT_BITS]\n"
        "    set s [$tcp set srtt_]\n"
        "    if {$s > 0} {\n"
        "        lappend srtts [expr ($s / double(1 << $bits)) * [$tcp set tcpTick_]]\n"
        "    }\n}\n"
        f"{samples}"
        "proc finish {} {\n"
        "    global sink tcp gdn gdsum gun gusum srtts tf\n"
        '    puts "ftp_bytes [$sink set bytes_]"\n'
        '    puts "ftp_timeouts [$tcp set nrexmit_]"\n'
        '    puts "ftp_cuts [$tcp set ncwndcuts_]"\n'
        '    puts "ftp_rexmits [$tcp set nrexmitpack_]"\n'
        '    puts "srtt_samples [llength $srtts]"\n'
        "    set sum 0.0\n    foreach s $srtts { set sum [expr $sum + $s] }\n"
        '    if {[llength $srtts]} { puts "ftp_srtt_s [expr $sum / [llength $srtts]]" }\n'
        '    puts "game_down_n $gdn"\n    puts "game_down_sum_s $gdsum"\n'
        '    puts "game_up_n $gun"\n    puts "game_up_sum_s $gusum"\n'
        "    flush $tf\n    close $tf\n    exit 0\n}\n"
        f'$ns at {duration_s} "finish"\n$ns run\n'
    )


# --------------------------------------------------------------------------- from the scenario

#: the game's directions when a game flow gives no `game` table (wlansim's defaults,
#: janevski2009 §3): payload bytes and interval in s
GAME_DEFAULTS = {"downlink": (200, 0.050), "uplink": (42, 0.060)}
#: every coordinate is shifted by this much (ns-2's flat grid starts at 0)
OFFSET_M = 200.0


def _quantity(value, unit: str) -> float:
    """A scenario value such as "10 s" or "1000 B" in `unit` (a bare number as is)."""
    if isinstance(value, (int, float)):
        return float(value)
    number, _, got = str(value).strip().partition(" ")
    if got.strip() != unit:
        raise ValueError(f"{value!r}: expected a number of {unit} (e.g. '10 {unit}')")
    return float(number)


def case_of(s: dict, label: str = "") -> tuple[dict, Traffic]:
    """The ns-2 case (and its traffic) of a janevski2009 scenario as the study builds it
    (:func:`wlansim.evidence.studies.janevski2009.scenario`): every node's BS and
    position, n3's walk, the radio, MAC and TCP settings and the flows."""
    aps = {ap["name"]: ap for ap in s["aps"]}
    nodes = {n: (None, x + OFFSET_M, y + OFFSET_M) for n, ap in aps.items()
             for x, y in [ap["position"]]}  # fmt: skip
    walk = None
    for g in s["stations"]:
        x, y = g["position"]
        nodes[g["name"]] = (g["ap"], x + OFFSET_M, y + OFFSET_M)
        mob = g.get("mobility")
        if mob:
            if g["name"] != "n3" or _quantity(mob["speed"], "m/s") != 4.0:
                raise ValueError(f"station {g['name']}: only n3 walks (at 4 m/s) in ns-2's case")
            (wx, wy), *rest = mob["waypoints"]
            if rest:
                raise ValueError("n3's walk: one waypoint (ns-2's setdest)")
            walk = (wx + OFFSET_M, wy + OFFSET_M)
    prop = s["channel"]["propagation"]
    control = s["phy"]["control_rate"]
    standard = s["phy"]["standard"]
    readings = {("802.11b", "1 Mb/s"): "dsss-1", ("802.11b", "20 Mb/s"): "dsss-20",
                ("802.11g", "6 Mb/s"): "ofdm-6"}  # fmt: skip
    phy = readings.get((standard, control))
    if phy is None:
        allowed = ", ".join(f"{std} with {rate}" for std, rate in readings)
        raise ValueError(
            f"phy.standard {standard!r} with phy.control_rate {control!r}: ns-2's case has "
            f"{allowed}"
        )
    rts = s["mac"].get("rts_threshold", 0)
    case = {
        "label": label or s["name"],
        "nodes": nodes,
        "walk": walk,
        "grid": 2 * OFFSET_M + 200,
        "beta": prop["path_loss_exponent"],
        "sigma_db": prop["sigma_db"],
        "phy": phy,
        "rts": rts == 0,
        "attempts": s["mac"]["long_retry_limit"],
        "ifq": s["mac"]["queue"],
        "variant": s["tcp"]["variant"],
        "window": s["tcp"]["rwnd"],
        "mss": s["tcp"]["mss"],
    }
    if rts not in (0, "off"):
        raise ValueError(f"mac.rts_threshold {rts!r}: 0 (RTS before every frame) or 'off'")
    if any(ap.get("queue", case["ifq"]) != case["ifq"] for ap in s["aps"]):
        raise ValueError("ns-2's case has one IFQ at every node")
    game, traces = {}, []
    for f in s["flows"]:
        start = _quantity(f.get("start", 0), "s")
        if f.get("traffic") == "game":
            if f.get("game"):
                raise ValueError(f"flow {f['name']}: ns-2's case sends the default game")
            payload, interval = GAME_DEFAULTS[f["direction"]]
            game[f["direction"]] = (payload, interval, start)
        elif f.get("traffic") == "trace":
            payload = int(_quantity(f["packet_size"], "B"))
            records = trace_records(f["trace"]["file"], payload)
            traces.append((f["name"], records, payload, start))
    traffic = Traffic(game["downlink"], game["uplink"], tuple(traces))
    return case, traffic


# --------------------------------------------------------------------------- a run

#: the study's metrics ns-2 has no counter for (NaN in its tables)
UNCOUNTED = ("bs1_attempts", "bs1_successes", "bs1_frame_errors", "spatial_medium")
#: (layer, reason) of ns-2's drop lines: a full interface queue (`DropTail::enque` →
#: the IFQ's drop target, no reason) and the MAC giving up after its retry limit, which
#: ns-2 traces where DSDV's callback drops the packet (`DSDV_Agent::lost_link` with
#: `use_mac_` 0: `CBK`)
DROPS = {"queue": ("IFQ", "---"), "retry": ("RTR", "CBK")}
#: the game's packet types in ns-2's trace (`common/packet.h`: PT_AUDIO, PT_PARETO), so
#: that its drops can be told from the traces' UDP packets
GAME_TYPES = {"down": (3, "audio"), "up": (28, "pareto")}


def resolved(s: dict, duration_s: float, ftp_start_s: float, game_start_s: float) -> dict:
    """What a campaign keys and runs (:func:`run`): the script of scenario `s` without
    its seed, and what the metrics need."""
    case, traffic = case_of(s)
    walk = case["walk"]
    start = case["nodes"]["n3"][1:]
    return {
        "tcl": script(case, traffic, duration_s, ftp_start_s),
        "ftp": [ftp_start_s, duration_s],
        "game": [game_start_s, duration_s, traffic.game_down[0], traffic.game_down[1]],
        "walk": None if walk is None else [*start, *walk],
        # the sink counts the segments' IP bytes: ns-2's Vegas sends them without the
        # TCP/IP header (`VegasTcpAgent::output` never adds `headersize()`)
        "mss": case["mss"],
        "segment_bytes": case["mss"] + (0 if case["variant"] == "vegas" else TCP_IP),
    }


def parked(start, walk, ftp, speed: float = 4.0) -> tuple[float, float]:
    """(share of the FTP's whole seconds n3 stood at the end of its walk, the first such
    second), as the study reads wlansim's position series (``parked_share``)."""
    arrive = ftp[0] + math.dist(start, walk) / speed
    seconds = list(range(math.floor(ftp[0]) + 1, math.floor(ftp[1]) + 1))
    at = [t for t in seconds if t >= arrive - 1e-9]
    return len(at) / len(seconds), (min(at) if at else math.nan)


def metrics(r: dict, out: str, drops) -> dict:
    """The study's metrics (``run_case``'s names) of case `r` (:func:`resolved`) from
    what its script printed and the drops ns-2 traced (:data:`DROPS`), per node and
    packet type."""
    printed = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    node = {line.split()[1]: int(line.split()[2]) for line in out.splitlines()
            if line.startswith("node ")}  # fmt: skip

    def num(key: str) -> float:
        return float(printed[key]) if key in printed else math.nan

    def dropped(why: str, kinds, where: str | None = None) -> int:
        layer, reason = DROPS[why]
        return sum(
            1 for d in drops
            if d.layer == layer and d.reason == reason and d.kind in kinds
            and (where is None or d.node == node[where])
        )  # fmt: skip

    ftp0, end = r["ftp"]
    game0, _, game_bytes, game_gap = r["game"]
    down, up = num("game_down_n"), num("game_up_n")
    timeouts = num("ftp_timeouts")
    share, since = (math.nan, math.nan)
    if r["walk"]:
        share, since = parked(r["walk"][:2], r["walk"][2:], r["ftp"])
    tcp = ("tcp", "ack")
    return {
        "ftp_mbps": num("ftp_bytes") / r["segment_bytes"] * r["mss"] * 8 / (end - ftp0) / 1e6,
        "ftp_rtt_ms": 1e3 * num("ftp_srtt_s"),
        "ftp_timeouts": timeouts,
        "ftp_fast_retransmits": num("ftp_cuts") - timeouts,
        "ftp_retransmissions": num("ftp_rexmits"),
        "ftp_queue_drops": dropped("queue", tcp),
        "ftp_retry_drops": dropped("retry", tcp),
        "game_delay_ms": 1e3 * num("game_down_sum_s") / down if down else math.nan,
        "game_up_delay_ms": 1e3 * num("game_up_sum_s") / up if up else math.nan,
        "game_kbps": down * game_bytes * 8 / (end - game0) / 1e3,
        "game_received": down,
        "game_offered": float(math.ceil((end - game0) / game_gap - 1e-9)),
        "game_queue_drops": dropped("queue", (GAME_TYPES["down"][1],)),
        "game_retry_drops": dropped("retry", (GAME_TYPES["down"][1],)),
        **{k: math.nan for k in UNCOUNTED if k != "spatial_medium"},
        "bs1_retry_drops": dropped(
            "retry", ("tcp", "udp", *(t for _, t in GAME_TYPES.values())), "bs1"
        ),
        "bs1_queue_drops": dropped(
            "queue", ("tcp", "ack", "udp", "cbr", *(t for _, t in GAME_TYPES.values())), "bs1"
        ),
        "bs0_queue_drops": dropped(
            "queue", ("tcp", "ack", "udp", "cbr", *(t for _, t in GAME_TYPES.values())), "bs0"
        ),
        "queue_drops": sum(1 for d in drops if (d.layer, d.reason) == DROPS["queue"]),
        "n3_parked_share": share,
        "n3_parked_from_s": since,
        "spatial_medium": math.nan,
    }


#: ns-2's random streams take seeds below 2^31 (MRG32k3a's modulus; 0 is refused)
NS2_SEED_RANGE = 2**31 - 2


def seeds(seed: int) -> str:
    """The Tcl lines that seed a script from a run's `seed` (any integer): ns-2's default
    stream (``$defaultRNG``, the traces' start records) and the shadowing model's own."""
    main = 1 + seed % NS2_SEED_RANGE
    return f"set seed {main}\nset shadow_seed {1 + (7919 * main) % NS2_SEED_RANGE}\n"


def run(r: dict, seed: int) -> dict:
    """Campaign run function: ns-2.35 on case `r` (:func:`resolved`) with `seed`; the
    study's metrics, and ns-2's wall and CPU seconds."""
    done = run_script(seeds(seed) + r["tcl"])
    return {
        "metrics": metrics(r, done.stdout, done.drops),
        "meta": {"wall_s": done.wall_s, "cpu_s": done.cpu_s, "simulator": "ns-2.35"},
    }
