"""ng2005, Sections 3 and 5 (TCP): per-station throughput with 802.11b defaults and with
the Table 2 EDCA settings (``[qos] preset = "ng2005-table2"``), as claim records decided
over replications (:mod:`wlansim.evidence.claims`).

Setup from the paper (Table 1, Section 2): 802.11b at 11 Mb/s, RTS/CTS off, interface
queues of 10 packets at every node, TCP buffers of 1 MB (cwnd is never window-limited),
tests of 5 minutes. The paper's hosts ran Linux 2.6.8: MSS 1448 bytes with timestamps,
min RTO 200 ms, initial RTO 3 s, delayed ACKs. Linux 2.6.8 used BIC with SACK; wlansim
has no BIC, so the senders run NewReno (a row of the study's parameters table). The AP
host was the TCP peer of every station: here one wired server per station behind the AP
on a 100 Mb/s link with 0.1 ms delay, so the wireless hop is the only bottleneck.

Cases (stations numbered as in the paper's bar charts):

- ``fig1-READING`` / ``fig2-READING``: 11 saturated UDP / TCP uploads, station 11 at a
  slight advantage. The paper does not say what gave station 11 its advantage; the
  claims read the main reading (:data:`MAIN`: stations 1-10 lose 5 % of their frames)
  and every other reading of :func:`readings` is run too, for the study's ``readings``:
  stations 1-10 lose a fraction of their data frames on the link with the AP (both
  directions), station 11 none (``fer-2``, ``fer-5``, ``fer-10``); or no frame errors,
  ``[channel.reception] model = "sinr"`` and station 11 with an antenna gain, so that its
  frames reach the AP that much stronger and may win collisions through capture
  (``capture-3db``, ...).
- ``fig6`` / ``fig8``: 12 TCP uploads, default parameters / Table 2.
- ``fig7`` / ``fig9``: 6 TCP uploads (stations 1-6) + 6 TCP downloads (7-12), default /
  Table 2.
- ``up3``: 3 TCP uploads with defaults (§5.1: "even three competing upload flows are
  sufficient to degrade performance"); ``mix-3-9`` / ``mix-9-3``: 3 uploads + 9
  downloads and 9 + 3 with Table 2 (§5.2: "similar levels of fairness ... where the
  number of uploads is not the same as the number of downloads").

Each (case, interface queue, framing) is a :class:`wlansim.campaign.Campaign` (stored
under ``OUT/campaigns``); :func:`run` returns one row per run (``tcp_runs``, with the
columns ``case``, ``queue`` and ``framing``), which the claims read at the main queue
(:data:`QUEUE`) and framing (:data:`LONG`). Besides the per-station useful rates each run
reports Jain's index over :data:`WINDOW_S`-second windows: DCF's TCP unfairness comes in
lockout episodes that move from station to station, which a 5-minute average partly
hides.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from wlansim.campaign import Campaign
from wlansim.campaign.executors import run_scenario
from wlansim.evidence.claims import (
    PERCENT,
    Claim,
    Compare,
    Every,
    InRange,
    NotRun,
    Outcome,
    Sample,
    Scale,
    Test,
    Within,
)
from wlansim.evidence.stats import mean_half_width
from wlansim.evidence.study import CAMPAIGNS_DIR, with_profile
from wlansim.models.fairness import jain_index
from wlansim.results import useful_rate

#: the capture readings' reception parameters (the model's defaults, stated): every link
#: at -60 dBm, so the SNR (34 dB) is far above what 11 Mb/s needs and only interference
#: matters
NOISE_FLOOR_DBM = -94.0
RX_POWER_DBM = -60.0
#: PSDU of a full-size data frame of Figs 1-2: a 1500-byte IP packet (1472-byte UDP
#: payload + 28, or 1448-byte MSS + 12 bytes of timestamps + 40) + LLC/SNAP 8 + MAC
#: header 24 + FCS 4
PSDU_BYTES = 1536
#: probability with which station 11's data frame must survive one equal-power
#: interferer for its antenna gain to count as "winning collisions through capture"
CAPTURE_TARGET = 0.95
#: the other gains of the capture readings, dB (below the capture threshold: none; on
#: its slope: partial); :func:`capture_gain_db` is the third
SWEEP_GAINS_DB = (3, 6)
#: the frame error rates of stations 1-10 in the FER readings
FERS = (0.02, 0.05, 0.10)
#: window of the short-term Jain's index, seconds
WINDOW_S = 10
#: interface queue of every node, packets (Table 1: 10 at the interface, 10 in the driver)
QUEUE = 10
#: the queue sizes of the sensitivity sweep (Table 1: 10 + 10 used, 199 + 200 by default)
SWEEP_QUEUES = (20, 200)
#: replications under the main setting: Figs 1-2 (their advantage ratios spread widely)
#: and Section 5 (Fig 9's spread is heavy-tailed); Section 5 under the other profile (a
#: second column, not the statements' verdicts); every case under a swept setting (another
#: reading, queue or framing)
FIGS12_REPS = 30
SECTION5_REPS = 50
OTHER_PROFILE_REPS = 30
SWEEP_REPS = 20
PRESET = "ng2005-table2"
#: test length and warm-up (the paper: 5-minute tests)
DURATION = "300 s"
WARMUP = "5 s"
#: the paper's intrinsic run-to-run variation of a station's throughput (§3 and §5.2:
#: "to within the intrinsic 10-15 % intra-test variation")
INTRINSIC = 0.15

#: the Linux 2.6.8 TCP of the test-bed, as far as wlansim models it
TCP = {
    "variant": "newreno",
    "mss": "1448 B",
    "timestamps": True,
    "rwnd": "1 MB",
    "min_rto": "200 ms",
    "initial_rto": "3 s",
    "delayed_ack": 2,
}


@dataclasses.dataclass(frozen=True)
class Framing:
    """The 802.11b framing of every frame of a scenario: the PLCP preamble and the rate
    of ACKs (and every other control frame); data frames at 11 Mb/s."""

    id: str
    preamble: str
    control_rate: str

    @property
    def label(self) -> str:
        return f"{self.preamble} preamble with ACKs at {self.control_rate}"

    def phy(self) -> dict:
        """The scenario's ``[phy]`` table."""
        return {
            "standard": "802.11b",
            "data_rate": "11 Mb/s",
            "preamble": self.preamble,
            "control_rate": self.control_rate,
        }


#: the framing every claim reads: the 802.11b preset's (long preamble; control frames
#: at the lowest rate, as with the basic rate set {1 Mb/s}), also ns-2's default
LONG = Framing("long", "long", "1 Mb/s")
#: the other framing run: what the test-bed's driver most likely used. MadWiFi's
#: net80211 turns the short preamble on when the driver announces it (the Atheros driver
#: does), and the Atheros HAL's 802.11b rate table gives 2 Mb/s as the control rate of
#: 11 Mb/s (the short preamble cannot carry 1 Mb/s)
SHORT = Framing("short", "short", "2 Mb/s")
FRAMINGS = (LONG, SHORT)


def framing(fid: str) -> Framing:
    for f in FRAMINGS:
        if f.id == fid:
            return f
    raise KeyError(f"framing {fid!r}: one of {', '.join(f.id for f in FRAMINGS)}")


def capture_probability(gain_db: float, interferers: int = 1) -> float:
    """Probability that station 11's full-size 11 Mb/s frame, received ``gain_db``
    stronger than each of ``interferers`` equal-power overlapping frames, is decoded at
    the AP (:func:`wlansim.models.error_rate.ppdu_success` at its SINR over the
    interference plus the noise floor)."""
    from wlansim.models.error_rate import ppdu_success

    def mw(dbm: float) -> float:
        return 10.0 ** (dbm / 10.0)

    sinr = mw(RX_POWER_DBM + gain_db) / (interferers * mw(RX_POWER_DBM) + mw(NOISE_FLOOR_DBM))
    return float(ppdu_success("dsss", 11e6, PSDU_BYTES, sinr))


@functools.cache
def capture_gain_db() -> int:
    """The largest gain of the capture readings: the smallest whole number of dB at which
    station 11's frame survives one equal-power interferer with probability at least
    :data:`CAPTURE_TARGET` (8 dB: 0.989; 7 dB gives 0.85, 6 dB 0.27, 5 dB 0.001)."""
    g = 0
    while capture_probability(g) < CAPTURE_TARGET:
        g += 1
    return g


@dataclasses.dataclass(frozen=True)
class Reading:
    """One reading of what gives the paper's station 11 its advantage: stations 1-10 lose
    a fraction ``fer`` of their frames (both directions), or station 11 has an antenna
    gain of ``gain_db`` under SINR reception with capture."""

    fer: float | None = None
    gain_db: float | None = None

    @property
    def id(self) -> str:
        if self.fer is not None:
            return f"fer-{100 * self.fer:g}"
        return f"capture-{self.gain_db:g}db"

    @property
    def label(self) -> str:
        if self.fer is not None:
            return f"others' FER {100 * self.fer:g} %"
        return f"capture, {self.gain_db:g} dB"


#: the reading the claims read: the study's first, fixed before the others and before
#: any TCP run, for Fig 1's "slight" UDP advantage (so Fig 1 under it is calibration)
MAIN = Reading(fer=0.05)


@functools.cache
def readings() -> tuple[Reading, ...]:
    """Every reading run: the FERs of :data:`FERS`, then the gains of
    :data:`SWEEP_GAINS_DB` and :func:`capture_gain_db`."""
    gains = sorted({*SWEEP_GAINS_DB, capture_gain_db()})
    return (*(Reading(fer=f) for f in FERS), *(Reading(gain_db=float(g)) for g in gains))


def reading(case: str) -> Reading | None:
    """The reading of a Figs 1-2 case (``fig2-capture-8db`` -> capture 8 dB), else None."""
    fig, _, rid = case.partition("-")
    if fig not in ("fig1", "fig2"):
        return None
    for r in readings():
        if r.id == rid:
            return r
    raise KeyError(f"unknown reading {rid!r} of case {case!r}")


def figs12(r: Reading = MAIN) -> tuple[str, str]:
    """The Figs 1 and 2 cases of reading ``r``."""
    return f"fig1-{r.id}", f"fig2-{r.id}"


#: Section 5 cases: (uploads, downloads, Table 2 preset), and what the paper shows
SECTION5 = {
    "fig6": (12, 0, False),
    "fig7": (6, 6, False),
    "fig8": (12, 0, True),
    "fig9": (6, 6, True),
    "up3": (3, 0, False),
    "mix-3-9": (3, 9, True),
    "mix-9-3": (9, 3, True),
}


def describe(case: str) -> str:
    """A case in words."""
    r = reading(case)
    if r is not None:
        proto = "UDP" if case.startswith("fig1") else "TCP"
        return f"11 {proto} uploads, station 11 at an advantage ({r.label})"
    up, down, preset = SECTION5[case]
    what = f"{up} TCP uploads" + (f" + {down} TCP downloads" if down else "")
    return what + (", Table 2 settings" if preset else ", 802.11b defaults")


def label(case: str) -> str:
    """``fig2-capture-8db`` -> ``Fig 2 (capture, 8 dB)``; ``mix-3-9`` -> ``3 up + 9 down``."""
    r = reading(case)
    if r is not None:
        return f"Fig {case[3]} ({r.label})"
    if case.startswith("fig"):
        return f"Fig {case[3:]}"
    up, down, _ = SECTION5[case]
    return f"{up} up" + (f" + {down} down" if down else "")


def scenario(
    case: str, duration: str = DURATION, queue: int = QUEUE, frames: Framing = LONG
) -> dict:
    """The scenario of one case (see the module docstring); ``queue``: the interface
    queue of every node, packets; ``frames``: the 802.11b framing."""
    r = reading(case)
    tcp = not case.startswith("fig1")
    if r is not None:
        others: dict = {"name": "sta", "count": 10}
        sta11: dict = {"name": "sta11", "count": 1}
        if r.fer is not None:
            others["fer"] = r.fer
        else:
            sta11["antenna_gain_db"] = r.gain_db
        groups = [others, sta11]
        flows = [("up", "uplink", "sta"), ("up11", "uplink", "sta11")]
    else:
        up, down, _ = SECTION5[case]
        if not down:
            groups = [{"name": "up", "count": up}]
            flows = [("up", "uplink", "up")]
        else:
            groups = [{"name": "up", "count": up}, {"name": "down", "count": down}]
            flows = [("up", "uplink", "up"), ("down", "downlink", "down")]
    n = sum(g["count"] for g in groups)
    s = {
        "name": f"ng2005-{case}",
        "duration": duration,
        "warmup": WARMUP,
        "phy": frames.phy(),
        "mac": {"rts_threshold": "off", "queue": queue},
        "ap": {"queue": queue},
        "stations": groups,
        "flows": [
            {"name": name, "direction": d, "stations": g, "protocol": "tcp" if tcp else "udp"}
            | ({"server": "srv"} if tcp else {"packet_size": "1472 B"})
            for name, d, g in flows
        ],
        "output": {"series": ["flow_throughput"], "series_interval": f"{WINDOW_S} s"},
    }
    if tcp:
        s["tcp"] = dict(TCP)
        s["servers"] = [{"name": "srv", "count": n, "delay": "0.1 ms"}]
    if r is None and SECTION5[case][2]:
        s["qos"] = {"preset": PRESET}
    if r is not None and r.gain_db is not None:
        s["channel"] = {
            "reception": {
                "model": "sinr",
                "noise_floor_dbm": NOISE_FLOOR_DBM,
                "rx_power_dbm": RX_POWER_DBM,
            }
        }
    return s


def windowed_jain(series: dict) -> float:
    """Mean over sampling windows of Jain's index of the flows' throughputs (windows in
    which nothing was delivered are skipped)."""
    per_flow = np.array([v for k, v in series["flow_throughput"].items() if k != "t_s"])
    js = [jain_index(w) for w in per_flow.T if w.sum() > 0]
    return float(np.mean(js)) if js else float("nan")


def max_deviation(rates) -> float:
    """The largest |x_i / mean − 1| over the stations' useful rates (NaN if all are 0)."""
    x = np.asarray(rates, dtype=float)
    m = x.mean() if x.size else 0.0
    return float(np.max(np.abs(x / m - 1))) if m > 0 else float("nan")


#: per-run counters of Figs 1-2, each as station 11's value (``NAME_11``) and the mean of
#: stations 1-10 (``NAME_others``): MAC captures, collision probability (collisions per
#: attempt), attempts, data frames received in error, and TCP retransmission timeouts
COUNTERS = ("captures", "collision_prob", "attempts", "frame_errors", "timeouts")


def _counters(out: dict) -> dict[str, list[float]]:
    """Per station (flow order) the values of :data:`COUNTERS`."""
    nodes = {n["name"]: n for n in out["nodes"]}
    per: dict[str, list[float]] = {k: [] for k in COUNTERS}
    for f in out["flows"]:
        n = nodes[f["src"]]
        per["captures"].append(float(n["captures"]))
        per["attempts"].append(float(n["attempts"]))
        per["frame_errors"].append(float(n["frame_errors"]))
        per["collision_prob"].append(n["collisions"] / n["attempts"] if n["attempts"] else 0.0)
        timeouts = f.get("timeouts")
        per["timeouts"].append(float("nan") if timeouts is None else float(timeouts))
    return per


def run_case(scenario: dict, seed: int) -> dict:
    """Campaign run function: one simulation plus the metrics the claims read:
    ``station_1`` … (useful rate of each station's flow, b/s, in station order),
    ``max_dev`` (:func:`max_deviation`; ``max_dev_up`` over the uploads alone),
    ``jain_window``, ``up_total`` / ``down_total`` (b/s), ``ap_share`` (the AP's share of
    the successful MAC transmissions), ``ap_attempt_share``, ``timeouts_per_flow`` and, in
    Figs 1-2, ``station_11`` against ``others`` (the mean of stations 1-10),
    ``advantage`` (their ratio) and the :data:`COUNTERS` of station 11 and of the others.
    The series is summarised, not stored."""
    out = run_scenario(scenario, seed)
    m = out["metrics"]
    flows = out["flows"]
    rates = [useful_rate(f) for f in flows]
    for i, r in enumerate(rates, start=1):
        m[f"station_{i}"] = r
    up = [r for r, f in zip(rates, flows) if f["direction"] == "uplink"]
    down = [r for r, f in zip(rates, flows) if f["direction"] == "downlink"]
    m["max_dev"] = max_deviation(rates)
    m["max_dev_up"] = max_deviation(up)
    m["up_total"] = float(sum(up))
    m["down_total"] = float(sum(down))
    m["jain_window"] = windowed_jain(out.pop("series"))
    for counter, share in (("successes", "ap_share"), ("attempts", "ap_attempt_share")):
        total = sum(n[counter] for n in out["nodes"])
        ap = sum(n[counter] for n in out["nodes"] if n["role"] == "ap")
        m[share] = ap / total if total else 0.0
    m["timeouts_per_flow"] = m.get("timeouts", math.nan) / len(flows)
    if len(rates) == 11:
        m["others"] = float(np.mean(rates[:-1]))
        m["advantage"] = rates[-1] / m["others"] if m["others"] > 0 else math.nan
        for k, v in _counters(out).items():
            m[f"{k}_11"] = v[-1]
            m[f"{k}_others"] = float(np.mean(v[:-1]))
    return out


@dataclasses.dataclass(frozen=True)
class Cases:
    """What one run of the study simulates: replications per (case, interface queue,
    framing id)."""

    plan: dict[tuple[str, int, str], int]

    @classmethod
    def of(cls, quick: bool, main: bool) -> Cases:
        """Full: Figs 1-2 under :data:`MAIN` and every Section 5 case, with the 802.11b
        preset's framing and queues of :data:`QUEUE` (:data:`FIGS12_REPS` and
        :data:`SECTION5_REPS` replications; :data:`OTHER_PROFILE_REPS` per Section 5 case
        under the other profile); under the study's own profile (``main``) also, at
        :data:`SWEEP_REPS`, Figs 1-2 under every other reading of station 11's advantage,
        and Fig 2 under the main reading and every Section 5 case at the queues of
        :data:`SWEEP_QUEUES` and, with Fig 1, with the :data:`SHORT` framing (Fig 1's
        saturated UDP stations keep a full queue whatever its size; the other profile's run
        decides no reading, so it runs none). Quick: Figs 1-2 under :data:`MAIN` and the
        largest capture gain, and Figs 6-9, 5 replications."""
        if quick:
            kept = (MAIN, Reading(gain_db=float(capture_gain_db())))
            cases = [c for r in kept for c in figs12(r)] + ["fig6", "fig7", "fig8", "fig9"]
            return cls({(c, QUEUE, LONG.id): 5 for c in cases})
        plan = {(c, QUEUE, LONG.id): FIGS12_REPS for c in figs12(MAIN)}
        plan |= {(c, QUEUE, LONG.id): SECTION5_REPS if main else OTHER_PROFILE_REPS
                 for c in SECTION5}  # fmt: skip
        if main:
            plan |= {(c, QUEUE, LONG.id): SWEEP_REPS for r in readings() if r != MAIN
                     for c in figs12(r)}  # fmt: skip
            queued = [figs12(MAIN)[1], *SECTION5]
            plan |= {(c, q, LONG.id): SWEEP_REPS for c in queued for q in SWEEP_QUEUES}
            plan |= {(c, QUEUE, SHORT.id): SWEEP_REPS for c in [*figs12(MAIN), *SECTION5]}
        return cls(plan)

    def skips(self) -> list[str]:
        out = []
        run = {c for c, q, f in self.plan if q == QUEUE and f == LONG.id}
        every = [c for r in readings() for c in figs12(r)] + list(SECTION5)
        missing = [c for c in every if c not in run]
        if missing:
            out.append("TCP cases " + ", ".join(label(c) for c in missing))
        if not any(q != QUEUE for _, q, _ in self.plan):
            out.append(
                "the TCP cases at interface queues of "
                + " and ".join(str(q) for q in SWEEP_QUEUES)
                + " packets (a reading)"
            )
        if not any(f != LONG.id for _, _, f in self.plan):
            out.append(f"the TCP cases with the {SHORT.label} (a reading)")
        return out


def campaign_name(case: str, queue: int, fid: str) -> str:
    """Where a (case, queue, framing) campaign is stored, under ``OUT/campaigns``."""
    return case + (f"-q{queue}" if queue != QUEUE else "") + (f"-{fid}" if fid != LONG.id else "")


def run(
    out: Path,
    cases: Cases,
    profile: str,
    seed_base: int,
    jobs: int | None,
    progress: bool = False,
) -> pd.DataFrame:
    """Run every (case, queue, framing) of ``cases`` under ``profile``: one row per run
    with ``case``, ``queue``, ``framing``, ``seed`` and the metrics of :func:`run_case`."""
    frames = []
    for (case, q, fid), reps in cases.plan.items():
        name = campaign_name(case, q, fid)
        c = Campaign(
            with_profile(scenario(case, DURATION, q, framing(fid)), profile),
            None,
            reps=reps,
            store=out / CAMPAIGNS_DIR / name,
            seed=seed_base,
            run_fn=run_case,
        )
        c.run(jobs=jobs, progress=progress, label=f"ng2005 {name} runs")
        runs = c.results()
        runs = runs[runs["status"] == "ok"].drop(columns=["key", "rep", "status"])
        keep = ["seed", *(k for k in runs.columns if k in RUN_COLUMNS or k.startswith("station_"))]
        frames.append(runs[keep].assign(case=case, queue=q, framing=fid))
    df = pd.concat(frames, ignore_index=True)
    stations = sorted(
        (k for k in df.columns if k.startswith("station_")), key=lambda k: int(k.split("_")[1])
    )
    rest = [k for k in RUN_COLUMNS if k in df.columns]
    df = df[["case", "queue", "framing", "seed", *rest, *stations]]
    # rates to whole b/s, the rest to 6 decimals: far below any interval, and the table
    # (committed with the full run) stays small
    rates = [*stations, "up_total", "down_total", "others"]
    return df.round({k: 0 if k in rates else 6 for k in df.columns[4:]})


#: the per-run columns kept in ``tcp_runs`` (besides ``station_i``)
RUN_COLUMNS = (
    "max_dev",
    "max_dev_up",
    "jain_index",
    "jain_window",
    "up_total",
    "down_total",
    "ap_share",
    "ap_attempt_share",
    "ap_queue_drops_ack",
    "timeouts_per_flow",
    "others",
    "advantage",
    *(f"{k}_{who}" for k in COUNTERS for who in ("11", "others")),
)


# --------------------------------------------------------------------------- readings


def as_main(df: pd.DataFrame, column: str, value, main) -> pd.DataFrame:
    """The rows of ``df`` whose ``column`` is ``value``, relabelled ``main``: the runs of
    a swept setting, as the claims (which read the main setting) would read them."""
    return df[df[column] == value].assign(**{column: main})


def with_reading(runs: pd.DataFrame, r: Reading) -> pd.DataFrame:
    """``tcp_runs`` as if reading ``r`` of station 11's advantage were the main one: its
    Figs 1-2 runs in place of :data:`MAIN`'s (the Section 5 cases do not involve it)."""
    main, other = figs12(MAIN), figs12(r)
    rest = runs[~runs["case"].isin(main)]
    moved = rest["case"].map(dict(zip(other, main))).fillna(rest["case"])
    return rest.assign(case=moved)


# --------------------------------------------------------------------------- claims


def runs_of(tables: dict, case: str, queue: int = QUEUE, fid: str = LONG.id) -> pd.DataFrame:
    """The runs of ``case`` at ``queue`` with framing ``fid`` (raises NotRun if the plan
    did not run it)."""
    df = tables["tcp_runs"]
    sel = df[(df["case"] == case) & (df["queue"] == queue) & (df["framing"] == fid)]
    if sel.empty:
        where = f"a queue of {queue} packets" + (
            "" if fid == LONG.id else f", {framing(fid).label}"
        )
        raise NotRun(f"{label(case)} at {where} was not run")
    return sel


def sample(df: pd.DataFrame, column: str) -> Sample:
    return Sample.from_frame(df, column)


def exact(value: float) -> Sample:
    return Sample.exact_value(value)


def columns(case: str, a: str, b: str) -> Callable[[dict], tuple[Sample, Sample]]:
    """The measure "columns ``a`` and ``b`` of ``case``'s runs", paired by seed."""
    return lambda t: (sample(runs_of(t, case), a), sample(runs_of(t, case), b))


def excess(df: pd.DataFrame) -> Sample:
    """Per run: station 11's throughput over the others' mean, less one."""
    return Sample.of(list(df["advantage"] - 1), list(df["seed"]))


def _ratio_of(df: pd.DataFrame, num: str, den: str) -> Sample:
    return Sample.of(list(df[num] / (df[num] + df[den])), list(df["seed"]))


POINTS = Scale(relative=False, unit="points", factor=100.0)
TIMES = Scale(ratio=True, digits=2)


def _per_run(df: pd.DataFrame, column: str, digits: int = 0) -> str:
    return f"{df[column].mean():.{digits}f}"


def _figs12_explain(figs: tuple[int, ...]) -> Callable[[dict, Outcome], str]:
    """The counters behind a Figs 1-2 verdict: station 11 against the others in the
    runs of ``figs`` (1: UDP, 2: TCP; means per run)."""

    def explain(tables: dict, _: Outcome) -> str:
        parts = []
        for k in figs:
            proto = "UDP" if k == 1 else "TCP"
            try:
                df = runs_of(tables, figs12()[k - 1])
            except NotRun:
                continue
            a11, aot = df["attempts_11"].mean(), df["attempts_others"].mean()
            text = (
                f"{proto}: station 11 makes {a11 / aot:.2f}× the others' attempts, collides "
                f"on {df['collision_prob_11'].mean():.1%} of them (the others: "
                f"{df['collision_prob_others'].mean():.1%}), captures "
                f"{df['captures_11'].mean():.0f} frames per run and loses "
                f"{df['frame_errors_11'].mean():.0f} to errors (each other station: "
                f"{df['frame_errors_others'].mean():.0f})"
            )
            if proto == "TCP":
                text += (
                    f"; timeouts per run {df['timeouts_11'].mean():.0f} (station 11) and "
                    f"{df['timeouts_others'].mean():.0f} (each other station), the AP's "
                    f"queue drops {df['ap_queue_drops_ack'].mean():.0f} TCP ACKs and makes "
                    f"{df['ap_attempt_share'].mean():.0%} of the attempts"
                )
            parts.append(text)
        return "Counters (means per run): " + "; ".join(parts) + "." if parts else ""

    return explain


def nothing_favours_11(tables: dict, figs: tuple[int, ...]) -> str:
    """Why the runs of Figs ``figs`` (1: UDP, 2: TCP) cannot show station 11's advantage,
    "" when they can: in every run, stations 1-10 lost no frame to errors and station 11
    captured no frame, so nothing sets station 11 apart."""
    df = pd.concat([runs_of(tables, figs12()[k - 1]) for k in figs])
    if (df["frame_errors_others"] == 0).all() and (df["captures_11"] == 0).all():
        return (
            f"nothing sets station 11 apart in these runs: in each of the {len(df)} runs "
            f"of Fig{'s' if len(figs) > 1 else ''} {' and '.join(map(str, figs))} stations "
            "1-10 lost no frame to errors and station 11 captured no frame"
        )
    return ""


def figs12_claims() -> list[Claim]:
    """Section 3 (Figs 1-2) under the main reading of station 11's advantage; the other
    readings decide them again (the study's ``readings``)."""
    udp, tcp = figs12()

    return [
        Claim(
            "fig1",
            "§3, Fig 1",
            "With 11 UDP uploads station 11 consistently does slightly better than the "
            "others: its throughput exceeds the others' mean by more than 0 and at most 30 %",
            InRange(
                "station 11's excess over the mean of stations 1-10 (UDP)", 0.0, 0.3, scale=PERCENT
            ),
            lambda t: excess(runs_of(t, udp)),
            paper="slightly better, in every test",
            explain=_figs12_explain((1,)),
            setup=lambda t: nothing_favours_11(t, (1,)),
        ),
        Claim(
            "fig2-magnified",
            "§3, Figs 1-2",
            "TCP's congestion control magnifies station 11's advantage: its lead over the "
            "others is larger with TCP than with UDP, and significant",
            Compare("station 11's advantage with TCP", "its advantage with UDP", ">"),
            lambda t: (sample(runs_of(t, tcp), "advantage"), sample(runs_of(t, udp), "advantage")),
            paper="significantly greater with TCP; magnified",
            explain=_figs12_explain((1, 2)),
            also=(
                Test(
                    "significant lead",
                    Compare("station 11 (TCP)", "the mean of stations 1-10 (TCP)", ">"),
                    columns(tcp, "station_11", "others"),
                    kind="simulation",
                    paper="significantly greater",
                ),
            ),
            premise=Test(
                "an advantage with UDP",
                Compare("station 11 (UDP)", "the mean of stations 1-10 (UDP)", ">"),
                columns(udp, "station_11", "others"),
                kind="simulation",
                paper="a slight advantage",
            ),
            setup=lambda t: nothing_favours_11(t, (1, 2)),
        ),
    ]


def _lockouts(cases: tuple[str, ...]) -> Callable[[dict, Outcome], str]:
    """The counters behind a Section 5 verdict: ACKs the AP's queue drops, timeouts per
    flow, the AP's share of the transmissions and Jain's index over 10 s windows."""

    def explain(tables: dict, _: Outcome) -> str:
        parts = []
        for case in cases:
            try:
                df = runs_of(tables, case)
            except NotRun:
                continue
            parts.append(
                f"{label(case)}: the AP's queue drops {_per_run(df, 'ap_queue_drops_ack')} "
                f"TCP ACKs per run, each flow times out {_per_run(df, 'timeouts_per_flow')} "
                f"times, the AP sends {df['ap_share'].mean():.0%} of the successful frames, "
                f"Jain's index is {df['jain_index'].mean():.3f} over the run and "
                f"{df['jain_window'].mean():.3f} over {WINDOW_S} s windows"
            )
        return "Counters (means per run): " + "; ".join(parts) + "." if parts else ""

    return explain


def _spread(case: str, op: str, col: str = "max_dev", among: str = ""):
    """The rule and measure of "the largest deviation of a flow's throughput from the
    mean" against the paper's intrinsic variation: above it (``>``, unfair) or below it
    (``<``, fair)."""
    who = f"{among} ({label(case)}, {'Table 2' if SECTION5[case][2] else 'defaults'})"
    rule = Compare(
        f"the largest deviation of a flow's throughput from the mean{who}",
        f"the paper's {100 * INTRINSIC:g} % intrinsic variation",
        op,
        scale=POINTS,
    )
    return rule, lambda t: (sample(runs_of(t, case), col), exact(INTRINSIC))


def section5_claims() -> list[Claim]:
    """The claims of Section 5 (the queue and framing readings decide them again)."""

    def spread(cid: str, ref: str, text: str, case: str, op: str, paper: str,
               col: str = "max_dev", among: str = "") -> Claim:  # fmt: skip
        rule, measure = _spread(case, op, col, among)
        return Claim(cid, ref, text, rule, measure, paper=paper, explain=_lockouts((case,)))

    off = f"off the mean by more than {100 * INTRINSIC:g} %"
    within = f"within {100 * INTRINSIC:g} % of the mean"
    mixes = ("mix-3-9", "mix-9-3")
    return [
        spread(
            "fig6-unfair", "§5.1, Fig 6",
            f"12 TCP uploads with 802.11b defaults are unfair: some station's 5-minute "
            f"throughput is {off} (the intrinsic variation)",
            "fig6", ">", "poor performance, gross unfairness",
        ),
        Claim(
            "fig6-ap-share",
            "§5.1",
            "With n = 12 uploads the AP wins only about 1/(n+1) of the transmissions "
            "(within ±30 %)",
            Within("the AP's share of the successful transmissions", "1/(n+1) = 1/13", 0.30),
            lambda t: (sample(runs_of(t, "fig6"), "ap_share"), exact(1 / 13)),
            kind="model vs simulation",
            paper="1/(n+1) = 7.7 %",
            explain=_lockouts(("fig6",)),
        ),
        spread(
            "up3-unfair", "§5.1",
            f"Even 3 competing TCP uploads (802.11b defaults) develop significant unfairness: "
            f"some station {off}",
            "up3", ">", "degraded with 3 uploads",
        ),
        Claim(
            "fig7-up-down",
            "§5.1, Fig 7",
            "With defaults, 6 uploads take far more than 6 downloads (more than twice)",
            Compare("the uploads' total goodput", "the downloads'", ">", margin=1.0, scale=TIMES),
            columns("fig7", "up_total", "down_total"),
            paper="gross unfairness between uploads and downloads",
            explain=_lockouts(("fig7",)),
        ),
        Claim(
            "fig7-down-share",
            "§5.1, Fig 7",
            "The downloads get roughly 1/(n_u+1) of the channel (within ±30 %)",
            Within("the downloads' share of the goodput", "1/(n_u+1) = 1/7", 0.30),
            lambda t: (_ratio_of(runs_of(t, "fig7"), "down_total", "up_total"), exact(1 / 7)),
            kind="model vs simulation",
            paper="1/(n_u+1) = 14 %",
            explain=_lockouts(("fig7",)),
        ),
        spread(
            "fig7-uploads-unfair", "§5.1, Fig 7",
            f"With defaults the 6 uploads are also unfair among themselves: some upload {off}",
            "fig7", ">", "unfairness within the uploads", "max_dev_up", " among the uploads",
        ),
        Claim(
            "fig8",
            "§5.2, Figs 6 and 8",
            "With the Table 2 settings the 12 uploads are fair to within the intrinsic "
            "10-15 % variation, an improvement over the defaults",
            *_spread("fig8", "<"),
            paper="fairness restored to within 10-15 %; improved",
            explain=_lockouts(("fig6", "fig8")),
            also=(
                Test(
                    "improved over the defaults",
                    Compare("the largest deviation from the mean with Table 2", "with defaults",
                            "<"),  # fmt: skip
                    lambda t: (
                        sample(runs_of(t, "fig8"), "max_dev"),
                        sample(runs_of(t, "fig6"), "max_dev"),
                    ),
                    kind="simulation",
                    paper="improved fairness",
                ),
            ),
        ),
        Claim(
            "fig9",
            "§5.2, Fig 9",
            "With Table 2, fairness is restored within and between 6 uploads and 6 "
            f"downloads (every flow and both totals within {100 * INTRINSIC:g} %)",
            *_spread("fig9", "<"),
            paper="fairness restored within and between",
            explain=_lockouts(("fig9",)),
            also=(
                Test(
                    "between",
                    Within("the uploads' total goodput", "the downloads'", INTRINSIC),
                    columns("fig9", "up_total", "down_total"),
                    kind="simulation",
                    paper="fairness between uploads and downloads",
                ),
            ),
        ),
        Claim(
            "mixes-fair",
            "§5.2, text",
            "Table 2 gives similar fairness with unequal numbers of uploads and downloads "
            f"(3 + 9 and 9 + 3): every flow {within}",
            Every(
                Compare(
                    "the largest deviation of a flow's throughput from the mean (Table 2)",
                    f"the paper's {100 * INTRINSIC:g} % intrinsic variation",
                    "<",
                    scale=POINTS,
                ),
                "mix",
            ),
            lambda t: {label(c): _spread(c, "<")[1](t) for c in mixes},
            paper="similar levels of fairness",
            explain=_lockouts(mixes),
        ),
    ]  # fmt: skip


def claims() -> list[Claim]:
    return [*figs12_claims(), *section5_claims()]


# --------------------------------------------------------------------------- figures


def _station_means(df: pd.DataFrame) -> pd.DataFrame:
    """Per station: mean and 95 % CI half-width of the useful rate over the runs, Mb/s."""
    from wlansim.evidence.claims import mean_interval

    cols = [k for k in df.columns if k.startswith("station_") and df[k].notna().any()]
    rows = []
    for k in cols:
        e = mean_interval(Sample.of(list(df[k] / 1e6)))
        rows.append(
            {
                "station": int(k.split("_")[1]),
                "mean": e.value,
                "half": (e.high - e.low) / 2 if e.defined else 0.0,
            }
        )
    return pd.DataFrame(rows)


def _bars(ax, df: pd.DataFrame, case: str, highlight: int | None = None) -> pd.DataFrame:
    st = _station_means(df)
    up, down = (11, 0) if reading(case) else SECTION5[case][:2]
    colors = ["tab:blue"] * up + ["tab:orange"] * down
    if highlight:
        colors[highlight - 1] = "tab:red"
    ax.bar(st["station"], st["mean"], yerr=st["half"], capsize=2, color=colors[: len(st)])
    ax.set_xticks(st["station"])
    ax.grid(True, axis="y", alpha=0.3)
    return st


def _bar_figure(tables: dict, case: str, path: Path) -> None:
    """Per-station bars (mean, 95 % CI over the runs), with the paper's numbers overlaid:
    the ±15 % band around the mean (Figs 8-9), the AP's 1/(n+1) share (Fig 6) and the
    1/(n_u+1) download share (Fig 7)."""
    from matplotlib.figure import Figure

    df = runs_of(tables, case)
    f = Figure(figsize=(6.4, 3.8))
    ax = f.subplots()
    st = _bars(ax, df, case, 11 if reading(case) else None)
    up, down, _ = SECTION5.get(case, (11, 0, False))
    mean = st["mean"].mean()
    note = ""
    if case in ("fig8", "fig9", "mix-3-9", "mix-9-3"):
        ax.axhspan(
            mean * (1 - INTRINSIC),
            mean * (1 + INTRINSIC),
            color="grey",
            alpha=0.15,
            label=f"paper: within {100 * INTRINSIC:g} % of the mean",
        )
    if case == "fig6":
        note = (
            f"\nAP's share of the transmissions: {df['ap_share'].mean():.0%} "
            f"(paper: 1/(n+1) = {1 / 13:.1%})"
        )
    if down:
        total = st["mean"].sum()
        if case == "fig7":
            ax.hlines(
                [total / (up + 1) / down, total * up / (up + 1) / up],
                [up + 0.5, 0.5],
                [up + down + 0.5, up + 0.5],
                colors="k",
                linestyles="--",
                label="paper: n_u/(n_u+1) to the uploads, 1/(n_u+1) to the downloads",
            )
        ax.set_xlabel(f"station (1-{up} upload, {up + 1}-{up + down} download)")
    else:
        ax.set_xlabel("station")
    ax.set_ylabel(f"throughput (Mb/s), mean and 95 % CI\nover {len(df)} runs")
    ax.set_title(
        f"ng2005 {label(case)}: {describe(case)}\nJain {df['jain_index'].mean():.3f} "
        f"(run), {df['jain_window'].mean():.3f} ({WINDOW_S} s windows); largest deviation "
        f"{df['max_dev'].mean():.0%}{note}",
        fontsize=8,
    )
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper right")
    f.tight_layout()
    f.savefig(path, dpi=120)


def _readings_figure(tables: dict, fig: int, path: Path) -> None:
    """Fig 1 or 2 under every reading: per-station bars, station 11 in red."""
    from matplotlib.figure import Figure

    shown = [r for r in readings() if not runs_of_or_empty(tables, f"fig{fig}-{r.id}").empty]
    cols = 3
    rows = max(1, math.ceil(len(shown) / cols))
    f = Figure(figsize=(11, 3.2 * rows))
    axes = np.atleast_1d(f.subplots(rows, cols, squeeze=False)).ravel()
    for ax, r in zip(axes, shown):
        df = runs_of(tables, f"fig{fig}-{r.id}")
        _bars(ax, df, f"fig{fig}-{r.id}", highlight=11)
        ax.set_title(f"{r.label}: station 11 / others {df['advantage'].mean():.2f}", fontsize=9)
        ax.set_xlabel("station")
        ax.set_ylabel("Mb/s (mean, 95 % CI)")
    for ax in axes[len(shown) :]:
        ax.set_visible(False)
    proto = "UDP" if fig == 1 else "TCP"
    f.suptitle(
        f"ng2005 Fig {fig}: 11 {proto} uploads, station 11 (red) at an advantage, "
        "under every reading of that advantage",
        fontsize=10,
    )
    f.tight_layout()
    f.savefig(path, dpi=110)


def runs_of_or_empty(tables: dict, case: str, queue: int = QUEUE) -> pd.DataFrame:
    try:
        return runs_of(tables, case, queue)
    except NotRun:
        return tables["tcp_runs"].iloc[0:0]


def _advantage_figure(tables: dict, path: Path) -> None:
    """Station 11's advantage (UDP and TCP, mean and 95 % CI) under every reading: the
    capture readings against the gain (with the capture probability), the FER readings
    against the others' FER."""
    from matplotlib.figure import Figure

    f = Figure(figsize=(10, 3.9))
    ax_cap, ax_fer = f.subplots(1, 2)
    for ax, kind in ((ax_cap, "gain_db"), (ax_fer, "fer")):
        rs = [r for r in readings() if getattr(r, kind) is not None]
        for k, (proto, color) in enumerate((("UDP", "tab:blue"), ("TCP", "tab:orange"))):
            pts = []
            for r in rs:
                df = runs_of_or_empty(tables, f"fig{k + 1}-{r.id}")
                if not df.empty:
                    x = r.gain_db if kind == "gain_db" else 100 * r.fer
                    pts.append((x, *mean_half_width(df["advantage"])))
            if pts:
                x, m, h = map(np.array, zip(*pts))
                ax.errorbar(
                    x + (k - 0.5) * 0.1, m, yerr=h, fmt="o-", capsize=3, color=color, label=proto
                )
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.axhspan(1.0, 1.3, color="green", alpha=0.08, label="'slight' (1, 1.3]")
        ax.grid(True, alpha=0.3)
        ax.set_ylabel("station 11 / mean of the others\n(mean, 95 % CI)")
    ax_cap.set_xlabel("station 11's antenna gain (dB), SINR reception with capture")
    ax_fer.set_xlabel("frame error rate of stations 1-10 (%)")
    twin = ax_cap.twinx()
    g = np.linspace(0, max(r.gain_db or 0 for r in readings()) + 1, 61)
    twin.plot(
        g,
        [capture_probability(x) for x in g],
        ":",
        color="grey",
        label="P(capture), one equal-power interferer",
    )
    twin.set_ylim(0, 1.05)
    twin.set_ylabel("P(capture)", color="grey")
    h1, l1 = ax_cap.get_legend_handles_labels()
    h2, l2 = twin.get_legend_handles_labels()
    ax_cap.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper left")
    ax_fer.legend(fontsize=7, loc="upper left")
    f.suptitle("ng2005 Figs 1-2: station 11's advantage under every reading", fontsize=10)
    f.tight_layout()
    f.savefig(path, dpi=120)


def _queue_figure(tables: dict, path: Path) -> None:
    """The Section 5 quantities against the interface queue size (mean, 95 % CI)."""
    from matplotlib.figure import Figure

    df = tables["tcp_runs"]
    df = df[df["framing"] == LONG.id]
    f = Figure(figsize=(6.4, 4))
    ax = f.subplots()
    lines = [
        ("fig6", "max_dev", "Fig 6 (defaults)"),
        ("fig8", "max_dev", "Fig 8 (Table 2)"),
        ("fig7", "max_dev_up", "Fig 7, among the uploads"),
        ("fig9", "max_dev", "Fig 9 (Table 2)"),
        ("up3", "max_dev", "3 up (defaults)"),
    ]
    for case, col, name in lines:
        pts = [(q, *mean_half_width(g[col])) for q, g in df[df["case"] == case].groupby("queue")]
        if pts:
            x, m, h = map(np.array, zip(*pts))
            ax.errorbar(x, 100 * m, yerr=100 * h, fmt="o-", capsize=3, label=name)
    ax.axhline(100 * INTRINSIC, color="k", ls="--", lw=1, label="paper: 10-15 %")
    ax.set_xscale("log")
    ax.set_xlabel("interface queue of every node (packets)")
    ax.set_ylabel("largest deviation of a station\nfrom the mean (%)")
    ax.set_title(
        "ng2005 §2 / §5: the queue size (paper: 10 packets; 'similar results for a "
        "range of settings')",
        fontsize=8,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    f.tight_layout()
    f.savefig(path, dpi=120)


def plot(tables: dict, out: Path) -> list[str]:
    """Every TCP figure the runs allow; returns the PNG names."""
    files = []
    df = tables["tcp_runs"]
    for fig in (1, 2):
        if any(c.startswith(f"fig{fig}-") for c in df["case"].unique()):
            _readings_figure(tables, fig, out / f"fig{fig}.png")
            files.append(f"fig{fig}.png")
    top = f"capture-{capture_gain_db()}db"
    for fig in (1, 2):
        case = f"fig{fig}-{top}"
        if not runs_of_or_empty(tables, case).empty:
            _bar_figure(tables, case, out / f"fig{fig}-capture.png")
            files.append(f"fig{fig}-capture.png")
    if any(c.startswith("fig") and reading(c) for c in df["case"].unique()):
        _advantage_figure(tables, out / "capture-gain.png")
        files.append("capture-gain.png")
    for case in SECTION5:
        if not runs_of_or_empty(tables, case).empty:
            name = f"{case}.png"
            _bar_figure(tables, case, out / name)
            files.append(name)
    if df.loc[df["framing"] == LONG.id, "queue"].nunique() > 1:
        _queue_figure(tables, out / "queue-sweep.png")
        files.append("queue-sweep.png")
    return files


# --------------------------------------------------------------------------- report


def advantage_label(r: Reading) -> str:
    """The study's reading label of reading ``r`` of station 11's advantage."""
    if r.fer is not None:
        return f"station 11's advantage from the others losing {100 * r.fer:g} % of their frames"
    return f"station 11's advantage from capture at {r.gain_db:g} dB"


def queue_label(q: int) -> str:
    """The study's reading label of interface queues of ``q`` packets."""
    return f"interface queues of {q} packets"


def _ci_cell(values, digits: int = 2, factor: float = 1.0) -> str:
    m, h = mean_half_width(np.asarray(values, dtype=float) * factor)
    return f"{m:.{digits}f} ± {h:.{digits}f}"


def _cell(v) -> str:
    """A verdict with its estimate, for a table (``v`` None: not decided)."""
    if v is None:
        return "not run"
    ours = v.row()["ours"]
    return f"{v.verdict} ({ours})" if ours else v.verdict


def sections(tables: dict, by_id: dict, read: dict) -> list[str]:
    """The report's TCP sections: Figs 1-2 under every reading of station 11's advantage
    (with the counters), Section 5 per case, and Section 5's statements at every queue
    size. ``by_id``: the main verdicts by claim id; ``read``: {reading label: {claim id:
    verdict}}, the statements decided under each of the study's readings."""
    lines = [
        "### Figs 1-2: every reading of station 11's advantage",
        "",
        "The paper does not say what favoured its station 11 (§6 names antennas, node "
        "placement, power levels and detection thresholds). The statements read the main "
        f"reading ({MAIN.label}: the study's first, fixed before the others and before any "
        "TCP run, for Fig 1's slight UDP advantage, so `fig1` under it is calibration); "
        "every other reading decides them again (`sweeps.csv`). FER readings: stations 1-10 "
        "lose that fraction of their data frames (both directions), station 11 none, "
        'reception `none`. Capture readings: no frame errors, `[channel.reception] model = "'
        f'sinr"` (every link {RX_POWER_DBM:g} dBm, noise {NOISE_FLOOR_DBM:g} dBm) and station '
        "11 with that antenna gain: the AP locks onto the strongest of colliding frames and "
        f"decodes it at its SINR. P(station 11's {PSDU_BYTES}-byte frame survives one "
        "equal-power interferer): "
        + ", ".join(
            f"{g:g} dB {capture_probability(g):.3f}"
            for g in sorted({*SWEEP_GAINS_DB, capture_gain_db(), 7})
        )
        + ". Station 11 / mean of stations 1-10: mean ± 95 % CI half-width over the runs.",
        "",
        "| reading | runs | UDP (Fig 1) | TCP (Fig 2) | fig1 | fig2-magnified |",
        "|---|---|---|---|---|---|",
    ]
    for r in readings():
        u, t = (runs_of_or_empty(tables, c) for c in figs12(r))
        if u.empty and t.empty:
            continue
        verdicts = by_id if r == MAIN else read.get(advantage_label(r), {})
        cells = [_ci_cell(x["advantage"]) if not x.empty else "not run" for x in (u, t)]
        name = r.label + (" (main)" if r == MAIN else "")
        lines.append(
            f"| {name} | {len(u)} + {len(t)} | {cells[0]} | {cells[1]} | "
            + " | ".join(_cell(verdicts.get(cid)) for cid in ("fig1", "fig2-magnified"))
            + " |"
        )
    lines += [
        "",
        "Counters (means per run; station 11 against the mean of stations 1-10): attempts "
        "of station 11 over the others', collision probability (collisions per attempt; "
        "frame errors not included), MAC captures of station 11 (the others'), data frames "
        "lost to errors, TCP retransmission timeouts per flow, the AP's share of all "
        "attempts.",
        "",
        "| reading | traffic | attempts 11 / others | collision prob. 11 / others | "
        "captures 11 (others) | frame errors 11 / others | timeouts 11 / others | "
        "AP attempt share |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in readings():
        for k, proto in ((1, "UDP"), (2, "TCP")):
            x = runs_of_or_empty(tables, figs12(r)[k - 1])
            if x.empty:
                continue
            to = x["timeouts_11"].mean()
            lead = x["attempts_11"].mean() / x["attempts_others"].mean()
            lines.append(
                f"| {r.label} | {proto} | {lead:.2f} "
                f"| {x['collision_prob_11'].mean():.3f} / {x['collision_prob_others'].mean():.3f} "
                f"| {x['captures_11'].mean():.0f} ({x['captures_others'].mean():.0f}) "
                f"| {x['frame_errors_11'].mean():.0f} / {x['frame_errors_others'].mean():.0f} | "
                + ("—" if math.isnan(to) else f"{to:.0f} / {x['timeouts_others'].mean():.0f}")
                + f" | {x['ap_attempt_share'].mean():.0%} |"
            )
    lines += [
        "",
        "### Section 5: per case",
        "",
        "Means ± 95 % CI half-widths over the runs (queues of "
        f"{QUEUE} packets, {LONG.label}). Largest deviation: max over the flows of "
        "|x_i / mean − 1| in one run. Up/down: the uploads' total goodput over the "
        "downloads'.",
        "",
        "| case | runs | largest deviation (%) | Jain (run) | Jain (10 s windows) | up/down | "
        "AP share of transmissions | AP ACK drops / run | timeouts / flow / run |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for case in SECTION5:
        x = runs_of_or_empty(tables, case)
        if x.empty:
            continue
        ud = (x["up_total"] / x["down_total"]) if (x["down_total"] > 0).all() else None
        lines.append(
            f"| {label(case)}: {describe(case)} | {len(x)} | {_ci_cell(x['max_dev'], 1, 100)} | "
            f"{_ci_cell(x['jain_index'], 3)} | {_ci_cell(x['jain_window'], 3)} | "
            + (_ci_cell(ud) if ud is not None else "—")
            + f" | {x['ap_share'].mean():.1%} | {x['ap_queue_drops_ack'].mean():.0f} | "
            f"{x['timeouts_per_flow'].mean():.0f} |"
        )
    queues = [q for q in SWEEP_QUEUES if queue_label(q) in read]
    if queues:
        lines += _queue_section(tables, by_id, read, queues)
    return lines


def _queue_section(tables: dict, by_id: dict, read: dict, queues: list[int]) -> list[str]:
    """The TCP statements at every queue size (the queue readings)."""
    ids = [c.id for c in claims()]
    per_q = {QUEUE: by_id, **{q: read[queue_label(q)] for q in queues}}
    df = tables["tcp_runs"]
    df = df[(df["framing"] == LONG.id) & (df["case"] == "fig6")]
    runs = {q: int((df["queue"] == q).sum()) for q in per_q}
    lines = [
        "",
        "### Sensitivity: the interface queue",
        "",
        f"Table 1 gives 10 packets at the interface and 10 in the driver (defaults 199 and "
        f"200); wlansim has one queue per node, {QUEUE} packets in every statement above. "
        'The paper reports "similar results for a range of settings". Every Section 5 case '
        "and Fig 2 under the main reading are run at each size (Fig 1's saturated UDP "
        "stations keep a full queue whatever its size; runs per case: "
        + ", ".join(f"{q} packets: {n}" for q, n in runs.items())
        + ") and each statement decided again by the same rule:",
        "",
        "| statement | " + " | ".join(f"queue {q}" for q in per_q) + " |",
        "|---|" + "---|" * len(per_q),
    ]
    for cid in ids:
        lines.append(f"| {cid} | " + " | ".join(_cell(v.get(cid)) for v in per_q.values()) + " |")
    changed = [
        cid
        for cid in ids
        if len({v[cid].verdict if cid in v else "not run" for v in per_q.values()}) > 1
    ]
    lines += [
        "",
        "Statements whose verdict changes with the queue: "
        + (", ".join(f"`{c}`" for c in changed) if changed else "none")
        + ". ![](queue-sweep.png)",
    ]
    return lines
