"""ng2005 as claims as data: Section 4 (UDP: the effect of TXOP, AIFS and CWmin on two
saturated stations) here, Sections 3 and 5 (TCP) in :mod:`wlansim.evidence.studies.ng2005_tcp`;
:data:`CLAIMS` holds both, one per statement of the paper, decided under the main setting
of every open parameter; :func:`readings` gives the tables as if each other setting run
were the main one, and ``reproduce`` (:func:`wlansim.evidence.study.run_study`) decides
the statements under each, under the study's profile and the other one.

A. Ng, D. Malone, D. Leith, "Experimental evaluation of TCP performance and fairness in
an 802.11e test-bed", ACM SIGCOMM E-WIND 2005. Section 4: two stations send saturated
1400-byte UDP uploads on 802.11b at 11 Mb/s, RTS/CTS off; station 1 keeps the default
parameters while one parameter of station 2 is swept; the figure plots station 2's
throughput over station 1's. Each point is simulated over replications (through
:class:`wlansim.campaign.Campaign`, one row per run) and set beside
:mod:`wlansim.models.edca`, a stand-in for the paper's analytic model (Battiti & Li [6],
whose equations are not available here).

Mapping of the paper's units to the standard's (stated in :func:`base_scenario`):

- ng2005 counts AIFS in slots *beyond DIFS* ("zero slots" is the default): AIFS = DIFS +
  k·slot, i.e. **AIFSN = 2 + k** (DIFS = SIFS + 2·slot).
- ng2005's CWmin is the size of the drawing range [0, CW − 1] ("32 slots"; powers of
  two); the standard draws in [0, CW] with CW = 2^k − 1: **CWmin(ours) = CWmin(ng2005) − 1**.
- TXOP is a time limit in µs (MadWiFi); 0 = one frame exchange.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wlansim.campaign import Campaign, Space
from wlansim.campaign.executors import run_scenario
from wlansim.evidence import claims as cl
from wlansim.evidence.claims import (
    CONFIDENCE,
    Claim,
    Every,
    NotRun,
    Outcome,
    PaperValue,
    Rule,
    Sample,
    Scale,
    Test,
    Trend,
    Within,
    mean_interval,
)
from wlansim.evidence.studies import ng2005_tcp
from wlansim.evidence.studies.ng2005_tcp import LONG, MAIN, SHORT, Framing, as_main
from wlansim.evidence.study import CAMPAIGNS_DIR, profile_section, study_reproduce, with_profile
from wlansim.models import edca as model
from wlansim.phy import timing as phy_timing
from wlansim.scenario import resolve

TITLE = (
    'A. C. H. Ng, D. Malone, D. J. Leith, "Experimental Evaluation of TCP Performance and '
    'Fairness in an 802.11e Test-bed", ACM SIGCOMM Workshop on Experimental Approaches to '
    "Wireless Network Design and Analysis (E-WIND), 2005"
)
PROFILE = "standard"
#: why the study's own profile is the standard's
WHY_STANDARD = (
    "ng2005 measured a hardware test-bed (Atheros cards under a modified MadWiFi driver, "
    "Linux 2.6.8 TCP), not a simulator, so the closest rules are the 802.11 standard's "
    "(whose EDCA the driver implements) and the RFCs'. The run under `ns2` answers what an "
    "ns-2 study of this test-bed would have concluded: ns-2.35's DCF rules (backoff drawn "
    "in [0, CW − 1], EIFS + AIFS after an errored frame, no immediate access, its 34-byte "
    "MAC framing) applied to the same EDCA classes (ns-2.35 itself has no EDCA), and "
    "ns-2's TCP rules over the paper's Linux parameters."
)
#: why there is no ns-2.35 column (the bottom line quotes it)
NO_NS2 = (
    "no ns-2.35 run: the paper measured a hardware test-bed (Atheros cards under MadWiFi), "
    "not a simulation"
)
#: the paper's headline statements: §3's TCP magnification of a slight advantage, and
#: §5.2's fairness restored by the Table 2 settings (the conclusions' TCP result)
HEADLINE = ("fig2-magnified", "fig8", "fig9")

PAYLOAD = 1400
UDP_DURATION = "120 s"
TXOP_KEY = "stations.sta2.edca.be.txop"
AIFSN_KEY = "stations.sta2.edca.be.aifsn"
CWMIN_KEY = "stations.sta2.edca.be.cw_min"
#: the defaults both stations start from (ng2005's "zero slots", CWmin "32", TXOP 0)
DEFAULT_AC = {"aifsn": 2, "cw_min": 31, "cw_max": 1023, "txop": "0 us"}
#: the paper's step width of Fig 3, µs ("each step is separated by around 1270us"), and
#: how far "around" reaches (the tolerance fixed with the claim before any reading ran)
PAPER_STEP_US = 1270.0
STEP_TOL = 0.10
#: Fig 3's TXOP range (µs), and how far either side of each step edge the runs are placed
#: (so that the edges, hence the step width, are measured to a µs)
FIG3_MAX_US = 8000
STRADDLE_US = 20
#: station 2's extra AIFS slots in the load sweep, and the load the paper calls light
LOAD_AIFS = 8
LIGHT_LOAD_MBPS = 1.0
#: the TXOP rules of Fig 3: the standard's (the main one) and a burst that bounds the
#: DATA frames' airtime only (a reading: the rule the paper's 1270 µs step implies)
BURST_LABEL = "TXOP bursts bounding the DATA airtime only (MadWiFi's rule as inferred)"

US = Scale(relative=False, unit="µs", digits=0)


def base_scenario(duration: str = UDP_DURATION, frames: Framing = LONG) -> dict:
    """Two QoS stations, saturated 1400-byte UDP uplinks in AC_BE, 802.11b 11 Mb/s with
    the framing ``frames`` (the main one: long preamble, control frames at 1 Mb/s), RTS/CTS
    off, 10-packet interface queues (ng2005 Table 1). Both start at AIFSN 2 (= DIFS:
    ng2005's zero extra slots), CWmin 31 (ng2005's 32), TXOP limit 0."""
    groups = [
        {"name": name, "count": 1, "qos": True, "queue": 10, "edca": {"be": dict(DEFAULT_AC)}}
        for name in ("sta1", "sta2")
    ]
    flows = [
        {
            "name": f"up{i}",
            "direction": "uplink",
            "stations": f"sta{i}",
            "traffic": "saturated",
            "packet_size": PAYLOAD,
        }
        for i in (1, 2)
    ]
    return {
        "name": "ng2005-udp",
        "duration": duration,
        "warmup": "1 s",
        "phy": frames.phy(),
        "mac": {"rts_threshold": "off"},
        "stations": groups,
        "flows": flows,
    }


def load_scenario(duration: str = UDP_DURATION, frames: Framing = LONG) -> dict:
    """:func:`base_scenario` with Poisson uplinks (rate set per point) and station 2 at
    :data:`LOAD_AIFS` extra AIFS slots: the AIFS effect against the offered load."""
    s = base_scenario(duration, frames)
    s["name"] = "ng2005-aifs-load"
    s["stations"][1]["edca"]["be"]["aifsn"] = 2 + LOAD_AIFS
    for f in s["flows"]:
        f["traffic"] = "poisson"
        f["rate"] = f"{LIGHT_LOAD_MBPS:g} Mb/s"
    return s


def run_pair(scenario: dict, seed: int) -> dict:
    """Campaign run function: one simulation plus ``thr1``, ``thr2`` (the stations'
    throughputs, b/s) and ``relative_throughput`` (station 2's over station 1's)."""
    out = run_scenario(scenario, seed)
    thr = {f["name"]: f["throughput_bps"] for f in out["flows"]}
    m = out["metrics"]
    m["thr1"], m["thr2"] = thr["up1-0"], thr["up2-0"]
    m["relative_throughput"] = thr["up2-0"] / thr["up1-0"]
    return out


@functools.cache
def timing_of(frames: Framing = LONG) -> dict:
    """The PHY timing of a 1400-byte UDP packet under ``frames``."""
    return phy_timing(frames.phy(), PAYLOAD)


def step_us(frames: Framing = LONG, counts: str = "exchange") -> float:
    """The width of one TXOP step (µs) under rule ``counts``
    (:func:`wlansim.models.edca.frames_per_txop`): one exchange (DATA + SIFS + ACK) plus
    the SIFS before the next, or one DATA frame."""
    t = timing_of(frames)
    return (model.txop_for_frames(2, t, counts) - model.txop_for_frames(1, t, counts)) * 1e6


def packets(x_us: float, frames: Framing = LONG, counts: str = "exchange") -> int:
    """The frames station 2 sends per TXOP at a limit of ``x_us`` µs."""
    return model.frames_per_txop(x_us * 1e-6, timing_of(frames), counts)


def fig3_grid(
    quick: bool, frames: Framing = LONG, counts: str = "exchange", most: int | None = None
) -> list[float]:
    """Fig 3's TXOPs (µs) under ``frames`` and rule ``counts``: 0 and :data:`STRADDLE_US`
    either side of every step edge up to :data:`FIG3_MAX_US` (quick: the edges of 2, 3
    and 4 frames). Nothing between: two TXOPs that hold as many frames give the same run,
    seed by seed (tested), so each plateau is run at both its ends and nowhere else;
    ``most``: only TXOPs that hold at most that many frames."""
    t = timing_of(frames)
    edges = []
    k = 2
    while (e := model.txop_for_frames(k, t, counts) * 1e6) <= FIG3_MAX_US and (not quick or k <= 4):
        edges.append(e)
        k += 1
    xs = {0.0} | {float(round(e + d)) for e in edges for d in (-STRADDLE_US, STRADDLE_US)}
    if most is not None:
        xs = {x for x in xs if packets(x, frames, counts) <= most}
    return sorted(xs)


def sweeps(quick: bool) -> dict[str, list[float]]:
    """Figs 4, 5 and the load sweep → the x values run, in the paper's units: extra AIFS
    slots, CWmin, the offered load per station (Mb/s). (Fig 3: :func:`fig3_grid`.)"""
    if quick:
        return {"fig4": [0, 1, 2, 4, 8], "fig5": [8, 16, 32, 64, 128, 256],
                "aifs_load": [LIGHT_LOAD_MBPS, 4.0]}  # fmt: skip
    return {
        "fig4": list(range(0, 14)),
        "fig5": [2**k for k in range(1, 11)],
        "aifs_load": [0.5, LIGHT_LOAD_MBPS, 2.0, 3.0, 4.0],
    }


#: the scenario key each sweep sets (the load sweep sets both flows' rates)
KEYS = {"fig3": TXOP_KEY, "fig4": AIFSN_KEY, "fig5": CWMIN_KEY, "aifs_load": "flows.up1.rate"}
UDP_FIGS = ("fig3", "fig4", "fig5", "aifs_load")


def setting(fig: str, x: float):
    """The value of the swept key for the paper's ``x``: AIFSN = 2 + slots; ng2005's
    CWmin is the drawing range [0, CWmin − 1], the standard draws in [0, CW]: CW =
    CWmin − 1 (the same scenario under ns-2's rules, which draw in [0, CW − 1])."""
    if fig == "fig3":
        return f"{x:g} us"
    if fig == "fig4":
        return 2 + int(x)
    if fig == "fig5":
        return int(x) - 1
    return f"{x:g} Mb/s"


def _model_ratio(fig: str, x: float) -> float:
    """The EDCA model's station 2 / station 1 at the paper's ``x`` (standard rules)."""
    t = timing_of(LONG)
    # the model counts the scenario's dot11ShortRetryLimit: it matters where a station
    # collides most of the time (Fig 5 at CWmin 2)
    retry_limit = resolve(base_scenario())["mac"]["short_retry_limit"]
    station = partial(model.EdcaClass, 1, cw_min=31, cw_max=1023, aifsn=2, retry_limit=retry_limit)
    if fig == "fig3":
        other = station(txop_frames=packets(x))
    elif fig == "fig4":
        other = station(aifsn=setting(fig, x))
    else:
        cw = setting(fig, x)
        other = station(cw_min=cw, cw_max=max(cw, 1023))
    return model.relative_throughput(station(), other, t)


XLABEL = {
    "fig3": "TXOP of station 2 (µs)",
    "fig4": "AIFS of station 2 (slots beyond DIFS)",
    "fig5": "CWmin of station 2 (ng2005's: backoff drawn in [0, CWmin − 1])",
    "aifs_load": f"offered load per station (Mb/s), station 2 at AIFS {LOAD_AIFS} slots",
}


# --------------------------------------------------------------------------- plan


@dataclasses.dataclass(frozen=True)
class Plan:
    """What one run of the study simulates (``wlansim.evidence.study.run_study``)."""

    quick: bool
    profile: str
    seed_base: int = 1
    main: bool = True

    @classmethod
    def of(cls, quick: bool, profile: str, seed_base: int = 1, main: bool = True) -> Plan:
        return cls(quick, profile, seed_base, main)

    def udp_reps(self, fig: str) -> int:
        """Replications per UDP point: saturated ratios spread by about 1 %, except at
        small CWmin (Fig 5), where station 1 collides on most of its attempts."""
        if self.quick:
            return 5
        return 30 if fig == "fig5" else 10

    def framings(self, fig: str) -> tuple[Framing, ...]:
        """The framings ``fig`` runs under: the main one, and the :data:`SHORT` framing
        for Fig 3 and (full mode) the load sweep under the study's own profile (the only
        run whose readings are decided). Figs 4-5 are not rerun with it: two stations
        sending the same frames contend alike whatever the frames' length (the EDCA
        model's ratios are the same under both framings, see the parameters)."""
        if self.main and (fig == "fig3" or (fig == "aifs_load" and not self.quick)):
            return (LONG, SHORT)
        return (LONG,)

    def grid(self, fig: str, frames: Framing) -> list[float]:
        return fig3_grid(self.quick, frames) if fig == "fig3" else sweeps(self.quick)[fig]

    @property
    def tcp(self) -> ng2005_tcp.Cases:
        return ng2005_tcp.Cases.of(self.quick, self.main)

    def skips(self) -> list[str]:
        out = []
        if self.quick:
            full = Plan.of(False, self.profile)
            out.append(
                "Figs 3-5 and the load sweep at their full grids: quick mode runs "
                + ", ".join(f"{fig} at {len(self.grid(fig, LONG))} points" for fig in UDP_FIGS)
                + f", {self.udp_reps('fig3')} runs each (the full run: "
                + ", ".join(
                    f"{fig} {len(full.grid(fig, LONG))} × {full.udp_reps(fig)}" for fig in UDP_FIGS
                )
                + ")"
            )
        if not self.main or self.quick:
            out.append(f"the load sweep with the {SHORT.label} (a reading)")
        if not self.main:
            out.append(f"Fig 3 with the {SHORT.label} (a reading)")
        out += self.tcp.skips()
        return out


def run_experiments(out, plan: Plan, jobs: int | None = None, progress: bool = False) -> dict:
    """Every campaign of ``plan`` under ``plan.profile``: the UDP sweeps (``fig3``,
    ``fig4``, ``fig5``, ``aifs_load``: one row per run with ``x`` in the paper's units,
    ``seed``, the stations' throughputs, their ratio, the ``framing`` id and, for Fig 3,
    the ``packets`` a TXOP holds, for Figs 4-5 the ``model``'s ratio) and the TCP cases
    (``tcp_runs``)."""
    out = Path(out)
    tables = {}
    for fig in UDP_FIGS:
        key = KEYS[fig]
        parts = []
        for frames in plan.framings(fig):
            xs = plan.grid(fig, frames)
            vals = [setting(fig, x) for x in xs]
            x_of = dict(zip(vals, xs))
            if fig == "aifs_load":
                base = load_scenario(frames=frames)
                space = Space.zip({key: vals, "flows.up2.rate": vals})
            else:
                base, space = base_scenario(frames=frames), Space.grid({key: vals})
            name = fig if frames == LONG else f"{fig}-{frames.id}"
            c = Campaign(
                with_profile(base, plan.profile),
                space,
                reps=plan.udp_reps(fig),
                store=out / CAMPAIGNS_DIR / name,
                seed=plan.seed_base,
                run_fn=run_pair,
            )
            c.run(jobs=jobs, progress=progress, label=f"ng2005 {name} runs")
            runs = c.results()
            runs = runs[runs["status"] == "ok"]
            df = pd.DataFrame(
                {
                    "x": [x_of[v] for v in runs[key]],
                    "seed": runs["seed"],
                    "thr1": runs["thr1"],
                    "thr2": runs["thr2"],
                    "ratio": runs["relative_throughput"],
                }
            )
            if fig == "fig3":
                df["packets"] = [packets(x, frames) for x in df["x"]]
            elif fig != "aifs_load":
                models = {x: _model_ratio(fig, x) for x in xs}
                df["model"] = [models[x] for x in df["x"]]
            parts.append(df.assign(framing=frames.id))
        tables[fig] = pd.concat(parts, ignore_index=True)
    tables["tcp_runs"] = ng2005_tcp.run(out, plan.tcp, plan.profile, plan.seed_base, jobs, progress)
    return tables


# --------------------------------------------------------------------------- readings


def burst_reading(fig3: pd.DataFrame, frames: Framing, quick: bool) -> pd.DataFrame:
    """Fig 3's runs under ``frames`` (the standard's TXOP rule) read as if the TXOP limit
    bounded the DATA frames' airtime only: at each TXOP of that rule's grid
    (:func:`fig3_grid`), the runs of the TXOP run that holds as many frames. A run depends
    on the TXOP only through the frames it holds (two limits holding as many give the
    same runs, seed by seed: tested), so these are the runs such a rule would give; TXOPs
    holding more frames than any run held are left out."""
    df = fig3[fig3["framing"] == frames.id]
    if df.empty:
        return df
    first = {int(k): g[g["x"] == g["x"].min()] for k, g in df.groupby("packets")}
    rows = [
        first[k].assign(x=x, packets=k)
        for x in fig3_grid(quick, frames, "data", most=max(first))
        if (k := packets(x, frames, "data")) in first
    ]
    return pd.concat(rows, ignore_index=True).assign(framing=LONG.id)


def readings(tables: dict, plan: Plan) -> dict[str, dict]:
    """The tables as if each other setting run of an open parameter were the main one
    (label → tables): every other reading of station 11's advantage (Figs 1-2), each other
    interface queue (the TCP cases; saturated UDP stations, Figs 1 and 3-5, keep a full
    queue of any size, and the load sweep was run at 10 packets only), the :data:`SHORT`
    framing (Fig 3, the load sweep and the TCP cases; Figs 4-5 not run with it), and the
    TXOP burst bounding the DATA airtime only (Fig 3, under each framing). Settings whose runs
    were not made (quick mode, the other profile) are left out."""
    out: dict[str, dict] = {}
    runs = tables["tcp_runs"]
    for r in ng2005_tcp.readings():
        if r != MAIN and runs["case"].isin(ng2005_tcp.figs12(r)).any():
            out[ng2005_tcp.advantage_label(r)] = {
                **tables,
                "tcp_runs": ng2005_tcp.with_reading(runs, r),
            }
    long_runs = runs[runs["framing"] == LONG.id]
    for q in ng2005_tcp.SWEEP_QUEUES:
        if (long_runs["queue"] == q).any():
            udp = long_runs[
                (long_runs["case"] == ng2005_tcp.figs12()[0])
                & (long_runs["queue"] == ng2005_tcp.QUEUE)
            ]
            out[ng2005_tcp.queue_label(q)] = {
                **{k: v for k, v in tables.items() if k != "aifs_load"},
                "tcp_runs": pd.concat([udp, as_main(long_runs, "queue", q, ng2005_tcp.QUEUE)]),
            }
    short = {k: as_main(v, "framing", SHORT.id, LONG.id) for k, v in tables.items()}
    bursts = {BURST_LABEL: (tables, LONG), f"{SHORT.label} and {BURST_LABEL}": (short, SHORT)}
    for name, (base, frames) in bursts.items():
        burst = burst_reading(tables["fig3"], frames, plan.quick)
        if not burst.empty:
            out[name] = {**base, "fig3": burst}
    if any((v["framing"] == SHORT.id).any() for v in tables.values()):
        out[SHORT.label] = short
    return out


def decide_readings(tables: dict, plan: Plan) -> dict[str, dict[str, cl.Verdict]]:
    """Every statement decided under each reading (label → {claim id: verdict})."""
    return {
        label: {v.claim.id: v for v in cl.decide_all(CLAIMS, t)}
        for label, t in readings(tables, plan).items()
    }


# --------------------------------------------------------------------------- rules


@dataclasses.dataclass(frozen=True)
class NotEvery(Rule):
    """The negation of :class:`wlansim.evidence.claims.Every`: holds if ``inner`` does not
    hold at some point of ``over`` ("the model becomes inaccurate beyond 10 slots":
    agreement fails somewhere), does not hold if it holds at every point, undecided
    otherwise; the same Bonferroni-corrected intervals. Inputs: ``{point: inputs of
    inner}``. (Not in the engine, which has Every only.)"""

    inner: Rule
    over: str

    @property
    def scale(self) -> Scale:  # type: ignore[override]
        return self.inner.scale

    def evaluate(self, inputs, confidence: float = CONFIDENCE) -> Outcome:
        o = Every(self.inner, self.over).evaluate(inputs, confidence)
        flip = {"holds": "does not hold", "does not hold": "holds"}
        return Outcome(flip.get(o.verdict, o.verdict), o.estimate, f"the inner rule {o.phrase}",
                       -o.slack)  # fmt: skip

    def describe(self) -> str:
        return (
            f"the inner rule ({self.inner.describe()}) at every {self.over}, negated: holds "
            "if it does not hold at some point, does not hold if it holds at every point"
        )

    def examples(self) -> tuple[Any, Any]:
        good, bad = Every(self.inner, self.over).examples()
        return bad, good


# --------------------------------------------------------------------------- claims


def _fig(tables: dict, fig: str) -> pd.DataFrame:
    """The runs of ``fig`` with the main framing (raises NotRun if none)."""
    df = tables.get(fig)
    if df is not None:
        df = df[df["framing"] == LONG.id]
    if df is None or df.empty:
        raise NotRun(f"{fig} was not run")
    return df


def _at(tables: dict, fig: str, x: float) -> pd.DataFrame:
    df = _fig(tables, fig)
    sel = df[np.isclose(df["x"], x)]
    if sel.empty:
        raise NotRun(f"{fig} was not run at {XLABEL[fig]} = {x:g}")
    return sel


def _s(df: pd.DataFrame, col: str) -> Sample:
    return Sample.from_frame(df, col)


def _points(tables: dict, fig: str, keep=lambda x: True, against: str = "model") -> dict:
    """{x: (simulated ratio per run, exact reference)} of ``fig`` at the x ``keep``
    accepts; ``against``: a column of the table (``"model"``, the EDCA model's ratio;
    ``"packets"``, the frames a TXOP holds) or ``"inverse"`` (32 / CWmin)."""
    df = _fig(tables, fig)
    pts = {}
    for x, g in df.groupby("x"):
        if keep(x):
            ref = 32.0 / x if against == "inverse" else g[against].iloc[0]
            pts[f"{x:g}"] = (_s(g, "ratio"), Sample.exact_value(ref))
    if not pts:
        raise NotRun(f"no {XLABEL[fig]} in that range was run")
    return pts


def step_width(df: pd.DataFrame) -> Sample:
    """Per run (seed): the mean TXOP distance between successive steps of Fig 3, the
    step to k packets placed midway between the largest TXOP run below it (ratio under
    k − 0.5) and the smallest at or above it."""
    widths, seeds = [], []
    for seed, g in df.sort_values("x").groupby("seed"):
        edges = []
        for k in range(2, int(round(g["ratio"].max())) + 1):
            hi = g.loc[g["ratio"] >= k - 0.5, "x"].min()
            lo = g.loc[g["x"] < hi, "x"].max()
            if not np.isnan(lo):
                edges.append((lo + hi) / 2)
        if len(edges) >= 2:
            widths.append((edges[-1] - edges[0]) / (len(edges) - 1))
            seeds.append(seed)
    if not widths:
        raise NotRun("fewer than two steps in the TXOP range run")
    return Sample.of(widths, seeds)


def decay_factors(ratio_by_x: Mapping[float, float]) -> tuple[float, float]:
    """The per-slot factors by which station 2's throughput share r / (1 + r) (r: its
    throughput over station 1's at each AIFS) falls over the second half of the AIFS range
    (h to 2h slots) and over the first (0 to h), h the largest such that 0, h and 2h are
    all in ``ratio_by_x``: equal for an exponential fall."""
    share = {float(x): r / (1 + r) for x, r in ratio_by_x.items()}
    h = max((k for k in range(1, int(max(share)) + 1) if {0, k, 2 * k} <= set(share)), default=0)
    if not h:
        raise NotRun("no AIFS points 0, h, 2h to compare the two halves")
    return (share[2 * h] / share[h]) ** (1 / h), (share[h] / share[0]) ** (1 / h)


def _pair(df: pd.DataFrame) -> tuple[Sample, Sample]:
    return _s(df, "thr2"), _s(df, "thr1")


def _model_note(tables: dict, fig: str, keep=lambda x: True) -> str:
    """Per point of ``fig`` that ``keep`` accepts: the range of sim/model − 1 (means)."""
    try:
        df = _fig(tables, fig)
    except NotRun:
        return ""
    g = df[[keep(x) for x in df["x"]]].groupby("x")[["ratio", "model"]].mean()
    err = g["ratio"] / g["model"] - 1
    return (
        f"Per point, sim/model − 1 runs from {err.min():+.1%} to {err.max():+.1%} "
        f"(mean ratios {g['ratio'].min():.3g} to {g['ratio'].max():.3g})."
    )


def _model_factors(tables: dict) -> tuple[Sample, Sample]:
    late, early = decay_factors(_fig(tables, "fig4").groupby("x")["model"].first())
    return Sample.exact_value(late), Sample.exact_value(early)


#: how the statements name the paper's analytic model, which is not the one run
STAND_IN = "here a stand-in: Bianchi per class with AIFS zones"


def udp_claims() -> list[Claim]:
    return [
        Claim(
            "equal-parameters",
            "§4",
            "With the same parameters the two stations' throughput ratio is one (within ±5 %)",
            Within("station 2's throughput", "station 1's", 0.05),
            lambda t: _pair(_at(t, "fig4", 0)),
            paper="1",
        ),
        Claim(
            "fig3",
            "§4, Fig 3",
            "TXOP raises station 2's relative throughput in steps of one packet, about "
            f"{PAPER_STEP_US:g} µs apart (one 1400-byte packet's time at 11 Mb/s)",
            PaperValue(
                "the TXOP step width", PAPER_STEP_US, tol=STEP_TOL * PAPER_STEP_US, scale=US
            ),
            lambda t: step_width(_fig(t, "fig3")),
            kind="simulation vs paper",
            paper=f"steps of one packet, ≈ {PAPER_STEP_US:g} µs apart",
            also=(
                Test(
                    "steps of one packet",
                    Every(
                        Within("station 2 / station 1", "the packets per TXOP", 0.05),
                        "TXOP (µs)",
                    ),
                    lambda t: _points(t, "fig3", against="packets"),
                    kind="simulation",
                    paper="steps at multiples of one packet",
                ),
            ),
        ),
        Claim(
            "fig4-strong",
            "§4, Fig 4",
            "AIFS has a strong impact: station 2's relative throughput more than halves over "
            "the AIFS range run",
            Trend("station 2 / station 1", "AIFS of station 2 (slots)", "down", margin=-0.5),
            lambda t: [(x, _s(g, "ratio")) for x, g in _fig(t, "fig4").groupby("x")],
            paper="strong impact",
        ),
        Claim(
            "fig4-exponential",
            "§4",
            f"Analytic models [6] ({STAND_IN}) predict that a station's throughput share "
            "falls exponentially with AIFS: the same per-slot factor over both halves (±3 %)",
            Within("the model's per-slot factor over the second half", "over the first half", 0.03),
            _model_factors,
            kind="model property",
            paper="falls exponentially (analytic models [6])",
        ),
        Claim(
            "fig4-model-agrees",
            "§4, Fig 4",
            f"Battiti–Li's model [6] ({STAND_IN}) agrees with the measurements for AIFS ≤ 10 "
            "slots (within ±10 %)",
            Every(Within("the simulated ratio", "the EDCA model's", 0.10), "AIFS (slots)"),
            lambda t: _points(t, "fig4", lambda x: x <= 10),
            kind="model vs simulation",
            paper="good agreement for AIFS ≤ 10",
            explain=lambda t, o: _model_note(t, "fig4", lambda x: x <= 10),
        ),
        Claim(
            "fig4-model-inaccurate",
            "§4, Fig 4; §6",
            f"Beyond 10 slots Battiti–Li's model [6] ({STAND_IN}) becomes inaccurate: off by "
            "more than ±10 % somewhere",
            NotEvery(Within("the simulated ratio", "the EDCA model's", 0.10), "AIFS (slots)"),
            lambda t: _points(t, "fig4", lambda x: x > 10),
            kind="model vs simulation",
            paper="inaccurate for larger AIFS",
        ),
        Claim(
            "aifs-light-load",
            "§4",
            f"Under light load ({LIGHT_LOAD_MBPS:g} Mb/s per station) an AIFS difference "
            f"({LOAD_AIFS} slots) has little impact on throughput (within ±5 %)",
            Within(f"station 2's throughput (AIFS {LOAD_AIFS})", "station 1's", 0.05),
            lambda t: _pair(_at(t, "aifs_load", LIGHT_LOAD_MBPS)),
            paper="little impact",
        ),
        Claim(
            "aifs-load-trend",
            "§4",
            "As the load increases, the station with the longer AIFS becomes penalised",
            Trend("station 2 / station 1", "offered load per station (Mb/s)", "down"),
            lambda t: [(x, _s(g, "ratio")) for x, g in _fig(t, "aifs_load").groupby("x")],
            paper="rapidly penalised",
        ),
        Claim(
            "fig5-inverse",
            "§4, Fig 5",
            "Station 2's relative throughput is roughly inversely proportional to its CWmin "
            "(within ±20 % of 32 / CWmin at every CWmin run)",
            Every(Within("station 2 / station 1", "32 / CWmin", 0.20), "CWmin"),
            lambda t: _points(t, "fig5", against="inverse"),
            paper="approximately inversely proportional",
        ),
        Claim(
            "fig5-model",
            "§4, Fig 5",
            f"The measurements agree with Battiti–Li's model [6] ({STAND_IN}) within ±10 % at "
            "every CWmin",
            Every(Within("the simulated ratio", "the EDCA model's", 0.10), "CWmin"),
            lambda t: _points(t, "fig5"),
            kind="model vs simulation",
            paper="good agreement",
            explain=lambda t, o: _model_note(t, "fig5"),
        ),
    ]


CLAIMS = [*udp_claims(), *ng2005_tcp.claims()]


def _framing_spread() -> float:
    """The largest relative difference of the EDCA model's ratio between the two
    framings over Figs 4-5's points (why Figs 4-5 are not rerun with the short one)."""
    retry = resolve(base_scenario())["mac"]["short_retry_limit"]
    station = partial(model.EdcaClass, 1, cw_min=31, cw_max=1023, aifsn=2, retry_limit=retry)
    others = [station(aifsn=setting("fig4", x)) for x in sweeps(False)["fig4"]]
    others += [
        station(cw_min=setting("fig5", x), cw_max=max(setting("fig5", x), 1023))
        for x in sweeps(False)["fig5"]
    ]
    ratios = {
        f.id: [model.relative_throughput(station(), o, timing_of(f)) for o in others]
        for f in (LONG, SHORT)
    }
    return max(abs(a / b - 1) for a, b in zip(ratios[SHORT.id], ratios[LONG.id]))


PARAMETERS = [
    (
        "what gives station 11 its advantage (Figs 1-2)",
        '"a slight advantage"; cause not stated (§6: antennas, placement, power levels, '
        "detection thresholds)",
        f"main reading: {MAIN.label}; swept (readings): stations 1-10 losing "
        + ", ".join(f"{100 * f:g}" for f in ng2005_tcp.FERS)
        + " % of their frames, or station 11 with an antenna gain of "
        + ", ".join(f"{r.gain_db:g}" for r in ng2005_tcp.readings() if r.gain_db)
        + " dB under SINR reception with capture",
        "the paper is silent and a hardware test-bed has no simulator default. The main "
        "reading is the study's first, picked for Fig 1's slight UDP advantage before any "
        "TCP run, so Fig 1's verdict under it is calibration, not evidence; "
        f"{ng2005_tcp.capture_gain_db()} dB is the smallest gain at which station 11's frame "
        f"survives one equal-power interferer with P ≥ {ng2005_tcp.CAPTURE_TARGET:.0%} (fixed "
        "before any TCP run); the others bracket them",
    ),
    (
        "interface queue of every node",
        'interface tx 10 and driver tx 10 packets (defaults 199 and 200); "similar results '
        'for a range of settings"',
        f"{ng2005_tcp.QUEUE} packets at the AP and at each station; swept (readings): "
        + " and ".join(str(q) for q in ng2005_tcp.SWEEP_QUEUES)
        + " packets, every Section 5 case and Fig 2 under the main reading",
        "wlansim has one queue per node; 10 is the paper's value of each of its two; 20 adds "
        "them, 200 is MadWiFi's default. Saturated UDP stations (Figs 1 and 3-5) keep a full "
        "queue whatever its size, so those runs are not repeated at the other sizes",
    ),
    (
        "PLCP preamble and ACK rate (802.11b)",
        "not stated (802.11b at 11 Mb/s, RTS/CTS off)",
        f"{LONG.label} (all control frames); swept (a reading): {SHORT.label}, with Fig 3, "
        "the load sweep and every TCP case of the main reading",
        "the 802.11b preset's framing, the standard's mandatory one and ns-2's default. "
        "MadWiFi most likely ran the other: its net80211 layer turns the short preamble on "
        "when the driver announces it, as the Atheros driver does, and the Atheros HAL's "
        "802.11b rate table gives 2 Mb/s as the control rate of 11 Mb/s. The framing moves "
        "Fig 3's steps (one exchange: "
        f"{step_us(LONG):.0f} µs against {step_us(SHORT):.0f} µs). Figs 4-5 are not rerun "
        "with it: two stations sending the same frames contend alike whatever their length "
        "(the EDCA model's ratios differ by at most "
        f"{_framing_spread():.1e} between the framings over Figs 4-5's points)",
    ),
    (
        "TXOP",
        f"µs, MadWiFi's burst time; steps ≈ {PAPER_STEP_US:g} µs apart, \"the time required to "
        'transmit a 1400 UDP byte packet"',
        "the standard's rule (802.11-2012 9.19.2.4): a further exchange only if DATA + SIFS + "
        "ACK ends within the limit; swept (a reading): a burst that bounds the DATA frames' "
        f"airtime only (steps {step_us(LONG, 'data'):.0f} µs apart; "
        f"{step_us(SHORT, 'data'):.0f} µs with the short preamble)",
        "the standard. The paper's step of one packet's time suggests that MadWiFi's burst "
        "counts the DATA frames only; the Atheros hardware's rule (the DCU's channel time) "
        "is not documented in the driver sources found, so this reading is an inference. It "
        "is read off Fig 3's runs: a run depends on the TXOP only through the frames it "
        "holds (tested)",
    ),
    (
        "the analytic model of Figs 4-5",
        "Battiti & Li [6] (Univ. Trento TR DIT-03-024, 2003)",
        "a stand-in: Bianchi's fixed point per class with the AIFS zones of Robinson & "
        "Randhawa (`wlansim.models.edca`), under the standard's rules",
        "Battiti & Li's equations are not available here (not among the papers, not found "
        "in the reference sources searched), so their model is not implemented; "
        "`fig4-exponential`, `fig4-model-*` and `fig5-model` test the paper's statements "
        "about [6] with the stand-in",
    ),
    (
        "TCP",
        "Linux 2.6.8 (BIC with SACK), TCP buffers 1 MB",
        "NewReno, MSS 1448 B with timestamps, rwnd 1 MB, min RTO 200 ms, initial RTO 3 s, "
        "delayed ACK d = 2",
        "wlansim has no BIC; Linux 2.6.8's timer and ACK defaults",
    ),
    (
        "the TCP peer",
        "the AP host",
        "one wired server per station behind the AP (100 Mb/s, 0.1 ms)",
        "keeps the wireless hop the only bottleneck, as in the test-bed",
    ),
    (
        "test length",
        "5-minute TCP tests (§3); Section 4 not stated",
        f"{ng2005_tcp.DURATION} per TCP run ({ng2005_tcp.WARMUP} warm-up); {UDP_DURATION} per "
        "UDP point (1 s warm-up)",
        "the paper's for TCP; for two saturated UDP stations 120 s already puts the ratio's "
        "interval within about ±1 % (the tables show the widths), so it does not move a "
        "verdict",
    ),
    (
        "replications",
        "4 tests per setting (§3)",
        f"10 per UDP point (Fig 5: 30); {ng2005_tcp.FIGS12_REPS} per Figs 1-2 case and "
        f"{ng2005_tcp.SECTION5_REPS} per Section 5 case ({ng2005_tcp.OTHER_PROFILE_REPS} "
        f"under the other profile); {ng2005_tcp.SWEEP_REPS} per case under every other "
        "setting (reading, queue, framing)",
        "TCP per-run results spread widely (DCF's ACK lockouts); more runs than the paper's",
    ),
    (
        "AIFS and CWmin units",
        'AIFS in slots beyond DIFS; CWmin the drawing range [0, CW − 1] ("32")',
        "AIFSN = 2 + slots; cw_min = CWmin − 1 (the standard draws in [0, CW]), the same "
        "scenario under both profiles",
        "the standard's definitions. Under `ns2` the MAC draws in [0, CW − 1] (ns-2's "
        "BackoffTimer), one slot less, and a window must be 2^k − 1, so ng2005's CWmin 2 "
        "becomes a window of one slot there (station 2's counter is always 0): the ns-2 "
        "rule's reading of the same setting",
    ),
    (
        "Table 2 classes",
        "TCP ACKs classified by packet size",
        f'`[qos] preset = "{ng2005_tcp.PRESET}"`: pure TCP ACKs in AC_VO, the rest in AC_BE; '
        "the AP's TXOP holds n_d full-size exchanges",
        "the same split as by size for this traffic",
    ),
    (
        "light load (§4)",
        '"lightly loaded", not quantified',
        f"Poisson uplinks of {LIGHT_LOAD_MBPS:g} Mb/s per station (load sweep: "
        + ", ".join(f"{x:g}" for x in sweeps(False)["aifs_load"])
        + " Mb/s)",
        "a third of the channel in all; the sweep shows the whole range",
    ),
    (
        "decision thresholds",
        '"around 1270us", "good agreement", "roughly", "slight", "strong", "far more", "10-15 %"',
        f"step width: the paper's value within ±{STEP_TOL:.0%} of ours; model agreement ±10 %; "
        "inverse proportion ±20 %; slight advantage (0, 30 %]; strong impact: the ratio "
        'more than halves over the AIFS range; 1/(n+1) shares ±30 %; "far more" > 2×; '
        "fairness: every flow within 15 % of the mean; equal ratios ±5 %; exponential: "
        "per-slot factors of the share within ±3 %",
        "fixed with the claims (each statement's rule in claims.csv), the step width's before "
        "any reading ran; 15 % is the paper's own number; ±3 % separates an exponential fall "
        "from a linear one over the same range (whose factors differ by about 8 %)",
    ),
]


# --------------------------------------------------------------------------- figures


def _summary(df: pd.DataFrame, col: str = "ratio") -> pd.DataFrame:
    rows = []
    for x, g in df.groupby("x"):
        e = mean_interval(_s(g, col))
        row = {"x": x, "mean": e.value, "low": e.low, "high": e.high, "runs": len(g)}
        for ref in ("model", "packets"):
            if ref in g:
                row[ref] = g[ref].iloc[0]
        rows.append(row)
    return pd.DataFrame(rows)


def _errorbars(ax, df: pd.DataFrame, label: str, **kw) -> pd.DataFrame:
    s = _summary(df)
    yerr = [s["mean"] - s["low"], s["high"] - s["mean"]]
    ax.errorbar(s["x"], s["mean"], yerr=yerr, fmt="o", ms=4, capsize=3,
                label=f"{label} (mean, 95 % CI, {s['runs'].min()} runs)", **kw)  # fmt: skip
    return s


def _udp_plot(fig: str, tables: dict, path: Path) -> None:
    from matplotlib.figure import Figure

    df = tables[fig]
    f = Figure(figsize=(6.2, 4))
    ax = f.subplots()
    s = _errorbars(ax, df[df["framing"] == LONG.id], f"wlansim, {LONG.label}")
    short = df[df["framing"] == SHORT.id]
    if not short.empty:
        _errorbars(ax, short, f"wlansim, {SHORT.label}", color="tab:green", alpha=0.7)
    if fig == "fig3":  # the standard's staircase on a fine grid
        x = np.linspace(0, s["x"].max(), 801)
        for frames, style in ((LONG, "-"), (SHORT, "--")):
            ax.plot(x, [packets(v, frames) for v in x], style, lw=1,
                    label=f"packets per TXOP, standard's rule, {frames.id} preamble")  # fmt: skip
        for k in range(2, int(s["x"].max() // PAPER_STEP_US) + 1):  # the edge of k packets
            ax.axvline(
                k * PAPER_STEP_US,
                color="grey",
                ls=":",
                lw=1,
                label=f"paper: steps ≈ {PAPER_STEP_US:g} µs apart" if k == 2 else None,
            )
    elif "model" in s:
        ax.plot(s["x"], s["model"], "-", label="EDCA model (stand-in for Battiti–Li)")
    if fig == "fig4":
        ax.axvspan(
            10,
            max(s["x"].max(), 10) + 0.5,
            color="grey",
            alpha=0.12,
            label="paper: model inaccurate beyond 10 slots",
        )
    if fig == "fig5":
        ax.plot(s["x"], 32.0 / s["x"], "k--", lw=1, label="paper: ∝ 1/CWmin (32/CWmin)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
    if fig == "aifs_load":
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.axvline(
            LIGHT_LOAD_MBPS, color="grey", ls=":", lw=1, label="'lightly loaded' (our reading)"
        )
    ax.set_xlabel(XLABEL[fig])
    ax.set_ylabel("throughput station 2 / station 1")
    title = {"fig3": "Fig 3", "fig4": "Fig 4", "fig5": "Fig 5", "aifs_load": "§4: AIFS vs load"}
    ax.set_title(f"ng2005 {title[fig]}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    f.tight_layout()
    f.savefig(path, dpi=120)


def plot(tables: dict, out, plan: Plan) -> list[str]:
    """Figs 3-5 and the AIFS-load sweep, then the TCP figures (1-2, 6-9, the readings
    of station 11's advantage, the queue sweep)."""
    out = Path(out)
    files = []
    for fig in UDP_FIGS:
        try:
            _fig(tables, fig)
        except NotRun:
            continue
        name = fig.replace("_", "-")
        _udp_plot(fig, tables, out / f"{name}.png")
        files.append(f"{name}.png")
    return files + ng2005_tcp.plot(tables, out)


# --------------------------------------------------------------------------- report


def _udp_table(df: pd.DataFrame, fig: str) -> list[str]:
    s = _summary(df)
    has_model = "model" in s
    head = f"| {XLABEL[fig]} | runs | station 2 / station 1 (95 % CI) |"
    lines = [
        head + (" EDCA model | sim/model − 1 |" if has_model else ""),
        "|---|---|---|" + ("---|---|" if has_model else ""),
    ]
    for _, r in s.iterrows():
        ci = f"{r['mean']:.4g} ({r['low']:.4g} to {r['high']:.4g})"
        row = f"| {r['x']:g} | {int(r['runs'])} | {ci} |"
        if has_model:
            row += f" {r['model']:.4g} | {r['mean'] / r['model'] - 1:+.1%} |"
        lines.append(row)
    return lines


def _fig3_table(df: pd.DataFrame) -> list[str]:
    """Fig 3 per plateau: the packets a TXOP holds, the TXOPs run, the mean ratio."""
    lines = [
        "| packets per TXOP | TXOPs run (µs) | runs | station 2 / station 1 (95 % CI) |",
        "|---|---|---|---|",
    ]
    for frames, x in df.groupby("packets"):
        e = mean_interval(_s(x, "ratio"))
        lines.append(
            f"| {frames} | {x['x'].min():g} to {x['x'].max():g} | {len(x)} | "
            f"{e.value:.3f} ({e.low:.3f} to {e.high:.3f}) |"
        )
    return lines


def _step_table(by_id: dict, read: dict) -> list[str]:
    """Fig 3's step width under each framing and TXOP rule, with the `fig3` verdict."""
    cases = [
        (LONG, "the standard's", by_id),
        (LONG, "DATA airtime only", read.get(BURST_LABEL)),
        (SHORT, "the standard's", read.get(SHORT.label)),
        (SHORT, "DATA airtime only", read.get(f"{SHORT.label} and {BURST_LABEL}")),
    ]
    lines = [
        f"| framing | TXOP rule | step of the rule (µs) | step measured (µs) | `fig3` "
        f"(paper: {PAPER_STEP_US:g} µs ± {STEP_TOL:.0%}) |",
        "|---|---|---|---|---|",
    ]
    for frames, rule, verdicts in cases:
        if verdicts is None:
            continue
        counts = "exchange" if rule == "the standard's" else "data"
        v = verdicts["fig3"]
        measured = f"{v.estimate.value:.0f}" if v.estimate.defined else "—"
        lines.append(
            f"| {frames.label} | {rule} | {step_us(frames, counts):.0f} | {measured} | "
            f"{v.verdict} |"
        )
    return lines


def sections(tables: dict, plan: Plan, verdicts) -> list[str]:
    """The study's own sections: the profile, Section 4's tables, the TCP sections, what
    each reading changes, what is not checked."""
    by_id = {v.claim.id: v for v in verdicts}
    read = decide_readings(tables, plan)
    lines = ["## The study's profile", "", *profile_section(plan.profile, PROFILE, WHY_STANDARD)]
    lines += [
        "## Section 4: two saturated stations",
        "",
        f"Two saturated 1400-byte UDP stations, 802.11b 11 Mb/s ({LONG.label}), RTS/CTS "
        f"off, {UDP_DURATION} per run (1 s warm-up); station 2's TXOP, AIFS or CWmin swept; "
        "AIFSN = 2 + ng2005's extra slots, CWmin = ng2005's − 1. Model: "
        "`wlansim.models.edca` (Bianchi per class with the AIFS zones of Robinson & "
        "Randhawa, the standard's rules), a stand-in for the paper's Battiti–Li model [6], "
        "whose equations are not available here.",
        "",
    ]
    try:
        fig3 = _fig(tables, "fig3")
    except NotRun:
        fig3 = None
    if fig3 is not None:
        t = timing_of(LONG)
        lines += [
            "**Fig 3** (TXOP), per plateau. Under the standard's TXOP rule (a further "
            "exchange only if DATA + SIFS + ACK ends within the limit) the steps are one "
            f"exchange plus SIFS apart, {step_us():.0f} µs; the DATA frame alone lasts "
            f"{t['data_frame_s'] * 1e6:.0f} µs (the paper: {PAPER_STEP_US:g} µs). Runs sit "
            f"{STRADDLE_US} µs either side of every step edge, so the measured width is the "
            "rule's to a µs.",
            "",
            *_fig3_table(fig3),
            "",
            "The step width under each framing and TXOP rule (the readings; the DATA-airtime "
            "rule is read off the runs of the TXOPs that hold as many frames):",
            "",
            *_step_table(by_id, read),
            "",
        ]
    for fig, name in (
        ("fig4", "Fig 4** (AIFS)"),
        ("fig5", "Fig 5** (CWmin)"),
        ("aifs_load", "AIFS against the load** (§4 text)"),
    ):
        try:
            lines += [f"**{name}", "", *_udp_table(_fig(tables, fig), fig), ""]
        except NotRun:
            continue
    lines += ["## Sections 3 and 5: TCP", "", *ng2005_tcp.sections(tables, by_id, read)]
    lines += ["", "## What each reading changes", ""]
    if read:
        lines += [
            "Each setting swept, decided as if it were the main one (every verdict in "
            "`sweeps.csv`); the statements whose verdict differs from the main one:",
            "",
        ]
        for label, vs in read.items():
            moved = [
                f"`{cid}` {by_id[cid].verdict} → {v.verdict}"
                for cid, v in vs.items()
                if v.verdict not in (by_id[cid].verdict, "not run")
            ]
            idle = sum(
                v.verdict == "not run" and by_id[cid].verdict != "not run" for cid, v in vs.items()
            )
            lines.append(
                f"- {label}: "
                + ("; ".join(moved) if moved else "no verdict changes")
                + (f" ({idle} statements not run with this setting)" if idle else "")
                + "."
            )
    else:
        lines.append("No other setting was run.")
    lines += [
        "",
        "### Not checked",
        "",
        "- The Battiti–Li model itself (the paper's [6]): its equations are not available "
        "here, so the statements about it are tested with a stand-in (the parameters say "
        "which).",
        '- §2\'s "similar results for a range of settings" of the queues as a statement: '
        "the queue readings show each statement at 20 and 200 packets instead.",
        "- §3's test-bed observations (position changes of a few centimetres moving "
        "throughput by 30 %; 60-s and 5-minute tests varying alike): properties of the radio "
        "environment, which these scenarios do not model.",
        "- §5.2's runs with background inelastic traffic (no numbers or settings given).",
        "",
    ]
    return lines


reproduce = study_reproduce(__name__)
