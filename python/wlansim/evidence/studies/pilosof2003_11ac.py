"""An extension, not a reproduction: pilosof2003's questions (S. Pilosof, R. Ramjee, D. Raz,
Y. Shavitt, P. Sinha, "Understanding TCP Fairness over Wireless LAN", IEEE INFOCOM 2003)
asked of an 802.11ac cell with A-MPDU aggregation and Block Ack.

The paper ran ns-2's 802.11b; ns-2.35 has no 802.11ac, and the paper printed no value for
this cell, so there is nothing to reproduce: each of its statements is asked again here
(does the upload still starve the download, does the unfairness grow with n and fall with
the AP buffer B, does the receiver-window rewrite of §V restore fairness and at what cost,
and does the analytical model of §IV still predict the ratio) and decided by the same
claims engine over replicated runs. The cell: VHT MCS 9, 80 MHz, one spatial stream, EDCA
AC_BE, A-MPDU of up to 65,535 bytes and 64 MPDUs; the paper's TCP (receiver window 42
segments, 1024-byte segments, an ACK per segment) so that its model's w, α and B keep
their meaning. Aggregation off and today's 1448-byte segments are swept: every statement
is decided again under each (:func:`readings`).

The sweeps of §III reuse :mod:`wlansim.evidence.studies.pilosof2003`'s per-run tables and
measures; the model is :mod:`wlansim.models.pilosof`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from wlansim.campaign import Space
from wlansim.campaign.executors import run_scenario
from wlansim.evidence.claims import Claim, Compare, Every, NotRun, Sample, Test, Trend, Within
from wlansim.evidence.report import grid_markdown, markdown_table
from wlansim.evidence.studies import pilosof2003 as p3
from wlansim.evidence.study import study_reproduce, verdict_grid
from wlansim.models.pilosof import computed_ratio

TITLE = (
    "Extension, not a reproduction: pilosof2003's up/down unfairness and its rwnd fix on an "
    '802.11ac cell with A-MPDU (after S. Pilosof et al., "Understanding TCP Fairness over '
    'Wireless LAN", IEEE INFOCOM 2003)'
)
#: whose statements the report decides: the paper's, asked of a cell it did not study
SUBJECT = "extension"
PROFILE = "standard"
#: why this study runs under its own profile only
ONE_PROFILE = "ns-2.35's MAC rules (the ns2 profile) have no HT/VHT PHY and no aggregation"
NO_NS2 = (
    "ns-2.35 was not run beside: it has no 802.11ac PHY and no A-MPDU or Block Ack, and the "
    "paper printed no value for this cell (an extension: no paper values to compare)"
)
RWND = p3.RWND  # segments: the paper's w
MSS = p3.MSS  # bytes: the paper's segments
MSS_TODAY = 1448  # a 1500-byte MTU less IP, TCP and the timestamps option
AMPDU_BYTES = 65_535
BA_WINDOW = 64
#: the main setting, and the values tried of the open parameters that can move a verdict
MAIN = {"ampdu": True, "mss": MSS}
MAIN_LABEL = "main: A-MPDU (65,535 B, 64 MPDUs), MSS 1024"
SENSITIVITY = {
    "single MPDUs (no aggregation), MSS 1024": {"ampdu": False, "mss": MSS},
    "A-MPDU, MSS 1448 (with timestamps)": {"ampdu": True, "mss": MSS_TODAY},
    "single MPDUs, MSS 1448 (with timestamps)": {"ampdu": False, "mss": MSS_TODAY},
}

PARAMETERS = [
    ("PHY", "802.11b (ns-2 at 1 Mb/s; the test-bed at 11 Mb/s)", "802.11ac VHT, MCS 9, "
     "80 MHz, 1 spatial stream, 800 ns guard interval (390 Mb/s), 5 GHz channel 36; "
     "ACK and BlockAck at 24 Mb/s (the VHT BSS's basic-rate rule)", "the question asked: "
     "today's cell (issue 40 item 5); one stream and the long guard interval are the "
     "plainest VHT setting"),
    ("channel access", "DCF (ns-2: RTS/CTS before every frame)", "EDCA AC_BE, every TCP "
     "packet best effort; no RTS/CTS", "802.11ac stations are QoS stations; RTS/CTS is off "
     "by default in today's devices"),
    ("aggregation", "none (802.11b)", "A-MPDU up to 65,535 B and 64 MPDUs (the Block Ack "
     "window), immediate compressed BlockAck; swept: single MPDUs (no aggregation)",
     "65,535 B is the HT limit, which every 802.11ac device accepts; it binds before the "
     "64-MPDU window for full segments (64 segments of 1024 B with their headers exceed "
     "it), the window for ACKs; the tables give the AP's MPDUs per access"),
    ("profile", "ns-2", "`standard` only: the 802.11 standard's MAC and the RFCs' TCP",
     ONE_PROFILE),
    ("TCP receiver window", "42 packets", "42 segments", "the paper's w (§III.A): the "
     "model's regions B ≤ αw, αw < B < (1 + α)w, B ≥ (1 + α)w keep their meaning"),
    ("segment size", "1024 bytes", "1024 B; swept: 1448 B with the timestamps option (a "
     "1500-byte MTU today)", "the paper's (§III.A) for the main setting, today's as the "
     "other value"),
    ("ACKs per data packet α", "1", "1 (no delayed ACK)", "the paper's α (§III.A), which "
     "its model needs; today's delayed ACK (every second segment) is not tried here"),
    ("TCP variant and timers", "not stated; §IV: the window halves on three duplicate "
     "ACKs", "NewReno; RFC 6298 timers (min RTO 1 s, clock 1 ms), RFC 3390 initial window, "
     "limited transmit", "wlansim's `standard` defaults, which halve on three duplicate "
     "ACKs as §IV describes"),
    ("AP buffer B", "6-85 (Fig 2), 100 (Figs 6, 7, 11)", "the same, as the AP's AC_BE "
     "queue (all the cell's TCP packets)", "the paper's"),
    ("flows", "1 up + 1 down (Fig 2); 1 up + n down (Fig 6); n up + n down, n ≤ 13 "
     "(Figs 7, 11)", "the same: n = 1, 2, 4, 8, 12 (Fig 6), 1, 2, 4, 8, 13 (Figs 7, 11)",
     "the paper's range, at fewer points"),
    ("stations' interface queues", "not stated (ns-2: 50)", "50 packets", "wlansim's "
     "default, ns-2's too"),
    ("wired link to the server", "not stated", "1 Gb/s, 1 ms", "fast enough not to matter: "
     "the cell carries up to about 210 Mb/s, above a 100 Mb/s link's"),
    ("runs per point", "5 × 100 s", "5 × 30 s, measured whole from the flows' start",
     "cost; a 30 s run here carries 1.7·10^5 to 7.7·10^5 segments in all (47-210 Mb/s "
     "of goodput), the paper's 100 s at 1 Mb/s about 1,200 (its Fig 5: about 600 each way)"),
    ("the fix (§V)", "the window set to ⌊B/n⌋", "the AP rewrites the ACKs' window to "
     "min(rwnd, ⌊B/n⌋) segments, n the flows it sees (both directions)", "as pilosof2003's "
     "reproduction runs it (`ap.rwnd_clamp`)"),
    ("the model", "eqs 3-9 (§IV), w = 42, α = 1", "the same, solved jointly "
     "(`wlansim.models.pilosof.computed_ratio`) at each B (1 up + 1 down) and each n "
     "(1 up + n down, B = 100)", "its premise that the AP drains its buffer at one "
     "station's rate (ρ = 1 + nR̄) does not hold when its A-MPDU carries many packets per "
     "access: the tables give the AP's MPDUs per access"),
    ("'about ten'", "'unfairness of over 10'; Fig 2: 9-12 for 6 < B ≤ 42", "over 9: the "
     "ratio of the mean goodputs over B = 10, 20, 30, 42 (run in every plan)", "the lower "
     "edge of the paper's band"),
]  # fmt: skip


def scenario(
    n_up: int,
    n_down: int,
    buffer: int = 100,
    duration: str = "30 s",
    *,
    ampdu: bool = MAIN["ampdu"],
    mss: int = MSS,
) -> dict:
    """`n_up` TCP uploads and `n_down` TCP downloads through an 802.11ac AP with buffer
    `buffer` (packets) to one wired server: the paper's TCP (w = 42 segments, an ACK per
    segment), A-MPDU on or off, segments of `mss` bytes (1448: with timestamps)."""
    flow = {"protocol": "tcp", "server": "srv"}
    mac = {"rts_threshold": "off"}
    if ampdu:
        mac |= {"ampdu_max_bytes": AMPDU_BYTES, "ba_window": BA_WINDOW}
    return {
        "name": f"pilosof2003-11ac-{n_up}up-{n_down}down",
        "duration": duration,
        "phy": {"standard": "802.11ac", "mcs": 9, "streams": 1, "channel_width": 80,
                "guard_interval": "long"},
        "mac": mac,
        "ap": {"queue": buffer},
        "tcp": {"mss": mss, "rwnd": RWND, "delayed_ack": 1, "timestamps": mss == MSS_TODAY},
        "stations": [{"name": "up", "count": n_up}, {"name": "down", "count": n_down}],
        "servers": [{"name": "srv", "rate": "1 Gb/s"}],
        "flows": [
            {"name": "upload", "direction": "uplink", "stations": "up", **flow},
            {"name": "download", "direction": "downlink", "stations": "down", **flow},
        ],
    }  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Plan:
    duration: str
    reps: int
    buffers: list[int]  # Fig 2: 1 up + 1 down against B
    downs: list[int]  # Fig 6: 1 up + n down, B = 100
    pairs: list[int]  # Figs 7, 11: n up + n down, B = 100
    sensitivity: dict  # the grid every claim is decided on again under each open value
    profile: str
    seed_base: int
    main: bool
    quick: bool

    @classmethod
    def of(cls, quick: bool, profile: str, seed_base: int = 1, main: bool = True) -> Plan:
        if quick:
            return cls("30 s", 3, [*BELOW_W, 60, 85], [1, 4], [1, 4], {}, profile, seed_base,
                       main, True)  # fmt: skip
        buffers = [6, 10, 15, 20, 25, 30, 35, 42, 50, 60, 70, 84, 85]
        return cls("30 s", 5, buffers, [1, 2, 4, 8, 12], [1, 2, 4, 8, 13],
                   SENSITIVITY_GRID if main else {}, profile, seed_base, main, False)  # fmt: skip

    def skips(self) -> list[str]:
        if not self.quick:
            return []
        return [
            "Fig 2 at B = 10, 20, 30, 42, 60, 85 only; Figs 6, 7, 11 at n = 1 and 4; 3 runs "
            "per point instead of 5",
            "the sweep of the open parameters (aggregation off, MSS 1448)",
        ]


#: the buffers 6 < B ≤ w over which the upload's advantage is measured (run in every plan)
BELOW_W = (10, 20, 30, 42)
#: the points every claim is decided on again under each value of the open parameters
SENSITIVITY_GRID = {
    "buffers": [10, 20, 30, 42, 50, 60, 70, 85],
    "downs": [1, 2, 4, 8, 12],
    "pairs": [1, 2, 4, 8, 13],
}


# --------------------------------------------------------------------------- runs


def run_with_aggregates(scenario: dict, seed: int) -> dict:
    """One run (the campaigns' default) with the AP's MPDUs per channel access: its data
    and ACK frames over its transmission attempts (1 without aggregation)."""
    result = run_scenario(scenario, seed)
    ap = next(n for n in result["nodes"] if n["role"] == "ap")
    frames = ap["frames_data"] + ap["frames_ack"]
    result["metrics"]["ap_mpdus_per_access"] = frames / ap["attempts"] if ap["attempts"] else 0.0
    return result


def _experiments(out: Path, plan: Plan, prefix: str, setting: dict, grid: dict, jobs, progress):
    """The four sweeps of §III under `setting` (aggregation, MSS) on `grid`: one row per
    run each."""
    cell = scenario(1, 1, duration=plan.duration, **setting)
    pairs = Space.zip({"stations.up.count": grid["pairs"], "stations.down.count": grid["pairs"]})
    specs = {
        "fig2": (Space.grid({"ap.queue": grid["buffers"]}), {}),
        "fig6": (Space.grid({"stations.down.count": grid["downs"]}), {}),
        "fig7": (pairs, {}),
        "fig11": (pairs, {"ap.rwnd_clamp": True}),
    }
    rename = {"ap.queue": "B", "stations.down.count": "n_down", "stations.up.count": "n_up"}
    t = {}
    for name, (space, overrides) in specs.items():
        c = p3._campaign(out, prefix + name, cell, space, plan, plan.reps, overrides=overrides,
                         run_fn=run_with_aggregates)  # fmt: skip
        c.run(jobs=jobs, progress=progress, label=f"pilosof2003_11ac {prefix}{name} runs")
        runs = p3._per_run(c, rename)
        runs["ap_mpdus_per_access"] = c.results()["ap_mpdus_per_access"]
        if name != "fig2":
            runs["n"] = runs["n_down"]
        t[f"{name}_runs"] = runs
    return t


SUMMARY = [*p3.SUMMARY, "ap_mpdus_per_access"]


def summaries(t: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Per point (mean, 95 % half-width): Fig 2 against B with the model's ratio beside,
    Figs 6, 7, 11 against n (Fig 6 with the model's)."""
    out = {"fig2": p3._summary(t["fig2_runs"], "B", SUMMARY)}
    out["fig2"]["model"] = [computed_ratio(int(b), RWND) for b in out["fig2"]["B"]]
    for name in p3.FIGURES[1:]:
        out[name] = p3._summary(t[f"{name}_runs"], "n", SUMMARY)
    out["fig6"]["model"] = [computed_ratio(100, RWND, n=int(n)) for n in out["fig6"]["n"]]
    return out


def run_experiments(out: Path, plan: Plan, jobs=None, progress=False) -> dict[str, pd.DataFrame]:
    """Every campaign (stored under `out`, reused): the main setting's per-run tables and
    summaries, and the same sweeps under each other value of the open parameters on a
    coarser grid (``sensitivity_runs``, column ``setting``)."""
    out = Path(out)
    grid = {"buffers": plan.buffers, "downs": plan.downs, "pairs": plan.pairs}
    t = _experiments(out, plan, "", MAIN, grid, jobs, progress)
    t.update(summaries(t))
    if plan.sensitivity:
        t["sensitivity_runs"] = p3.sweep_runs(
            SENSITIVITY,
            lambda i, setting: _experiments(
                out, plan, f"s{i}-", setting, plan.sensitivity, jobs, progress
            ),
        )
    return t


def readings(tables: dict[str, pd.DataFrame], plan: Plan) -> dict[str, dict[str, pd.DataFrame]]:
    """The tables as if each other value swept (:data:`SENSITIVITY`) were the main one."""
    if "sensitivity_runs" not in tables:
        return {}
    return p3.sweep_tables(tables["sensitivity_runs"], SENSITIVITY)


# --------------------------------------------------------------------------- claims


def _below_w(t) -> tuple[Sample, Sample]:
    """Per seed, the upload's and the download's goodput per flow, each the mean over the
    buffers :data:`BELOW_W` (paired): their ratio of means."""
    runs = t["fig2_runs"]
    missing = set(BELOW_W) - set(runs["B"])
    if missing:
        raise NotRun(f"B = {', '.join(str(b) for b in sorted(missing))} was not run")
    runs = runs[runs["B"].isin(BELOW_W)]
    return p3._region(runs, 7, RWND, "up_flow_bps"), p3._region(runs, 7, RWND, "down_flow_bps")


def _largest_b(t) -> int:
    """The largest buffer run, if it holds both windows (B ≥ (1 + α)w)."""
    b = int(t["fig2_runs"]["B"].max())
    if b < 2 * RWND:
        raise NotRun(f"no buffer of at least {2 * RWND} packets was run")
    return b


def _model_points(t, lo: int, hi: int) -> dict[int, tuple[Sample, Sample]]:
    """Per buffer lo ≤ B ≤ hi run: the simulated ratio beside eqs 3-6's."""
    bs = sorted(b for b in set(t["fig2_runs"]["B"]) if lo <= b <= hi)
    if not bs:
        raise NotRun(f"no buffer in {lo}-{hi} was run")
    return {int(b): (p3._at(t["fig2_runs"], "B", b, "ratio"),
                     Sample.exact_value(computed_ratio(int(b), RWND))) for b in bs}  # fmt: skip


def _model_n(t) -> dict[int, tuple[Sample, Sample]]:
    """Per n > 1 (1 up + n down, B = 100): the simulated ratio beside eqs 7-9's."""
    runs = t["fig6_runs"]
    ns = sorted(int(n) for n in set(runs["n"]) if n > 1)
    if not ns:
        raise NotRun("no n > 1 was run")
    return {n: (p3._at(runs, "n", n, "ratio"), Sample.exact_value(computed_ratio(100, RWND, n=n)))
            for n in ns}  # fmt: skip


def _pairs(t) -> list[int]:
    return sorted(int(n) for n in set(t["fig11_runs"]["n"]) & set(t["fig7_runs"]["n"]))


def _aggregates(t, name: str, where: str) -> str:
    """The AP's MPDUs per channel access on a sweep's runs: the counter behind the
    model's premise."""
    per = t[f"{name}_runs"]["ap_mpdus_per_access"]
    return (f"The AP sent {per.min():.1f} to {per.max():.1f} MPDUs per channel access "
            f"{where} (the model's AP drains its buffer at one station's rate).")  # fmt: skip


def _fix_aggregates(t) -> str:
    """The AP's MPDUs per channel access at the largest n, with and without the rewrite:
    how the smaller windows shrink its aggregates."""
    n = max(_pairs(t), default=None)
    if n is None:
        return ""
    on, off = (p3._at(t[k], "n", n, "ap_mpdus_per_access").mean
               for k in ("fig11_runs", "fig7_runs"))  # fmt: skip
    return (f"At n = {n} the AP sent {on:.1f} MPDUs per channel access with the window "
            f"rewritten, {off:.1f} without.")  # fmt: skip


def _model_claim(cid: str, region: str, eqs: str, lo: int, hi: int, paper: str) -> Claim:
    """Fig 8's model beside the simulation over the buffers lo ≤ B ≤ hi run."""
    return Claim(
        cid, "§IV.A, Fig 8",
        f"{region}: the model's ratio ({eqs}) is within 25 % of the simulated one at every B",
        Every(Within("the simulated ratio", eqs, tol=0.25), "B"),
        lambda t: _model_points(t, lo, hi), kind="model vs simulation",
        paper=f"{paper} (802.11b)",
        explain=lambda t, _o: _aggregates(t, "fig2", "over the buffers run"),
    )  # fmt: skip


CLAIMS = [
    Claim(
        "fig2.unfair-below-w", "§III.A, Fig 2; abstract",
        "B ≤ w = 42 (the buffer cannot hold the upload's window of ACKs): the upload still "
        "gets over 9 times the download's goodput (their means over B = 10, 20, 30, 42; the "
        "paper: 9-12 at 1 Mb/s, 'unfairness of over 10')",
        Compare("R_u", "R_d", margin=8, scale=p3.RATIO), _below_w, paper="9–12 (802.11b)",
    ),
    Claim(
        "fig2.fair-above-84", "§III.A, Fig 2; §IV.A",
        "B ≥ (1 + α)w = 84 (room for both windows): the ratio is one",
        Within("R_u at the largest B", "R_d", tol=0.10),
        lambda t: p3._ratio_of_means(t["fig2_runs"], "B", _largest_b(t)), paper="1 (802.11b)",
    ),
    Claim(
        "fig2.falls-with-b", "§III.A, Fig 2; §IV.A",
        "the ratio falls as the AP buffer grows (by more than half from the smallest B to "
        "the largest), as the model says",
        Trend("up/down ratio", "B", "down", margin=-0.5),
        lambda t: p3._trend(t["fig2_runs"], "B", "ratio"), paper="10 → 1 (802.11b)",
    ),
    Claim(
        "fig2.total-stable", "§III.A, Fig 2",
        "the total goodput remains stable as B varies",
        Trend("total goodput", "B", "flat", tol=0.10),
        lambda t: p3._trend(t["fig2_runs"], "B", "goodput_bps"), paper="stable (802.11b)",
    ),
    Claim(
        "fig6.grows-with-n", "§III.B, Fig 6",
        "1 up + n down (B = 100): the ratio grows with n",
        Trend("up/down ratio", "n", "up"),
        lambda t: p3._trend(t["fig6_runs"], "n", "ratio"), paper="≈ linear (802.11b)",
    ),
    Claim(
        "fig7.grows-with-n", "§III.B, Fig 7",
        "n up + n down (B = 100): the ratio grows with n",
        Trend("up/down ratio", "n", "up"),
        lambda t: p3._trend(t["fig7_runs"], "n", "ratio"), paper="up to 800 (802.11b)",
    ),
    Claim(
        "fig7.hundreds", "§III.B, Fig 7; §VII",
        "n up + n down at the largest n: the upload gets over 100 times the download (the "
        "paper: up to 800)",
        Compare("R_u", "R_d", margin=99, scale=p3.RATIO),
        lambda t: p3._ratio_of_means(t["fig7_runs"], "n", p3._largest(t["fig7_runs"])),
        paper="up to 800 (802.11b)",
    ),
    Claim(
        "fig11.one-to-one", "§V, Fig 11",
        "with the window rewritten at the AP (⌊B/n⌋) the ratio is 1:1 at every n",
        Every(Within("R_u", "R_d", tol=0.15), "n"),
        lambda t: {n: p3._ratio_of_means(t["fig11_runs"], "n", n)
                   for n in sorted(set(t["fig11_runs"]["n"]))},
        paper="1:1 (802.11b)",
    ),
    Claim(
        "fig11.total-maintained", "§V, Fig 11",
        "with the window rewritten the total goodput is maintained: within 10 % of the "
        "total without rewriting at every n (the paper: the overhead is minimal)",
        Every(Within("total goodput with rewriting", "without", tol=0.10), "n"),
        lambda t: {n: (p3._at(t["fig11_runs"], "n", n, "goodput_bps"),
                       p3._at(t["fig7_runs"], "n", n, "goodput_bps")) for n in _pairs(t)},
        paper="maintained (802.11b)",
        explain=lambda t, _o: _fix_aggregates(t),
    ),
    _model_claim("fig8.model-below-w", "B ≤ αw", "eqs 3-5", 7, RWND, "close"),
    _model_claim("fig8.model-above-w", "αw < B < (1 + α)w", "eq 6", RWND + 1, 2 * RWND - 1,
                 "very accurately"),
    Claim(
        "fig10.model-n", "§IV.C, Figs 9-10",
        "1 up + n down, B = 100: the model's ratio (eqs 7-9) is within 25 % of the "
        "simulated one at every n > 1",
        Every(Within("the simulated ratio", "eqs 7-9", tol=0.25), "n"),
        _model_n, kind="model vs simulation", paper="nicely matches (802.11b)",
        premise=Test("the ratio grows with n", Trend("up/down ratio", "n", "up"),
                     lambda t: p3._trend(t["fig6_runs"], "n", "ratio"), kind="simulation"),
        explain=lambda t, _o: _aggregates(t, "fig6", "with 1 up + n down"),
    ),
]  # fmt: skip

#: the paper's headline questions, asked of this cell
HEADLINE = ("fig2.unfair-below-w", "fig7.hundreds", "fig11.one-to-one", "fig11.total-maintained")


# --------------------------------------------------------------------------- figures


def _no_aggregation(tables, name: str, key: str) -> pd.DataFrame | None:
    """The per-point means of sweep `name` without aggregation (MSS 1024), from the
    sensitivity runs; None without them."""
    if "sensitivity_runs" not in tables:
        return None
    s = tables["sensitivity_runs"]
    label = next(iter(SENSITIVITY))
    g = s[(s["setting"] == label) & (s["figure"] == name)]
    return p3._summary(g, key, ["ratio", "goodput_bps"])


def plot(tables: dict[str, pd.DataFrame], out: Path, plan: Plan) -> list[str]:
    from matplotlib.figure import Figure

    files = []
    single = "single MPDUs, mean ± 95 % CI"
    for name, key, title, log, model in (
        ("fig2", "B", "1 up + 1 down against the AP buffer B", True, True),
        ("fig6", "n", "1 up + n down, B = 100", False, True),
        ("fig7", "n", "n up + n down, B = 100", True, False),
        ("fig11", "n", "n up + n down, window rewritten to ⌊B/n⌋", False, False),
    ):
        t = tables[name]
        fig = Figure(figsize=(6.4, 4.2))
        ax = fig.subplots()
        p3._errorbars(ax, t, key, "ratio", "A-MPDU, mean ± 95 % CI", fmt="o-")
        other = _no_aggregation(tables, name, key)
        if other is not None:
            p3._errorbars(ax, other, key, "ratio", single, fmt="s--", color="tab:gray")
        if model:
            ax.plot(t[key], t["model"], "-", color="tab:orange", label="model (eqs 3-9)")
        if log:
            ax.set_yscale("log")
        ax2 = ax.twinx()
        ax2.plot(t[key], t["goodput_bps"] / 1e6, "k:", lw=1)
        if other is not None:
            ax2.plot(other[key], other["goodput_bps"] / 1e6, ":", color="tab:gray", lw=1)
        ax2.set_ylabel("total goodput (Mb/s, dotted)")
        ax2.set_ylim(0, None)
        ax.set(xlabel="AP buffer B (packets)" if key == "B" else "n", ylabel="up/down ratio",
               title=f"802.11ac MCS 9, 80 MHz: {title}")  # fmt: skip
        ax.legend(fontsize=7, loc="upper left" if name != "fig2" else "upper right")
        fig.tight_layout()
        fig.savefig(out / f"{name}_11ac.png", dpi=110)
        files.append(f"{name}_11ac.png")
    return files


# --------------------------------------------------------------------------- report


def sections(tables: dict[str, pd.DataFrame], plan: Plan, verdicts) -> list[str]:
    cols = ["runs", "ratio", "ratio_ci", "goodput_bps", "ap_mpdus_per_access", "ap_loss_data",
            "ap_loss_ack", "timeouts"]  # fmt: skip
    lines = [
        "## An extension, not a reproduction",
        "",
        "The paper studied 802.11b; this report asks its statements of an 802.11ac cell "
        "with A-MPDU, which it never ran. Its printed values are of another cell and are "
        "shown for orientation only (the paper column): no statement is tested against "
        "them, and no ns-2.35 column exists (ns-2.35 has no 802.11ac). A statement that "
        "holds here carries over to this cell; one that does not, does not.",
        "",
        "## The sweeps",
        "",
        "Means over the runs (`_ci`: 95 % half-width); `ap_mpdus_per_access`: the AP's "
        "data and ACK frames over its transmission attempts (1 without aggregation); "
        "`model`: the ratio of §IV's model (eqs 3-9, w = 42, α = 1).",
        "",
    ]
    for name, key in (("fig2", "B"), ("fig6", "n"), ("fig7", "n"), ("fig11", "n")):
        t = tables[name]
        keep = [key, *cols, *(["model"] if "model" in t else [])]
        v = t[keep].copy()
        v["goodput_bps"] = v["goodput_bps"] / 1e6
        v = v.rename(columns={"goodput_bps": "total Mb/s"})
        lines += [f"`{name}`:", "", *markdown_table(v, 2), ""]
    g = verdict_grid(CLAIMS, MAIN_LABEL, tables, readings(tables, plan))
    if g is not None:
        lines += [
            "## Every statement under every value tried of the open parameters",
            "",
            *grid_markdown(g),
            "",
        ]
    return lines


reproduce = study_reproduce(__name__)
