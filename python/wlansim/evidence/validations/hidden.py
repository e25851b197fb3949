"""The spatial medium validated (`wlansim validate hidden`): hidden terminals beside ns-2.35
and an analytical model, exposed terminals, and BSSs on channels that do or do not
overlap.

(a) **Hidden stations.** An AP with a saturated station 100 m on each side (2 Mb/s data,
1 Mb/s control, 1000-byte IP packets, queue 50): each station decodes the AP (-47.2 dBm)
but not the other (-53.2 dBm, below both thresholds of -50 dBm), with ns-2's
log-distance model at exponent 2 without shadowing (Friis from 1 m, 914 MHz, 0.2818 W:
ns-2's `Propagation/Shadowing` with `std_db_ 0`), basic access and RTS/CTS.
wlansim with ``profile = "ns2"`` runs beside ns-2.35 running the same Tcl geometry (packets
per second received by the AP after a 10 s warm-up, 10 seeds each); wlansim with the
standard's rules runs beside the vulnerable-period model (`wlansim.models.hidden`).

(b) **Exposed terminals.** Two stations 100 m apart, each sending to its own AP 100 m
further out on its side: the senders hear each other, each AP hears only its own
station. Carrier sense keeps the senders from overlapping although their frames could
(each AP is 200 m from the other sender): each gets about half of what a lone link
carries, as if they shared one cell.

(c) **Channels.** Three BSSs of 5 saturated stations in one room: on channels 1, 6 and 11
each carries what a lone cell carries (within 1 %); on channel 1 the three share one
medium and together carry what one cell of 15 stations carries.

Each check is a claim record (:data:`CLAIMS`) decided by the shared verdict engine
(:mod:`wlansim.evidence.claims`) over the per-seed runs (the tables ``hidden``, ``model``,
``exposed`` and ``channels`` of :func:`run`), as every validation's
(:mod:`wlansim.evidence.validation`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

import wlansim
from wlansim.evidence.claims import Claim, Compare, Every, InRange, NotRun, Sample, Scale, Within
from wlansim.evidence.ns2.run import INSTALL_HINT, ns_binary, packets, run_text
from wlansim.evidence.ns2.tcl import DUMB_AGENT, UDP_IP_HEADER
from wlansim.evidence.stats import mean_half_width
from wlansim.evidence.validation import at_least, in_seconds, past_warmup, seconds_text
from wlansim.models import hidden as hidden_model
from wlansim.phy import timing

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

TITLE = (
    "the spatial medium: hidden stations beside ns-2.35 and a model, exposed senders, BSSs "
    "on channels 1, 6, 11"
)
PROFILE = "standard"
NO_NS2 = (
    "here ns-2.35 is one side of the hidden-station checks (hidden.ns2-*), not a second "
    "verdict beside every check"
)
#: Seconds not measured at the start of each run (ns-2's ARP start-up).
WARMUP_S = 10.0
IP_BYTES = 1000
#: Both thresholds of every node, W (-50 dBm): a station 100 m away is decoded, 200 m not.
THRESHOLD_W = 1e-8
DISTANCE_M = 100.0
PROPAGATION = {
    "model": "shadowing",
    "path_loss_exponent": 2.0,
    "sigma_db": 0.0,
    "rx_threshold_w": THRESHOLD_W,
    "cs_threshold_w": THRESHOLD_W,
}
ACCESSES = ("basic", "rts")


def _phy(data_rate_mbps: float) -> dict:
    return {
        "standard": "802.11b",
        "data_rate": f"{data_rate_mbps:g} Mb/s",
        "control_rate": "1 Mb/s",
    }


def _upload(name: str, group: str) -> dict:
    return {
        "name": name,
        "direction": "uplink",
        "stations": group,
        "traffic": "saturated",
        "packet_size": f"{IP_BYTES - UDP_IP_HEADER} B",
    }


def hidden_scenario(
    access: str,
    *,
    profile: str = "ns2",
    duration_s: float = 40.0,
    warmup_s: float = WARMUP_S,
    distance_m: float = DISTANCE_M,
) -> dict:
    """(a): the AP at the origin, a station ``distance_m`` (100 m: hidden from each other)
    on each side, both uploading."""
    s = {
        "name": f"hidden-{access}",
        "duration": seconds_text(duration_s),
        "warmup": seconds_text(warmup_s),
        "phy": _phy(2),
        "mac": {"rts_threshold": 0 if access == "rts" else "off", "queue": 50},
        "ap": {"position": [0.0, 0.0]},
        "stations": [
            {"name": "left", "position": [-distance_m, 0.0]},
            {"name": "right", "position": [distance_m, 0.0]},
        ],
        "flows": [_upload("l", "left"), _upload("r", "right")],
        "channel": {"propagation": dict(PROPAGATION)},
    }
    if profile == "ns2":
        # the Tcl's nodes run DumbAgent, which adds no header (wlansim.evidence.ns2.tcl.DUMB_AGENT)
        s["profile"], s["routing_agent"] = "ns2", DUMB_AGENT
    return s


def hidden_tcl(access: str, duration_s: float, warmup_s: float, seed: int) -> str:
    """(a) for ns-2.35: the same geometry (shifted into ns-2's positive grid), thresholds
    and propagation; prints `packets N` (received by the AP after the warm-up)."""
    placed = ""
    for i, x in ((1, -DISTANCE_M), (2, DISTANCE_M)):
        placed += (
            f"set n({i}) [$ns node]\n$n({i}) random-motion 0\n"
            f"$n({i}) set X_ {500 + x:.1f}\n$n({i}) set Y_ 500.0\n$n({i}) set Z_ 0\n"
            f"set u({i}) [new Agent/UDP]\n$ns attach-agent $n({i}) $u({i})\n"
            f"$ns connect $u({i}) $sink\n"
            f"set c({i}) [new Application/Traffic/CBR]\n$c({i}) set packetSize_ {IP_BYTES}\n"
            f"$c({i}) set interval_ 0.001\n$c({i}) attach-agent $u({i})\n"
            f'$ns at 0.{i:04d} "$c({i}) start"\n'
        )
    return f"""# ns-2.35 script written by wlansim (validation_hidden.py): hidden stations, {access}
$defaultRNG seed {seed}
set ns [new Simulator]
set tf [open /dev/null w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 1000 1000
create-god 3
Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 1Mb
Mac/802_11 set RTSThreshold_ {0 if access == "rts" else 3000}
Phy/WirelessPhy set RXThresh_ {THRESHOLD_W}
Phy/WirelessPhy set CSThresh_ {THRESHOLD_W}
Propagation/Shadowing set pathlossExp_ 2.0
Propagation/Shadowing set std_db_ 0.0
Propagation/Shadowing set dist0_ 1.0
Propagation/Shadowing set seed_ {seed}
$ns node-config -adhocRouting DumbAgent -llType LL -macType Mac/802_11 \\
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \\
    -propType Propagation/Shadowing -phyType Phy/WirelessPhy \\
    -channel [new Channel/WirelessChannel] -topoInstance $topo \\
    -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
set ap [$ns node]
$ap random-motion 0
$ap set X_ 500.0
$ap set Y_ 500.0
$ap set Z_ 0
set sink [new Agent/LossMonitor]
$ns attach-agent $ap $sink
{placed}set start 0
proc mark {{}} {{ global sink start; set start [$sink set npkts_] }}
proc finish {{}} {{ global sink start; puts "packets [expr [$sink set npkts_] - $start]"; exit 0 }}
$ns at {warmup_s} "mark"
$ns at {duration_s} "finish"
$ns run
"""


def hidden_runs(
    seeds: list[int], duration_s: float = 40.0, warmup_s: float = WARMUP_S, ns2: bool = True
) -> pd.DataFrame:
    """(a) one row per (access, simulator, seed): packets per second received by the AP
    (``pkts``), and for wlansim the stations' collision probability ``p``, the share of
    their collisions with a frame of another slot (``hidden_share``: the two arrived more
    than the propagation delay apart) and
    their NAV deferrals. Simulators: ``ns-2`` (when ``ns2``), ``wlansim-ns2`` (the ns2
    profile), ``wlansim`` (the standard's rules) and ``one-cell`` (the standard's rules,
    the stations 10 m from the AP: they sense each other)."""
    import pandas as pd

    window = duration_s - warmup_s
    rows = []
    for access in ACCESSES:
        if ns2:
            for seed in seeds:
                pkts = packets(run_text(hidden_tcl(access, duration_s, warmup_s, seed))) / window
                rows.append({"access": access, "sim": "ns-2", "seed": seed, "pkts": pkts})
        for sim, profile, distance in (
            ("wlansim-ns2", "ns2", DISTANCE_M),
            ("wlansim", "standard", DISTANCE_M),
            ("one-cell", "standard", 10.0),
        ):
            s = hidden_scenario(
                access, profile=profile, duration_s=duration_s, warmup_s=warmup_s,
                distance_m=distance,
            )  # fmt: skip
            for seed in seeds:
                r = wlansim.run(s, seed=seed)
                n = r.nodes[r.nodes["role"] == "station"]
                rows.append(
                    {
                        "access": access,
                        "sim": sim,
                        "seed": seed,
                        "pkts": r.metrics["delivered_packets"] / window,
                        "p": n["collisions"].sum() / n["attempts"].sum(),
                        "hidden_share": n["hidden_collisions"].sum()
                        / max(1, n["collisions"].sum()),
                        "nav_deferrals": float(n["nav_deferrals"].sum()),
                        "medium": r.meta["medium"],
                    }
                )
    return pd.DataFrame(rows)


def hidden_model_table() -> pd.DataFrame:
    """(a) the vulnerable-period model (:mod:`wlansim.models.hidden`) per access mode:
    packets per second and the collision probability."""
    import pandas as pd

    t = timing(_phy(2), IP_BYTES - UDP_IP_HEADER)
    rows = []
    for access in ACCESSES:
        m = hidden_model.saturation(2, t, access=access)
        pkts = m["throughput_bps"] / ((IP_BYTES - UDP_IP_HEADER) * 8)
        rows.append({"access": access, "pkts": pkts, "p": m["p"]})
    return pd.DataFrame(rows)


def hidden_summary(runs: pd.DataFrame, model: pd.DataFrame) -> pd.DataFrame:
    """(a) per access mode: each simulator's mean packets per second with its 95 %
    interval, wlansim's collision probability and hidden share, and the model."""
    rows = []
    for access in ACCESSES:
        row: dict = {"access": access}
        for sim, g in runs[runs["access"] == access].groupby("sim", sort=False):
            row[f"{sim}_pkts"], row[f"{sim}_ci95"] = mean_half_width(list(g["pkts"]))
            if sim != "ns-2":
                row[f"{sim}_p"] = g["p"].mean()
                row[f"{sim}_hidden_share"] = g["hidden_share"].mean()
        m = model[model["access"] == access].iloc[0]
        row["model_pkts"], row["model_p"] = m["pkts"], m["p"]
        rows.append(row)
    import pandas as pd

    return pd.DataFrame(rows)


def exposed_scenario(*, duration_s: float, exposed: bool = True) -> dict:
    """(b): sender S1 at -50 m sends to AP1 at -150 m, S2 at +50 m to AP2 at +150 m (the
    senders 100 m apart hear each other; each AP is 200 m from the other sender). With
    ``exposed`` false, the same links 1 km apart: two lone links."""
    gap = 50.0 if exposed else 500.0
    aps = [
        {"name": "ap1", "position": [-gap - DISTANCE_M, 0.0]},
        {"name": "ap2", "position": [gap + DISTANCE_M, 0.0]},
    ]
    return {
        "name": "exposed" if exposed else "apart",
        "duration": seconds_text(duration_s),
        "warmup": "1 s",
        "phy": _phy(2),
        "aps": aps,
        "stations": [
            {"name": "s1", "ap": "ap1", "position": [-gap, 0.0]},
            {"name": "s2", "ap": "ap2", "position": [gap, 0.0]},
        ],
        "flows": [_upload("f1", "s1"), _upload("f2", "s2")],
        "channel": {"propagation": dict(PROPAGATION)},
    }


def exposed_runs(seeds: list[int], duration_s: float) -> pd.DataFrame:
    """(b) one row per (case, seed): the flows' mean packets per second and how long the
    senders' carrier sense was busy; cases: the exposed senders, the same links 1 km
    apart, and two stations of one cell."""
    import pandas as pd

    cases = {
        "exposed": exposed_scenario(duration_s=duration_s),
        "apart": exposed_scenario(duration_s=duration_s, exposed=False),
        "one cell": {
            **exposed_scenario(duration_s=duration_s),
            "aps": [{"name": "ap1"}],
            "stations": [{"name": "s1", "count": 2}],
            "flows": [_upload("f", "s1")],
            "channel": {},
        },
    }
    rows = []
    window = duration_s - 1.0
    for name, s in cases.items():
        for seed in seeds:
            r = wlansim.run(s, seed=seed)
            senders = r.nodes[r.nodes["role"] == "station"]
            rows.append(
                {
                    "case": name,
                    "seed": seed,
                    "medium": r.meta["medium"],
                    "per_flow_pkts": r.flows["delivered_packets"].mean() / window,
                    "sender_busy_share": senders["cs_busy_s"].mean() / window,
                }
            )
    return pd.DataFrame(rows)


def channels_scenario(channels: list[int], *, duration_s: float, stations: int = 5) -> dict:
    """(c): one BSS per channel in one room (no positions: every link at one power)."""
    s = {
        "name": "channels-" + "-".join(str(c) for c in channels),
        "duration": seconds_text(duration_s),
        "warmup": "1 s",
        "phy": {"standard": "802.11b"},
        "aps": [{"name": f"ap{i}", "channel": c} for i, c in enumerate(channels)],
        "stations": [
            {"name": f"s{i}", "ap": f"ap{i}", "count": stations} for i in range(len(channels))
        ],
        "flows": [_upload(f"f{i}", f"s{i}") for i in range(len(channels))],
    }
    return s


def channels_runs(seeds: list[int], duration_s: float, stations: int = 5) -> pd.DataFrame:
    """(c) one row per (case, BSS, seed): the BSS's uplink throughput. Cases: a lone cell
    of ``stations``, one of 3 x ``stations``, three BSSs on channels 1, 6, 11 and the
    three on channel 1."""
    import pandas as pd

    cases = {
        "lone": [1],
        "lone x3": [1],
        "1, 6, 11": [1, 6, 11],
        "1, 1, 1": [1, 1, 1],
    }
    rows = []
    for case, channels in cases.items():
        n = 3 * stations if case == "lone x3" else stations
        s = channels_scenario(channels, duration_s=duration_s, stations=n)
        for seed in seeds:
            r = wlansim.run(s, seed=seed)
            for i in range(len(channels)):
                rows.append(
                    {
                        "case": case,
                        "bss": f"ap{i}",
                        "seed": seed,
                        "medium": r.meta["medium"],
                        "throughput_bps": float(r.bss["uplink_bps"].iloc[i]),
                    }
                )
    return pd.DataFrame(rows)


def _claims() -> list[Claim]:
    """The checks of `wlansim validate hidden`, as claim records."""

    def ns2_side(t, access):
        h = t["hidden"]
        ours, theirs = _sample(h, access, "wlansim-ns2"), _sample(h, access, "ns-2")
        return ours, theirs

    out = [
        Claim(
            f"hidden.ns2-{access}", "ns-2.35, the same geometry and thresholds",
            f"{name}, two hidden stations: wlansim's ns2 profile carries what ns-2.35 "
            "carries within 5 %",
            Within("wlansim (ns2 profile)", "ns-2.35", tol=0.05),
            lambda t, a=access: ns2_side(t, a),
        )
        for access, name in (("basic", "basic access"), ("rts", "RTS/CTS"))
    ]  # fmt: skip
    out += [
        Claim(
            "hidden.basic-collides", "hidden terminals",
            "basic access, two hidden stations: more than half of their attempts collide, "
            "each sensing an idle medium",
            InRange("collision probability", 0.5, 1.0, scale=Scale(relative=False, digits=3)),
            lambda t: _sample(t["hidden"], "basic", "wlansim", "p"),
        ),
        Claim(
            "hidden.basic-collapses", "hidden terminals",
            "basic access: two hidden stations carry less than half of what two stations "
            "of one cell carry",
            Compare("hidden stations", "one cell", op="<", margin=-0.5),
            lambda t: (_sample(t["hidden"], "basic", "wlansim"),
                       _sample(t["hidden"], "basic", "one-cell")),
        ),
        Claim(
            "hidden.rts-recovers", "RTS/CTS against hidden terminals",
            "two hidden stations: RTS/CTS more than doubles what basic access carries",
            Compare("RTS/CTS", "basic access", margin=1.0),
            lambda t: (_sample(t["hidden"], "rts", "wlansim"),
                       _sample(t["hidden"], "basic", "wlansim")),
        ),
        Claim(
            "hidden.model-basic", "vulnerable-period model (models/hidden.py)",
            "basic access: the model, whose hidden stations attempt independently, carries "
            "less than the simulator (Tsertou & Laurenson 2008: the AP's ACKs resynchronise "
            "the two stations, so fewer of their frames overlap)",
            Compare("wlansim", "the model", margin=0.0),
            lambda t: (_sample(t["hidden"], "basic", "wlansim"), _model(t, "basic")),
            kind="model vs simulation",
        ),
        Claim(
            "hidden.model-rts", "vulnerable-period model (models/hidden.py)",
            "RTS/CTS: the simulator is within 25 % of the model (the model counts an RTS "
            "lost only while the other RTS may start; the CTS it hears makes the other "
            "defer)",
            Within("wlansim", "the model", tol=0.25),
            lambda t: (_sample(t["hidden"], "rts", "wlansim"), _model(t, "rts")),
            kind="model vs simulation",
        ),
        Claim(
            "exposed.share-like-one-cell", "exposed terminals",
            "two exposed senders each carry what a station of a two-station cell carries, "
            "within 10 % (carrier sense keeps them apart although their receivers would "
            "decode both)",
            Within("per flow, exposed senders", "per flow, one cell", tol=0.10),
            lambda t: (_case(t["exposed"], "exposed", "per_flow_pkts"),
                       _case(t["exposed"], "one cell", "per_flow_pkts")),
        ),
        Claim(
            "exposed.lose-against-apart", "exposed terminals",
            "two exposed senders each carry less than 60 % of what the same link carries "
            "alone",
            Compare("per flow, exposed senders", "the same links apart", op="<", margin=-0.4),
            lambda t: (_case(t["exposed"], "exposed", "per_flow_pkts"),
                       _case(t["exposed"], "apart", "per_flow_pkts")),
        ),
        Claim(
            "channels.orthogonal", "channels 1, 6, 11 do not overlap",
            "three BSSs on channels 1, 6 and 11 in one room: each carries what a lone cell "
            "carries, within 1 %",
            Every(Within("the BSS", "a lone cell", tol=0.01), "bss"),
            lambda t: _per_bss(t["channels"], "1, 6, 11", "lone"),
        ),
        Claim(
            "channels.one-medium", "one channel, one medium",
            "the same three BSSs all on channel 1 share one medium: together they carry what "
            "one cell of all their stations carries, within 1 %",
            Within("the three BSSs", "one cell of 15 stations", tol=0.01),
            lambda t: (_total(t["channels"], "1, 1, 1"),
                       _total(t["channels"], "lone x3")),
        ),
    ]  # fmt: skip
    return out


def _sample(runs: pd.DataFrame, access: str, sim: str, column: str = "pkts"):
    rows = runs[(runs["access"] == access) & (runs["sim"] == sim)]
    if rows.empty:
        why = "ns-2 is not installed" if sim == "ns-2" else f"{sim} {access} was not run"
        raise NotRun(why)
    return Sample.from_frame(rows, column)


def _model(t, access: str):
    m = t["model"]
    return Sample.exact_value(float(m[m["access"] == access]["pkts"].iloc[0]))


def _case(runs: pd.DataFrame, case: str, column: str):
    return Sample.from_frame(runs[runs["case"] == case], column)


def _total(runs: pd.DataFrame, case: str):
    """The summed throughput of ``case``'s BSSs, per seed."""
    sums = runs[runs["case"] == case].groupby("seed")["throughput_bps"].sum()
    return Sample.of(list(sums), list(sums.index))


def _per_bss(runs: pd.DataFrame, case: str, reference: str) -> dict:
    """Per BSS of ``case``: its throughput, and the reference cell's (paired by seed)."""
    ref = runs[runs["case"] == reference]
    ref = Sample.from_frame(ref, "throughput_bps")
    return {
        bss: (Sample.from_frame(g, "throughput_bps"), ref)
        for bss, g in runs[runs["case"] == case].groupby("bss")
    }


def exposed_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """(b) per case: the mean packets per flow with its 95 % interval, the senders' busy
    share."""
    import pandas as pd

    rows = []
    for case, g in runs.groupby("case", sort=False):
        mean, ci = mean_half_width(list(g["per_flow_pkts"]))
        busy = g["sender_busy_share"].mean()
        rows.append({"case": case, "medium": g["medium"].iloc[0], "per_flow_pkts": mean,
                     "per_flow_ci95": ci, "sender_busy_share": busy})  # fmt: skip
    return pd.DataFrame(rows)


def channels_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """(c) per BSS of the three-BSS cases: its mean throughput beside its reference (a lone
    cell; a third of the cell of all their stations for the three on channel 1, whose
    short-run shares vary: the claim compares their total)."""
    import pandas as pd

    means = runs.groupby(["case", "bss"], sort=False)["throughput_bps"].mean()
    refs = {"1, 6, 11": means[("lone", "ap0")], "1, 1, 1": means[("lone x3", "ap0")] / 3}
    rows = []
    for (case, bss), bps in means.items():
        if case in refs:
            medium = runs[runs["case"] == case]["medium"].iloc[0]
            rows.append({"case": f"channels {case}", "medium": medium, "bss": bss,
                         "throughput_bps": bps, "reference_bps": refs[case],
                         "diff_pct": 100 * (bps / refs[case] - 1)})  # fmt: skip
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- the validation


@dataclasses.dataclass(frozen=True)
class Plan:
    """The options of ``wlansim validate hidden``: seeds 1..REPS, DURATION seconds per run
    (--quick: 3 seeds of 20 s)."""

    quick: bool
    reps: int
    duration: float = in_seconds()

    @classmethod
    def of(cls, quick: bool, reps: int, duration: float) -> Plan:
        at_least("--reps", reps, 2, "the checks need an interval")
        if quick:
            reps, duration = 3, 20.0
        past_warmup(duration, WARMUP_S)
        return cls(quick, reps, duration)

    def skips(self) -> list[str]:
        return [f"quick: {self.reps} seeds of {seconds_text(self.duration)}"] if self.quick else []


def run(plan: Plan) -> dict[str, pd.DataFrame]:
    """The runs of (a), (b) and (c) and the model's values: tables ``hidden``, ``model``,
    ``exposed`` and ``channels``."""
    seeds = list(range(1, plan.reps + 1))
    return {
        "hidden": hidden_runs(seeds, plan.duration, WARMUP_S, ns2=ns_binary() is not None),
        "model": hidden_model_table(),
        "exposed": exposed_runs(seeds, plan.duration),
        "channels": channels_runs(seeds, plan.duration),
    }


def summaries(tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The summaries of (a), (b) and (c) that the command prints and the figures draw."""
    return {
        "hidden": hidden_summary(tables["hidden"], tables["model"]),
        "exposed": exposed_summary(tables["exposed"]),
        "channels": channels_summary(tables["channels"]),
    }


def show(tables: dict[str, pd.DataFrame], plan: Plan) -> list[str]:
    s = summaries(tables)
    fmt = {"float_format": lambda v: f"{v:.3f}", "index": False}
    lines = [
        f"(a) Two saturated stations hidden from each other, the AP 100 m from each (2 Mb/s, "
        f"1000-byte packets), {seconds_text(plan.duration)} per run ({seconds_text(WARMUP_S)} "
        "warm-up), "
        f"{plan.reps} seeds: packets/s received by the AP; p = collisions / attempts; "
        "hidden_share = collisions with a frame of another slot; one-cell: the stations "
        "10 m from the AP"
    ]
    if "ns-2" not in set(tables["hidden"]["sim"]):
        lines.append(f"(ns-2 column left out: {INSTALL_HINT})")
    return [
        *lines,
        s["hidden"].T.to_string(float_format=lambda v: f"{v:.3f}", header=False),
        "",
        "(b) Exposed senders 100 m apart, each sending to its AP 100 m beyond it: packets/s "
        "per flow (apart: the same links 1 km apart; one cell: two stations of one AP)",
        s["exposed"].to_string(**fmt),
        "",
        "(c) Three BSSs of 5 saturated stations in one room: each BSS beside its reference",
        s["channels"].to_string(**fmt),
    ]


def plot(tables: dict[str, pd.DataFrame], out: Path, plan: Plan) -> list[Path]:
    """One figure per case from the summaries: (a) packets/s by access mode for each
    simulator and the model; (b) packets/s per flow; (c) each BSS's throughput beside its
    reference."""
    s = summaries(tables)
    hidden, exposed, channels = s["hidden"], s["exposed"], s["channels"]
    out = Path(out)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    fig, ax = plt.subplots(figsize=(6, 3.5))
    series = [("ns-2_pkts", "ns-2.35"), ("wlansim-ns2_pkts", "wlansim (ns2 profile)"),
              ("wlansim_pkts", "wlansim (standard)"), ("model_pkts", "model"),
              ("one-cell_pkts", "one cell (no hidden)")]  # fmt: skip
    series = [(k, label) for k, label in series if k in hidden]
    width = 0.8 / len(series)
    for i, (key, label) in enumerate(series):
        xs = [j + i * width for j in range(len(hidden))]
        err = hidden.get(key.replace("_pkts", "_ci95"))
        ax.bar(xs, hidden[key], width, label=label, yerr=err)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(hidden))])
    ax.set_xticklabels(hidden["access"])
    ax.set_ylabel("packets/s at the AP")
    ax.set_title("Two hidden stations, 2 Mb/s, 1000-byte packets")
    ax.legend(fontsize=7)
    fig.tight_layout()
    written.append(out / "hidden.png")
    fig.savefig(written[-1], dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(exposed["case"], exposed["per_flow_pkts"], yerr=exposed["per_flow_ci95"])
    ax.set_ylabel("packets/s per flow")
    ax.set_title("Exposed senders")
    fig.tight_layout()
    written.append(out / "exposed.png")
    fig.savefig(written[-1], dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.5))
    labels = [f"{c}\n{b}" for c, b in zip(channels["case"], channels["bss"])]
    ax.bar(labels, channels["throughput_bps"] / 1e6, label="BSS")
    ax.plot(labels, channels["reference_bps"] / 1e6, "k_", markersize=20, label="reference")
    ax.set_ylabel("Mb/s")
    ax.tick_params(axis="x", labelsize=6)
    ax.set_title("Three BSSs in one room")
    ax.legend(fontsize=8)
    fig.tight_layout()
    written.append(out / "channels.png")
    fig.savefig(written[-1], dpi=120)
    plt.close(fig)
    return written


CLAIMS = _claims()
