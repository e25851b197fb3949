"""`wlansim reproduce ng2005 --quick`: one row per statement of the paper, decided under
the main setting (Section 4's TXOP, AIFS and CWmin against the EDCA model; Figs 1-2 under
the main reading of station 11's advantage; Section 5's fairness with defaults and with
the Table 2 preset), the other settings as readings, the bottom line, the files, and facts
of the runs that could fail."""

import json

import pandas as pd
import pytest

from wlansim.errors import WlansimError
from wlansim.evidence import claims as cl
from wlansim.evidence.report import CSV_COLUMNS
from wlansim.evidence.studies import ng2005, ng2005_tcp
from wlansim.evidence.study import with_profile
from wlansim.scenario import resolve

QUICK_PNGS = {
    "fig1.png",
    "fig2.png",
    "fig1-capture.png",
    "fig2-capture.png",
    "capture-gain.png",
    "fig3.png",
    "fig4.png",
    "fig5.png",
    "aifs-load.png",
    "fig6.png",
    "fig7.png",
    "fig8.png",
    "fig9.png",
}
CAPTURE = ng2005_tcp.Reading(gain_db=float(ng2005_tcp.capture_gain_db()))


@pytest.fixture(scope="module")
def out(quick_reproduction):
    return quick_reproduction("ng2005")


@pytest.fixture(scope="module")
def verdicts(out):
    return {r["id"]: r for r in cl.read_csv(out / "claims.csv")}


@pytest.fixture(scope="module")
def sweeps(out):
    """{(setting, claim id): verdict} of the quick run's sweeps.csv."""
    df = pd.read_csv(out / "sweeps.csv")
    return {(s, i): v for s, i, v in zip(df["setting"], df["id"], df["verdict"])}


def runs(out, case, framing=ng2005_tcp.LONG.id):
    df = pd.read_csv(out / "tcp_runs.csv")
    return df[(df["case"] == case) & (df["queue"] == ng2005_tcp.QUEUE) & (df["framing"] == framing)]


def test_files_figures_and_claims_csv(out, verdicts):
    assert {p.name for p in out.glob("*.png")} == QUICK_PNGS
    for t in ("fig3", "fig4", "fig5", "aifs_load", "tcp_runs"):
        assert (out / f"{t}.csv").stat().st_size > 0
    with (out / "claims.csv").open() as f:
        assert f.readline().strip().split(",") == list(CSV_COLUMNS)
    assert list(verdicts) == [c.id for c in ng2005.CLAIMS]
    assert all(r["verdict"] in cl.VERDICTS for r in verdicts.values())
    summary = json.loads((out / "summary.json").read_text())
    assert summary["quick"] and summary["profile"] == "standard"
    report = (out / "report.md").read_text()
    assert "This run leaves out" in report and "interface queues of 20 and 200" in report
    assert "hardware test-bed" in report, "the report says why the profile is the standard"


def test_one_row_per_statement_with_its_tests(verdicts):
    """Figs 1-2 are decided once (the main reading), not once per reading; a statement's
    value and direction are one row with its tests."""
    assert not any("/" in cid for cid in verdicts)
    assert len(verdicts) == 21
    assert verdicts["fig3"]["tests"] == "steps of one packet: holds"
    assert verdicts["fig8"]["tests"].startswith("improved over the defaults: ")
    assert verdicts["fig9"]["tests"].startswith("between: ")
    assert verdicts["fig2-magnified"]["tests"].startswith("significant lead: ")
    # the stand-in for Battiti-Li's model is named in every statement about [6]
    for cid in ("fig4-exponential", "fig4-model-agrees", "fig4-model-inaccurate", "fig5-model"):
        assert "stand-in" in verdicts[cid]["claim"], cid
    assert verdicts["fig4-exponential"]["category"] == "model property"


def test_the_bottom_line_opens_with_the_headline_and_the_readings_tried(out):
    """Quick mode runs one other reading of the advantage, under which it fails too."""
    report = (out / "report.md").read_text()
    top = report.split("## How this was run")[0]
    assert top.index("The paper's headline:") < top.index("Did not reproduce:")
    line = next(x for x in top.splitlines() if "(fig2-magnified)" in x)
    assert line.startswith("- **TCP's congestion control magnifies station 11's advantage")
    assert "No swept setting makes it hold (the settings tried are listed above)" in line
    tried = next(x for x in top.splitlines() if x.startswith("Settings the paper does not"))
    assert top.index(tried) < top.index(line)
    assert ng2005_tcp.advantage_label(CAPTURE) in tried
    assert ng2005.NO_NS2[0].upper() + ng2005.NO_NS2[1:] + "." in top
    # fig3 names the unstated settings under which it holds
    fig3 = next(x for x in top.splitlines() if x.startswith("- fig3 "))
    assert f"It holds under: {ng2005.BURST_LABEL}" in fig3


def test_quick_mode_says_what_it_does_not_run(verdicts):
    for cid in ("fig4-model-inaccurate", "up3-unfair", "mixes-fair"):
        assert verdicts[cid]["verdict"] == "not run", cid
        assert "not run" in verdicts[cid]["sentence"]
    decided = [r for r in verdicts.values() if r["verdict"] in ("holds", "does not hold")]
    assert len(decided) >= 14


def test_sentences_carry_the_measured_numbers(verdicts):
    """No fixed conclusion: each decided sentence quotes its own estimate."""
    for r in verdicts.values():
        if r["verdict"] in ("holds", "does not hold", "undecided"):
            assert r["sentence"].startswith(r["verdict"]), r["id"]
            assert r["ours"] and r["ours"].split()[0].lstrip("+-") in r["sentence"], r["id"]


def test_txop_steps_at_multiples_of_one_exchange(out, verdicts, sweeps):
    df = pd.read_csv(out / "fig3.csv")
    main = df[df["framing"] == ng2005_tcp.LONG.id].groupby("x")["ratio"].mean()
    step = ng2005.step_us()
    assert 1500 < step < 1650, "DATA 1257 µs + SIFS + ACK at 1 Mb/s + SIFS"
    # either side of the edge where k + 1 exchanges start to fit: k, then k + 1 frames
    for k, x in enumerate(ng2005.fig3_grid(True)[1::2], start=1):
        assert main[x] == pytest.approx(k, rel=0.05)
        assert main[x + 2 * ng2005.STRADDLE_US] == pytest.approx(k + 1, rel=0.05)
    # the standard's steps are one exchange apart, 25 % wider than the paper's 1270 µs
    assert verdicts["fig3"]["verdict"] == "does not hold"
    assert float(verdicts["fig3"]["value"]) == pytest.approx(step, abs=1)
    # with the short preamble (steps 1335 µs) or a burst bounding the DATA airtime only
    # (1257 µs), the paper's 1270 µs is within its ±10 %
    assert sweeps[(ng2005.BURST_LABEL, "fig3")] == "holds"
    assert sweeps[(ng2005_tcp.SHORT.label, "fig3")] == "holds"
    assert ng2005.step_us(ng2005_tcp.SHORT) == pytest.approx(1335, abs=1)
    assert ng2005.step_us(counts="data") == pytest.approx(1257, abs=1)


def test_aifs_ratio_falls_monotonically_and_the_model_follows(out, verdicts):
    df = pd.read_csv(out / "fig4.csv").groupby("x")[["ratio", "model"]].mean()
    assert all(b < a for a, b in zip(df["ratio"], df["ratio"][1:])), df
    assert ((df["ratio"] / df["model"] - 1).abs() < 0.10).all()
    assert verdicts["fig4-strong"]["verdict"] == "holds"


def test_small_cwmin_is_not_inversely_proportional(out, verdicts):
    df = pd.read_csv(out / "fig5.csv").groupby("x")["ratio"].mean()
    assert df[8] * 8 / 32 > 1.3, "at CWmin 8 station 2 wins far more than 32/8"
    assert verdicts["fig5-inverse"]["verdict"] == "does not hold"
    assert "not at 8;" in verdicts["fig5-inverse"]["sentence"]


def test_table2_preset_restores_fairness_and_balances_up_and_down(out, verdicts):
    default, preset = runs(out, "fig6"), runs(out, "fig8")
    assert preset["max_dev"].mean() < 0.15 < default["max_dev"].mean()
    assert preset["jain_window"].mean() - default["jain_window"].mean() >= 0.1
    mixed = runs(out, "fig9")
    assert 0.8 < (mixed["up_total"] / mixed["down_total"]).mean() < 1.25
    assert (runs(out, "fig7")["up_total"] / runs(out, "fig7")["down_total"]).mean() > 3
    for cid in ("fig8", "fig7-up-down"):
        assert verdicts[cid]["verdict"] == "holds", cid
    # under DCF the AP is never confined to 1/(n+1): stations' queues empty out
    assert verdicts["fig6-ap-share"]["verdict"] == "does not hold"
    assert default["ap_share"].mean() > 2 / 13


def test_readings_of_station_11s_advantage(out, verdicts, sweeps):
    fer = runs(out, "fig1-fer-5")
    assert 1.05 < fer["advantage"].mean() < 1.5, "the others lose 5 % of their frames"
    assert (fer["captures_11"] == 0).all() and (fer["frame_errors_others"] > 0).all()
    for case in ng2005_tcp.figs12(CAPTURE):
        r = runs(out, case)
        assert (r["captures_11"] > 0).all() and (r["captures_others"] == 0).all()
        assert (r["frame_errors_others"] == 0).all()
        assert r["collision_prob_11"].mean() < r["collision_prob_others"].mean()
    udp = runs(out, ng2005_tcp.figs12(CAPTURE)[0])
    assert udp["advantage"].mean() > 1.5, "near-certain capture is no slight advantage"
    assert sweeps[(ng2005_tcp.advantage_label(CAPTURE), "fig1")] == "does not hold"
    assert verdicts["fig1"]["verdict"] == "holds"


def test_capture_gain_is_where_one_equal_power_interferer_is_beaten():
    g = ng2005_tcp.capture_gain_db()
    assert g == 8, "ppdu_success of a 1536-byte 11 Mb/s frame: 7 dB 0.85, 8 dB 0.989"
    assert ng2005_tcp.capture_probability(g) >= ng2005_tcp.CAPTURE_TARGET
    assert ng2005_tcp.capture_probability(g - 1) < ng2005_tcp.CAPTURE_TARGET
    assert ng2005_tcp.capture_probability(3) < 1e-6
    s = ng2005_tcp.scenario("fig2-capture-8db", "1 s")
    assert s["channel"]["reception"]["model"] == "sinr"
    assert [g.get("antenna_gain_db") for g in s["stations"]] == [None, 8.0]
    assert all("fer" not in g for g in s["stations"])
    assert ng2005_tcp.scenario("fig1-fer-2")["stations"][0]["fer"] == 0.02
    assert [r.id for r in ng2005_tcp.readings()] == [
        "fer-2",
        "fer-5",
        "fer-10",
        "capture-3db",
        "capture-6db",
        "capture-8db",
    ]
    assert ng2005_tcp.MAIN in ng2005_tcp.readings()


def test_every_case_runs_under_the_ns2_profile_and_with_either_framing():
    """ng2005 was a hardware test-bed; its other profile (ns2) answers what an ns-2 study
    of it would have concluded, so every scenario must resolve under ns-2's rules; every
    case of the framing reading must resolve with the short preamble."""
    cases = [c for r in ng2005_tcp.readings() for c in ng2005_tcp.figs12(r)]
    for case in [*cases, *ng2005_tcp.SECTION5]:
        s = resolve(with_profile(ng2005_tcp.scenario(case, "10 s"), "ns2"))
        assert s["profile"] == "ns2", case
        short = resolve(ng2005_tcp.scenario(case, "10 s", frames=ng2005_tcp.SHORT))
        assert short["phy"]["preamble"] == "short", case
    assert resolve(with_profile(ng2005.load_scenario("10 s"), "ns2"))["profile"] == "ns2"


def test_against_ns2_is_refused_with_the_reason():
    with pytest.raises(WlansimError, match="hardware test-bed"):
        ng2005.reproduce("/nonexistent", quick=True, against="ns2")


def test_the_preset_maps_ng2005_units_to_the_standard():
    s = ng2005.base_scenario()
    be = s["stations"][0]["edca"]["be"]
    assert be["aifsn"] == 2, "ng2005's zero extra AIFS slots = DIFS = AIFSN 2"
    assert be["cw_min"] == 31, "ng2005's CWmin 32 = CW 31"
    assert [ng2005.setting("fig4", x) for x in ng2005.sweeps(quick=False)["fig4"][:3]] == [2, 3, 4]
    # ng2005's CWmin is a drawing range [0, CWmin − 1]; the standard draws in [0, CW]
    assert ng2005.setting("fig5", 2) == 1 and ng2005.setting("fig5", 1024) == 1023


def test_not_every_is_the_negation_of_every():
    inner = cl.Within("sim", "model", 0.1)
    rule = ng2005.NotEvery(inner, "x")
    holds, fails = rule.examples()
    a, b = rule.evaluate(holds), rule.evaluate(fails)
    assert (a.verdict, b.verdict) == ("holds", "does not hold")
    assert a.phrase != b.phrase
    # an interval that straddles the tolerance at one point leaves it undecided
    seeds = list(range(1, 6))
    wide = {0: (cl.Sample.of([108, 92, 115, 100, 95], seeds), cl.Sample.exact_value(100))}
    assert rule.evaluate(wide).verdict == cl.Every(inner, "x").evaluate(wide).verdict
    assert rule.evaluate(wide).verdict == "undecided"


def test_step_width_reads_the_edges_per_run_and_decay_factors_the_share():
    # a staircase with steps every 1583 µs, runs 20 µs either side of each edge
    xs = sorted({0.0, *(k * 1583 - 10 + d for k in (2, 3, 4) for d in (-20, 20))})
    rows = [(x, s, max(1, int((x + 10) // 1583))) for s in (1, 2) for x in xs]
    w = ng2005.step_width(pd.DataFrame(rows, columns=["x", "seed", "ratio"]))
    assert w.values == pytest.approx([1583, 1583]) and w.seeds == (1, 2)
    with pytest.raises(cl.NotRun):
        ng2005.step_width(
            pd.DataFrame([(0.0, 1, 1.0), (400.0, 1, 1.0)], columns=["x", "seed", "ratio"])
        )
    # a share that falls by 0.9 per slot, whatever h: equal factors over both halves
    share = {x: 0.5 * 0.9**x for x in range(0, 13)}
    late, early = ng2005.decay_factors({x: s / (1 - s) for x, s in share.items()})
    assert late == pytest.approx(0.9) and early == pytest.approx(0.9)


def test_a_run_depends_on_the_txop_only_through_the_frames_it_holds():
    """What lets the DATA-airtime burst reading be read off Fig 3's runs: two TXOPs that
    hold as many frames give the same run, seed by seed."""

    def run(txop: float) -> tuple:
        s = ng2005.base_scenario("5 s")
        s["stations"][1]["edca"]["be"]["txop"] = f"{txop:g} us"
        m = ng2005.run_pair(s, 3)["metrics"]
        return m["thr1"], m["thr2"], m["events"]

    for a, b in ((0, 1200), (3176, 4000)):
        assert ng2005.packets(a) == ng2005.packets(b)
        assert run(a) == run(b)
    assert run(3136) != run(3176), "a frame more per TXOP changes the run"


def _tables(**extra) -> dict:
    """A minimal set of tables as run_experiments returns them (two framings of Fig 3,
    two queues and two readings of the TCP runs)."""
    fig3 = []
    for frames in (ng2005_tcp.LONG, ng2005_tcp.SHORT):
        for x in ng2005.fig3_grid(True, frames):
            k = ng2005.packets(x, frames)
            fig3 += [(x, s, 1.0, float(k), float(k), k, frames.id) for s in (1, 2)]
    cols = ["x", "seed", "thr1", "thr2", "ratio", "packets", "framing"]
    tcp = [
        (case, q, f, s, float(n))
        for n, (case, q, f) in enumerate(
            [
                ("fig1-fer-5", 10, "long"),
                ("fig1-capture-8db", 10, "long"),
                ("fig6", 10, "long"),
                ("fig6", 20, "long"),
                ("fig6", 10, "short"),
            ]
        )
        for s in (1, 2)
    ]
    fig4 = pd.DataFrame(
        [(0.0, 1, 1.0, 1.0, 1.0, 1.0, "long")], columns=[*cols[:5], "model", "framing"]
    )
    return {
        "fig3": pd.DataFrame(fig3, columns=cols),
        "fig4": fig4,
        "tcp_runs": pd.DataFrame(tcp, columns=["case", "queue", "framing", "seed", "max_dev"]),
        **extra,
    }


def test_readings_are_the_tables_as_if_each_other_setting_were_the_main_one():
    t = _tables()
    r = ng2005.readings(t, ng2005.Plan.of(True, "standard"))
    short, burst = ng2005_tcp.SHORT.label, ng2005.BURST_LABEL
    assert set(r) == {
        ng2005_tcp.advantage_label(CAPTURE),
        ng2005_tcp.queue_label(20),
        short,
        burst,
        f"{short} and {burst}",
    }
    # the capture reading's Fig 1 runs are read as the main reading's
    cap = r[ng2005_tcp.advantage_label(CAPTURE)]["tcp_runs"]
    assert list(cap.loc[cap["case"] == "fig1-fer-5", "max_dev"]) == [1.0, 1.0]
    # the queue reading keeps the runs at 20 packets, as if at 10, and Fig 1's saturated
    # UDP runs (a full queue whatever its size); no other case
    q = r[ng2005_tcp.queue_label(20)]["tcp_runs"]
    assert set(q["case"]) == {"fig1-fer-5", "fig6"} and set(q["queue"]) == {10}
    assert list(q.loc[q["case"] == "fig6", "max_dev"]) == [3.0, 3.0]
    # the short framing: its runs as the main framing's; Fig 4 was not run with it
    s = r[short]
    assert set(s["tcp_runs"]["max_dev"]) == {4.0} and set(s["tcp_runs"]["framing"]) == {"long"}
    assert s["fig4"].empty
    with pytest.raises(cl.NotRun):
        ng2005._fig(s, "fig4")
    # the burst rule: at each TXOP of its grid, the runs that hold as many frames
    b = r[burst]["fig3"]
    assert (b["ratio"] == [ng2005.packets(x, counts="data") for x in b["x"]]).all()
    assert ng2005.step_width(b).values == pytest.approx([ng2005.step_us(counts="data")] * 2, abs=1)


def test_nothing_sets_station_11_apart_is_a_setup_the_runs_cannot_show():
    cols = ["case", "queue", "framing", "seed", "frame_errors_others", "captures_11"]
    rows = [(c, 10, "long", s, 0.0, 0.0) for c in ng2005_tcp.figs12() for s in (1, 2)]
    blind = {"tcp_runs": pd.DataFrame(rows, columns=cols)}
    why = ng2005_tcp.nothing_favours_11(blind, (1, 2))
    assert "in each of the 4 runs of Figs 1 and 2" in why
    rows[0] = (*rows[0][:4], 3.0, 0.0)
    assert (
        ng2005_tcp.nothing_favours_11({"tcp_runs": pd.DataFrame(rows, columns=cols)}, (1, 2)) == ""
    )
    claim = next(c for c in ng2005.CLAIMS if c.id == "fig2-magnified")
    v = claim.decide(blind)
    assert v.verdict == "cannot show" and "nothing sets station 11 apart" in v.sentence


def test_the_model_ratios_do_not_depend_on_the_framing():
    """Why Figs 4-5 are not rerun with the short preamble (the parameters row)."""
    assert ng2005._framing_spread() < 1e-9
