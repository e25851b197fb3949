"""pilosof2003's scenarios in ns-2.35: `n` TCP uploads and `m` TCP downloads between
wireless stations and a wired host behind the AP, whose interface queue of B packets
holds the downloads' data and the uploads' ACKs (``wlansim reproduce pilosof2003
--against ns2``).

The script matches the study's wlansim scenario (:func:`wlansim.evidence.studies.
pilosof2003.scenario` under ``profile = "ns2"``): 802.11 DSSS at the study's rate with
control frames at 1 Mb/s and RTS/CTS before every data frame (`Mac/802_11`'s defaults,
dataRate_ and basicRate_ 1Mb, RTSThreshold_ 0), 1024-byte TCP packets (`packetSize_`),
the receiver window 42 (`window_`), one ACK per packet (`TCPSink`), ns-2's Reno (or the
swept variant) sender, a wired host on a 100 Mb/s, 1 ms link (wlansim's server), DSDV
on the wireless nodes (its 20 bytes, as the profile's ``routing_agent``), stations'
interface queues of 50. The paper put its stations "at a fixed point close enough to the
base station": every frame arrives with one power, which is wlansim's shared medium; here
the stations stand 10 m from the AP on a half circle (no two in line with it, where ns-2's
per-pair delays would make ties that wlansim's single delay does not: README, "Both
points with many seeds") with capture off (`CPThresh_` 1e9, so any overlap destroys
both frames, as on the shared medium). The wired-cum-wireless start-up is let pass
first: one UDP packet each way between the host and every station at 10 ms has DSDV
find the routes and ARP resolve the addresses (without it a station's SYN waits for
DSDV's first update, and its 3 s initial RTO, seconds into the run); the flows start
together :data:`WARMUP_S` later and are measured for the study's 100 s from there, as
the study's run is measured whole from its flows' start (wlansim has neither DSDV's nor
ARP's exchanges).

The window fix of §V is what the paper ran in ns-2: ``window_`` = ⌊B/F⌋ for every sender,
set before the agents are made (so that ssthresh_ starts at it too), where F counts the
flows (wlansim's AP counts every flow it sees: :data:`wlansim.evidence.studies.
pilosof2003.Plan`'s Fig 11).

Each run prints, per flow, the packets acknowledged (`ack_`, the SYN excluded), its
timeouts (`nrexmit_`) and its mean RTT over the samples the sender took (`rtt_` traced,
ns-2's 10 ms ticks); the trace gives the frames each side delivered (the stations'
agents' receptions, the wired link's receptions from the AP) and the AP's queue drops.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
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

#: the wired link of the study's server (wlansim's default server link)
LINK = "100Mb 1ms"
#: trace node ids: the wired host, the AP; stations from 2 on
HOST_NODE, AP_NODE = 0, 1
#: seconds before the flows start: DSDV's routes and ARP (primed at 10 ms) are in place
#: after 2 s at most in these cells; 10 s as in `wlansim validate ns2`
WARMUP_S = 10.0


@dataclass(frozen=True)
class Case:
    """One run's scenario: `n_up` uploads and `n_down` downloads, AP buffer `buffer`, the
    senders' window `window` (42, or ⌊B/F⌋ for the fix) of `mss`-byte packets, PHY `rate`
    ("1 Mb/s"), RTS/CTS on every frame or not, TCP `variant`, `duration_s` seconds; `udp`
    (payload bytes, ms): CBR from the host to a station of its own (Table I)."""

    n_up: int
    n_down: int
    buffer: int
    window: int
    rate: str = "1 Mb/s"
    rts: bool = True
    variant: str = "reno"
    mss: int = 1024
    duration_s: float = 100.0
    udp: tuple[int, float] | None = None
    #: count the frames each side delivered and the AP's drops from the trace (else the
    #: trace goes to /dev/null and those columns are NaN: the claims read them at one
    #: upload and one download only, and parsing the larger cells' traces costs more
    #: than running them)
    counts: bool = True

    @property
    def flows(self) -> list[str]:
        """The flows as the script names them: up-0.., down-0.."""
        return [f"up-{i}" for i in range(self.n_up)] + [f"down-{i}" for i in range(self.n_down)]


def _rate(rate: str) -> str:
    """ "1 Mb/s" as ns-2 writes a bandwidth: "1Mb"."""
    m = re.fullmatch(r"\s*([\d.]+)\s*Mb/s\s*", rate)
    if m is None:
        raise ValueError(f"rate {rate!r}: ns-2 scripts here take rates in Mb/s, e.g. '1 Mb/s'")
    return f"{float(m.group(1)):g}Mb"


def script(case: Case, seed: int) -> str:
    """The ns-2.35 Tcl of `case` under `seed` (see the module)."""
    flows = case.n_up + case.n_down
    stations = flows + (case.udp is not None)
    mac = mac_802_11(_rate(case.rate), "1Mb", case.rts)
    parts = [
        f"# ns-2.35 script by wlansim (evidence/ns2/pilosof2003.py): {case.n_up} up + "
        f"{case.n_down} down, B = {case.buffer}, window {case.window}\n",
        wired_cum_wireless(
            seed,
            stations,
            mac,
            case.buffer,
            LINK,
            agent_trace=case.counts,
            trace=case.counts,
            wired_trace=case.counts,
        ),  # fmt: skip
        f"Agent/TCP set packetSize_ {case.mss}\nAgent/TCP set window_ {case.window}\n",
    ]
    agent = tcp_agent(case.variant)
    xy = arc_positions(stations, math.pi)
    names = []
    for i, (x, y) in enumerate(xy[:flows]):
        up = i < case.n_up
        station, flow = f"s{i}", f"f{i}"
        parts.append(place(station, x, y, f"1.0.{i + 1}"))
        parts.append(arp_prime(f"down{i}", "host", station, 0.01 + 0.002 * i))
        parts.append(arp_prime(f"up{i}", station, "host", 0.011 + 0.002 * i))
        src, dst = (station, "host") if up else ("host", station)
        parts.append(tcp_transfer(flow, src, dst, WARMUP_S, agent))
        names.append(f"{case.flows[i]} ${flow}")
        parts.append(f"set rtt({flow}) [open rtt-{case.flows[i]}.tr w]\n"
                     f"${flow} attach $rtt({flow})\n${flow} trace rtt_\n")  # fmt: skip
    if case.udp is not None:
        size, ms = case.udp
        x, y = xy[-1]
        parts.append(
            place("bg", x, y, f"1.0.{stations}")
            + arp_prime("bgarp", "host", "bg", 0.01 + 0.002 * flows)
            + f"""set udp [new Agent/UDP]\n$ns attach-agent $host $udp
set udp_sink [new Agent/Null]\n$ns attach-agent $bg $udp_sink\n$ns connect $udp $udp_sink
set cbr [new Application/Traffic/CBR]\n$cbr set packetSize_ {size + UDP_IP_HEADER}
$cbr set interval_ {ms / 1e3:.9g}\n$cbr attach-agent $udp\n$ns at {WARMUP_S} "$cbr start"
"""
        )
    agents = " ".join(f"f{i}" for i in range(flows))
    parts.append(f"""proc finish {{}} {{
    global ns tf rtt {agents}
    foreach {{name agent}} [list {" ".join(names)}] {{
        puts "$name packets [$agent set ack_] timeouts [$agent set nrexmit_]"
    }}
    foreach f [array names rtt] {{ close $rtt($f) }}
    $ns flush-trace
    close $tf
    exit 0
}}
$ns at {WARMUP_S + case.duration_s} "finish"
$ns run
""")
    return "".join(parts)


#: the trace lines counted (:func:`_counts`): a data packet (`tcp`; the SYN travels as one)
#: or an ACK (`ack`) received by a station's agent (delivered over the air by the AP),
#: received by the host from the AP (delivered over the air by a station: the AP passes
#: it on at once), dropped by the AP's interface queue. TCP packets exist only from the
#: flows' start (the warm-up carries UDP and DSDV's packets alone).
_LINES = {
    "ap": re.compile(r"^r \S+ _\d+_ AGT +--- \d+ (tcp|ack) ", re.MULTILINE),
    "sta": re.compile(rf"^r \S+ {AP_NODE} {HOST_NODE} (tcp|ack) ", re.MULTILINE),
    "drop": re.compile(rf"^D \S+ _{AP_NODE}_ IFQ +\S+ \d+ (tcp|ack) ", re.MULTILINE),
}
_KIND = {"tcp": "data", "ack": "ack"}


def _counts(trace: str) -> dict[str, int]:
    """From the trace (:data:`_LINES`): the frames the AP and the stations delivered, and
    the AP's queue drops, by kind: ``ap_data``, ``ap_ack``, ``sta_data``, ..."""
    c = {f"{w}_{k}": 0 for w in _LINES for k in _KIND.values()}
    for where, pattern in _LINES.items():
        for kind in pattern.findall(trace):
            c[f"{where}_{_KIND[kind]}"] += 1
    return c


def _rtt_mean(text: str) -> float:
    """The mean of a sender's RTT samples (`rtt_` trace lines, seconds); NaN if none."""
    xs = [float(line.split()[-1]) for line in text.splitlines() if " rtt_ " in line]
    xs = [x for x in xs if x > 0]
    return sum(xs) / len(xs) if xs else math.nan


def run_case(case: Case, seed: int, store: Path | None = None) -> dict:
    """One run: the study's per-run columns (:func:`wlansim.evidence.studies.pilosof2003.
    _per_run`'s) from ns-2, with `wall_s` and `cpu_s`; kept in `store` (:func:`stored`)."""
    text = script(case, seed)
    return stored(store, text, lambda: _measure(case, seed, text))


def _measure(case: Case, seed: int, text: str) -> dict:
    """:func:`run_case`'s row, from running `text`."""
    files = (TRACE_FILE, "rtt-*.tr") if case.counts else ("rtt-*.tr",)
    run = run_script(text, read=files, drops=False)
    flows = {}
    for line in run.stdout.splitlines():
        m = re.fullmatch(r"(\S+) packets (-?\d+) timeouts (\d+)", line.strip())
        if m:
            flows[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    missing = set(case.flows) - set(flows)
    if missing:
        raise RuntimeError(f"ns-2 printed no counters for {sorted(missing)}:\n{run.stdout}")
    c = _counts(run.files[TRACE_FILE]) if case.counts else {}
    bits = 8 * case.mss / case.duration_s
    row: dict = {"seed": seed}
    for d, n in (("up", case.n_up), ("down", case.n_down)):
        mine = [f for f in case.flows if f.startswith(f"{d}-")]
        row[f"{d}_flow_bps"] = sum(max(flows[f][0], 0) for f in mine) * bits / n
        rtts = [_rtt_mean(run.files.get(f"rtt-{f}.tr", "")) for f in mine]
        rtts = [r for r in rtts if not math.isnan(r)]
        row[f"{'uplink' if d == 'up' else 'downlink'}_rtt_mean_s"] = (
            sum(rtts) / len(rtts) if rtts else math.nan
        )
    row["ratio"] = row["up_flow_bps"] / row["down_flow_bps"] if row["down_flow_bps"] else math.inf
    row["goodput_bps"] = row["up_flow_bps"] * case.n_up + row["down_flow_bps"] * case.n_down
    row["timeouts"] = sum(t for _, t in flows.values())
    for kind in ("data", "ack"):
        drops, sent = c.get(f"drop_{kind}", math.nan), c.get(f"ap_{kind}", math.nan)
        row[f"ap_frames_{kind}"] = sent
        row[f"stations_frames_{kind}"] = c.get(f"sta_{kind}", math.nan)
        row[f"ap_drops_{kind}"] = drops
        row[f"ap_loss_{kind}"] = drops / (drops + sent) if drops + sent else math.nan
    row["wall_s"], row["cpu_s"] = run.wall_s, run.cpu_s
    return row


def runs(
    cases: list[tuple[dict, Case]], seeds: list[int], jobs: int = 1, store: Path | None = None
) -> pd.DataFrame:
    """One row per case and seed: the case's columns (each case's dict), then
    :func:`run_case`'s; `jobs` ns-2 processes at a time, each run kept in `store`."""
    results = per_seed(lambda pc, seed: run_case(pc[1], seed, store), cases, seeds, jobs)
    rows = [{**cols, **r} for (cols, _), rs in zip(cases, results) for r in rs]
    return pd.DataFrame(rows)
