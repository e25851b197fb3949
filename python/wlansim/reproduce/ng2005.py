"""ng2005, Section 4 (UDP): the effect of TXOP, AIFS and CWmin on two saturated stations;
the TCP figures (1-2, 6-9) are in :mod:`wlansim.reproduce.ng2005_tcp`, and
:func:`reproduce` runs both.

A. Ng, D. Malone, D. Leith, "Experimental evaluation of TCP performance and fairness in
an 802.11e test-bed", ACM SIGCOMM E-WIND 2005. Two stations send saturated 1400-byte UDP
uploads on 802.11b at 11 Mb/s, RTS/CTS off; station 1 keeps the default parameters while
one parameter of station 2 is swept; the figure plots station 2's throughput over
station 1's. Each point is simulated (mean and 95% CI over replications, through
:class:`wlansim.campaign.Campaign`) and set beside :mod:`wlansim.models.edca`.

Mapping of the paper's units to the standard's (stated in :func:`base_scenario`):

- ng2005 counts AIFS in slots *beyond DIFS* ("zero slots" is the default): AIFS = DIFS +
  k·slot, i.e. **AIFSN = 2 + k** (DIFS = SIFS + 2·slot).
- ng2005's CWmin is the size of the drawing range [0, CW − 1] ("32 slots"; powers of
  two); the standard draws in [0, CW] with CW = 2^k − 1: **CWmin(ours) = CWmin(ng2005) − 1**.
- TXOP is a time limit in µs (MadWiFi); 0 = one frame exchange.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pandas as pd

from wlansim.campaign import Campaign, Space
from wlansim.campaign.executors import run_scenario
from wlansim.errors import ScenarioError
from wlansim.models import edca as model
from wlansim.phy import timing as phy_timing
from wlansim.reproduce import CAMPAIGNS_DIR, ng2005_tcp
from wlansim.scenario import resolve

PAYLOAD = 1400
TXOP_KEY = "stations.sta2.edca.be.txop"
AIFSN_KEY = "stations.sta2.edca.be.aifsn"
CWMIN_KEY = "stations.sta2.edca.be.cw_min"
#: the defaults both stations start from (ng2005's "zero slots", CWmin "32", TXOP 0)
DEFAULT_AC = {"aifsn": 2, "cw_min": 31, "cw_max": 1023, "txop": "0 us"}

CLAIMS = {
    "fig3": "Relative throughput increases in steps at multiples of the duration of one "
    "packet's transmission, about 1270 µs apart for 1400-byte UDP at 11 Mb/s.",
    "fig4": "AIFS has a strong impact on relative throughput; the Battiti-Li model agrees "
    "for AIFS ≤ 10 slots and becomes inaccurate beyond.",
    "fig5": "Throughput is roughly inversely proportional to CWmin; measurements agree well "
    "with the analytic model.",
}


def base_scenario(duration: str = "60 s") -> dict:
    """Two QoS stations, saturated 1400-byte UDP uplinks in AC_BE, 802.11b 11 Mb/s (long
    preamble, 1 Mb/s control rate: the preset), RTS/CTS off, 10-packet interface queues
    (ng2005 Table 1). Both start at AIFSN 2 (= DIFS: ng2005's zero extra slots), CWmin 31
    (ng2005's 32), TXOP limit 0."""
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
        "phy": {"standard": "802.11b", "data_rate": "11 Mb/s"},
        "mac": {"rts_threshold": "off"},
        "stations": groups,
        "flows": flows,
    }


def run_pair(scenario: dict, seed: int) -> dict:
    """Campaign run function: one simulation plus the metric ``relative_throughput``
    (station 2's throughput over station 1's)."""
    out = run_scenario(scenario, seed)
    thr = {f["name"]: f["throughput_bps"] for f in out["flows"]}
    out["metrics"]["relative_throughput"] = thr["up2-0"] / thr["up1-0"]
    return out


def exchange_step_us() -> float:
    """Width of one TXOP step: one exchange (DATA + SIFS + ACK) plus the SIFS before the
    next, in µs."""
    t = phy_timing("802.11b", PAYLOAD)
    return (model.exchange_time(t) + t["sifs_s"]) * 1e6


def sweeps(quick: bool) -> dict[str, tuple[str, list]]:
    """Figure → (swept key, values)."""
    step = exchange_step_us()
    if quick:
        # either side of the edges where 2, 3, 4 exchanges start to fit: k·step − SIFS
        edges = [k * step - 10 for k in (2, 3, 4)]
        txop = [0] + [round(e + s) for e in edges for s in (-150, 150)]
        aifs = [0, 1, 2, 4, 8]
        cw = [7, 15, 31, 63, 127, 255]
    else:
        txop = list(range(0, 8001, 200))
        aifs = list(range(0, 14))
        cw = [2**k - 1 for k in range(1, 11)]
    return {
        "fig3": (TXOP_KEY, [f"{v} us" for v in txop]),
        "fig4": (AIFSN_KEY, [2 + k for k in aifs]),
        "fig5": (CWMIN_KEY, cw),
    }


def _model_ratio(fig: str, value) -> float:
    t = phy_timing("802.11b", PAYLOAD)
    # the model counts the scenario's dot11ShortRetryLimit: it matters where a station
    # collides most of the time (Fig 5 at CWmin 2)
    retry_limit = resolve(base_scenario())["mac"]["short_retry_limit"]
    station = partial(model.EdcaClass, 1, cw_min=31, cw_max=1023, aifsn=2, retry_limit=retry_limit)
    if fig == "fig3":
        other = station(txop_frames=model.frames_per_txop(float(value.split()[0]) * 1e-6, t))
    elif fig == "fig4":
        other = station(aifsn=int(value))
    else:
        other = station(cw_min=int(value), cw_max=max(int(value), 1023))
    return model.relative_throughput(station(), other, t)


def simulate(
    fig: str,
    quick: bool,
    store: Path,
    reps: int,
    duration: str,
    jobs: int | None,
    progress: bool = False,
) -> pd.DataFrame:
    """One figure: per swept value, the simulated relative throughput (mean, CI) and the
    model's."""
    key, vals = sweeps(quick)[fig]
    campaign = Campaign(
        base_scenario(duration),
        Space.grid({key: vals}),
        reps=reps,
        store=store / fig,
        run_fn=run_pair,
    )
    campaign.run(jobs=jobs, progress=progress, label=f"ng2005 {fig} runs")
    s = campaign.summary("relative_throughput")
    rows = []
    for v, mean, lo, hi in zip(s[key], s["mean"], s["ci95_low"], s["ci95_high"]):
        m = _model_ratio(fig, v)
        rows.append(
            {
                "x": _x(fig, v),
                "sim": mean,
                "ci95_low": lo,
                "ci95_high": hi,
                "model": m,
                "error": mean / m - 1,
            }
        )
    return pd.DataFrame(rows)


def _x(fig: str, value) -> float:
    """The figure's x value in the paper's units: TXOP µs, extra AIFS slots, ng2005 CWmin."""
    if fig == "fig3":
        return float(value.split()[0])
    if fig == "fig4":
        return int(value) - 2
    return int(value) + 1


XLABEL = {
    "fig3": "TXOP of station 2 (µs)",
    "fig4": "AIFS of station 2 (slots beyond DIFS)",
    "fig5": "CWmin of station 2 (ng2005 units: CW + 1)",
}


def checks(tables: dict[str, pd.DataFrame]) -> dict[str, str]:
    """Our numbers for each of the paper's claims."""
    out = {}
    step = exchange_step_us()
    t = phy_timing("802.11b", PAYLOAD)
    f3 = tables["fig3"]
    out["fig3"] = (
        f"steps every {step:.0f} µs: one exchange (DATA {t['data_frame_s'] * 1e6:.0f} µs + "
        f"SIFS + ACK {t['ack_s'] * 1e6:.0f} µs at 1 Mb/s) plus the SIFS before the next; the "
        "paper's 1270 µs is close to the DATA frame alone; "
        f"max |sim/model − 1| = {f3['error'].abs().max():.1%}; plateaus (frames per TXOP → "
        "sim): "
        + ", ".join(
            f"{frames:.0f} → {sim:.2f}"
            for frames, sim in f3.groupby(f3["model"].round())["sim"].mean().items()
        )
    )
    f4 = tables["fig4"]
    mono = all(b < a for a, b in zip(f4["sim"], f4["sim"][1:]))
    out["fig4"] = (
        f"falls {'monotonically' if mono else 'NOT monotonically'} from "
        f"{f4['sim'].iloc[0]:.2f} to {f4['sim'].iloc[-1]:.3f}; max |sim/model − 1| = "
        f"{f4['error'].abs().max():.1%} (zone model, not Battiti-Li)"
    )
    f5 = tables["fig5"]
    inv = f5["sim"] * f5["x"] / 32
    out["fig5"] = (
        f"sim × CWmin/32 in [{inv.min():.2f}, {inv.max():.2f}] (1 = inversely proportional); "
        f"max |sim/model − 1| = {f5['error'].abs().max():.1%}"
    )
    return out


def plot(fig: str, df: pd.DataFrame, path: Path) -> None:
    from matplotlib.figure import Figure

    f = Figure(figsize=(6, 4))
    ax = f.subplots()
    yerr = [df["sim"] - df["ci95_low"], df["ci95_high"] - df["sim"]]
    ax.errorbar(df["x"], df["sim"], yerr=yerr, fmt="o", capsize=3, label="wlansim")
    ax.plot(df["x"], df["model"], "-", drawstyle="steps-post" if fig == "fig3" else "default",
            label="EDCA model")  # fmt: skip
    if fig == "fig5":
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
    ax.set_xlabel(XLABEL[fig])
    ax.set_ylabel("throughput station 2 / station 1")
    ax.set_title(f"ng2005 {fig.replace('fig', 'Fig ')}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    f.tight_layout()
    f.savefig(path, dpi=120)


#: Why this study runs the standard's rules only.
TESTBED = (
    "ng2005 measured a hardware test-bed (MadWiFi 802.11e cards, Linux TCP), not ns-2, so its "
    'figures run the standard\'s rules (`profile = "standard"`) only'
)


def reproduce(
    out: str | Path,
    quick: bool = False,
    jobs: int | None = None,
    progress: bool = False,
    profile: str = "standard",
) -> Path:
    """Run Figs 3-5 and the TCP figures (1-2, 6-9), write CSV, PNG and ``report.md`` to
    ``out``; return the report's path. Each sweep is a campaign stored under
    ``out/campaigns`` (reused on a second call); ``jobs`` worker processes (default: all
    cores); ``progress``: a progress bar per campaign on stderr."""
    if profile != "standard":
        raise ScenarioError(f"--profile {profile}: {TESTBED}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    reps, duration = (2, "20 s") if quick else (5, "120 s")
    tables = {}
    for fig in ("fig3", "fig4", "fig5"):
        df = simulate(fig, quick, out / CAMPAIGNS_DIR, reps, duration, jobs, progress)
        df.to_csv(out / f"{fig}.csv", index=False)
        plot(fig, df, out / f"{fig}.png")
        tables[fig] = df
    ours = checks(tables)
    lines = [
        "# ng2005 Section 4 (UDP): TXOP, AIFS, CWmin",
        "",
        f"{'Quick' if quick else 'Full'} mode: {reps} replications of {duration} per point "
        "(1 s warm-up). Two saturated 1400-byte UDP stations, 802.11b 11 Mb/s, RTS/CTS "
        "off; AIFSN = 2 + ng2005's extra slots; CWmin = ng2005's − 1. "
        "Model: wlansim.models.edca (Bianchi per class with AIFS zones).",
        "",
        f"Profile: `standard` for every figure: {TESTBED}.",
        "",
        "| figure | paper | wlansim |",
        "|---|---|---|",
    ]
    for fig in ("fig3", "fig4", "fig5"):
        lines.append(f"| {fig} ![]({fig}.png) | {CLAIMS[fig]} | {ours[fig]} |")
    for fig, df in tables.items():
        lines.append(f"- {fig}: largest |sim/model − 1| = {df['error'].abs().max():.1%}")
    lines += ["", *ng2005_tcp.reproduce(out, quick, jobs, progress)]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return out / "report.md"
