"""Reproduction of janevski2009 (TCP variants, MAC retry limit and interface queue in a home
network of two BSSs with real-time traffic; ns-2.28), sections 3-5, as claims, beside
ns-2.35 on the same scenarios (``--against ns2``).

The scenario is ``scenarios/janevski2009-home.toml`` (Fig 1, Tables 1-3; the paper's gaps
filled as ``docs/reference/janevski2009-notes.md`` suggests, before any result was
seen): a movie (trace) BS0 -> n0, a game A1 <-> n1, a video chat A2 <-> n2 (traces), and an
FTP download A3 -> n3 (TCP, 512-byte segments, 35-110 s), ns-2's shadowing (beta 2.7, sigma
4 dB, every frame drawn at every node), RTS/CTS before every frame, "802.11g at 20 Mb/s"
read as ns-2.28 ran it (DSSS timing at a nonstandard 20 Mb/s, control frames at ns-2's
default basicRate_ of 1 Mb/s). Swept as the paper does: TCP variant, MAC attempts per data
frame (1-4: ns-2's LongRetryLimit_ counts attempts), IFQ (25, 50, 100 at every node), n3's
distance from BS1 (50, 100 m), and n3 moving towards BS0 at 4 m/s from 35 s.

Four facts the paper never states change verdicts: which BS serves n1, ns-2's TCP window,
the PHY's timing and control rate, and whether RTS/CTS precedes every frame. The main
reading is what ns-2.35's defaults and the paper's text give (n1 where the notes put it,
on BS1; ns-2's window of 20 segments; DSSS timing with control frames at 1 Mb/s; RTS/CTS
on, ns-2's RTSThreshold_ 0). Every other reading (:data:`READINGS`,
:data:`TABLE4_READINGS`) is run, decided (:func:`readings`) and shown, none chosen because
it makes a claim hold. Each statement of the paper is one :class:`Claim` record decided
over seeds (:mod:`wlansim.evidence.claims`).

The geometry (every node's position, its BS, n3's path) is set in one place, :func:`place`;
ns-2's scripts are written from the same scenarios
(:mod:`wlansim.evidence.ns2.janevski2009`).

A run whose queues never overflowed gives the same results with a larger interface queue
(the simulators are deterministic, and a drop-tail queue that never fills does nothing
else), and one in which no frame used all its attempts the same results with a larger
attempt limit (the limit is read only when a frame reaches it): the runs of each case are
made at the smallest IFQ and attempt limit first, and a larger one is run only where some
run of the smaller one dropped a packet from a full queue, or a frame at its limit, at
some node (:func:`run_grid`; the per-run tables say at which IFQ and attempt limit each
row ran, ``ran_ifq`` and ``ran_attempts``).

Its runs are campaigns stored under ``OUT/campaigns``, so a second call reuses them.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import math
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path

import pandas as pd

from wlansim import examples
from wlansim.campaign import Campaign
from wlansim.campaign.executors import run_scenario
from wlansim.evidence.claims import (
    Claim,
    Compare,
    Every,
    InRange,
    NotRun,
    Outcome,
    PaperValue,
    Sample,
    Scale,
    Test,
    Trend,
    Within,
    decide_all,
    mean_interval,
)
from wlansim.evidence.ns2.run import asked_runs
from wlansim.evidence.report import markdown_table
from wlansim.evidence.study import CAMPAIGNS_DIR, study_reproduce, with_profile
from wlansim.scenario import load

TITLE = (
    'T. Janevski, I. Petrov, "Optimization of TCP/IP over 802.11 Wireless Networks in Home '
    'Environment", ICT Innovations 2009 (Springer), 2009'
)
#: the paper ran ns-2.28: ns-2's rules, and its defaults where the paper is silent
PROFILE = "ns2"

#: the example scenario that the study sweeps (package data: `scenarios/` in a checkout)
HOME = examples.path("janevski2009-home")
VARIANTS = ("tahoe", "reno", "newreno", "vegas", "sack")
IFQS = (25, 50, 100)
ATTEMPTS = (1, 2, 3, 4)
DISTANCES = (50, 100)
#: every axis a case is placed on, with the values the paper sweeps (Table 3)
AXES = {"variant": VARIANTS, "ifq": IFQS, "attempts": ATTEMPTS, "distance": DISTANCES}
FTP_START_S, END_S, GAME_START_S = 35.0, 110.0, 10.0
#: Table 4 of the paper: mean game delay A1 -> n1 (ms), 3 attempts, n3 50 m from BS1.
TABLE4 = {
    "tahoe": (21.1711, 21.6210, 21.9826),
    "reno": (21.2408, 21.2902, 21.9826),
    "newreno": (21.2953, 21.4861, 21.7785),
    "vegas": (21.0952, 21.0952, 21.0952),
    "sack": (21.4726, 21.9197, 21.9386),
}
#: the precision Table 4 is printed with (4 decimals of a ms): a cell is read ± half of it
TABLE4_READING_MS = 0.00005

# How the paper's words are read (fixed before the runs; the report states them):
#: "better", "rises", "best", "worst": by more than 1 %
RISE = 0.01
#: "the same", "overlapping", "does not impact", "constant", "independent": within ±5 %
SAME = 0.05
#: "drastically", "strong impact": by more than 20 %
DRASTIC = 0.20


# --------------------------------------------------------------------------- readings


#: "802.11g at 20 Mb/s" with its control frames: (PHY whose timing it gets, control rate)
PHYS = {
    "dsss-1": ("802.11b", "1 Mb/s"),
    "dsss-20": ("802.11b", "20 Mb/s"),
    "ofdm-6": ("802.11g", "6 Mb/s"),
}
PHY_LABELS = {
    "dsss-1": "DSSS timing, control frames at 1 Mb/s",
    "dsss-20": "DSSS timing, control frames at 20 Mb/s",
    "ofdm-6": "OFDM timing (802.11g), control frames at 6 Mb/s",
}
MAIN_PHY = "dsss-1"


@dataclasses.dataclass(frozen=True)
class Reading:
    """What the paper leaves open and a verdict may hang on: which BS serves n1, ns-2's
    TCP ``window_`` (the receive window, segments), the PHY's timing and control rate
    (:data:`PHYS`) and whether RTS/CTS precedes every data frame."""

    n1_bs: str
    window: int
    phy: str = MAIN_PHY
    rts: bool = True

    @property
    def key(self) -> str:
        return (
            f"n1-{self.n1_bs}-w{self.window}"
            + ("" if self.phy == MAIN_PHY else f"-{self.phy}")
            + ("" if self.rts else "-rts-off")
        )

    @property
    def label(self) -> str:
        return (
            f"n1 on {self.n1_bs.upper()}, window {self.window}"
            + ("" if self.phy == MAIN_PHY else f", {PHY_LABELS[self.phy]}")
            + ("" if self.rts else ", RTS/CTS off")
        )


#: the main reading: n1 where the notes put it (G6, chosen before any run), ns-2's
#: window_, basicRate_ and RTSThreshold_
MAIN = Reading("bs1", 20)
#: the readings every case runs under: n1's BS × the window, and the two combinations
#: under which ns-2.35 gives the paper's delays (issue 38: window 128 and n1 on BS0 with
#: OFDM timing, or with RTS/CTS off)
COMBINED = (Reading("bs0", 128, "ofdm-6"), Reading("bs0", 128, rts=False))
READINGS = (MAIN, Reading("bs1", 128), Reading("bs0", 20), Reading("bs0", 128), *COMBINED)
#: the readings only Table 4's cases run under: every other PHY timing, control rate and
#: RTS setting under each of n1's BSs and windows
TABLE4_READINGS = tuple(
    r
    for base in READINGS[:4]
    for r in (
        Reading(base.n1_bs, base.window, "dsss-20"),
        Reading(base.n1_bs, base.window, "ofdm-6"),
        Reading(base.n1_bs, base.window, rts=False),
    )
    if r not in READINGS
)
ALL_READINGS = {r.key: r for r in (*READINGS, *TABLE4_READINGS)}


# --------------------------------------------------------------------------- geometry

#: BS0 and BS1 stand 100 m apart (notes G6: the paper gives no coordinates)
BS_POSITIONS = {"bs0": (0.0, 0.0), "bs1": (100.0, 0.0)}


def place(s: dict, n1_bs: str, distance_m: float, mobile: bool) -> None:
    """The layout of Fig 1, in one place: the BSs, each station's BS and position, n3's
    path. n0 stands 10 m from BS0 (it receives the movie that starts at BS0), n2 10 m from
    BS1, n1 10 m from `n1_bs`; n3 stands `distance_m` from BS1 (its AP in the captions),
    on the side away from the others, and, `mobile`, walks from there straight to BS0 at
    4 m/s from the FTP's start and stands there (ns-2's setdest; no hand-off in ns-2.28).

    The layout is taken as given: the simulator picks the medium it needs
    (`meta.medium`; under the ns2 profile the spatial one, since shadowing draws each
    frame's power at each node), and the report's Geometry section (`_geometry_lines`)
    computes whether any node ever leaves another's carrier-sense range."""
    if n1_bs not in BS_POSITIONS:
        raise ValueError(f"n1_bs {n1_bs!r}: one of {', '.join(BS_POSITIONS)}")
    for ap in s["aps"]:
        ap["position"] = list(BS_POSITIONS[ap["name"]])
    (x0, y0), (x1, y1) = BS_POSITIONS["bs0"], BS_POSITIONS["bs1"]
    n1x, n1y = BS_POSITIONS[n1_bs]
    where = {
        "n0": ("bs0", [x0, y0 + 10]),
        # beside BS1 on one side, or beside BS0 opposite n0
        "n1": (n1_bs, [n1x, n1y + 10] if n1_bs == "bs1" else [n1x, n1y - 10]),
        "n2": ("bs1", [x1, y1 - 10]),
        "n3": ("bs1", [x1, y1 + distance_m]),
    }
    for g in s["stations"]:
        g["ap"], g["position"] = where[g["name"]]
        g.pop("mobility", None)
        if g["name"] == "n3" and mobile:
            g["mobility"] = {"speed": "4 m/s", "start": f"{FTP_START_S:g} s",
                             "waypoints": [[x0, y0]]}  # fmt: skip


@functools.lru_cache(maxsize=1)
def _home() -> dict:
    """The example scenario, parsed once (every point of the campaigns starts from it)."""
    return load(str(HOME))


def scenario(
    variant: str,
    ifq: int,
    attempts: int,
    distance_m: float = 50.0,
    mobile: bool = False,
    reading: Reading = MAIN,
    profile: str = PROFILE,
) -> dict:
    """The home network with the FTP's TCP `variant`, every interface queue `ifq`
    packets, `attempts` per data frame, n3 `distance_m` from BS1 (static, or from there
    towards BS0 at 4 m/s from the FTP's start), n1's BS, the TCP window, the PHY and RTS
    of `reading`, under `profile` (ns-2's TCP parameters either way)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: one of {', '.join(VARIANTS)}")
    if reading.phy not in PHYS:
        raise ValueError(f"phy {reading.phy!r}: one of {', '.join(PHYS)}")
    s = copy.deepcopy(_home())
    s.pop("profile", None)
    s["name"] = (
        f"janevski2009-{variant}-ifq{ifq}-l{attempts}-{distance_m:g}m"
        + ("-mobile" if mobile else "")
        + f"-{reading.key}"
    )
    s["tcp"] = {**s["tcp"], "profile": "ns2-compat", "variant": variant, "rwnd": reading.window}
    s["mac"] = {**s["mac"], "long_retry_limit": attempts, "queue": ifq,
                "rts_threshold": 0 if reading.rts else "off"}  # fmt: skip
    s["aps"] = [{**ap, "queue": ifq} for ap in s["aps"]]
    standard, control = PHYS[reading.phy]
    s["phy"] = {**s["phy"], "standard": standard, "control_rate": control}
    s["stations"] = [dict(g) for g in s["stations"]]
    place(s, reading.n1_bs, distance_m, mobile)
    if mobile:
        s["output"] = {**s.get("output", {}), "series": ["position"], "series_interval": "1 s"}
    return with_profile(s, profile)


def parked_share(series: dict, name: str, target: tuple[float, float]) -> tuple[float, float]:
    """(share of the FTP's sampled seconds that station `name` stood at `target`, the
    first such second) from a run's ``position`` series (NaN, NaN without one)."""
    pos = series.get("position") or {}
    if f"{name}.x" not in pos:
        return math.nan, math.nan
    ts = [t for t in pos["t_s"] if FTP_START_S < t <= END_S]
    at = [
        t
        for t, x, y in zip(pos["t_s"], pos[f"{name}.x"], pos[f"{name}.y"])
        if FTP_START_S < t <= END_S and math.hypot(x - target[0], y - target[1]) < 1e-6
    ]
    return len(at) / len(ts), (min(at) if at else math.nan)


def run_case(scenario: dict, seed: int) -> dict:
    """Campaign run function: one simulation plus the study's metrics: ``ftp_mbps`` (the
    FTP's goodput over its 35-110 s), its mean RTT, timeouts, fast retransmits,
    retransmitted segments and drops; ``game_delay_ms`` / ``game_up_delay_ms`` (mean
    one-way delay A1 -> n1 and back), ``game_kbps`` and ``game_received`` (A1 -> n1 over
    10-110 s) and its drops; BS1's attempts, channel failures, retry and queue drops;
    ``queue_drops`` (packets a full queue dropped at any node: none means a larger IFQ
    changes nothing) and ``retry_drops`` (frames dropped at their attempt limit at any
    node: none means a larger limit changes nothing); for a moving n3 the share of the
    FTP it stood at BS0 (``n3_parked_share``) and from when; ``spatial_medium``: 1 when
    the run used the spatial medium (``meta.medium``), else 0."""
    out = run_scenario(scenario, seed)
    flows = {f["name"]: f for f in out["flows"]}
    nodes = {n["name"]: n for n in out["nodes"]}
    ftp, game, up = flows["ftp-0"], flows["game-down-0"], flows["game-up-0"]
    bs1 = nodes["bs1"]
    share, since = parked_share(out.get("series") or {}, "n3-0", BS_POSITIONS["bs0"])
    out["metrics"] = {
        "ftp_mbps": ftp["goodput_bps"] * END_S / (END_S - FTP_START_S) / 1e6,
        "ftp_rtt_ms": 1e3 * (ftp["rtt_mean_s"] or math.nan),
        "ftp_timeouts": ftp["timeouts"],
        "ftp_fast_retransmits": ftp["fast_retransmits"],
        "ftp_retransmissions": ftp["retransmissions"],
        "ftp_queue_drops": ftp["dropped_queue"],
        "ftp_retry_drops": ftp["dropped_retry"],
        "game_delay_ms": 1e3 * (game["delay_mean_s"] or math.nan),
        "game_up_delay_ms": 1e3 * (up["delay_mean_s"] or math.nan),
        "game_kbps": game["throughput_bps"] * END_S / (END_S - GAME_START_S) / 1e3,
        "game_received": game["delivered_packets"],
        "game_offered": game["offered_packets"],
        "game_queue_drops": game["dropped_queue"],
        "game_retry_drops": game["dropped_retry"],
        "bs1_attempts": bs1["attempts"],
        "bs1_successes": bs1["successes"],
        "bs1_frame_errors": bs1["frame_errors"],
        "bs1_retry_drops": bs1["retry_drops"],
        "bs1_queue_drops": bs1["queue_drops"],
        "bs0_queue_drops": nodes["bs0"]["queue_drops"],
        "queue_drops": sum(n["queue_drops"] for n in out["nodes"]),
        "retry_drops": sum(n["retry_drops"] for n in out["nodes"]),
        "n3_parked_share": share,
        "n3_parked_from_s": since,
        "spatial_medium": float(out["meta"]["medium"] == "spatial"),
    }
    # the per-packet tables and the series are read above; the store keeps the rest
    for key in ("packets", "packet_hops", "series"):
        out.pop(key, None)
    return out


METRICS = ("ftp_mbps", "ftp_rtt_ms", "ftp_timeouts", "ftp_fast_retransmits",
           "ftp_retransmissions", "ftp_queue_drops", "ftp_retry_drops", "game_delay_ms",
           "game_up_delay_ms", "game_kbps", "game_received", "game_offered",
           "game_queue_drops", "game_retry_drops", "bs1_attempts", "bs1_successes",
           "bs1_frame_errors", "bs1_retry_drops", "bs1_queue_drops", "bs0_queue_drops",
           "queue_drops", "retry_drops", "n3_parked_share", "n3_parked_from_s",
           "spatial_medium")  # fmt: skip


# --------------------------------------------------------------------------- the plan


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a run of the study simulates. ``reps_near``: seeds per point at 50 m;
    ``reps_far``: at 100 m and for the moving n3, whose frames are lost often (heavy
    losses: more seeds). ``readings``: every static case runs under each (the first is
    the main one); ``mobile_readings``: the moving n3's cases; ``table4_readings``:
    Table 4's cases only. ``ns2_*``: what ns-2.35 runs with ``--against ns2`` (the same
    seeds count): every static case of ``ns2_readings`` at ``ns2_distances`` and
    ``ns2_attempts``, the moving n3 under the main reading (``ns2_mobile``), Table 4's
    cases under ``ns2_table4``. :func:`run_ns2` leaves its tables in ``ns2_tables`` for
    the figures and sections."""

    quick: bool
    profile: str
    seed_base: int
    main: bool
    reps_near: int
    reps_far: int
    attempts: tuple[int, ...]
    readings: tuple[Reading, ...]
    mobile_readings: tuple[Reading, ...]
    table4_readings: tuple[Reading, ...]
    ns2_readings: tuple[Reading, ...] = ()
    ns2_distances: tuple[int, ...] = DISTANCES
    ns2_attempts: tuple[int, ...] = ATTEMPTS
    ns2_mobile: bool = False
    ns2_table4: tuple[Reading, ...] = ()
    ns2_tables: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, quick: bool, profile: str = PROFILE, seed_base: int = 1, main: bool = True):
        if quick:
            # Same run length and parameters as the full run for the cases kept: every
            # variant and IFQ at both distances with 3 and 4 attempts, fewer seeds; ns-2
            # on Table 4's cases (50 m, 3 attempts).
            return cls(True, profile, seed_base, main, 3, 3, (3, 4), (MAIN,), (), (),
                       ns2_readings=(MAIN,), ns2_distances=(50,), ns2_attempts=(3,))  # fmt: skip
        if not main:  # the other profile: every claim's cases, no sensitivity sweeps
            return cls(False, profile, seed_base, main, 5, 10, ATTEMPTS, (MAIN,), (MAIN,), ())
        # n1's BS only moves the game's packets, so the moving n3 (FTP claims) runs under
        # both windows with n1 where the main reading puts it.
        mobile = tuple(r for r in READINGS[:4] if r.n1_bs == MAIN.n1_bs)
        ns2_full = (MAIN, *COMBINED)
        return cls(False, profile, seed_base, main, 5, 10, ATTEMPTS, READINGS, mobile,
                   TABLE4_READINGS, ns2_readings=ns2_full, ns2_mobile=True,
                   ns2_table4=tuple(r for r in (*READINGS, *TABLE4_READINGS)
                                    if r not in ns2_full))  # fmt: skip

    def skips(self) -> list[str]:
        out = []
        if self.quick:
            out.append(
                f"quick mode: {self.reps_near} seeds per point (the full run: 5 at 50 m, 10 "
                "at 100 m and moving), MAC attempts "
                + ", ".join(map(str, self.attempts))
                + " only (claims that need 1 or 2 attempts are not run), no moving n3 "
                "(Figs 9-10 not run); ns-2.35 (with `--against ns2`) on Table 4's cases only"
            )
        missing = [r for r in READINGS if r not in self.readings]
        if missing:
            out.append(
                f"the readings other than the main one ({MAIN.label}): "
                + "; ".join(r.label for r in missing)
                + " (their verdicts are not shown)"
            )
        if self.main and not self.quick:
            out.append(
                "under the other profile: the main reading only (the readings are swept "
                "under the study's own profile); the moving n3 under the readings with n1 on "
                "BS1 only (its claims are not run under the others); ns-2.35 (with "
                "`--against ns2`): every case under "
                + "; ".join(r.label for r in self.ns2_readings)
                + ", the moving n3 under the main reading, Table 4's cases under every other "
                "reading"
            )
        if not self.table4_readings:
            out.append(
                "Table 4 under the other PHY timings, control rates and RTS settings (its "
                "readings are not run)"
            )
        return out


# --------------------------------------------------------------------------- the runs


def _points(plan: Plan) -> tuple[list[dict], list[dict]]:
    """The points with few seeds (50 m) and with many (100 m, moving)."""
    grid = [{"variant": v, "ifq": q, "attempts": a}
            for v in VARIANTS for q in IFQS for a in plan.attempts]  # fmt: skip
    table4 = [{"variant": v, "ifq": q, "attempts": 3} for v in VARIANTS for q in IFQS]
    near, far = [], []
    for r in plan.readings:
        base = {"reading": r.key, "case": "static"}
        near += [{**base, "distance": 50, **p} for p in grid]
        far += [{**base, "distance": 100, **p} for p in grid]
    for r in plan.table4_readings:
        near += [{"reading": r.key, "case": "static", "distance": 50, **p} for p in table4]
    for r in plan.mobile_readings:
        far += [{"reading": r.key, "case": "mobile", "distance": 50, **p} for p in grid]
    return near, far


def _ns2_points(plan: Plan) -> tuple[list[dict], list[dict]]:
    """ns-2.35's points (:class:`Plan`'s ``ns2_*``), with few seeds and with many."""
    grid = [{"variant": v, "ifq": q, "attempts": a}
            for v in VARIANTS for q in IFQS for a in plan.ns2_attempts]  # fmt: skip
    table4 = [{"variant": v, "ifq": q, "attempts": 3} for v in VARIANTS for q in IFQS]
    near, far = [], []
    for r in plan.ns2_readings:
        for d in plan.ns2_distances:
            points = [{"reading": r.key, "case": "static", "distance": d, **p} for p in grid]
            (near if d == 50 else far).extend(points)
    for r in plan.ns2_table4:
        near += [{"reading": r.key, "case": "static", "distance": 50, **p} for p in table4]
    if plan.ns2_mobile:
        far += [{"reading": MAIN.key, "case": "mobile", "distance": 50, **p} for p in grid]
    return near, far


def _scenario_of(p: dict, profile: str) -> dict:
    """The scenario of point `p` (reading key, case, distance, variant, IFQ, attempts)."""
    return scenario(p["variant"], p["ifq"], p["attempts"], p["distance"],
                    p["case"] == "mobile", ALL_READINGS[p["reading"]], profile)  # fmt: skip


#: the parameters whose larger values change a run only where the run reached the
#: smaller one, each with the counter that says it did: a drop-tail interface queue only
#: where it overflowed (``queue_drops``), the MAC's attempt limit only where a frame used
#: every attempt (``retry_drops``; the core reads the retry limits nowhere but there,
#: ``Entity::on_failure`` in mac/entity.rs)
SETTLES = (("ifq", "queue_drops"), ("attempts", "retry_drops"))
#: the columns that tell a point apart
POINT = ("reading", "case", "distance", "variant", "ifq", "attempts")


def _source(ran: list[tuple[dict, pd.DataFrame]], p: dict, settles) -> pd.DataFrame | None:
    """The runs (of `ran`: the values of `settles` they ran at, their rows) that point `p`
    would repeat: made at values no larger than `p`'s, and where a value is smaller, its
    counter is 0 in every run (the simulators are deterministic)."""
    for at, g in ran:
        if at != {k: p[k] for k, _ in settles} and all(
            at[k] == p[k] or (at[k] < p[k] and (g[counter] == 0).all()) for k, counter in settles
        ):
            return g
    return None


def run_grid(
    points: list[dict], run: Callable[[list[dict], str], pd.DataFrame], settles=SETTLES
) -> pd.DataFrame:
    """The runs of `points`, smallest IFQ and attempt limit first: ``run(points, tag)`` runs
    a set of points (every seed) and returns their rows (with the counters of `settles`:
    ``queue_drops``, packets a full queue dropped at any node; ``retry_drops``, frames
    dropped at their attempt limit). A case (the point but for the parameters of
    `settles`) whose runs dropped nothing from a full queue gives the same runs at every
    larger IFQ, and one whose runs dropped no frame at its attempt limit the same runs at
    every larger limit (:data:`SETTLES`): those rows are reused, with ``ifq`` and
    ``attempts`` set to the point's; ``ran_ifq`` and ``ran_attempts`` say where each row
    ran. The points of one value of each parameter of `settles` run together."""
    names = [k for k, _ in settles]
    case = [k for k in POINT if k not in names]
    frames = []
    ran: dict[tuple, list[tuple[dict, pd.DataFrame]]] = {}
    reused: list[tuple[dict, pd.DataFrame]] = []
    for at in sorted({tuple(p[k] for k in names) for p in points}):
        todo = []
        for p in (p for p in points if tuple(p[k] for k in names) == at):
            g = _source(ran.get(tuple(p[k] for k in case), []), p, settles)
            if g is None:
                todo.append(p)
            else:
                reused.append((p, g))
        if not todo:
            continue
        df = run(todo, f"ifq{todo[0]['ifq']}")
        df["ran_ifq"], df["ran_attempts"] = df["ifq"], df["attempts"]
        frames.append(df)
        for key, g in df.groupby(case, sort=False):
            ran.setdefault(key, []).append((dict(zip(names, at)), g))
    frames += [g.assign(ifq=p["ifq"], attempts=p["attempts"]) for p, g in reused]
    return pd.concat(frames, ignore_index=True)


def _campaign(points, reps, store, plan, run_fn, resolve_fn, base, jobs, progress, label,
              load_fn=None) -> pd.DataFrame:  # fmt: skip
    c = Campaign(base, points, reps=reps, store=store, seed=plan.seed_base, run_fn=run_fn,
                 resolve_fn=resolve_fn, load_fn=load_fn)  # fmt: skip
    c.run(jobs=jobs, progress=progress, label=label)
    df = c.results()
    asked_runs(store, df["key"])  # what a whole --against ns2 run packs (ns2/pack.py)
    failed = df[df["status"] != "ok"]
    if len(failed):
        raise RuntimeError(f"janevski2009: {len(failed)} runs failed: {failed['error'].iloc[0]}")
    return df


def _tables(runs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The per-run rows split as the claims read them: the main reading's static and
    moving cases (``static``, ``mobile``), the other readings' (``sweep_static``,
    ``sweep_mobile``), and Table 4's cases under its own readings (``table4_readings``)."""
    runs = runs.copy()
    runs["n1_bs"] = [ALL_READINGS[k].n1_bs for k in runs["reading"]]
    runs["window"] = [ALL_READINGS[k].window for k in runs["reading"]]
    runs["phy"] = [ALL_READINGS[k].phy for k in runs["reading"]]
    runs["rts"] = [int(ALL_READINGS[k].rts) for k in runs["reading"]]
    # every metric, NaN where the simulator does not count it (ns-2.35: retry_drops)
    cols = ["reading", "n1_bs", "window", "phy", "rts", "case", "distance", "variant", "ifq",
            "attempts", "ran_ifq", "ran_attempts", "seed", *METRICS]  # fmt: skip
    runs = runs.reindex(columns=cols).round(4)
    runs.attrs = {}  # pandas deep-copies attrs on every operation: the claims make many
    full = runs["reading"].isin([r.key for r in READINGS])
    main = runs["reading"] == MAIN.key
    static, mobile = runs["case"] == "static", runs["case"] == "mobile"
    tables = {
        "static": runs[main & static],
        "mobile": runs[main & mobile],
        "sweep_static": runs[~main & full & static],
        "sweep_mobile": runs[~main & full & mobile],
        "table4_readings": runs[~full],
    }
    return {k: t.reset_index(drop=True) for k, t in tables.items() if len(t)}


def run_experiments(
    out: Path, plan: Plan, jobs: int | None = None, progress: bool = False
) -> dict[str, pd.DataFrame]:
    """Every case of `plan`, as campaigns under ``out/campaigns`` (:func:`run_grid`); the
    tables the claims read (per-run rows, a ``seed`` column; :func:`_tables`), plus the
    summaries the report shows."""
    near, far = _points(plan)
    base = scenario("newreno", 50, 3, profile=plan.profile)

    def resolve(_base: dict, p: dict) -> dict:
        return _scenario_of(p, plan.profile)

    frames = []
    for name, points, reps in (("near", near, plan.reps_near), ("far", far, plan.reps_far)):
        if points:
            frames.append(run_grid(points, lambda pts, tag, name=name, reps=reps: _campaign(
                pts, reps, Path(out) / CAMPAIGNS_DIR / f"{name}-{tag}", plan, run_case,
                resolve, base, jobs, progress, f"janevski2009 {name} {tag} runs")))  # fmt: skip
    tables = _tables(pd.concat(frames, ignore_index=True))
    tables["ftp_summary"] = ftp_summary(tables)
    tables["table4"] = table4(tables)
    return tables


def run_ns2(
    out: Path, plan: Plan, jobs: int | None = None, progress: bool = False
) -> dict[str, pd.DataFrame]:
    """ns-2.35 on the cases of `plan` it runs (:class:`Plan`'s ``ns2_*``, every one of
    which stock ns-2.35 can express: :mod:`wlansim.evidence.ns2.janevski2009`), with the
    same seeds count, as campaigns under `out`: tables of the same names and columns as
    :func:`run_experiments`' (counters ns-2 has not are NaN); also left in
    ``plan.ns2_tables`` for the figures and sections."""
    from wlansim.evidence.ns2 import janevski2009 as ns2

    near, far = _ns2_points(plan)

    def resolve(_base: dict, p: dict) -> dict:
        return ns2.resolved(_scenario_of(p, "ns2"), END_S, FTP_START_S, GAME_START_S)

    frames = []
    for name, points, reps in (("near", near, plan.reps_near), ("far", far, plan.reps_far)):
        if points:
            # ns-2's runs count no frames dropped at their limit: the IFQ alone settles
            frames.append(run_grid(points, lambda pts, tag, name=name, reps=reps: _campaign(
                pts, reps, Path(out) / f"{name}-{tag}", plan, ns2.run, resolve,
                {"name": "janevski2009-ns2"}, jobs, progress,
                f"janevski2009 ns-2.35 {name} {tag} runs", load_fn=dict),
                SETTLES[:1]))  # fmt: skip
    tables = _tables(pd.concat(frames, ignore_index=True))
    tables["ftp_summary"] = ftp_summary(tables)
    tables["table4"] = table4(tables)
    plan.ns2_tables.update(tables)
    return tables


def readings(tables: dict[str, pd.DataFrame], plan: Plan) -> dict[str, dict[str, pd.DataFrame]]:
    """{label: the tables as if that reading were the main one}, for every other reading
    that ran: its static and moving cases, or Table 4's cases alone (the claims that need
    others are then not run under it)."""
    out = {}
    for r in (*READINGS[1:], *TABLE4_READINGS):
        view = {}
        for block, name in (("static", "sweep_static"), ("mobile", "sweep_mobile"),
                            ("static", "table4_readings")):  # fmt: skip
            t = tables.get(name)
            if t is not None and (t["reading"] == r.key).any():
                view[block] = t[t["reading"] == r.key].reset_index(drop=True)
        if view:
            out[r.label] = view
    return out


def _mean_ci(df: pd.DataFrame, by: list[str], col: str) -> pd.DataFrame:
    """Per group of `by`: the mean of `col` over the runs and its 95 % half-width."""
    rows = []
    for key, g in df.groupby(by, sort=True):
        e = mean_interval(Sample.of(list(g[col])))
        half = (e.high - e.low) / 2 if e.defined else math.nan
        rows.append({**dict(zip(by, key if isinstance(key, tuple) else (key,))),
                     col: e.value, f"{col}_ci95": half, "runs": len(g)})  # fmt: skip
    return pd.DataFrame(rows)


def ftp_summary(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The main reading's static cases: FTP goodput (mean, 95 % half-width) and the
    counters that tell what limits it."""
    s = tables.get("static")
    if s is None:
        return pd.DataFrame()
    by = ["distance", "variant", "ifq", "attempts"]
    t = _mean_ci(s, by, "ftp_mbps")
    counters = ["ftp_rtt_ms", "ftp_timeouts", "ftp_fast_retransmits", "ftp_retransmissions",
                "ftp_retry_drops", "bs1_queue_drops", "game_delay_ms"]  # fmt: skip
    return t.merge(s.groupby(by)[counters].mean().reset_index(), on=by)


def table4(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Game delay A1 -> n1 (ms) at 3 attempts and 50 m, per variant and IFQ, under every
    reading that was run: ours (mean, 95 % half-width) beside the paper's."""
    parts = [tables[k] for k in ("static", "sweep_static", "table4_readings") if k in tables]
    if not parts:
        return pd.DataFrame()
    runs = pd.concat(parts, ignore_index=True)
    runs = runs[(runs["distance"] == 50) & (runs["attempts"] == 3)]
    t = _mean_ci(runs, ["reading", "variant", "ifq"], "game_delay_ms")
    t["paper_ms"] = [TABLE4[v][IFQS.index(q)] for v, q in zip(t["variant"], t["ifq"])]
    t["diff_ms"] = t["game_delay_ms"] - t["paper_ms"]
    return t


# --------------------------------------------------------------------------- measuring


def _block(tables, block: str) -> pd.DataFrame:
    t = tables.get(block)
    if t is None or len(t) == 0:
        what = "moving-n3" if block == "mobile" else "static"
        raise NotRun(f"the {what} cases were not run in this plan")
    return t


#: {id(DataFrame): (weak reference to it, {query: Sample or NotRun})}: the claims, their
#: explanations and the readings' tables ask for the same pooled samples many times
_SAMPLES: dict[int, tuple[weakref.ref, dict]] = {}


def sample(tables, col: str = "ftp_mbps", block: str = "static", **where) -> Sample:
    """The replications of `col` at the cases `where` selects, pooled (mean per seed)
    over every axis it leaves open, which must have been run at all of the paper's
    values; NotRun names what is missing."""
    df = _block(tables, block)
    entry = _SAMPLES.get(id(df))
    if entry is None or entry[0]() is not df:
        key = id(df)
        entry = (weakref.ref(df, lambda _ref: _SAMPLES.pop(key, None)), {})
        _SAMPLES[key] = entry
    query = (col, block, tuple(sorted((k, str(v)) for k, v in where.items())))
    if query not in entry[1]:
        try:
            entry[1][query] = _pool(df, col, block, where)
        except NotRun as why:
            entry[1][query] = why
    found = entry[1][query]
    if isinstance(found, NotRun):
        raise found
    return found


def _pool(df: pd.DataFrame, col: str, block: str, where: dict) -> Sample:
    mask = pd.Series(True, index=df.index)
    for axis, every in AXES.items():
        if axis not in df.columns or (block == "mobile" and axis == "distance"):
            continue
        want = where.get(axis, every)
        want = tuple(want) if isinstance(want, (tuple, list)) else (want,)
        have = set(df[axis][mask].unique())
        missing = [w for w in want if w not in have]
        if missing:
            ran = ", ".join(str(v) for v in sorted(have))
            raise NotRun(
                f"{axis} {', '.join(str(m) for m in missing)} not run (this plan runs {ran})"
            )
        mask &= df[axis].isin(want)
    per_seed = df.loc[mask, col].groupby(df.loc[mask, "seed"]).mean()
    return Sample.of(list(per_seed.values), list(per_seed.index))


def _counter(tables, col: str, block: str = "static", **where) -> float:
    """The mean of counter `col` over the runs at `where` (NaN when not run)."""
    try:
        return sample(tables, col, block, **where).mean
    except NotRun:
        return math.nan


MS = Scale(relative=False, unit="ms", digits=2)


def _label(v: str) -> str:
    return {"newreno": "NewReno", "sack": "SACK"}.get(v, v.capitalize())


# --------------------------------------------------------------------------- setup checks


def _runs_at(tables, distance: int, attempts: int | None = None, ifq: int | None = None):
    s = tables.get("static")
    if s is None or not len(s):
        return None
    g = s[s["distance"] == distance]
    if attempts is not None:
        g = g[g["attempts"] == attempts]
    if ifq is not None:
        g = g[g["ifq"] == ifq]
    return g if len(g) else None


def _queues_never_full(distance: int, attempts: int | None = None) -> Callable[[dict], str]:
    """Setup check of an IFQ statement: with the smallest IFQ no queue overflowed in any
    run at `distance` (and `attempts`), so no larger IFQ can change a run."""

    def setup(tables) -> str:
        g = _runs_at(tables, distance, attempts, min(IFQS))
        if g is None or g["queue_drops"].sum() > 0:
            return ""
        where = f"{distance} m" + (f", {attempts} attempts" if attempts else "")
        return (
            f"no queue overflowed in any of the {len(g)} runs with IFQ {min(IFQS)} at {where} "
            f"(the FTP's window of {int(g['window'].iloc[0])} segments never filled one): "
            "no larger IFQ can change these runs, so they cannot show an IFQ's effect"
        )

    return setup


def _nothing_lost(distance: int, attempts: int | None = None) -> Callable[[dict], str]:
    """Setup check of a statement that ranks the loss-based variants (Tahoe, Reno,
    NewReno, SACK differ only in their loss recovery) or their IFQs: no FTP segment was
    retransmitted and no queue overflowed in any run at `distance` (and `attempts`)."""

    def setup(tables) -> str:
        g = _runs_at(tables, distance, attempts)
        if g is None or g["ftp_retransmissions"].sum() + g["queue_drops"].sum() > 0:
            return ""
        where = f"{distance} m" + (f", {attempts} attempts" if attempts else "")
        return (
            f"no FTP segment was retransmitted and no queue overflowed in any of the "
            f"{len(g)} runs at {where} (window {int(g['window'].iloc[0])} segments): the "
            "loss recovery in which Tahoe, Reno, NewReno and SACK differ never acted and no "
            "IFQ was ever full, so these runs cannot rank them"
        )

    return setup


# --------------------------------------------------------------------------- explanations


def _queue_explain(distance: int = 50) -> Callable[[dict, Outcome], str]:
    def explain(tables, outcome: Outcome) -> str:
        lo = _counter(tables, "queue_drops", distance=distance, ifq=min(IFQS))
        hi = _counter(tables, "queue_drops", distance=distance, ifq=max(IFQS))
        rtt = _counter(tables, "ftp_rtt_ms", distance=distance)
        if math.isnan(lo):
            return ""
        w = tables["static"]["window"].iloc[0]
        return (
            f"At {distance} m full queues dropped {lo:.1f} packets per run with IFQ "
            f"{min(IFQS)} and {hi:.1f} with IFQ {max(IFQS)}; the FTP's window is {w} "
            f"segments and its mean RTT {rtt:.0f} ms."
        )

    return explain


def _radio_explain(tables, outcome: Outcome) -> str:
    parts = []
    for d in DISTANCES:
        att = _counter(tables, "bs1_attempts", distance=d)
        err = _counter(tables, "bs1_frame_errors", distance=d)
        drops = _counter(tables, "bs1_retry_drops", distance=d)
        if not math.isnan(att) and att > 0:
            parts.append(
                f"at {d} m {100 * err / att:.1f} % of BS1's attempts failed on the channel "
                f"and it gave up {drops:.0f} frames per run after the last attempt"
            )
        elif not math.isnan(drops):
            parts.append(f"at {d} m BS1 gave up {drops:.0f} frames per run after the last attempt")
    return ("Counters: " + "; ".join(parts) + ".") if parts else ""


def _game_explain(tables, outcome: Outcome) -> str:
    s = tables.get("static")
    if s is None or not len(s):
        return ""
    bs = s["n1_bs"].iloc[0].upper()
    parts = []
    for d in DISTANCES:
        qd = _counter(tables, "game_queue_drops", distance=d)
        rd = _counter(tables, "game_retry_drops", distance=d)
        if not math.isnan(qd):
            parts.append(
                f"at {d} m {qd:.1f} game packets per run were dropped from a full queue and "
                f"{rd:.1f} after the last attempt"
            )
    return (f"n1 is served by {bs}; " + "; ".join(parts) + ".") if parts else ""


def _parked_explain(tables, outcome: Outcome) -> str:
    share = _counter(tables, "n3_parked_share", block="mobile")
    since = _counter(tables, "n3_parked_from_s", block="mobile")
    if math.isnan(share):
        return ""
    return (
        f"n3 reached BS0 (100 m from BS1, its AP) at {since:.0f} s and stood there for "
        f"{100 * share:.0f} % of the FTP's 75 s."
    )


# --------------------------------------------------------------------------- claims


def _beats(
    claimed: str,
    others: Iterable[str],
    measure_one: Callable[[dict, str], Sample],
    higher: bool,
    a: str,
    b: str,
    over: str,
) -> tuple[Every, Callable[[dict], dict]]:
    """The rule "`claimed` beats each of `others` by more than RISE" (higher or lower is
    better) and its measure."""
    rule = Every(Compare(a, b, ">" if higher else "<", RISE if higher else -RISE), over)
    others = tuple(others)

    def measure(tables):
        mine = measure_one(tables, claimed)
        return {o: (mine, measure_one(tables, o)) for o in others}

    return rule, measure


def _variant_leads(
    variant: str, measure_one: Callable[[dict, str], Sample], higher: bool
) -> tuple[Every, Callable[[dict], dict]]:
    """The rule "`variant` is the best (worst) of the five" (it beats each other variant
    by more than RISE) and its measure."""
    others = [v for v in VARIANTS if v != variant]
    return _beats(variant, others, measure_one, higher, f"{_label(variant)}'s goodput",
                  "that variant's", "variant")  # fmt: skip


def _test(label: str, rule_measure: tuple, kind: str = "simulation", paper: str = "") -> Test:
    rule, measure = rule_measure
    return Test(label, rule, measure, kind, paper)


#: Figs 2-3: Tahoe's and NewReno's throughput
FIG23 = ("tahoe", "newreno")


def _claims() -> list[Claim]:
    out: list[Claim] = []
    add = out.append

    # ---- Figs 2-3 (Tahoe, NewReno): curves per distance and IFQ, against the attempts
    add(Claim(
        "figs23-ifq-overlap-100m", "§4, Figs 2-3",
        "Tahoe and NewReno at 100 m: the IFQ does not impact the throughput at any number "
        "of retransmissions (the curves overlap)",
        Every(Within("FTP goodput with IFQ 100", "with IFQ 25", SAME), "variant, attempts"),
        lambda t: {f"{_label(v)}, {a} attempts": (
            sample(t, distance=100, variant=v, ifq=100, attempts=a),
            sample(t, distance=100, variant=v, ifq=25, attempts=a))
            for v in FIG23 for a in ATTEMPTS},
        explain=_queue_explain(100),
    ))  # fmt: skip
    add(Claim(
        "figs23-retx-up", "§4, Figs 2-3",
        "Tahoe and NewReno: more MAC retransmissions give more throughput, the best at 4, "
        "at both distances",
        Every(Trend("FTP goodput", "MAC attempts", "up", margin=RISE), "variant, distance"),
        lambda t: {f"{_label(v)}, {d} m": [(a, sample(t, distance=d, variant=v, attempts=a))
                                           for a in ATTEMPTS]
                   for v in FIG23 for d in DISTANCES},
        explain=_radio_explain,
    ))  # fmt: skip
    add(Claim(
        "figs23-ifq-drastic-50m", "§4, Figs 2-3",
        "Tahoe and NewReno at 50 m: the IFQ drastically impacts the throughput, a larger "
        f"queue giving more (IFQ 100 more than {100 * DRASTIC:.0f} % above IFQ 25)",
        Every(Compare("FTP goodput with IFQ 100", "with IFQ 25", ">", DRASTIC), "variant"),
        lambda t: {_label(v): (sample(t, distance=50, variant=v, ifq=100),
                               sample(t, distance=50, variant=v, ifq=25)) for v in FIG23},
        explain=_queue_explain(), setup=_queues_never_full(50),
    ))  # fmt: skip
    add(Claim(
        "figs23-3eq4-50m", "§4, Figs 2-3",
        "Tahoe and NewReno at 50 m: 3 and 4 retransmissions give the same throughput for "
        "each IFQ",
        Every(Within("FTP goodput with 4 attempts", "with 3", SAME), "variant, IFQ"),
        lambda t: {f"{_label(v)}, IFQ {q}": (
            sample(t, distance=50, variant=v, ifq=q, attempts=4),
            sample(t, distance=50, variant=v, ifq=q, attempts=3))
            for v in FIG23 for q in IFQS},
    ))  # fmt: skip
    add(Claim(
        "figs23-ifq100-best-50m", "§4, Figs 2-3",
        "Tahoe and NewReno at 50 m: IFQ 100 gives the best throughput",
        Every(Compare("FTP goodput with IFQ 100", "with that IFQ", ">", RISE), "variant, IFQ"),
        lambda t: {f"{_label(v)}, IFQ {q}": (sample(t, distance=50, variant=v, ifq=100),
                                             sample(t, distance=50, variant=v, ifq=q))
                   for v in FIG23 for q in (25, 50)},
        explain=_queue_explain(), setup=_queues_never_full(50),
    ))  # fmt: skip

    # ---- §4 summary paragraph: every variant
    add(Claim(
        "sum-trends", "§4 summary",
        "For every variant the throughput rises with the number of MAC retransmissions (the "
        "highest with four) and with the IFQ (at 50 m), and falls with the distance",
        Every(Trend("FTP goodput", "MAC attempts", "up", margin=RISE), "variant, distance"),
        lambda t: {f"{_label(v)}, {d} m": [(a, sample(t, distance=d, variant=v, attempts=a))
                                           for a in ATTEMPTS]
                   for v in VARIANTS for d in DISTANCES},
        also=(
            Test("IFQ", Every(Trend("FTP goodput", "IFQ (packets)", "up", margin=RISE),
                              "variant"),
                 lambda t: {_label(v): [(q, sample(t, distance=50, variant=v, ifq=q))
                                        for q in IFQS] for v in VARIANTS}, "simulation"),
            Test("distance", Every(Compare("FTP goodput at 100 m", "at 50 m", "<", -RISE),
                                   "variant"),
                 lambda t: {_label(v): (sample(t, distance=100, variant=v),
                                        sample(t, distance=50, variant=v))
                            for v in VARIANTS}, "simulation"),
        ),
        explain=_radio_explain,
    ))  # fmt: skip
    add(Claim(
        "sum-distance-drastic", "§4 summary",
        "Drastically lower throughput at 100 m than at 50 m, for every variant (more than "
        f"{100 * DRASTIC:.0f} % lower)",
        Every(Compare("FTP goodput at 100 m", "at 50 m", "<", -DRASTIC), "variant"),
        lambda t: {_label(v): (sample(t, distance=100, variant=v),
                               sample(t, distance=50, variant=v)) for v in VARIANTS},
        explain=_radio_explain,
    ))  # fmt: skip
    add(Claim(
        "sum-ifq-none-100m", "§4 summary",
        "At 100 m the queue size does not impact the throughput, for every variant",
        Every(Within("FTP goodput with IFQ 100", "with IFQ 25", SAME), "variant"),
        lambda t: {_label(v): (sample(t, distance=100, variant=v, ifq=100),
                               sample(t, distance=100, variant=v, ifq=25)) for v in VARIANTS},
        explain=_queue_explain(100),
    ))  # fmt: skip
    add(Claim(
        "sum-3eq4-50m", "§4 summary, Fig 4",
        "At 50 m 3 and 4 MAC retransmissions give nearly the same throughput for every "
        "variant and IFQ",
        Every(Within("FTP goodput with 4 attempts", "with 3", SAME), "variant, IFQ"),
        lambda t: {f"{_label(v)}, IFQ {q}": (sample(t, distance=50, variant=v, ifq=q, attempts=4),
                                             sample(t, distance=50, variant=v, ifq=q, attempts=3))
                   for v in VARIANTS for q in IFQS},
    ))  # fmt: skip

    # ---- Fig 4: 50 m
    add(Claim(
        "fig4-3-beats-2", "§4, Fig 4",
        "At 50 m the best throughput needs three or more MAC retransmissions (3 beats 2)",
        Compare("FTP goodput with 3 attempts", "with 2", ">", RISE),
        lambda t: (sample(t, distance=50, attempts=3), sample(t, distance=50, attempts=2)),
        explain=_radio_explain,
    ))  # fmt: skip

    def at50(t, v, q=IFQS):
        return sample(t, distance=50, attempts=3, variant=v, ifq=q)

    add(Claim(
        "fig4-sack-best", "§4, Fig 4",
        "50 m, 3 retransmissions: SACK gives the best throughput",
        *_variant_leads("sack", at50, True), setup=_nothing_lost(50, 3),
    ))  # fmt: skip
    cells = [f"{_label(v)}/IFQ {q}" for v in VARIANTS for q in IFQS]

    def cell50(t, c):
        v, q = c.split("/IFQ ")
        return at50(t, next(x for x in VARIANTS if _label(x) == v), int(q))

    add(Claim(
        "fig4-tahoe100-second", "§4, Fig 4",
        "50 m, 3 retransmissions: Tahoe with IFQ 100 is the second best case (it beats "
        "every case of the other variants but SACK, and Tahoe's smaller IFQs)",
        *_beats("Tahoe/IFQ 100",
                [c for c in cells if not c.startswith("SACK") and c != "Tahoe/IFQ 100"],
                cell50, True, "Tahoe/IFQ 100's goodput", "that case's", "case"),
        setup=_nothing_lost(50, 3),
    ))  # fmt: skip
    add(Claim(
        "fig4-tahoe25-worst", "§4, Fig 4",
        "50 m, 3 retransmissions: Tahoe with IFQ 25 is the worst of all cases",
        *_beats("Tahoe/IFQ 25", [c for c in cells if c != "Tahoe/IFQ 25"], cell50, False,
                "Tahoe/IFQ 25's goodput", "that case's", "case"),
        explain=_queue_explain(), setup=_nothing_lost(50, 3),
    ))  # fmt: skip
    add(Claim(
        "fig4-newreno-reno", "§4, Fig 4",
        "50 m, 3 retransmissions: NewReno is slightly better than Reno",
        Compare("NewReno's goodput", "Reno's", ">", 0.0),
        lambda t: (at50(t, "newreno"), at50(t, "reno")),
    ))  # fmt: skip
    add(Claim(
        "fig4-vegas", "§4, Fig 4",
        "50 m, 3 retransmissions: Vegas is the worst variant, but for IFQ 25, where it is "
        "second best, after SACK",
        Every(Compare("Vegas's goodput", "that variant's", "<", -RISE), "IFQ, variant"),
        lambda t: {f"IFQ {q}, {_label(v)}": (at50(t, "vegas", q), at50(t, v, q))
                   for q in (50, 100) for v in VARIANTS if v != "vegas"},
        also=(_test("IFQ 25: second after SACK",
                    _beats("vegas", ("tahoe", "reno", "newreno"), lambda t, v: at50(t, v, 25),
                           True, "Vegas's goodput", "that variant's", "variant")),),
    ))  # fmt: skip

    # ---- Fig 5: 100 m ("for average of four MAC retransmissions": mean over 1-4)
    def at100(t, v, q=IFQS, a=ATTEMPTS):
        return sample(t, distance=100, variant=v, ifq=q, attempts=a)

    add(Claim(
        "fig5-4-needed", "§4, Fig 5",
        "At 100 m four MAC retransmissions are needed for the maximum (4 beats 3), for "
        "every variant",
        Every(Compare("FTP goodput with 4 attempts", "with 3", ">", RISE), "variant"),
        lambda t: {_label(v): (at100(t, v, a=4), at100(t, v, a=3)) for v in VARIANTS},
        explain=_radio_explain,
    ))  # fmt: skip
    add(Claim(
        "fig5-longer-more", "§4, Fig 5",
        "The longer the distance, the more a 4th attempt adds (its gain larger at 100 m "
        "than at 50 m)",
        Compare("the gain of the 4th attempt at 100 m", "at 50 m", ">", 0.0,
                Scale(relative=False, unit="points", factor=100)),
        lambda t: tuple(
            Sample.of(
                [a / b - 1 for a, b in zip(sample(t, distance=d, attempts=4).values,
                                           sample(t, distance=d, attempts=3).values)],
                sample(t, distance=d, attempts=3).seeds,
            )
            for d in (100, 50)
        ),
    ))  # fmt: skip
    add(Claim(
        "fig5-sack-best", "§4, Fig 5",
        "100 m: SACK gives the best throughput (mean over 1-4 retransmissions)",
        *_variant_leads("sack", at100, True),
    ))  # fmt: skip
    add(Claim(
        "fig5-reno-second", "§4, Fig 5",
        "100 m: Reno is second best (after SACK), but for IFQ 25, where NewReno and Tahoe "
        "give more throughput than Reno",
        Every(Compare("Reno's goodput", "that variant's", ">", RISE), "IFQ, variant"),
        lambda t: {f"IFQ {q}, {_label(v)}": (at100(t, "reno", q), at100(t, v, q))
                   for q in (50, 100) for v in ("tahoe", "newreno", "vegas")},
        also=(Test("IFQ 25: NewReno and Tahoe over Reno",
                   Every(Compare("that variant's goodput", "Reno's", ">", RISE), "variant"),
                   lambda t: {_label(v): (at100(t, v, 25), at100(t, "reno", 25))
                              for v in ("newreno", "tahoe")}, "simulation"),),
    ))  # fmt: skip
    add(Claim(
        "fig5-vegas-worst", "§4, Fig 5",
        "100 m: Vegas gives the worst throughput (mean over 1-4 retransmissions)",
        *_variant_leads("vegas", at100, False),
    ))  # fmt: skip
    add(Claim(
        "fig5-at-3", "§4, Fig 5",
        "100 m, 3 retransmissions: Vegas gives the best throughput and Tahoe the worst",
        *_variant_leads("vegas", lambda t, v: at100(t, v, a=3), True),
        also=(_test("Tahoe worst",
                    _variant_leads("tahoe", lambda t, v: at100(t, v, a=3), False)),),
    ))  # fmt: skip

    # ---- Figs 6-7: the game's throughput and received packets, retx > 2
    def spread(col: str):
        def measure(t):
            out = {}
            for d in DISTANCES:
                for q in IFQS:
                    for a in (3, 4):
                        per = {
                            v: sample(t, col, distance=d, ifq=q, attempts=a, variant=v)
                            for v in VARIANTS
                        }
                        hi = max(per, key=lambda v: per[v].mean)
                        lo = min(per, key=lambda v: per[v].mean)
                        out[f"{d} m, IFQ {q}, {a} attempts"] = (per[hi], per[lo])
            return out

        return measure

    add(Claim(
        "fig6-game-constant", "§4, Fig 6",
        "The game's throughput A1 → n1 is the same for every TCP variant when the MAC "
        "makes more than two retransmissions, in every scenario",
        Every(Within("the highest variant's game throughput", "the lowest's", SAME),
              "scenario"),
        spread("game_kbps"),
        explain=_game_explain,
    ))  # fmt: skip
    add(Claim(
        "fig7-game-received-constant", "§4, Fig 7",
        "The game's received packets are the same for every TCP variant when the MAC "
        "makes more than two retransmissions, in every scenario",
        Every(Within("the highest variant's received game packets", "the lowest's", SAME),
              "scenario"),
        spread("game_received"),
        explain=_game_explain,
    ))  # fmt: skip

    # ---- Fig 8 and Table 4: the game's delay
    def delay50(t, v, q=IFQS):
        return sample(t, "game_delay_ms", distance=50, attempts=3, variant=v, ifq=q)

    lo, hi = min(min(x) for x in TABLE4.values()), max(max(x) for x in TABLE4.values())
    cells = tuple(
        Test(f"{_label(v)}/IFQ {q}",
             PaperValue("our game delay", TABLE4[v][i], tol=TABLE4_READING_MS, scale=MS),
             lambda t, v=v, q=q: delay50(t, v, q), paper=f"{TABLE4[v][i]:.4f} ms")
        for v in VARIANTS for i, q in enumerate(IFQS)
    )  # fmt: skip
    add(Claim(
        "table4", "Table 4",
        "Table 4: the game's mean delay A1 → n1 (3 retransmissions, n3 50 m from BS1) per "
        f"variant and IFQ, {lo:.2f}-{hi:.2f} ms; it rises with the IFQ for the loss-based "
        "variants and does not depend on it with Vegas",
        InRange("our game delay (mean over the table's cases)", lo, hi, MS),
        lambda t: delay50(t, VARIANTS),
        kind="simulation vs paper", paper=f"{lo:.4f}-{hi:.4f} ms",
        also=(
            *cells,
            Test("rises with the IFQ (loss-based)",
                 Every(Trend("game delay", "IFQ (packets)", "up", margin=RISE), "variant"),
                 lambda t: {_label(v): [(q, delay50(t, v, q)) for q in IFQS]
                            for v in ("tahoe", "reno", "newreno", "sack")},
                 "simulation vs paper", "+0.47 to +0.81 ms from IFQ 25 to 100"),
            Test("Vegas flat", Trend("game delay with Vegas", "IFQ (packets)", "flat",
                                     tol=RISE),
                 lambda t: [(q, delay50(t, "vegas", q)) for q in IFQS],
                 "simulation vs paper", "21.0952 ms at every IFQ"),
        ),
    ))  # fmt: skip
    add(Claim(
        "fig8-falls-with-ifq", "§4, Fig 8",
        "Lower game delays are obtained for larger IFQs (the text; Table 4 shows the "
        "opposite)",
        Every(Trend("game delay", "IFQ (packets)", "down", margin=-RISE), "distance"),
        lambda t: {d: [(q, sample(t, "game_delay_ms", distance=d, ifq=q)) for q in IFQS]
                   for d in DISTANCES},
        explain=_game_explain,
    ))  # fmt: skip

    def delay_at(t, d, a, q=IFQS):
        return sample(t, "game_delay_ms", distance=d, attempts=a, ifq=q)

    def lowest(best: int, q=IFQS):
        return (
            Every(Compare(f"game delay with {best} attempts", "with that number", "<", -RISE),
                  "distance, attempts"),
            lambda t: {f"{d} m, {a}": (delay_at(t, d, best, q), delay_at(t, d, a, q))
                       for d in DISTANCES for a in ATTEMPTS if a != best},
        )  # fmt: skip

    add(Claim(
        "fig8-retx-by-ifq", "§4, Fig 8",
        "For the smallest IFQ (25) three MAC retransmissions give the lowest game delay, "
        "for the largest (100) two, at both distances",
        *lowest(3, 25),
        also=(_test("IFQ 100: two attempts lowest", lowest(2, 100)),),
        explain=_game_explain,
    ))  # fmt: skip
    add(Claim(
        "fig8-optimal-2", "§4, Fig 8",
        "For the game the optimal number of MAC retransmissions is two, independently of "
        "the distance (the same results at 50 and 100 m)",
        *lowest(2),
        also=(Test("the same at both distances",
                   Within("game delay at 100 m", "at 50 m", SAME),
                   lambda t: (sample(t, "game_delay_ms", distance=100),
                              sample(t, "game_delay_ms", distance=50)), "simulation"),),
        explain=_game_explain,
    ))  # fmt: skip

    # ---- Figs 9-10: n3 moving towards BS0 at 4 m/s
    def mob(t, v=VARIANTS, q=IFQS, a=ATTEMPTS):
        return sample(t, block="mobile", variant=v, ifq=q, attempts=a)

    add(Claim(
        "fig9-retx-up", "§4, Fig 9",
        "Moving n3: more MAC retransmissions give more throughput",
        Trend("FTP goodput", "MAC attempts", "up", margin=RISE),
        lambda t: [(a, mob(t, a=a)) for a in ATTEMPTS],
        explain=_parked_explain,
    ))  # fmt: skip
    add(Claim(
        "fig9-optimum-3", "§4, Fig 9",
        "Moving n3: the optimum is three MAC retransmissions (a 4th adds nothing)",
        Within("FTP goodput with 4 attempts", "with 3", SAME),
        lambda t: (mob(t, a=4), mob(t, a=3)),
        explain=_parked_explain,
    ))  # fmt: skip
    add(Claim(
        "fig10-sack-best", "§4, Fig 10",
        "Moving n3, 3 retransmissions: SACK gives the best throughput",
        *_variant_leads("sack", lambda t, v: mob(t, v, a=3), True),
        explain=_parked_explain,
    ))  # fmt: skip
    add(Claim(
        "fig10-vegas-worst", "§4, Fig 10",
        "Moving n3, 3 retransmissions: Vegas gives the worst throughput",
        *_variant_leads("vegas", lambda t, v: mob(t, v, a=3), False),
        explain=_parked_explain,
    ))  # fmt: skip

    # ---- §5 conclusions and the abstract
    add(Claim(
        "abstract-mac-impact", "Abstract, §5",
        "The MAC parameters strongly impact the throughput: the number of retransmissions "
        f"and the interface queue length each change it by more than {100 * DRASTIC:.0f} % "
        "(4 against 1 attempt, IFQ 100 against 25, over every other case)",
        Compare("FTP goodput with 4 attempts", "with 1", ">", DRASTIC),
        lambda t: (sample(t, attempts=4), sample(t, attempts=1)),
        also=(Test("IFQ", Compare("FTP goodput with IFQ 100", "with IFQ 25", ">", DRASTIC),
                   lambda t: (sample(t, ifq=100), sample(t, ifq=25)), "simulation"),),
        explain=_radio_explain,
    ))  # fmt: skip
    add(Claim(
        "concl-best-setup", "§5",
        "For TCP the optimal number of MAC retransmissions is three (a 4th adds nothing) "
        "and the MAC queue size is 50 packets for most cases, at both distances",
        Every(Within("FTP goodput with 4 attempts", "with 3", SAME), "distance"),
        lambda t: {d: (sample(t, distance=d, attempts=4), sample(t, distance=d, attempts=3))
                   for d in DISTANCES},
        also=(Test("IFQ 50 best",
                   Every(Compare("FTP goodput with IFQ 50", "with that IFQ", ">", RISE),
                         "distance, IFQ"),
                   lambda t: {f"{d} m, IFQ {q}": (sample(t, distance=d, ifq=50),
                                                  sample(t, distance=d, ifq=q))
                              for d in DISTANCES for q in (25, 100)}, "simulation"),),
        explain=_radio_explain,
    ))  # fmt: skip
    add(Claim(
        "concl-sack-mobile", "§5",
        "Moving n3: SACK gives the best throughput (over every retransmission limit and IFQ)",
        *_variant_leads("sack", lambda t, v: mob(t, v), True),
        explain=_parked_explain,
    ))  # fmt: skip
    add(Claim(
        "concl-sack-overall", "§5",
        "SACK gives the best performance overall (static n3, every case, both distances)",
        Every(Compare("SACK's goodput", "that variant's", ">", RISE), "distance, variant"),
        lambda t: {f"{d} m, {_label(v)}": (sample(t, distance=d, variant="sack"),
                                           sample(t, distance=d, variant=v))
                   for d in DISTANCES for v in VARIANTS if v != "sack"},
    ))  # fmt: skip

    # ---- §3: the queue-sizing rule
    add(Claim(
        "sizing-rule", "§3",
        "The queue size is the longest RTT times the smallest capacity on the path (20 "
        "Mb/s): with the FTP's measured RTT the rule gives a size within Table 3's IFQs "
        "(25-100 packets of 552 B)",
        InRange("RTT × 20 Mb/s in packets of 552 B", 25, 100,
                Scale(relative=False, unit="packets", digits=0)),
        _sizing,
        paper="25, 50, 100 packets",
    ))  # fmt: skip
    return out


def _sizing(tables) -> Sample:
    """Per seed: the FTP's mean RTT (the longest path, A3 → n3) at 50 m, 3 attempts, times
    20 Mb/s, in packets of 512 + 40 bytes."""
    rtt = sample(tables, "ftp_rtt_ms", distance=50, attempts=3)
    return Sample.of([r / 1e3 * 20e6 / 8 / 552 for r in rtt.values], rtt.seeds)


CLAIMS = _claims()
#: the paper's main conclusions (abstract, §5)
HEADLINE = ("abstract-mac-impact", "concl-best-setup", "concl-sack-overall", "concl-sack-mobile")


# --------------------------------------------------------------------------- ns-2.35

#: What differs between wlansim and ns-2.35 on a statement's cases, and why (the
#: conclusion names it where the two simulators' verdicts part; measured in the report's
#: "ns-2.35 beside wlansim" section).
_DSDV = (
    "at 100 m ns-2.35's DSDV (the routing of its wired-cum-wireless base stations) now and "
    "then routes the FTP through n1 or n0 for a while, when BS1 misses n3's own route "
    "update (lost to shadowing) and hears a fresher one relayed by a station (counted with "
    "ns-2's router trace: 0-10 % of the segments BS1 forwarded in a run, two lossy hops "
    "each); wlansim's stations keep their BS and every frame goes one hop (the profile "
    "models DSDV's 20-byte header, not its routes), so the FTP gets about a tenth more at "
    "100 m in wlansim"
)
_VEGAS = (
    "ns-2.35's Vegas sends its segments without the 40-byte TCP/IP header "
    "(`VegasTcpAgent::output` never adds `headersize()`): 7 % less on the air per segment, "
    "which wlansim's Vegas, whose segments carry their header, does not copy"
)
_RTT = (
    "ns-2.35's RTT here is its smoothed RTT (`srtt_`, in eighths of its 10 ms tick, sampled "
    "every second of the FTP), wlansim's the mean of its RTT samples: the same runs' delays "
    "read two ways"
)
DIFFERENCES = {
    "sizing-rule": _RTT,
    **{cid: _DSDV for cid in ("fig5-4-needed", "fig5-sack-best", "fig5-reno-second",
                              "fig5-vegas-worst", "fig5-at-3", "sum-distance-drastic",
                              "fig10-sack-best", "fig10-vegas-worst", "concl-sack-mobile",
                              "fig9-optimum-3", "fig9-retx-up")},
    **{cid: _VEGAS for cid in ("fig4-vegas",)},
}  # fmt: skip


# --------------------------------------------------------------------------- parameters

PARAMETERS = [
    ("simulator", "ns-2.28", "ns-2.35's MAC and TCP rules (`profile = \"ns2\"`); ns-2.35 "
     "itself beside (`--against ns2`)",
     "the reference ns-2 we validate against; the standard's rules are the other profile"),
    ("BS0, BS1 positions", "not given (Fig 1 has no coordinates)",
     "(0, 0) and (100, 0), one channel",
     "ns-2's wireless examples put every node on one channel; at 914 MHz with β 2.7 a "
     "frame is sensed to about 423 m (notes G6)"),
    ("n0, n2", "n0 receives the movie from BS0; BSs of n2 not given",
     "n0 10 m from BS0, n2 10 m from BS1", "notes G6, chosen before any run"),
    ("n1's BS", "not given",
     f"{MAIN.n1_bs.upper()} (10 m away); BS0 swept, every claim shown under both",
     "notes G6, chosen before any run; it decides whether the game shares a queue with "
     "the FTP"),
    ("n3", "50 or 100 m from BS1 (captions of Figs 4-5, Table 4)",
     "on BS1's side away from the others, 50 or 100 m from BS1", "the captions"),
    ("mobility path", "n3 moves toward BS0 at 4 m/s; start, end not given",
     "from 50 m off BS1 straight to BS0 from 35 s, then still; stays with BS1",
     "ns-2.28 had no 802.11 hand-off (G8); the report measures how long n3 stands at BS0"),
    ("'802.11g at an effective 20 Mb/s': timing and control rate", "20 Mb/s instead of 54",
     "data at 20 Mb/s with DSSS timing (`nonstandard_rate`), control frames at 1 Mb/s; "
     "control frames at 20 Mb/s and OFDM timing (6 Mb/s) swept",
     "ns-2.28 had no OFDM PHY; its Mac/802_11 takes any dataRate_, its basicRate_ is 1 Mb/s "
     "(G1)"),
    ("RTS/CTS", "not given", "before every frame; off swept",
     "ns-2's default RTSThreshold_ 0 (G2)"),
    ("'MAC retransmissions' 1-4", "default 4",
     "attempts per data frame (LongRetryLimit_ 1-4), RTS 7",
     "ns-2 drops at count ≥ limit: L attempts (G3)"),
    ("radio", "shadowing, β 2.7, σ 4 dB",
     "914 MHz, 0.2818 W, RXThresh 3.652e-10 W, CSThresh 1.559e-11 W, d0 1 m; every frame "
     "drawn at every node that may hear it", "ns-2's defaults and `Shadowing::Pr` (G4, G5)"),
    ("TCP window", "not given",
     f"{MAIN.window} segments; 128 swept, every claim shown under both",
     "ns-2's window_ default (G9)"),
    ("TCP segments", "512 B", "512 B + 40 B of headers, no delayed ACK",
     "ns-2's tcpip_base_hdr_size_ and TCPSink (G13)"),
    ("traces", "MPEG-4 Star Wars IV (high), H.263 Lecture Room (VBR)",
     "synthetic, with the published mean and peak rates, from a random frame (ns-2.35: the "
     "same frames as its binary records)",
     "the TKN files are not shipped (G16); the real ones can be dropped in"),
    ("UDP packets", "game 42 B / 60 ms up, 200 B / 50 ms down",
     "1000 B fragments for movie and chat; game sizes as given, + 28 B UDP/IP header",
     "ns-2's packetSize_ (G11, G12)"),
    ("IFQ", "25, 50, 100 ('MAC queue size')", "the same at every node", "Table 3"),
    ("replications", "not given (one run per point, presumably)",
     "5 seeds per point at 50 m, 10 at 100 m and for the moving n3; paired across "
     "variants, IFQs and readings; ns-2.35 the same seeds count", "issue 26"),
]  # fmt: skip


# --------------------------------------------------------------------------- figures


COLOURS = dict(zip(VARIANTS, ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple")))
#: the row of ns-2.35's runs in the figures
NS2_ROW = "ns-2.35"


def _point_stats(df: pd.DataFrame, by: list[str], col: str) -> pd.DataFrame:
    return _mean_ci(df, by, col) if len(df) else pd.DataFrame(columns=[*by, col, f"{col}_ci95"])


def _readings_runs(tables, block: str, plan: Plan | None = None) -> dict[str, pd.DataFrame]:
    """{reading key: its runs} for the static or moving cases of every reading that ran
    on the whole grid, the main reading first, and ns-2.35's main reading last (when
    `plan` holds its runs)."""
    out = {}
    main = tables.get(block)
    if main is not None:
        out[MAIN.key] = main
    sweep = tables.get(f"sweep_{block}")
    if sweep is not None:
        for r in READINGS[1:]:
            part = sweep[sweep["reading"] == r.key]
            if len(part):
                out[r.key] = part
    ns2 = (plan.ns2_tables if plan is not None else {}).get(block)
    if ns2 is not None and len(ns2):
        out[NS2_ROW] = ns2
    return out


def _title(key: str) -> str:
    if key == NS2_ROW:
        return f"ns-2.35, {MAIN.label}"
    r = ALL_READINGS[key]
    return r.label + (" (main)" if r == MAIN else "")


def _save(fig, out: Path, name: str, title: str) -> str:
    """Fixed margins in inches (tight_layout would cost as much as drawing the figure)."""
    w, h = fig.get_size_inches()
    fig.suptitle(title)
    fig.subplots_adjust(left=0.75 / w, right=1 - 0.2 / w, bottom=0.6 / h, top=1 - 0.85 / h,
                        hspace=0.45, wspace=0.25)  # fmt: skip
    fig.savefig(out / name, dpi=80)
    return name


def _fig_retx(tables, out: Path, name: str, title: str, variant: str, plan: Plan) -> str:
    """Figs 2-3: one variant's goodput against attempts, a curve per distance and IFQ,
    a panel per reading that ran (and ns-2.35's)."""
    from matplotlib.figure import Figure

    runs = _readings_runs(tables, "static", plan) or {MAIN.key: tables["static"]}
    fig = Figure(figsize=(5.5 * min(len(runs), 2), 4 * math.ceil(len(runs) / 2)))
    axes = fig.subplots(math.ceil(len(runs) / 2), min(len(runs), 2), squeeze=False).ravel()
    colours = dict(zip(IFQS, ("tab:blue", "tab:orange", "tab:green")))
    for ax, (key, df) in zip(axes, runs.items()):
        st = _point_stats(df[df["variant"] == variant], ["distance", "ifq", "attempts"],
                          "ftp_mbps")  # fmt: skip
        for (d, q), g in st.groupby(["distance", "ifq"]):
            ax.errorbar(g["attempts"], g["ftp_mbps"], yerr=g["ftp_mbps_ci95"], capsize=3,
                        marker="o" if d == 50 else "s", ls="-" if d == 50 else "--",
                        color=colours[q], label=f"{d} m, IFQ {q}")  # fmt: skip
        ax.legend(fontsize=7)
        ax.set(title=_title(key), xlabel="MAC attempts per frame (ns-2 LongRetryLimit_)",
               ylabel="FTP throughput (Mb/s)", xticks=ATTEMPTS)  # fmt: skip
    return _save(fig, out, name, title + " (mean, 95 % CI)")


def _fig_variants(tables, out: Path, name: str, title: str, block: str, col: str,
                  ylabel: str, distance: int | None, plan: Plan,
                  overlay: bool = False) -> str:  # fmt: skip
    """Figs 4-9: `col` against attempts, a curve per variant (per distance too when
    `distance` is None), a row per reading that ran (and ns-2.35's) and a column per
    IFQ."""
    from matplotlib.figure import Figure

    runs = _readings_runs(tables, block, plan)
    fig = Figure(figsize=(13, 3.2 * max(len(runs), 1)))
    axes = fig.subplots(max(len(runs), 1), len(IFQS), squeeze=False, sharey="row")
    if not runs:
        for ax in axes[0]:
            ax.text(0.5, 0.5, "not run in this plan", ha="center", va="center",
                    transform=ax.transAxes, color="grey")  # fmt: skip
    for row, (key, df) in zip(axes, runs.items()):
        for ax, q in zip(row, IFQS):
            ax.set(title=f"{_title(key)}, IFQ {q}", xticks=ATTEMPTS)
            part = df[df["ifq"] == q]
            if distance is not None and block == "static":
                part = part[part["distance"] == distance]
            if part.empty:
                ax.text(0.5, 0.5, "not run in this plan", ha="center", va="center",
                        transform=ax.transAxes, color="grey")  # fmt: skip
                continue
            by = ["variant", "attempts"] + (["distance"] if distance is None else [])
            st = _point_stats(part, by, col)
            for k, g in st.groupby([b for b in by if b != "attempts"]):
                k = k if isinstance(k, tuple) else (k,)
                v, d = k[0], (k[1] if len(k) > 1 else None)
                ax.errorbar(g["attempts"], g[col], yerr=g[f"{col}_ci95"], capsize=2,
                            color=COLOURS[v], ls="--" if d == 100 else "-",
                            marker="s" if d == 100 else "o", ms=3,
                            label=_label(v) + (f", {d} m" if d else ""))  # fmt: skip
            if overlay:
                for v in VARIANTS:
                    ax.plot([3], [TABLE4[v][IFQS.index(q)]], "x", color=COLOURS[v], ms=9,
                            mew=2)  # fmt: skip
        row[0].set_ylabel(ylabel)
        if row[0].get_legend_handles_labels()[0]:
            row[0].legend(fontsize=6, ncol=2)
    for ax in axes[-1]:
        ax.set_xlabel("MAC attempts per frame")
    how = " (mean, 95 % CI" + ("; solid 50 m, dashed 100 m)." if distance is None else ").")
    note = " ×: Table 4 (paper), 50 m, 3 attempts." if overlay else ""
    return _save(fig, out, name, title + how + note)


def _fig10(tables, out: Path, plan: Plan) -> str:
    """Fig 10: the moving n3's goodput at 3 attempts, bars per variant and IFQ, a panel
    per reading that ran (and ns-2.35's)."""
    from matplotlib.figure import Figure

    runs = _readings_runs(tables, "mobile", plan)
    fig = Figure(figsize=(9, 3.5 * max(len(runs), 1)))
    axes = fig.subplots(max(len(runs), 1), 1, squeeze=False).ravel()
    if not runs:
        axes[0].text(0.5, 0.5, "not run in this plan", ha="center", va="center",
                     transform=axes[0].transAxes, color="grey")  # fmt: skip
    width = 0.25
    for ax, (key, df) in zip(axes, runs.items()):
        ax.set(title=_title(key), ylabel="FTP throughput (Mb/s)")
        st = _point_stats(df[df["attempts"] == 3], ["variant", "ifq"], "ftp_mbps")
        for i, q in enumerate(IFQS):
            g = st[st["ifq"] == q].set_index("variant").reindex(VARIANTS)
            xs = [j + (i - 1) * width for j in range(len(VARIANTS))]
            ax.bar(xs, g["ftp_mbps"], width, yerr=g["ftp_mbps_ci95"], capsize=2,
                   label=f"IFQ {q}")  # fmt: skip
        ax.set_xticks(range(len(VARIANTS)), [_label(v) for v in VARIANTS])
        ax.legend(fontsize=7)
    return _save(
        fig,
        out,
        "fig10_mobile_3attempts.png",
        "Fig 10: n3 moving towards BS0 at 4 m/s, 3 MAC attempts (mean, 95 % CI)",
    )


#: Table 4's figures: one per PHY timing, control rate and RTS setting
TABLE4_FIGURES = {
    ("dsss-1", True): "table4_dsss-1.png",
    ("dsss-20", True): "table4_dsss-20.png",
    ("ofdm-6", True): "table4_ofdm-6.png",
    ("dsss-1", False): "table4_rts-off.png",
}


def _fig_table4(tables, out: Path, phy: str, rts: bool, plan: Plan) -> str:
    """Table 4 under one PHY timing, control rate and RTS setting: the game's delay
    against the IFQ per variant, ours with its CI, ns-2.35's where it ran (squares) and the
    paper's (x), a panel per n1's BS and window that ran."""
    from matplotlib.figure import Figure

    t4 = tables["table4"]
    ns2 = plan.ns2_tables.get("table4")
    keys = [k for k, r in ALL_READINGS.items()
            if (r.phy, r.rts) == (phy, rts) and k in set(t4["reading"])] or [None]  # fmt: skip
    fig = Figure(figsize=(5.5 * min(len(keys), 2), 4 * math.ceil(len(keys) / 2)))
    axes = fig.subplots(math.ceil(len(keys) / 2), min(len(keys), 2), squeeze=False).ravel()
    for ax, key in zip(axes, keys):
        ax.set(title=_title(key) if key else "not run in this plan", xlabel="IFQ (packets)",
               ylabel="game delay A1 → n1 (ms)", xticks=IFQS)  # fmt: skip
        for v in VARIANTS:
            ax.plot(IFQS, TABLE4[v], "x--", color=COLOURS[v], alpha=0.7)
            x = t4[(t4["reading"] == key) & (t4["variant"] == v)].sort_values("ifq")
            if len(x):
                ax.errorbar(x["ifq"], x["game_delay_ms"], yerr=x["game_delay_ms_ci95"],
                            marker="o", capsize=3, color=COLOURS[v], label=_label(v))  # fmt: skip
            if ns2 is not None and len(ns2):
                y = ns2[(ns2["reading"] == key) & (ns2["variant"] == v)].sort_values("ifq")
                if len(y):
                    ax.plot(y["ifq"], y["game_delay_ms"], "s:", color=COLOURS[v], mfc="none")
        if key:
            ax.legend(fontsize=7)
    label = PHY_LABELS[phy] + ("" if rts else ", RTS/CTS off")
    return _save(fig, out, TABLE4_FIGURES[(phy, rts)],
                 f"Table 4, {label}: ours (o, mean, 95 % CI), ns-2.35's (squares), the "
                 "paper's (x), 3 attempts, 50 m")  # fmt: skip


def plot(tables: dict[str, pd.DataFrame], out: Path, plan: Plan) -> list[str]:
    """Figs 2-10 as the paper draws them (a panel per reading that ran, and ns-2.35's)
    and Table 4 under every PHY and RTS setting with ns-2.35's and the paper's values
    overlaid."""
    out = Path(out)
    files = [
        _fig_retx(tables, out, "fig2_tahoe.png", "Fig 2: TCP Tahoe throughput", "tahoe", plan),
        _fig_retx(tables, out, "fig3_newreno.png", "Fig 3: TCP NewReno throughput", "newreno",
                  plan),
        _fig_variants(tables, out, "fig4_50m.png", "Fig 4: throughput, n3 50 m from BS1",
                      "static", "ftp_mbps", "FTP throughput (Mb/s)", 50, plan),
        _fig_variants(tables, out, "fig5_100m.png", "Fig 5: throughput, n3 100 m from BS1",
                      "static", "ftp_mbps", "FTP throughput (Mb/s)", 100, plan),
        _fig_variants(tables, out, "fig6_game_throughput.png",
                      "Fig 6: game throughput A1 → n1 with the FTP on", "static",
                      "game_kbps", "game throughput (kb/s)", None, plan),
        _fig_variants(tables, out, "fig7_game_received.png",
                      "Fig 7: received game packets A1 → n1", "static", "game_received",
                      "received packets", None, plan),
        _fig_variants(tables, out, "fig8_game_delay.png",
                      "Fig 8: game delay A1 → n1", "static", "game_delay_ms",
                      "mean delay (ms)", None, plan, overlay=True),
        _fig_variants(tables, out, "fig9_mobile.png",
                      "Fig 9: n3 moving towards BS0 at 4 m/s", "mobile", "ftp_mbps",
                      "FTP throughput (Mb/s)", 50, plan),
        _fig10(tables, out, plan),
    ]  # fmt: skip
    files += [_fig_table4(tables, out, phy, rts, plan) for phy, rts in TABLE4_FIGURES]
    return files


# --------------------------------------------------------------------------- report


def _short(verdict: str) -> str:
    return {"holds": "holds", "does not hold": "no", "undecided": "undecided",
            "cannot show": "cannot show", "not run": "not run"}[verdict]  # fmt: skip


def _under(tables, plan: Plan, verdicts) -> dict[str, dict[str, str]]:
    """{column: {claim id: verdict}}: the main reading, every other reading run on the
    whole grid, and ns-2.35's main and other readings where it ran."""
    under = {_title(MAIN.key): {v.claim.id: v.verdict for v in verdicts}}
    whole = {r.label for r in READINGS}
    for label, view in readings(tables, plan).items():
        if label in whole:
            under[label] = {v.claim.id: v.verdict for v in decide_all(CLAIMS, view)}
    ns2 = plan.ns2_tables
    if ns2.get("static") is not None:
        under[_title(NS2_ROW)] = {v.claim.id: v.verdict for v in decide_all(CLAIMS, ns2)}
        ran = {r.label for r in plan.ns2_readings}
        for label, view in readings(ns2, plan).items():
            if label in ran:
                under[f"ns-2.35, {label}"] = {
                    v.claim.id: v.verdict for v in decide_all(CLAIMS, view)
                }
    return under


def readings_section(tables, plan: Plan, verdicts) -> list[str]:
    """Every statement's verdict under each reading run on the whole grid, wlansim's and
    ns-2.35's."""
    under = _under(tables, plan, verdicts)
    if len(under) < 2:
        return []
    cols = list(under)
    lines = [
        "## Readings: every statement under each setting the paper leaves open",
        "",
        "The paper states neither which BS serves n1, nor the TCP window, nor the PHY's "
        "timing and control rate, nor RTS/CTS. The statements above are decided under the "
        f"main reading ({MAIN.label}: the notes' placement, chosen before any run, and "
        "ns-2's defaults `window_` 20, `basicRate_` 1 Mb/s, `RTSThreshold_` 0); here every "
        "statement is decided again under each other reading that ran every case, with the "
        "same seeds (Table 4's other PHY and RTS readings: next section), and under "
        "ns-2.35 where it ran.",
        "",
        "| statement | " + " | ".join(cols) + " |",
        "|---|" + "---|" * len(cols),
    ]
    for v in verdicts:
        cells = [_short(under[c].get(v.claim.id, "not run")) for c in cols]
        lines.append(f"| {v.claim.id} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def table4_section(tables, plan: Plan) -> list[str]:
    """Table 4 under every reading that ran: the cells within the paper's value's
    interval, the largest difference, and the cells themselves, ns-2.35's beside."""
    t4 = tables["table4"]
    if not len(t4):
        return []
    ns2 = plan.ns2_tables.get("table4")
    lines = [
        "## Table 4 under every reading",
        "",
        "Our mean game delay at 3 attempts and 50 m per reading (the statement uses the main "
        "one), beside ns-2.35's where it ran; every reading is shown, none chosen over "
        "another.",
        "",
        "| reading | our range (ms) | ours − paper (ms) | ns-2.35's range (ms) | rises with "
        "the IFQ, 25 → 100 (loss-based, per variant, ms) |",
        "|---|---|---|---|---|",
    ]
    for key, g in t4.groupby("reading", sort=False):
        rises = []
        for v in ("tahoe", "reno", "newreno", "sack"):
            x = g[g["variant"] == v].sort_values("ifq")["game_delay_ms"].tolist()
            rises.append(f"{_label(v)} {x[-1] - x[0]:+.2f}")
        n = ns2[ns2["reading"] == key] if ns2 is not None and len(ns2) else None
        their = (f"{n['game_delay_ms'].min():.2f}–{n['game_delay_ms'].max():.2f}"
                 if n is not None and len(n) else "not run")  # fmt: skip
        lines.append(
            f"| {_title(key)} | {g['game_delay_ms'].min():.2f}–{g['game_delay_ms'].max():.2f}"
            f" | {g['diff_ms'].min():+.2f} to {g['diff_ms'].max():+.2f} | {their} | "
            f"{', '.join(rises)} |"
        )
    lines += ["", "The paper's Table 4 rises by Tahoe +0.81, Reno +0.74, NewReno +0.48, SACK "
              "+0.47 ms from IFQ 25 to 100 (Vegas 0).", ""]  # fmt: skip
    wide = t4.pivot_table(index=["variant", "ifq"], columns="reading", values="game_delay_ms")
    wide = wide.reset_index()
    wide.insert(2, "paper", [TABLE4[v][IFQS.index(q)] for v, q in zip(wide["variant"],
                                                                        wide["ifq"])])  # fmt: skip
    lines += ["Every cell (ms; columns: readings by key):", "", *markdown_table(wide, 2), ""]
    return lines


def _both(ours: pd.DataFrame, theirs: pd.DataFrame, col: str, **where) -> tuple[str, str, str]:
    """Mean ± 95 % half-width of `col` over the runs at `where` in wlansim's and ns-2.35's
    tables, and the difference of wlansim's from ns-2.35's."""

    def pick(t):
        m = pd.Series(True, index=t.index)
        for k, v in where.items():
            m &= t[k].isin(v if isinstance(v, (list, tuple)) else [v])
        per = t[m].groupby("seed")[col].mean()
        return mean_interval(Sample.of(list(per.values), list(per.index)))

    a, b = pick(ours), pick(theirs)

    def fmt(e):
        half = (e.high - e.low) / 2 if e.defined else math.nan
        return f"{e.value:.3f} ± {half:.3f}"

    diff = f"{100 * (a.value / b.value - 1):+.1f} %" if b.value else "n/a"
    return fmt(a), fmt(b), diff


def ns2_section(tables, plan: Plan) -> list[str]:
    """wlansim beside ns-2.35 on the same cases, the quantities the statements read."""
    ns2 = plan.ns2_tables
    if not ns2:
        return []
    rows = []

    def runs_of(t: dict, block: str, reading: str) -> pd.DataFrame | None:
        names = (
            ("static", "sweep_static", "table4_readings")
            if block == "static"
            else ("mobile", "sweep_mobile")
        )
        parts = [t[n] for n in names if t.get(n) is not None]
        if not parts:
            return None
        both = pd.concat(parts, ignore_index=True)
        return both[both["reading"] == reading]

    def row(what: str, col: str, block: str = "static", reading: Reading = MAIN, **where):
        ours, theirs = runs_of(tables, block, reading.key), runs_of(ns2, block, reading.key)
        if ours is None or theirs is None or not len(ours) or not len(theirs):
            return
        a, b, d = _both(ours, theirs, col, **where)
        rows.append(f"| {what} | {a} | {b} | {d} |")

    for d in plan.ns2_distances:
        for v in VARIANTS:
            row(f"FTP goodput (Mb/s), {d} m, {_label(v)}, 3 attempts", "ftp_mbps",
                distance=d, variant=v, attempts=3)  # fmt: skip
        row(f"game delay A1 → n1 (ms), {d} m", "game_delay_ms", distance=d)
        row(f"game delay n1 → A1 (ms), {d} m", "game_up_delay_ms", distance=d)
        row(f"FTP timeouts per run, {d} m", "ftp_timeouts", distance=d)
        row(f"FTP retransmitted segments per run, {d} m", "ftp_retransmissions", distance=d)
    row("FTP goodput (Mb/s), moving n3", "ftp_mbps", block="mobile")
    for r in (Reading("bs0", 20), Reading("bs1", 128), *COMBINED):
        row(f"game delay A1 → n1 (ms), 50 m, 3 attempts, {r.label}", "game_delay_ms",
            reading=r, distance=50, attempts=3)  # fmt: skip
        row(f"Vegas's FTP goodput (Mb/s), 50 m, 3 attempts, {r.label}", "ftp_mbps",
            reading=r, distance=50, attempts=3, variant="vegas")  # fmt: skip
    if not rows:
        return []
    return [
        "## ns-2.35 beside wlansim",
        "",
        "The same cases in both simulators (`--against ns2`, `wlansim.evidence.ns2."
        "janevski2009` writes ns-2's script from the same scenario), the same seeds count; "
        "means over the seeds and their 95 % half-widths, pooled over the cases a row leaves "
        "open. ns-2's RTT is its smoothed RTT sampled every second, not the mean of its "
        "samples. The differences that move a statement's verdict are named in its reason "
        "(the study's `DIFFERENCES`).",
        "",
        "| quantity | wlansim | ns-2.35 | wlansim / ns-2.35 − 1 |",
        "|---|---|---|---|",
        *rows,
        "",
    ]


def _window_limit_lines(tables) -> list[str]:
    s = tables.get("static")
    if s is None:
        return []
    lines = ["## What limits the FTP (main reading, counters per run)", ""]
    rows = []
    for d in DISTANCES:
        g = s[s["distance"] == d]
        rows.append(
            f"- {d} m: goodput {g['ftp_mbps'].min():.3f}–{g['ftp_mbps'].max():.3f} Mb/s over "
            f"the cases; the FTP's mean RTT {g['ftp_rtt_ms'].mean():.0f} ms; BS1's queue "
            f"drops {g['bs1_queue_drops'].mean():.1f} per run (max "
            f"{g['bs1_queue_drops'].max():.0f}); "
            f"BS1 gave up {g['bs1_retry_drops'].mean():.1f} frames per run after the last "
            f"attempt; {100 * g['bs1_frame_errors'].sum() / max(g['bs1_attempts'].sum(), 1):.1f}"
            " % "
            f"of BS1's attempts failed on the channel; {g['ftp_timeouts'].mean():.1f} timeouts "
            f"and {g['ftp_fast_retransmits'].mean():.1f} fast retransmits per run."
        )
    lines += rows
    w = int(s["window"].iloc[0])
    cap = w * 552 * 8 / (s[s["distance"] == 50]["ftp_rtt_ms"].mean() / 1e3) / 1e6
    lines += [
        f"- The window of {w} segments of 552 B over the 50 m RTT allows {cap:.2f} Mb/s.",
        "",
    ]
    sweep = tables.get("sweep_static")
    if sweep is not None:
        lines += ["Under every reading (50 m, 3 attempts, mean over variants):", "",
                  "| reading | goodput (Mb/s) | BS1 queue drops per run | game delay (ms) |",
                  "|---|---|---|---|"]  # fmt: skip
        both = pd.concat([s, sweep], ignore_index=True)
        both = both[(both["distance"] == 50) & (both["attempts"] == 3)]
        for r in READINGS:
            g = both[both["reading"] == r.key]
            if len(g):
                lines.append(
                    f"| {_title(r.key)} | {g['ftp_mbps'].mean():.3f} | "
                    f"{g['bs1_queue_drops'].mean():.1f} | {g['game_delay_ms'].mean():.2f} |"
                )
        lines.append("")
    return lines


def _span(x: pd.Series, fmt: str) -> str:
    lo, hi = format(x.min(), fmt), format(x.max(), fmt)
    return lo if lo == hi else f"{lo}–{hi}"


def _mobile_lines(tables) -> list[str]:
    m = tables.get("mobile")
    if m is None:
        return []
    share, since = m["n3_parked_share"], m["n3_parked_from_s"]
    return [
        "## The moving n3 (Figs 9-10)",
        "",
        f"n3 starts 50 m from BS1 at 35 s and walks to BS0 at 4 m/s: it reached BS0 at "
        f"{_span(since, '.0f')} s and stood there, 100 m from BS1 (the AP it keeps, as in "
        f"ns-2.28), for {_span(100 * share, '.0f')} % of "
        "the FTP's 75 s (measured from the run's position series). Figs 9-10 are therefore "
        "mostly a static n3 at 100 m: the paper does not say where the walk starts or ends.",
        "",
    ]


def _geometry_lines(tables) -> list[str]:
    """Where the layout stands against the radio, from `place` and the scenario's
    propagation keys (closed form, :mod:`wlansim.models.shadowing`): what moves, the
    farthest two points any two nodes reach (n3's walk included), the median
    carrier-sense and receive ranges of the thresholds, and which medium the runs used
    (``spatial_medium`` of the runs' ``meta.medium``)."""
    from wlansim.models.shadowing import Shadowing

    keys = {k: v for k, v in _home()["channel"]["propagation"].items() if k != "model"}
    radio = Shadowing(**keys)
    pr1 = float(radio.mean_power_db(radio.reference_distance_m))

    def median_range(threshold_w: float) -> float:
        """Where the mean received power falls to `threshold_w`."""
        return radio.reference_distance_m * 10 ** (
            (pr1 - 10 * math.log10(threshold_w)) / (10 * radio.path_loss_exponent)
        )

    def dbm(w: float) -> str:
        return f"{10 * math.log10(w) + 30:.1f} dBm"

    cs_m, rx_m = median_range(radio.cs_threshold_w), median_range(radio.rx_threshold_w)
    far, pair, movers = 0.0, ("", ""), set()
    for n1_bs in BS_POSITIONS:
        for d in DISTANCES:
            for mobile in (False, True):
                s = copy.deepcopy(_home())
                place(s, n1_bs, d, mobile)
                points = [(ap["name"], ap["position"]) for ap in s["aps"]]
                for g in s["stations"]:
                    points.append((g["name"], g["position"]))
                    for w in (g.get("mobility") or {}).get("waypoints", []):
                        movers.add(g["name"])
                        points.append((g["name"], w))
                for a, p in points:
                    for b, q in points:
                        if a != b and math.dist(p, q) > far:
                            far, pair = math.dist(p, q), tuple(sorted((a, b)))
    moved = ", ".join(sorted(movers)) or "no node"
    runs = [t for k, t in tables.items() if k in ("static", "mobile", "sweep_static",
                                                   "sweep_mobile", "table4_readings")]  # fmt: skip
    runs = [t["spatial_medium"] for t in runs if "spatial_medium" in t.columns]
    n_runs = sum(len(r) for r in runs)
    spatial = int(sum((r > 0).sum() for r in runs))
    if far < cs_m:
        verdict = (
            f"lie inside the median carrier-sense range of {cs_m:.0f} m, so no node, the "
            "moving one included, ever leaves another's carrier-sense range: nobody becomes "
            "hidden, and every node senses every other (the shared medium's condition)"
        )
    else:
        verdict = (
            f"lie beyond the median carrier-sense range of {cs_m:.0f} m: nodes that far "
            "apart do not sense each other (the spatial medium's condition)"
        )
    used = (
        f" Of this run's {n_runs} simulations {spatial} used the spatial medium and "
        f"{n_runs - spatial} the shared one (`meta.medium`)."
        if n_runs
        else ""
    )
    p100 = float(radio.reception_probability(max(DISTANCES)))
    return [
        "## Geometry",
        "",
        "Every node's position, its BS and n3's path are set in one place, "
        "`janevski2009.place` (the scenario builder), and no coordinate is adjusted. "
        f"What moves: {moved} (from {DISTANCES[0]} m beside BS1 to BS0, Figs 9-10); every "
        f"other node stands still. The farthest two points any two nodes reach, {far:.0f} "
        f"m apart ({pair[0]} and {pair[1]}), {verdict}. Thresholds: ns-2's CSThresh_ "
        f"{radio.cs_threshold_w:.4g} W ({dbm(radio.cs_threshold_w)}) and RXThresh_ "
        f"{radio.rx_threshold_w:.4g} W ({dbm(radio.rx_threshold_w)}), whose median ranges "
        f"with β {radio.path_loss_exponent:g} are {cs_m:.0f} m and {rx_m:.0f} m.{used} "
        "Under the ns2 profile the runs use the spatial medium (reception per node) all the "
        "same: as ns-2's `Shadowing::Pr`, every node draws each frame's power, which decides "
        "whether it senses the frame, decodes it (else it defers EIFS, without the NAV) and "
        "which of two overlapping frames it keeps (ns-2's capture rule, CPThresh_ 10 dB). "
        f"n3 at {max(DISTANCES)} m receives a frame with probability {p100:.2f}; on the "
        "shared medium (the standard profile's runs) a frame its addressee lost is lost at "
        "every node, which then defers as after a failed exchange.",
        "",
    ]


def sections(tables: dict[str, pd.DataFrame], plan: Plan, verdicts) -> list[str]:
    lines = [
        "## How the paper's words are read",
        "",
        f'- "better", "rises", "best", "worst", "beats": by more than {100 * RISE:g} % '
        "(the 95 % CI of the ratio beyond it; several comparisons in one statement "
        "Bonferroni-corrected);",
        f'- "the same", "overlapping", "does not impact", "constant": within ±{100 * SAME:g} %;',
        f'- "drastically", "strong impact": by more than {100 * DRASTIC:g} %;',
        "- a Table 4 cell: the paper's value (one run, read to ±0.00005 ms) inside the "
        "interval in which a run of ours falls, from our runs' spread;",
        '- Fig 5\'s "for average of four MAC retransmissions": the mean over 1-4 attempts '
        "(its next sentence singles out 3);",
        "- the paper's figures carry no readable values: their statements are orderings and "
        "trends; Table 4 is the only table of numbers.",
        "",
        "Pooled quantities are the mean per seed over the cases a statement leaves open, so "
        "every comparison is paired by seed (the same seeds run every variant, IFQ, attempt "
        "limit and reading). A case whose queues never overflowed at an IFQ is not run again "
        "at a larger one, nor one that dropped no frame at its attempt limit at a larger "
        "limit: its runs would be the same (`run_grid`; the per-run tables' `ran_ifq` and "
        "`ran_attempts` say where each row ran" + _reused(tables) + ").",
        "",
    ]
    lines += ns2_section(tables, plan)
    lines += readings_section(tables, plan, verdicts)
    lines += table4_section(tables, plan)
    lines += _window_limit_lines(tables)
    lines += _mobile_lines(tables)
    lines += _geometry_lines(tables)
    fs = tables.get("ftp_summary")
    if fs is not None and len(fs):
        lines += ["## FTP goodput, main reading (mean, 95 % half-width, counters per run)", "",
                  *markdown_table(fs, 3), ""]  # fmt: skip
    return lines


def _reused(tables) -> str:
    runs = [t for k, t in tables.items() if "ran_ifq" in t.columns]
    total = sum(len(t) for t in runs)
    reused = sum(
        int(((t["ran_ifq"] != t["ifq"]) | (t["ran_attempts"] != t["attempts"])).sum()) for t in runs
    )
    return f"; {reused} of this run's {total} rows are such" if total else ""


reproduce = study_reproduce(__name__)
