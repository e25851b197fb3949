"""Reproduction of miorandi2004 (D. Miorandi, A. A. Kherani, E. Altman, "A Queueing Model
for HTTP Traffic over IEEE 802.11 WLANs", 2004): Tables 2-3 and Figs 1-5, 7-10 and 13.

Setup from the paper's text (Table 1 and section 4): 802.11b, RTS/CTS on every frame,
data at 11 Mb/s, control frames at 2 Mb/s, long preamble, TCP segments of 1000 bytes
(L_TCP = 8000 bits), downloads from a server behind the AP, each file on a fresh
connection with its three-way handshake, ns-2's padding of the last segment (footnote
1), no FIN (footnote 1), think times exponential (each station starts with one, so the
stations do not all request their first file at once), file sizes Pareto (shape 1.5) or
exponential of mean 30 KB, AP buffer large enough for no drops. What the paper leaves
open is fixed here and listed in the report: TCP is our ns-2 profile (NewReno, min RTO
0.2 s, 10 ms clock, no timestamps), the server's wired link is 100 Mb/s with 0.1 ms
delay (the model neglects propagation), 30 KB = 30,000 B, the AP queue holds 10,000
packets, the delayed-ACK timer of Table 2 / Fig 7 runs is ns-2's 100 ms.

Sessions are run one scenario per point and seed (``wlansim.run``); the mean session
delay's 95 % interval is by batch means over the sessions of the run
(:mod:`wlansim.session_stats`), as the paper gives one interval per point.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import numpy as np
import pandas as pd

import wlansim
from wlansim.models import miorandi as model
from wlansim.reproduce import profile_section, with_profile

MSS = 1000
MEAN_BYTES = 30_000
SHAPE = 1.5


def scenario(
    n: int,
    *,
    size: str = "pareto",
    w_star: int = 1,
    files: int | None = 300,
    think: str | None = "10 s",
    d: int = 1,
    dynamic: bool = False,
    delack_timeout: str = "100 ms",
    sizes: list[int] | None = None,
    duration: str = "10000 s",
) -> dict:
    """`n` stations downloading `files` files each (None: without end) from one server
    through an 802.11b AP (the paper's setting); `size`: "pareto" (shape 1.5) or
    "exponential" (mean 30 KB), or explicit `sizes` (the same list for every station);
    `w_star`: the advertised window in segments; `d`: the delayed-ACK count (initial window = d)."""
    if sizes is not None:
        dist: dict = {"sizes": sizes}
    elif size == "pareto":
        dist = {"size": {"distribution": "pareto", "shape": SHAPE, "mean": MEAN_BYTES}}
    elif size == "exponential":
        dist = {"size": {"distribution": "exponential", "mean": MEAN_BYTES}}
    else:
        raise ValueError(f"size must be 'pareto' or 'exponential', got {size!r}")
    if files is not None and sizes is None:
        dist["count"] = files
    if think is not None:
        dist["think"] = {"distribution": "exponential", "mean": think}
    tcp = {
        "profile": "ns2-compat",
        "variant": "newreno",
        "mss": MSS,
        "rwnd": w_star,
        "delayed_ack_timeout": delack_timeout,
        "initial_window": "d",
    }
    if dynamic:
        tcp["dynamic_delayed_ack"] = True
    else:
        tcp["delayed_ack"] = d
    return {
        "name": f"miorandi2004-{n}sta-{size}-w{w_star}",
        "duration": duration,
        "phy": {"standard": "802.11b", "data_rate": "11 Mb/s", "control_rate": "2 Mb/s"},
        "mac": {"rts_threshold": 0},
        "ap": {"queue": 10_000},
        "tcp": tcp,
        "stations": [{"name": "sta", "count": n}],
        "servers": [{"name": "web", "delay": "0.1 ms", "queue": 10_000}],
        "flows": [
            {
                "name": "get",
                "protocol": "tcp",
                "direction": "downlink",
                "stations": "sta",
                "server": "web",
                "files": {
                    **dist,
                    "new_connection": True,
                    "pad_last_segment": True,
                    "think_first": think is not None,
                },
            }
        ],
    }


def _run(s: dict, plan: Plan, seed: int = 1):
    """Run `s` under the plan's profile."""
    return wlansim.run(with_profile(s, plan.profile), seed=seed)


def sessions_of(s: dict, plan: Plan) -> tuple[pd.DataFrame, dict]:
    """Run `s`: its sessions table and session metrics."""
    r = _run(s, plan)
    return r.sessions, r.session_summary()


@dataclasses.dataclass(frozen=True)
class Plan:
    files_single: int  # Tables 2 and 3 (paper: 10,000)
    files_per_station: int  # Figs 7-10 (paper: 300)
    stations: list[int]  # Figs 7 and 10
    ds: list[int]  # Figs 3, 5, 13 and Table 3
    throughput_duration: str  # Figs 1-5, 13
    backlogged: list[int]  # Figs 1-2
    connections: list[int]  # Fig 4
    thinks: list[float]  # Fig 8 (s)
    windows: list[int]  # Fig 9
    profile: str = "standard"  # the rules every run follows

    @classmethod
    def of(cls, quick: bool, profile: str = "standard") -> Plan:
        if quick:
            return cls(
                300, 20, [1, 6, 11], [1, 2, 3], "5 s", [2, 10], [1, 5], [2.0, 10.0], [5, 30, 35],
                profile,
            )  # fmt: skip
        return cls(
            10_000,
            300,
            [1, 6, 11, 16, 21, 26, 31],
            [1, 2, 3, 4, 5],
            "60 s",
            [2, 5, 10, 15, 20, 30, 40, 50],
            [1, 2, 5, 10, 15, 20, 30],
            [1.0, 2.0, 5.0, 10.0, 20.0, 40.0],
            [5, 10, 15, 20, 25, 30, 35],
            profile,
        )


def _long(plan: Plan) -> str:
    """Long enough for every file of a single-station run (think 1 s + about 0.1 s each;
    Pareto elephants take longer): 2 s per file."""
    return f"{2 * plan.files_single + 100} s"


def table2(plan: Plan) -> pd.DataFrame:
    """Single station, Pareto files, W* = 1 and W* = 1000, beside eq 14 (padded) averaged
    over the same sizes."""
    rows = []
    for w in (1, 1000):
        s = scenario(1, w_star=w, files=plan.files_single, think="1 s", duration=_long(plan))
        sess, m = sessions_of(s, plan)
        eq14 = float(np.mean(model.session_delay_single(sess["bytes"] * 8.0, padded=True)))
        rows.append(
            {
                "w_star": w,
                "sessions": len(sess),
                "delay_s": m["session_delay_mean_s"],
                "ci95_s": m["session_delay_ci95_s"],
                "setup_s": m["session_setup_mean_s"],
                "mean_bytes": float(sess["bytes"].mean()),
                "eq14_s": eq14,
                "eq15_s": float(model.session_delay_affine(MEAN_BYTES * 8.0)),
                "eq13_setup_s": model.setup_time(),
            }
        )
    return pd.DataFrame(rows)


def fig7(plan: Plan) -> pd.DataFrame:
    """Mean session delay vs stations: Pareto and exponential, W* = 1 and 1000, beside
    eqs 16-17."""
    rows = []
    for n in plan.stations:
        engset = model.session_delay_engset(n, MEAN_BYTES * 8.0, 10.0)
        for size in ("pareto", "exponential"):
            for w in (1, 1000):
                s = scenario(n, size=size, w_star=w, files=plan.files_per_station)
                sess, m = sessions_of(s, plan)
                rows.append(
                    {
                        "stations": n,
                        "size": size,
                        "w_star": w,
                        "sessions": len(sess),
                        "delay_s": m["session_delay_mean_s"],
                        "ci95_s": m["session_delay_ci95_s"],
                        "mice_s": m["session_delay_mice_s"],
                        "elephants_s": m["session_delay_elephants_s"],
                        "mean_bytes": float(sess["bytes"].mean()),
                        "engset_s": engset,
                    }
                )
    return pd.DataFrame(rows)


def fig3(plan: Plan) -> pd.DataFrame:
    """Single persistent download, W* = 1000, throughput vs d: eqs 7-8 beside simulation."""
    rows = []
    for d in plan.ds:
        s = scenario(1, w_star=1000, d=d, delack_timeout="40 ms", duration=plan.throughput_duration)
        flow = s["flows"][0]
        del flow["files"]
        s["warmup"] = "1 s"
        r = _run(s, plan)
        rows.append(
            {
                "d": d,
                "goodput_bps": r.metrics["goodput_bps"],
                "eq7_8_bps": model.tcp_throughput_single(d),
            }
        )
    return pd.DataFrame(rows)


def persistent(n: int, *, w_star: int, d: int = 1, duration: str) -> dict:
    """`n` stations, each with one persistent TCP download (no files), 1 s warm-up."""
    s = scenario(n, w_star=w_star, d=d, delack_timeout="40 ms", duration=duration)
    del s["flows"][0]["files"]
    s["warmup"] = "1 s"
    return s


def fig1_2(plan: Plan) -> pd.DataFrame:
    """Collision and drop probability vs backlogged nodes: eqs 1-2 (and P_drop = P_C^m)
    beside saturated stations sending 1000-byte segments' worth of UDP with RTS/CTS (the
    paper's Table 1 MAC, retry limit m = 7 on the RTS)."""
    rows = []
    for n_b in plan.backlogged:
        s = scenario(n_b, duration=plan.throughput_duration)
        s["warmup"] = "1 s"
        s["flows"] = [
            {"name": "up", "direction": "uplink", "stations": "sta", "traffic": "saturated",
             "packet_size": MSS}
        ]  # fmt: skip
        del s["servers"]
        nodes = _run(s, plan).nodes
        sta = nodes[nodes["role"] == "station"]
        p_c, _ = model.collision_probability(n_b)
        tries = float(sta["successes"].sum() + sta["retry_drops"].sum())
        rows.append(
            {
                "n_b": n_b,
                "attempts": int(sta["attempts"].sum()),
                "p_collision": float(sta["collisions"].sum() / sta["attempts"].sum()),
                "p_collision_model": p_c,
                "p_drop": float(sta["retry_drops"].sum()) / tries,
                "p_drop_model": p_c ** model.TABLE1["m"],
            }
        )
    return pd.DataFrame(rows)


def fig4(plan: Plan) -> pd.DataFrame:
    """Aggregate throughput of n_c persistent downloads (W* = 1 and 1000, d = 1) beside
    the collision model (eq 10) and the collision-free model (eq 9)."""
    rows = []
    for n_c in plan.connections:
        row = {
            "n_c": n_c,
            "eq10_collision_bps": n_c * float(model.tcp_throughput_collision(n_c, 1)),
            "eq9_collision_free_bps": n_c * float(model.tcp_throughput_collision_free(n_c, 1)),
        }
        for w in (1, 1000):
            r = _run(persistent(n_c, w_star=w, duration=plan.throughput_duration), plan)
            row[f"goodput_w{w}_bps"] = r.metrics["goodput_bps"]
            row[f"p_collision_w{w}"] = r.metrics["collision_probability"]
        rows.append(row)
    return pd.DataFrame(rows)


def fig5(plan: Plan) -> pd.DataFrame:
    """Aggregate throughput of n_c = 10 persistent downloads vs d (W* = 1000, τ = 40 ms,
    initial window d) beside eqs 11-12."""
    rows = []
    for d in plan.ds:
        s = persistent(10, w_star=1000, d=d, duration=plan.throughput_duration)
        r = _run(s, plan)
        rows.append(
            {
                "d": d,
                "goodput_bps": r.metrics["goodput_bps"],
                "eq12_collision_bps": 10 * float(model.tcp_throughput_collision(10, d)),
                "eq11_collision_free_bps": 10 * float(model.tcp_throughput_collision_free(10, d)),
            }
        )
    return pd.DataFrame(rows)


def fig13(plan: Plan) -> pd.DataFrame:
    """Single persistent download vs d with W* = d and W* = 1000: eqs 7-8 (W* >> d) and,
    at d = 1, eq 20 for W* = 1."""
    rows = []
    for d in plan.ds:
        row = {"d": d, "eq7_8_bps": model.tcp_throughput_single(d)}
        row["eq20_bps"] = model.tcp_throughput_window(1) if d == 1 else float("nan")
        for label, w in (("w_eq_d", d), ("w1000", 1000)):
            s = persistent(1, w_star=w, d=d, duration=plan.throughput_duration)
            row[f"goodput_{label}_bps"] = _run(s, plan).metrics["goodput_bps"]
        rows.append(row)
    return pd.DataFrame(rows)


def _session_row(s: dict, plan: Plan, **keys) -> dict:
    sess, m = sessions_of(s, plan)
    return {
        **keys,
        "sessions": len(sess),
        "delay_s": m["session_delay_mean_s"],
        "ci95_s": m["session_delay_ci95_s"],
        "mean_bytes": float(sess["bytes"].mean()),
        "timeouts": int(sess["timeouts"].sum()),
    }


def fig8(plan: Plan, f4: pd.DataFrame) -> pd.DataFrame:
    """Mean session delay vs mean think time: 11 stations (the paper's n = 11, read as
    stations as in Fig 7), W* = 1, Pareto files, beside eqs 16-17 as the paper takes them
    (30 KB, C_k from the collision model) and with what our runs measured (the run's mean
    file size, C_k = the aggregate goodput of k persistent W* = 1 connections of Fig 4,
    interpolated in k)."""
    k = np.arange(1, 12, dtype=float)
    measured = np.interp(k, f4["n_c"], f4["goodput_w1_bps"])
    rows = []
    for think in plan.thinks:
        s = scenario(11, w_star=1, files=plan.files_per_station, think=f"{think} s")
        row = _session_row(s, plan, think_s=think)
        row["engset_s"] = model.session_delay_engset(11, MEAN_BYTES * 8.0, think)
        row["engset_measured_s"] = model.session_delay_engset(
            11, row["mean_bytes"] * 8.0, think, capacity=measured
        )
        rows.append(row)
    return pd.DataFrame(rows)


def fig9(plan: Plan) -> pd.DataFrame:
    """Mean session delay vs W* with an AP buffer of B = 30 packets, 21 stations, Pareto
    files, think 10 s (drops and timeouts now happen)."""
    rows = []
    for w in plan.windows:
        s = scenario(21, w_star=w, files=plan.files_per_station)
        s["ap"]["queue"] = 30
        rows.append(_session_row(s, plan, w_star=w))
    return pd.DataFrame(rows)


def fig10(plan: Plan) -> pd.DataFrame:
    """Mean session delay vs stations with delayed ACK d = 1, 2, 3 and the dynamic scheme
    (W* = 1000, τ = 40 ms, initial window d), Pareto files, think 10 s."""
    rows = []
    for n in plan.stations:
        for d in [*plan.ds[:3], "dynamic"]:
            s = scenario(
                n,
                w_star=1000,
                files=plan.files_per_station,
                d=1 if d == "dynamic" else d,
                dynamic=d == "dynamic",
                delack_timeout="40 ms",
            )
            rows.append(_session_row(s, plan, stations=n, d=str(d)))
    return pd.DataFrame(rows)


#: Table 3 of the paper: d -> (mean, ci low, ci high) in seconds; the dynamic scheme last.
TABLE3_PAPER = {
    "1": (0.1064, 0.0928, 0.1199),
    "2": (0.1044, 0.0934, 0.1154),
    "3": (0.1053, 0.0951, 0.1156),
    "4": (0.1043, 0.0945, 0.1141),
    "5": (0.1090, 0.0993, 0.1188),
    "dynamic": (0.1080, 0.0980, 0.1180),
}
TABLE2_PAPER = {1: (0.1099, 0.0956, 0.1243), 1000: (0.1064, 0.0928, 0.1199), "eq14": 0.1095}


def table3(plan: Plan) -> pd.DataFrame:
    """Single station, d = 1..5 with tau = 40 ms and the dynamic scheme, W* = 1000,
    Pareto files, initial window = d; and the same with tau = 5 ms (the paper's advice to
    tune the timer). Every d downloads the same files (the sizes come from their own
    streams), so differences between rows are paired."""
    rows = []
    for d in [*plan.ds, "dynamic"]:

        def run(tau: str, d=d) -> dict:
            s = scenario(
                1,
                w_star=1000,
                files=plan.files_single,
                think="1 s",
                d=1 if d == "dynamic" else d,
                dynamic=d == "dynamic",
                delack_timeout=tau,
                duration=_long(plan),
            )
            return _session_row(s, plan, d=str(d))

        row = run("40 ms")
        row["delay_tau5ms_s"] = run("5 ms")["delay_s"]
        rows.append(row)
    return pd.DataFrame(rows)


def report(tables: dict[str, pd.DataFrame], plan: Plan, wall_s: float) -> str:
    t2, f7, f3, t3 = tables["table2"], tables["fig7"], tables["fig3"], tables["table3"]
    lines = [
        "# miorandi2004 reproduction",
        "",
        f"Plan: {plan}. Wall time {wall_s:.0f} s.",
        "",
        *profile_section(
            plan.profile,
            "standard",
            "the paper's model is of the 802.11 DCF and TCP's window (eqs 1-20), which the "
            "standard's rules are; its simulator's are run with the other profile.",
        ),
        "Parameters the paper leaves open, fixed here: TCP NewReno (ns-2's parameters: min",
        "RTO 0.2 s, 10 ms clock, no timestamps), server link 100 Mb/s with 0.1 ms one-way delay,",
        "30 KB = 30,000 B, AP and server queues of 10,000 packets (no drops), delayed-ACK",
        "timer 100 ms (40 ms in Table 3 and Fig 3), every file on a fresh connection, last",
        "segment padded (footnote 1), no FIN (the paper neglects it; wlansim does not model",
        "teardown). Session delay: request to last byte acknowledged (what eq 14 counts).",
        "",
        "## Table 2: single station, Pareto files",
        "",
        "| W* | sessions | ours (s) | ours 95 % CI | paper (s) | paper CI | eq 14 on our sizes |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, r in t2.iterrows():
        p = TABLE2_PAPER[int(r["w_star"])]
        lines.append(
            f"| {int(r['w_star'])} | {int(r['sessions'])} | {r['delay_s']:.4f} | "
            f"±{r['ci95_s']:.4f} | {p[0]:.4f} | [{p[1]:.4f}, {p[2]:.4f}] | {r['eq14_s']:.4f} |"
        )
    w1 = t2[t2["w_star"] == 1].iloc[0]
    lines += [
        "",
        f"Eq 15 at the mean 30 KB: {w1['eq15_s']:.4f} s (paper's analytical 0.1095 s). "
        f"Our mean file size {w1['mean_bytes']:.0f} B (Pareto β = 1.5 converges slowly); "
        f"eq 14 evaluated on the simulated sizes is the fair comparison. Setup: ours "
        f"{w1['setup_s'] * 1e3:.2f} ms, eq 13 {w1['eq13_setup_s'] * 1e3:.2f} ms (eq 13 omits "
        "RTS/CTS and the MAC header of the SYN frames; ours sends them, as every frame here).",
        "",
        "## Fig 7: mean session delay vs stations (think 10 s)",
        "",
        "| stations | size | W* | sessions | delay (s) | ±95 % | mice (s) | elephants (s) "
        "| eqs 16-17 (s) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for _, r in f7.iterrows():
        lines.append(
            f"| {int(r['stations'])} | {r['size']} | {int(r['w_star'])} | {int(r['sessions'])} | "
            f"{r['delay_s']:.4f} | {r['ci95_s']:.4f} | {r['mice_s']:.4f} | "
            f"{r['elephants_s']:.4f} | {r['engset_s']:.4f} |"
        )

    def delay(n, size, w):
        sel = f7[(f7["stations"] == n) & (f7["size"] == size) & (f7["w_star"] == w)]
        return float(sel["delay_s"].iloc[0])

    claims = []
    for n in sorted(set(f7["stations"])):
        p1, e1, p1000 = delay(n, "pareto", 1), delay(n, "exponential", 1), delay(n, "pareto", 1000)
        claims.append(
            f"- n = {n}: Pareto/exponential at W* = 1: {p1 / e1:.3f} (paper: ≈ 1); "
            f"Pareto W* = 1000 / W* = 1: {p1000 / p1:.3f} (paper: much higher than 1, "
            f"{'holds' if p1000 > 1.2 * p1 else 'NOT reproduced'})."
        )
    lines += [
        "",
        "Paper's claims: W* = 1 gives similar delays for Pareto and exponential files and",
        "matches eqs 16-17; for Pareto files W* = 1000 gives a much higher delay.",
        "",
        *claims,
        "",
        "The delay of a Pareto run also moves with the run's own mean file size (β = 1.5",
        "converges slowly; column mean_bytes of fig7.csv). The W* = 1000 penalty needs",
        "overlapping sessions: with think times of 10 s and few stations an elephant seldom",
        "holds the FIFO AP queue while mice arrive, and W* = 1000's pipelining wins slightly;",
        "with more stations the penalty appears (the lines above say from which n). A seed",
        "decides much, since the elephants that cause it are rare (Pareto β = 1.5);",
        "tests/test_reproduce_miorandi2004.py asserts it at n = 31 over two seeds.",
        "",
        "## Fig 3: single-station throughput vs d (W* = 1000, τ = 40 ms)",
        "",
        "| d | ours (Mb/s) | eqs 7-8 (Mb/s) |",
        "|---|---|---|",
    ]
    for _, r in f3.iterrows():
        lines.append(
            f"| {int(r['d'])} | {r['goodput_bps'] / 1e6:.3f} | {r['eq7_8_bps'] / 1e6:.3f} |"
        )
    lines += [
        "",
        "## Table 3: single station, delayed ACK (τ = 40 ms, W* = 1000, initial window = d)",
        "",
        "| d | sessions | ours (s) | ±95 % | vs d = 1 | sender timeouts | paper (s) "
        "| ours, τ = 5 ms (s) | vs d = 1 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    base = t3[t3["d"] == "1"].iloc[0]
    others = t3[t3["d"] != "1"]
    lo, hi = others["delay_s"].min(), others["delay_s"].max()
    best = t3.loc[t3["delay_s"].idxmin(), "d"]
    paper_d = [v[0] for k, v in TABLE3_PAPER.items() if k != "1"]
    for _, r in t3.iterrows():
        p = TABLE3_PAPER[r["d"]]
        paper = f"{p[0]:.4f} [{p[1]:.4f}, {p[2]:.4f}]"
        lines.append(
            f"| {r['d']} | {int(r['sessions'])} | {r['delay_s']:.4f} | {r['ci95_s']:.4f} | "
            f"{_pct(r['delay_s'], base['delay_s'])} | {int(r['timeouts'])} | {paper} | "
            f"{r['delay_tau5ms_s']:.4f} | {_pct(r['delay_tau5ms_s'], base['delay_tau5ms_s'])} |"
        )
    lines += [
        "",
        "Paper's claims: with τ = 40 ms, d = 2-4 do slightly better than d = 1 and d = 5",
        "and the dynamic scheme worse than d = 2 (all inside each other's intervals); the",
        "timer at the end of a file is what limits delayed ACK, so it should be tuned. Ours",
        "(the same files for every d, so the 'vs d = 1' columns are paired): with τ = 40 ms",
        f"delayed ACK moves the delay by {_pct(lo, base['delay_s'])} to "
        f"{_pct(hi, base['delay_s'])} (paper: {_pct(min(paper_d), TABLE3_PAPER['1'][0])} to "
        f"{_pct(max(paper_d), TABLE3_PAPER['1'][0])}), d = {best} best: the same small effect,",
        "since the last segment of most files waits for the timer. With τ = 5 ms the d > 1",
        f"rows move it by {_pct(others['delay_tau5ms_s'].max(), base['delay_tau5ms_s'])} to "
        f"{_pct(others['delay_tau5ms_s'].min(), base['delay_tau5ms_s'])}: tuning the timeout",
        "is what makes delayed ACK pay, the paper's conclusion.",
    ]
    lines += _more_figures(tables)
    return "\n".join(lines)


def _pct(a: float, b: float) -> str:
    return f"{100 * (a / b - 1):+.1f} %"


def _more_figures(t: dict[str, pd.DataFrame]) -> list[str]:
    """Figs 1-2, 4, 5, 13, 8, 9 and 10: tables and the paper's claims, each checked."""
    f12, f4, f5, f13 = t["fig1_2"], t["fig4"], t["fig5"], t["fig13"]
    f8, f9, f10 = t["fig8"], t["fig9"], t["fig10"]
    lines = [
        "",
        "## Figs 1-2: collision and drop probability vs backlogged nodes",
        "",
        "The paper plots eqs 1-2 only; beside them, saturated stations (RTS/CTS, 1000-byte",
        "payloads, retry limit 7) measured by the simulator.",
        "",
        "| n_b | attempts | P_C ours | P_C eqs 1-2 | diff | P_drop ours | P_drop = P_C^7 |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, r in f12.iterrows():
        lines.append(
            f"| {int(r['n_b'])} | {int(r['attempts'])} | {r['p_collision']:.4f} | "
            f"{r['p_collision_model']:.4f} | {_pct(r['p_collision'], r['p_collision_model'])} | "
            f"{r['p_drop']:.2e} | {r['p_drop_model']:.2e} |"
        )
    worst = (f12["p_collision"] / f12["p_collision_model"] - 1).abs().max()
    lines += [
        "",
        f"Largest relative gap in P_C: {100 * worst:.1f} %. The model takes P_C independent",
        "of the backoff stage and neglects drops (Bianchi's assumptions); P_drop is tiny and",
        "noisy at small n_b (few drops per run).",
        "",
        "## Fig 4: aggregate throughput vs persistent connections (d = 1)",
        "",
        "| n_c | ours W* = 1 (Mb/s) | ours W* = 1000 (Mb/s) | eq 10 collision (Mb/s) | "
        "eq 9 collision-free (Mb/s) | P_C ours W* = 1 | P_C eqs 1-2 at n_b = 1 + n_c/2 |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, r in f4.iterrows():
        p_model, _ = model.collision_probability(1 + r["n_c"] / 2)
        lines.append(
            f"| {int(r['n_c'])} | {r['goodput_w1_bps'] / 1e6:.3f} | "
            f"{r['goodput_w1000_bps'] / 1e6:.3f} | {r['eq10_collision_bps'] / 1e6:.3f} | "
            f"{r['eq9_collision_free_bps'] / 1e6:.3f} | {r['p_collision_w1']:.3f} | "
            f"{p_model:.3f} |"
        )
    small = f4.iloc[0]
    above = small["eq10_collision_bps"] > small["eq9_collision_free_bps"]
    many = f4[f4["n_c"] >= 5]["p_collision_w1"]
    lines += [
        "",
        "Paper's claims: for small n_c the collision model predicts more than the",
        "collision-free one (ours at n_c = "
        f"{int(small['n_c'])}: {'holds' if above else 'differs'}, "
        f"{small['eq10_collision_bps'] / 1e6:.3f} against "
        f"{small['eq9_collision_free_bps'] / 1e6:.3f} Mb/s); the collision model fits small n_c,",
        "the collision-free model large n_c. Ours, W* = 1 against each model: "
        + "; ".join(
            f"n_c = {int(r['n_c'])}: {_pct(r['goodput_w1_bps'], r['eq10_collision_bps'])} / "
            f"{_pct(r['goodput_w1_bps'], r['eq9_collision_free_bps'])}"
            for _, r in f4.iterrows()
        )
        + ".",
        "",
        "Why ours stays flat where eq 10 falls: eq 10 takes n_b = 1 + n_c/2 contenders (half",
        "the receivers holding an ACK). With W* = 1 the AP sends one data packet per ACK a",
        "station returns, so the AP (always backlogged) and the stations holding an ACK",
        "must succeed equally often, which keeps about one station contending beside the",
        "AP whatever n_c is: the measured collision probability stays at "
        f"{many.min():.3f}-{many.max():.3f} for n_c >= 5 (eqs 1-2 give 0.060 at n_b = 2 and",
        "0.184 at n_b = 5) instead of growing with n_c (last two columns). With less",
        "contention than eq 10 assumes and the AP's and the station's backoffs counting",
        "down in parallel, ours is also a little above the collision-free bound (eq 9",
        "charges a full mean backoff to every frame).",
        "",
        "## Fig 5: aggregate throughput of 10 persistent connections vs d (W* = 1000)",
        "",
        "| d | ours (Mb/s) | eq 12 collision (Mb/s) | eq 11 collision-free (Mb/s) |",
        "|---|---|---|---|",
    ]
    for _, r in f5.iterrows():
        lines.append(
            f"| {int(r['d'])} | {r['goodput_bps'] / 1e6:.3f} | "
            f"{r['eq12_collision_bps'] / 1e6:.3f} | {r['eq11_collision_free_bps'] / 1e6:.3f} |"
        )
    d1 = f5[f5["d"] == 1]["goodput_bps"].iloc[0]
    best = f5.loc[f5["goodput_bps"].idxmax()]
    lines += [
        "",
        f"Delayed ACK helps: the best d is {int(best['d'])} ({_pct(best['goodput_bps'], d1)} "
        "over d = 1; paper: d = 2..4 helps).",
        "",
        "## Fig 13: single-station throughput vs d, W* = d and W* = 1000",
        "",
        "| d | ours W* = d (Mb/s) | ours W* = 1000 (Mb/s) | eqs 7-8 (Mb/s) | eq 20, W* = 1 |",
        "|---|---|---|---|---|",
    ]
    for _, r in f13.iterrows():
        eq20 = "" if np.isnan(r["eq20_bps"]) else f"{r['eq20_bps'] / 1e6:.3f}"
        lines.append(
            f"| {int(r['d'])} | {r['goodput_w_eq_d_bps'] / 1e6:.3f} | "
            f"{r['goodput_w1000_bps'] / 1e6:.3f} | {r['eq7_8_bps'] / 1e6:.3f} | {eq20} |"
        )
    larger = (f13["goodput_w1000_bps"] >= f13["goodput_w_eq_d_bps"]).all()
    lines += [
        "",
        "Eq 20 is stated for d = 1 (its W* = 1 value in the last column); the paper's",
        "extension to W* = d > 1 is not given, so only the simulation is shown there.",
        "Paper's claim (appendix): a larger W* gives more throughput; ours: W* = 1000 at or",
        f"above W* = d at every d: {'holds' if larger else 'differs'}.",
        "",
        "## Fig 8: mean session delay vs think time (11 stations, W* = 1, Pareto)",
        "",
        "| think (s) | sessions | ours (s) | ±95 % | eqs 16-17 (s) | diff | "
        "eqs 16-17, measured C_k and size (s) | diff |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for _, r in f8.iterrows():
        lines.append(
            f"| {r['think_s']:g} | {int(r['sessions'])} | {r['delay_s']:.4f} | "
            f"{r['ci95_s']:.4f} | {r['engset_s']:.4f} | {_pct(r['delay_s'], r['engset_s'])} | "
            f"{r['engset_measured_s']:.4f} | {_pct(r['delay_s'], r['engset_measured_s'])} |"
        )

    def inside(col: str) -> int:
        return sum(abs(r["delay_s"] - r[col]) <= r["ci95_s"] for _, r in f8.iterrows())

    lines += [
        "",
        f"The model as the paper takes it is inside our 95 % interval at {inside('engset_s')}",
        f"of {len(f8)} think times, with our measured C_k and file sizes at",
        f"{inside('engset_measured_s')} (paper: the model tracks the simulations at high",
        "load). At high load (short think times) many sessions are active at once, and eq",
        "10's C_k falls with k where ours does not (Fig 4), so the model as printed",
        "overestimates the delay there; the last two columns are the same model with the",
        "capacities and file sizes our runs measured. Each Pareto run's own mean file size",
        "also moves its point (mean_bytes in fig8.csv).",
        "",
        "## Fig 9: mean session delay vs W*, AP buffer B = 30, 21 stations",
        "",
        "| W* | sessions | ours (s) | ±95 % | sender timeouts |",
        "|---|---|---|---|---|",
    ]
    for _, r in f9.iterrows():
        lines.append(
            f"| {int(r['w_star'])} | {int(r['sessions'])} | {r['delay_s']:.4f} | "
            f"{r['ci95_s']:.4f} | {int(r['timeouts'])} |"
        )
    by_w = f9.set_index("w_star")["delay_s"]
    upto = by_w[by_w.index <= 30]
    above = by_w[by_w.index > 30]
    lines += [
        "",
        "Paper's claim: the delay grows with W* up to B = 30 and flattens above it. Ours: "
        f"W* = {upto.index[0]} → {upto.index[-1]}: {upto.iloc[0]:.4f} → {upto.iloc[-1]:.4f} s "
        f"({'grows' if upto.iloc[-1] > upto.iloc[0] else 'does not grow'}, "
        f"{_pct(upto.iloc[-1], upto.iloc[0])}); above B: "
        + ", ".join(f"W* = {w}: {_pct(v, upto.iloc[-1])} against W* = 30" for w, v in above.items())
        + ".",
        "",
        "## Fig 10: mean session delay vs stations with delayed ACK (W* = 1000, τ = 40 ms)",
        "",
        "| stations | d | sessions | ours (s) | ±95 % | sender timeouts |",
        "|---|---|---|---|---|---|",
    ]
    for _, r in f10.iterrows():
        lines.append(
            f"| {int(r['stations'])} | {r['d']} | {int(r['sessions'])} | {r['delay_s']:.4f} | "
            f"{r['ci95_s']:.4f} | {int(r['timeouts'])} |"
        )
    n_max = f10["stations"].max()
    at = f10[f10["stations"] == n_max].set_index("d")["delay_s"]
    lines += [
        "",
        f"Paper's claim: for many stations delayed ACK cuts the mean session delay. Ours at "
        f"{int(n_max)} stations, against d = 1: "
        + ", ".join(f"d = {d}: {_pct(v, at['1'])}" for d, v in at.items() if d != "1")
        + ".",
        "",
    ]
    return lines


def reproduce(
    out: str | Path,
    quick: bool = False,
    jobs: int | None = None,
    progress: bool = False,
    profile: str = "standard",
) -> Path:
    """Run every experiment under `profile` (:data:`wlansim.reproduce.PROFILES`), write
    CSVs and ``report.md`` into `out`; return the report's path. (`jobs` and `progress`
    are accepted for the common interface; runs are sequential.)"""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plan = Plan.of(quick, profile)
    start = time.perf_counter()
    tables = {
        "table2": table2(plan),
        "fig7": fig7(plan),
        "fig3": fig3(plan),
        "table3": table3(plan),
        "fig1_2": fig1_2(plan),
        "fig4": fig4(plan),
        "fig5": fig5(plan),
        "fig13": fig13(plan),
        "fig9": fig9(plan),
        "fig10": fig10(plan),
    }
    tables["fig8"] = fig8(plan, tables["fig4"])
    for key, t in tables.items():
        t.to_csv(out / f"{key}.csv", index=False)
    path = out / "report.md"
    path.write_text(report(tables, plan, time.perf_counter() - start))
    return path
