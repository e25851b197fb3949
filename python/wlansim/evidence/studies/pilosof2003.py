"""Reproduction of pilosof2003 (S. Pilosof, R. Ramjee, D. Raz, Y. Shavitt, P. Sinha,
"Understanding TCP Fairness over Wireless LAN", IEEE INFOCOM 2003), sections III-V.

Upstream against downstream TCP through an 802.11 AP whose buffer B holds the downloads'
data and the uploads' ACKs. The paper's text gives: receiver window 42 packets, data
packets of 1024 bytes, one ACK per data packet (alpha = 1), 5 runs of 100 s per point,
B from 6 to 85 for one upload and one download, B = 100 for 1 up + n down and n up + n
down, stations close to the AP; the fix rewrites the ACKs' window to min(rwnd, floor(B/n)).
It ran ns-2, so what it leaves open is ns-2.35's default (PARAMETERS), and the open
parameters that can move a verdict (PHY rate and access, TCP variant) are swept.

Every claim of the paper is a record in ``CLAIMS``, decided by :mod:`wlansim.evidence.claims` over
the per-run values of the campaigns (stored under ``OUT/campaigns``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd

from wlansim.campaign import Campaign, Space
from wlansim.evidence import claims as cl
from wlansim.evidence.claims import (
    Claim,
    Compare,
    Every,
    InRange,
    NotRun,
    Sample,
    Scale,
    Trend,
    Within,
)
from wlansim.evidence.report import markdown_table
from wlansim.evidence.study import CAMPAIGNS_DIR, study_reproduce, with_profile
from wlansim.models.pilosof import computed_ratio, n_flow_ratio, naive_ratio

TITLE = (
    'S. Pilosof, R. Ramjee, D. Raz, Y. Shavitt, P. Sinha, "Understanding TCP Fairness over '
    'Wireless LAN", IEEE INFOCOM 2003'
)
PROFILE = "ns2"
RWND = 42  # packets (§III.A)
MSS = 1024  # bytes (§III.A)
#: the main setting where the paper is silent: ns-2.35's Mac/802_11 (dataRate_ and
#: basicRate_ 1Mb, RTSThreshold_ 0: RTS/CTS before every data frame) and the Reno agent
MAIN = {"rate": "1 Mb/s", "rts": True, "variant": "reno"}
#: the values tried for the open parameters that can move a Fig 2 verdict
SENSITIVITY = {
    "2 Mb/s, RTS/CTS (ns-2 of 2003)": {"rate": "2 Mb/s", "rts": True, "variant": "reno"},
    "11 Mb/s, basic access (the test-bed's 802.11b)": {
        "rate": "11 Mb/s",
        "rts": False,
        "variant": "reno",
    },
    "TCP Tahoe (ns-2's Agent/TCP)": {**MAIN, "variant": "tahoe"},
    "TCP NewReno": {**MAIN, "variant": "newreno"},
}

PARAMETERS = [
    ("TCP receiver window", "42 packets", "42 segments", "stated (§III.A)"),
    ("data packet size", "1024 bytes", "1024-byte segments", "stated (§III.A)"),
    ("ACKs per data packet α", "1", "1 (no delayed ACK)", "stated (§III.A)"),
    ("runs per point", "5 × 100 s", "5 × 100 s (Figs 2, 6); 10 × 100 s (Figs 7, 11)",
     "stated; Figs 7 and 11 need 10 for their intervals (starved downloads)"),
    ("AP buffer B", "6-85 (Fig 2), 100 (Figs 6, 7, 11)", "the same", "stated"),
    ("flows in Fig 11", "up to 26", "n up + n down, n = 1-13", "stated"),
    ("PHY rate and access", "not stated (ns-2; the test-bed: 802.11b)",
     "802.11b DSSS at 1 Mb/s, control at 1 Mb/s, long preamble, RTS/CTS on every frame",
     "ns-2.35's defaults (dataRate_ 1Mb, basicRate_ 1Mb, RTSThreshold_ 0); 2 Mb/s RTS/CTS "
     "(ns-2 of 2003) and 11 Mb/s basic access (the test-bed) swept"),
    ("TCP variant", "not stated; §IV: the window halves on three duplicate ACKs",
     "Reno", "ns-2's Reno agent, the plain agent that halves on three duplicate ACKs as "
     "§IV describes; Tahoe (ns-2's default Agent/TCP) and NewReno swept"),
    ("TCP timers and initial window", "not stated",
     "ns-2.35: minrto_ 0.2 s, tcpTick_ 10 ms, windowInit_ 2, no timestamps",
     'ns-2.35\'s defaults (`profile = "ns2"`)'),
    ("stations' interface queues", "not stated", "50 packets", "ns-2.35's IFQ default"),
    ("wired link to the server", "not stated", "100 Mb/s, 1 ms", "fast enough not to matter "
     "(the AP buffer is the bottleneck, §IV)"),
    ("warm-up", "not stated", "none: each run's 100 s measured whole", "an ns-2 script "
     "counts from the start"),
    ("Fig 11's window", "set before each run to ⌊100/n⌋", "the AP rewrites the ACKs' window "
     "to min(rwnd, ⌊B/n⌋), flows counted as it sees them", "the mechanism of §V, run as such"),
]  # fmt: skip


def scenario(
    n_up: int,
    n_down: int,
    buffer: int = 100,
    duration: str = "100 s",
    *,
    rate: str = MAIN["rate"],
    rts: bool = MAIN["rts"],
    variant: str = MAIN["variant"],
) -> dict:
    """`n_up` TCP uploads and `n_down` TCP downloads through an 802.11b AP with buffer
    `buffer` (packets) to one wired server, with the paper's TCP settings (ns-2's
    parameters: ``[tcp] profile = "ns2-compat"``; :func:`with_profile` adds ns-2's rules)."""
    flow = {"protocol": "tcp", "server": "srv"}
    return {
        "name": f"pilosof2003-{n_up}up-{n_down}down",
        "duration": duration,
        "phy": {"standard": "802.11b", "data_rate": rate, "control_rate": "1 Mb/s"},
        "mac": {"rts_threshold": 0 if rts else "off"},
        "ap": {"queue": buffer},
        "tcp": {
            "profile": "ns2-compat",
            "variant": variant,
            "mss": MSS,
            "rwnd": RWND,
            "delayed_ack": 1,
        },
        "stations": [{"name": "up", "count": n_up}, {"name": "down", "count": n_down}],
        "servers": [{"name": "srv"}],
        "flows": [
            {"name": "upload", "direction": "uplink", "stations": "up", **flow},
            {"name": "download", "direction": "downlink", "stations": "down", **flow},
        ],
    }


@dataclasses.dataclass(frozen=True)
class Plan:
    duration: str
    reps: int  # Figs 2, 6
    reps_heavy: int  # Figs 7, 11
    buffers: list[int]
    downs: list[int]  # Fig 6: n downloads with 1 upload
    pairs: list[int]  # Figs 7, 11: n uploads + n downloads
    sensitivity: dict  # the grid every claim is decided on again under each open value
    profile: str
    seed_base: int
    main: bool  # False: the run under the other profile (no sensitivity sweep)
    quick: bool

    @classmethod
    def of(cls, quick: bool, profile: str, seed_base: int = 1, main: bool = True) -> Plan:
        if quick:
            return cls(
                "100 s", 3, 4, [10, 20, 30, 40, 50, 60, 70, 85], [1, 2, 4, 8], [1, 4, 8], {},
                profile, seed_base, main, True,
            )  # fmt: skip
        return cls(
            "100 s", 5, 10, list(range(6, 86)), list(range(1, 13)), list(range(1, 14)),
            SENSITIVITY_GRID if main else {}, profile, seed_base, main, False,
        )  # fmt: skip

    def skips(self) -> list[str]:
        out = []
        if self.quick:
            out += [
                "Fig 2 at 8 buffer sizes instead of B = 6-85, 3 runs per point instead of 5",
                "Figs 6, 7 and 11 at a few n (3-4 runs per point instead of 5 and 10)",
                "the sensitivity sweep of the open parameters (PHY rate and access, TCP variant)",
            ]
        elif not self.main:
            out.append("the sensitivity sweep (run under the study's own profile only)")
        return out


#: the points every claim is decided on again under each value of the open parameters
SENSITIVITY_GRID = {
    "buffers": [10, 20, 30, 40, 50, 60, 70, 80, 85],
    "downs": [1, 2, 4, 8, 12],
    "pairs": [1, 2, 4, 8, 13],
}


# --------------------------------------------------------------------------- runs


def _campaign(out: Path, name: str, base: dict, space: Space, plan: Plan, reps: int, **kw):
    return Campaign(
        base, space, reps=reps, seed=plan.seed_base, store=out / CAMPAIGNS_DIR / name, **kw
    )


def _per_run(c: Campaign, rename: dict[str, str]) -> pd.DataFrame:
    """One row per run: the point's parameters (renamed), the seed, and per-flow goodputs,
    RTTs, MAC frames and AP drops (per-flow means, as the paper's ratio R_u / R_d)."""
    df = c.results()
    failed = df[df["status"] != "ok"]
    if len(failed):
        raise RuntimeError(f"{len(failed)} runs failed, first: {failed['error'].iloc[0]}")
    df = df.rename(columns=rename)
    n_up = df["n_up"] if "n_up" in df else 1
    n_down = df["n_down"] if "n_down" in df else 1
    t = pd.DataFrame({k: df[k] for k in [*rename.values(), "seed"] if k in df})
    t["up_flow_bps"] = df["uplink_goodput_bps"] / n_up
    t["down_flow_bps"] = df["downlink_goodput_bps"] / n_down
    t["ratio"] = t["up_flow_bps"] / t["down_flow_bps"]
    t["goodput_bps"] = df["goodput_bps"]
    for k in ("uplink_rtt_mean_s", "downlink_rtt_mean_s", "timeouts"):
        t[k] = df[k]
    for k in ("ap_frames_data", "ap_frames_ack", "stations_frames_data", "stations_frames_ack"):
        t[k] = df[k]
    for kind in ("data", "ack"):
        drops, sent = df[f"ap_queue_drops_{kind}"], df[f"ap_frames_{kind}"]
        t[f"ap_drops_{kind}"] = drops
        t[f"ap_loss_{kind}"] = drops / (drops + sent)
    return t


def _summary(runs: pd.DataFrame, by: str, cols: list[str]) -> pd.DataFrame:
    """Per point: mean and 95 % half-width of each column over the runs."""
    rows = []
    for x, g in runs.groupby(by):
        row = {by: x, "runs": len(g)}
        for c in cols:
            e = cl.mean_interval(Sample.of(list(g[c])))
            row[c] = e.value
            row[f"{c}_ci"] = (e.high - e.low) / 2 if e.defined else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def _experiments(
    out: Path, plan: Plan, prefix: str, setting: dict, grid: dict, jobs, progress
) -> dict[str, pd.DataFrame]:
    """The four sweeps of the paper (Fig 2-5: B; Fig 6: 1 up + n down; Figs 7 and 11: n up
    + n down without and with the window rewritten) under PHY/TCP `setting`, on `grid`
    (``buffers``, ``downs``, ``pairs``): per-run tables and per-point summaries."""
    cell = with_profile(scenario(1, 1, duration=plan.duration, **setting), plan.profile)
    pairs = Space.zip({"stations.up.count": grid["pairs"], "stations.down.count": grid["pairs"]})
    specs = {
        "fig2": (Space.grid({"ap.queue": grid["buffers"]}), plan.reps, {}),
        "fig6": (Space.grid({"stations.down.count": grid["downs"]}), plan.reps, {}),
        "fig7": (pairs, plan.reps_heavy, {}),
        "fig11": (pairs, plan.reps_heavy, {"ap.rwnd_clamp": True}),
    }
    t: dict[str, pd.DataFrame] = {}
    for name, (space, reps, overrides) in specs.items():
        c = _campaign(out, prefix + name, cell, space, plan, reps, overrides=overrides)
        c.run(jobs=jobs, progress=progress, label=f"pilosof2003 {prefix}{name} runs")
        rename = {"ap.queue": "B", "stations.down.count": "n_down", "stations.up.count": "n_up"}
        runs = _per_run(c, rename)
        if name != "fig2":
            runs["n"] = runs["n_down"]
        t[f"{name}_runs"] = runs
    cols = ["ratio", "up_flow_bps", "down_flow_bps", "goodput_bps", "uplink_rtt_mean_s",
            "downlink_rtt_mean_s", "ap_loss_data", "ap_loss_ack", "ap_frames_data",
            "ap_frames_ack", "stations_frames_data", "stations_frames_ack", "timeouts"]  # fmt: skip
    t["fig2"] = _summary(t["fig2_runs"], "B", cols)
    for name in ("fig6", "fig7", "fig11"):
        t[name] = _summary(t[f"{name}_runs"], "n", cols)
    return t


def run_experiments(out: Path, plan: Plan, jobs=None, progress=False) -> dict[str, pd.DataFrame]:
    """Run (or reuse) every campaign; per-run tables for the claims, per-point summaries
    for the figures, the models beside them, and the sensitivity sweep's verdicts."""
    out = Path(out)
    grid = {"buffers": plan.buffers, "downs": plan.downs, "pairs": plan.pairs}
    t = _experiments(out, plan, "", MAIN, grid, jobs, progress)
    # Fig 8: the computed ratio (eqs 3-6) and the naive one beside the simulated means
    f8 = t["fig2"][["B", "ratio", "ratio_ci"]].copy()
    f8["computed"] = [computed_ratio(int(b), RWND) for b in f8["B"]]
    f8["naive"] = [naive_ratio(int(b), RWND) if b > RWND else np.nan for b in f8["B"]]
    t["fig8"] = f8
    # Fig 10: ratio(n) / ratio(1) of Fig 6 beside eq 9 (B - alpha w = 58, p = 1/100)
    f10 = t["fig6"][["n", "ratio"]].copy()
    f10["model_eq9"] = [
        n_flow_ratio(int(n), 100, RWND, 0.01) / n_flow_ratio(1, 100, RWND, 0.01) for n in f10["n"]
    ]
    t["fig10"] = f10
    if plan.sensitivity:
        rows = [
            {"setting": "main: 1 Mb/s, RTS/CTS, Reno", "claim": v.claim.id, "verdict": v.verdict,
             "ours": v.row()["ours"], "ci95": v.row()["ci95"]}
            for v in cl.decide_all(CLAIMS, t)
        ]  # fmt: skip
        for i, (label, setting) in enumerate(SENSITIVITY.items()):
            tables = _experiments(out, plan, f"s{i}-", setting, plan.sensitivity, jobs, progress)
            for v in cl.decide_all(CLAIMS, tables):
                r = v.row()
                rows.append({"setting": label, "claim": v.claim.id, "verdict": v.verdict,
                             "ours": r["ours"], "ci95": r["ci95"]})  # fmt: skip
        t["sensitivity"] = pd.DataFrame(rows)
    return t


# --------------------------------------------------------------------------- claims


def _at(runs: pd.DataFrame, key: str, value, col: str) -> Sample:
    g = runs[runs[key] == value]
    if g.empty:
        raise NotRun(f"{key} = {value} was not run")
    return Sample.from_frame(g, col)


def _region(runs: pd.DataFrame, lo: int, hi: int, col: str) -> Sample:
    """Per seed, the mean of `col` over the buffers lo <= B <= hi that were run."""
    g = runs[(runs["B"] >= lo) & (runs["B"] <= hi)]
    if g["B"].nunique() < 2:
        raise NotRun(f"fewer than two buffers in {lo}-{hi} were run")
    per_seed = g.groupby("seed")[col].mean()
    return Sample.of(list(per_seed), list(per_seed.index))


def _trend(runs: pd.DataFrame, key: str, col: str, lo=-np.inf, hi=np.inf):
    g = runs[(runs[key] >= lo) & (runs[key] <= hi)]
    return [(float(x), Sample.from_frame(gx, col)) for x, gx in g.groupby(key)]


def _ratio_of_means(runs: pd.DataFrame, key: str, value) -> tuple[Sample, Sample]:
    """Per-flow upload and download goodput of the runs at one point (paired by seed):
    their ratio of means is the ratio R_u / R_d, defined even when a run starves."""
    return _at(runs, key, value, "up_flow_bps"), _at(runs, key, value, "down_flow_bps")


def _largest(runs: pd.DataFrame, key: str = "n"):
    return runs[key].max()


RATIO = Scale(ratio=True, digits=2)
PCT = Scale()

FIG2_CLAIMS = [
    Claim(
        "fig2.fair-above-84", "§III.A, Fig 2",
        "B over 84 packets (room for both windows): the ratio is one",
        Within("R_u at B = 85", "R_d at B = 85", tol=0.10),
        lambda t: _ratio_of_means(t["fig2_runs"], "B", 85), paper="1",
    ),
    Claim(
        "fig2.falls-42-84", "§III.A, Fig 2",
        "42 < B < 84: the ratio decreases sharply from about 10 to 1",
        Trend("up/down ratio", "B", "down", margin=-0.5),
        lambda t: _trend(t["fig2_runs"], "B", "ratio", 43, 84), paper="10 → 1",
    ),
    Claim(
        "fig2.band-6-42", "§III.A, Fig 2; §IV.A",
        "6 < B ≤ 42: the ratio varies between 9 and 12 (§IV.A: about 10.56)",
        InRange("the ratio's mean over 6 < B ≤ 42", 9, 12, scale=Scale(relative=False,
                                                                       digits=2)),
        lambda t: _region(t["fig2_runs"], 7, 42, "ratio"), paper="9–12",
    ),
    Claim(
        "fig2.total-stable", "§III.A, Fig 2",
        "the total throughput remains stable as B varies",
        Trend("total goodput", "B", "flat", tol=0.10),
        lambda t: _trend(t["fig2_runs"], "B", "goodput_bps"), paper="stable",
    ),
]  # fmt: skip

CLAIMS = [
    *FIG2_CLAIMS,
    Claim(
        "fig3.rtt-up-grows", "§III.A, Fig 3", "the upload's RTT increases with B",
        Trend("upload RTT", "B", "up"),
        lambda t: _trend(t["fig2_runs"], "B", "uplink_rtt_mean_s"), paper="grows",
    ),
    Claim(
        "fig3.rtt-down-grows", "§III.A, Fig 3", "the download's RTT increases with B",
        Trend("download RTT", "B", "up"),
        lambda t: _trend(t["fig2_runs"], "B", "downlink_rtt_mean_s"), paper="grows",
    ),
    Claim(
        "fig4.data-loss-above-ack", "§III.A, Fig 4",
        "the data loss rate at the AP is always higher than the ACK loss rate",
        Every(Compare("data loss rate", "ACK loss rate", scale=Scale(relative=False,
                                                                      digits=4)), "B"),
        lambda t: {b: (_at(t["fig2_runs"], "B", b, "ap_loss_data"),
                       _at(t["fig2_runs"], "B", b, "ap_loss_ack"))
                   for b in (10, 20, 30, 40, 50, 60, 70) if b in set(t["fig2_runs"]["B"])},
        paper="always",
    ),
    Claim(
        "fig4.data-ack-loss-1.25-at-40", "§IV.A, Fig 4",
        "at B = 40 the data loss rate is about 1.25 times the ACK loss rate",
        Within("data loss rate at B = 40", "1.25 × ACK loss rate", tol=0.25),
        lambda t: (_at(t["fig2_runs"], "B", 40, "ap_loss_data"),
                   Sample.of(list(1.25 * t["fig2_runs"][t["fig2_runs"]["B"] == 40]["ap_loss_ack"]),
                             list(t["fig2_runs"][t["fig2_runs"]["B"] == 40]["seed"]))),
        kind="simulation vs paper", paper="1.25",
    ),
    Claim(
        "fig5.equal-frames-above-84", "§III.A, Fig 5",
        "B > 84: the download's data frames equal the upload's (about the same count)",
        Within("AP data frames at B = 85", "the upload's data frames", tol=0.05),
        lambda t: (_at(t["fig2_runs"], "B", 85, "ap_frames_data"),
                   _at(t["fig2_runs"], "B", 85, "stations_frames_data")),
        paper="≈ equal",
    ),
    Claim(
        "fig5.fixed-share-below-42", "§III.A, Fig 5",
        "B < 42: the download's share of the MAC frames is almost fixed",
        Trend("the download's share of data frames", "B", "flat", tol=0.25),
        lambda t: _trend(t["fig2_runs"].assign(share=lambda d: d["ap_frames_data"]
                         / (d["ap_frames_data"] + d["stations_frames_data"])), "B", "share",
                         7, 41),
        paper="almost fixed",
    ),
    Claim(
        "fig6.linear-in-n", "§III.B, Fig 6",
        "1 up + n down: the ratio is almost linear in n (ratio / n constant)",
        Trend("ratio / n", "n", "flat", tol=0.25),
        lambda t: _trend(t["fig6_runs"].assign(per_n=lambda d: d["ratio"] / d["n"]), "n",
                         "per_n"),
        paper="≈ linear",
    ),
    Claim(
        "fig6.total-stable", "§III.B, Fig 6",
        "1 up + n down: the total throughput remains stable",
        Trend("total goodput", "n", "flat", tol=0.10),
        lambda t: _trend(t["fig6_runs"], "n", "goodput_bps"), paper="stable",
    ),
    Claim(
        "fig7.hundreds", "§III.B, Fig 7; §VII",
        "n up + n down: average ratios of up to 800 (two orders of magnitude and more)",
        Compare("R_u", "R_d", margin=99, scale=RATIO),
        lambda t: _ratio_of_means(t["fig7_runs"], "n", _largest(t["fig7_runs"])),
        paper="up to 800",
    ),
    Claim(
        "fig7.worse-than-fig6", "§III.B, Figs 6-7",
        "with n uploads instead of one the unfairness is much more severe: at n = 4 each "
        "download gets less than half of what it gets beside one upload",
        Compare("a download's goodput beside 1 upload", "beside 4 uploads", margin=1.0,
                scale=RATIO),
        lambda t: (_at(t["fig6_runs"], "n", 4, "down_flow_bps"),
                   _at(t["fig7_runs"], "n", 4, "down_flow_bps")),
        paper="much more severe",
    ),
    Claim(
        "fig8.model-above-42", "§IV.A, Fig 8",
        "B > 42: the computed ratio (eq 6) explains the observed ratio very accurately",
        Every(Within("the simulated ratio", "eq 6", tol=0.25), "B"),
        lambda t: {b: (_at(t["fig2_runs"], "B", b, "ratio"),
                       Sample.exact_value(computed_ratio(b, RWND)))
                   for b in (50, 60, 70, 80) if b in set(t["fig2_runs"]["B"])},
        kind="model vs simulation", paper="very accurately",
    ),
    Claim(
        "fig8.naive-above-63", "§IV.A, Fig 8",
        "the naive ratio 4w / 3(B − αw) is not too far from the measured one for B > 1.5w",
        Every(Within("the simulated ratio", "the naive ratio", tol=0.5), "B"),
        lambda t: {b: (_at(t["fig2_runs"], "B", b, "ratio"),
                       Sample.exact_value(naive_ratio(b, RWND)))
                   for b in (70, 80) if b in set(t["fig2_runs"]["B"])},
        kind="model vs simulation", paper="not too far",
    ),
    Claim(
        "fig10.eq9-matches", "§IV.C, Fig 10",
        "eq 9's growth ratio(n) / ratio(1) (B − αw = 58, p = 1/100) matches the simulation",
        Every(Within("simulated ratio(n) / ratio(1)", "eq 9", tol=0.25), "n"),
        lambda t: _growth(t["fig6_runs"]),
        kind="model vs simulation", paper="nicely matches",
    ),
    Claim(
        "fig11.one-to-one", "§V, Fig 11", "with the window rewritten at the AP the ratio is 1:1",
        Every(Within("R_u", "R_d", tol=0.15), "n"),
        lambda t: {n: _ratio_of_means(t["fig11_runs"], "n", n)
                   for n in sorted(set(t["fig11_runs"]["n"]))},
        paper="1:1",
    ),
    Claim(
        "fig11.total-stable", "§V, Fig 11",
        "with the window rewritten, the total throughput is maintained as n grows",
        Trend("total goodput with clamping", "n", "flat", tol=0.10),
        lambda t: _trend(t["fig11_runs"], "n", "goodput_bps"), paper="maintained",
    ),
    Claim(
        "fig11.overhead-minimal", "§V, Fig 11",
        "the overhead of rewriting the window is minimal: total throughput as without it",
        Every(Within("total goodput with clamping", "without", tol=0.10), "n"),
        lambda t: {n: (_at(t["fig11_runs"], "n", n, "goodput_bps"),
                       _at(t["fig7_runs"], "n", n, "goodput_bps"))
                   for n in sorted(set(t["fig11_runs"]["n"]) & set(t["fig7_runs"]["n"]))},
        paper="minimal",
    ),
]  # fmt: skip


def _growth(runs: pd.DataFrame) -> dict[int, tuple[Sample, Sample]]:
    """Per n > 1: ratio(n) / ratio(1) per seed, beside eq 9's."""
    one = runs[runs["n"] == 1].set_index("seed")["ratio"]
    if one.empty:
        raise NotRun("n = 1 was not run")
    out = {}
    for n, g in runs[runs["n"] > 1].groupby("n"):
        g = g.set_index("seed")
        rel = (g["ratio"] / one.reindex(g.index)).dropna()
        model = n_flow_ratio(int(n), 100, RWND, 0.01) / n_flow_ratio(1, 100, RWND, 0.01)
        out[int(n)] = (Sample.of(list(rel), list(rel.index)), Sample.exact_value(model))
    return out


def _sensitivity_grid(sens: pd.DataFrame) -> pd.DataFrame:
    """claim × setting: "verdict (ours)"."""
    cell = sens["verdict"] + " (" + sens["ours"].fillna("") + ")"
    g = sens.assign(cell=cell).pivot(index="claim", columns="setting", values="cell")
    return g.loc[[c.id for c in CLAIMS if c.id in g.index], list(dict.fromkeys(sens["setting"]))]


# --------------------------------------------------------------------------- figures


def _errorbars(ax, t: pd.DataFrame, x: str, col: str, label: str, scale: float = 1.0, **kw):
    ax.errorbar(t[x], t[col] * scale, yerr=t[f"{col}_ci"] * scale, capsize=2, ms=3,
                label=label, **kw)  # fmt: skip


def plot(tables: dict[str, pd.DataFrame], out: Path, plan: Plan) -> list[str]:
    from matplotlib.figure import Figure

    files = []

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        files.append(name)

    b = tables["fig2"]
    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    ax.fill_between([6, 42], 9, 12, color="tab:orange", alpha=0.2, label="paper: 9–12, 6 < B ≤ 42")
    ax.plot([84, 86], [1, 1], color="tab:orange", lw=3, label="paper: 1 for B > 84")
    _errorbars(ax, b, "B", "ratio", "ours: mean ± 95 % CI", fmt="o-")
    ax.set_yscale("log")
    ax2 = ax.twinx()
    ax2.plot(b["B"], b["goodput_bps"] / 1e6, "k--", lw=1, label="total goodput (right)")
    ax2.set_ylabel("total goodput (Mb/s)")
    ax2.set_ylim(0, None)
    ax.set(xlabel="AP buffer B (packets)", ylabel="up/down throughput ratio",
           title="Fig 2: one upload, one download")  # fmt: skip
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="lower left")
    save(fig, "fig2_ratio_vs_buffer.png")

    def curves(name, t, x, specs, xlabel, ylabel, title, log=False):
        fig = Figure(figsize=(6.4, 4.2))
        ax = fig.subplots()
        for col, label, scale, fmt in specs:
            _errorbars(ax, t, x, col, label, scale, fmt=fmt)
        if log:
            ax.set_yscale("log")
        ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
        ax.legend(fontsize=8)
        save(fig, name)

    xb = "AP buffer B (packets)"
    curves("fig3_rtt.png", b, "B", [("uplink_rtt_mean_s", "upload", 1e3, "o-"),
           ("downlink_rtt_mean_s", "download", 1e3, "s-")], xb, "mean RTT (ms)",
           "Fig 3: RTT (paper: grows with B)")  # fmt: skip
    curves("fig4_loss.png", b, "B", [("ap_loss_data", "data (download)", 1, "o-"),
           ("ap_loss_ack", "ACK (upload)", 1, "s-")], xb, "loss rate at the AP",
           "Fig 4: loss rates (paper: data above ACK)")  # fmt: skip
    curves("fig5_mac_frames.png", b, "B", [
        ("stations_frames_data", "upload data (station)", 1, "-"),
        ("stations_frames_ack", "download ACKs (station)", 1, "-"),
        ("ap_frames_data", "download data (AP)", 1, "-"),
        ("ap_frames_ack", "upload ACKs (AP)", 1, "-")], xb, "MAC frames per run",
        "Fig 5: frames sent by the MAC")  # fmt: skip
    for key, title, name, log in (
        ("fig6", "Fig 6: 1 up + n down, B = 100 (paper: ≈ linear)", "fig6_1up_ndown.png", False),
        ("fig7", "Fig 7: n up + n down, B = 100 (paper: up to 800)", "fig7_nup_ndown.png", True),
        ("fig11", "Fig 11: n up + n down, window rewritten (paper: 1)", "fig11_clamp.png", False),
    ):
        t = tables[key]
        fig = Figure(figsize=(6.4, 4.2))
        ax = fig.subplots()
        _errorbars(ax, t, "n", "ratio", "up/down ratio, mean ± 95 % CI", fmt="o-")
        if key == "fig6":
            ax.plot(t["n"], t["n"], ":", color="tab:orange", label="ratio = n")
        if key == "fig7":
            ax.axhline(800, color="tab:orange", ls=":", label="paper: up to 800")
        if key == "fig11":
            ax.axhline(1, color="tab:orange", ls=":", label="paper: 1")
        if log:
            ax.set_yscale("log")
        ax2 = ax.twinx()
        ax2.plot(t["n"], t["goodput_bps"] / 1e6, "k--", lw=1)
        ax2.set_ylabel("total goodput (Mb/s, dashed)")
        ax2.set_ylim(0, None)
        ax.set(xlabel="n", ylabel="up/down ratio", title=title)
        ax.legend(fontsize=8, loc="upper left")
        save(fig, name)

    t = tables["fig8"]
    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    _errorbars(ax, t, "B", "ratio", "simulation, mean ± 95 % CI", fmt="o")
    ax.plot(t["B"], t["computed"], "-", label="computed ratio (eqs 3-6)")
    ax.plot(t["B"], t["naive"], "-.", label="naive 4w / 3(B − w)")
    ax.set_ylim(0, max(15.0, float(np.nanmax(t["ratio"])) * 1.1))
    ax.set(xlabel=xb, ylabel="up/down ratio", title="Fig 8: analysis vs simulation")
    ax.legend(fontsize=8)
    save(fig, "fig8_model.png")

    t = tables["fig10"]
    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    ax.plot(t["n"], t["ratio"] / t["ratio"].iloc[0], "o", label="simulation (Fig 6 / n = 1)")
    ax.plot(t["n"], t["model_eq9"], "-", label="eq 9, B − αw = 58, p = 0.01")
    ax.set(xlabel="downloads n", ylabel="ratio(n) / ratio(1)", title="Fig 10: model vs n")
    ax.legend(fontsize=8)
    save(fig, "fig10_model_n.png")

    if "sensitivity" in tables:
        s = _sensitivity_grid(tables["sensitivity"])
        fig = Figure(figsize=(11, 0.6 + 0.32 * len(s)))
        ax = fig.subplots()
        code = {"holds": 2, "does not hold": 0, "undecided": 1, "not run": 1}
        grid = np.array([[code[v.split(" (")[0]] for v in row] for row in s.to_numpy()])
        ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=2, aspect="auto")
        ax.set_xticks(range(len(s.columns)), [c.split(":")[0] for c in s.columns], fontsize=7)
        ax.set_yticks(range(len(s)), s.index, fontsize=7)
        for i, row in enumerate(s.to_numpy()):
            for j, v in enumerate(row):
                ax.text(j, i, v.split(" (")[0], ha="center", va="center", fontsize=6)
        ax.set_title("Every claim's verdict under each value tried of the open parameters")
        save(fig, "sensitivity.png")
    return files


# --------------------------------------------------------------------------- report


def sections(tables: dict[str, pd.DataFrame], plan: Plan, verdicts) -> list[str]:
    b = tables["fig2"]
    keep = ["B", "runs", "ratio", "ratio_ci", "goodput_bps", "uplink_rtt_mean_s",
            "downlink_rtt_mean_s", "ap_loss_data", "ap_loss_ack", "timeouts"]  # fmt: skip
    every = b[keep].copy()
    every["goodput_bps"] = every["goodput_bps"] / 1e6
    every = every.rename(columns={"goodput_bps": "total Mb/s"})
    lines = [
        "## Fig 2-5: one upload, one download, against B",
        "",
        "Means over the runs (`_ci`: 95 % half-width); `timeouts`: retransmission timeouts",
        "per run, both flows. Every buffer run is in `fig2_runs.csv`.",
        "",
        *markdown_table(every[every["B"].isin([6, 10, 20, 30, 40, 42, 50, 60, 70, 84, 85])], 3),
        "",
        "## Figs 6, 7, 11: several flows, B = 100",
        "",
    ]
    for key in ("fig6", "fig7", "fig11"):
        t = tables[key][["n", "runs", "ratio", "ratio_ci", "goodput_bps", "timeouts"]].copy()
        t["goodput_bps"] = t["goodput_bps"] / 1e6
        t = t.rename(columns={"goodput_bps": "total Mb/s"})
        lines += [f"`{key}`:", "", *markdown_table(t, 2), ""]
    if "sensitivity" in tables:
        g = _sensitivity_grid(tables["sensitivity"])
        lines += [
            "## Sensitivity: every claim under every value tried of the open parameters",
            "",
            "Each claim decided again (same rules and runs per point, at B = "
            + ", ".join(str(x) for x in plan.sensitivity["buffers"])
            + "; n = "
            + ", ".join(str(x) for x in plan.sensitivity["pairs"])
            + ") with the PHY and TCP settings the paper leaves open; the main setting "
            "(first column) is ns-2.35's default, whatever the verdicts below.",
            "",
            "| claim | " + " | ".join(g.columns) + " |",
            "|---|" + "---|" * len(g.columns),
            *[f"| {i} | " + " | ".join(row) + " |" for i, row in zip(g.index, g.to_numpy())],
            "",
        ]
    return lines


reproduce = study_reproduce(__name__)
