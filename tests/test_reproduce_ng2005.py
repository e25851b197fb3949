"""`wlansim reproduce ng2005 --quick`: the study's claims as records decided over
replications (Section 4's TXOP, AIFS and CWmin against the EDCA model; Figs 1-2 under
the readings of station 11's advantage; Section 5's fairness with defaults and with the
Table 2 preset), its files, and facts of the runs that could fail."""

import json
import math

import pandas as pd
import pytest

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


@pytest.fixture(scope="module")
def out(quick_reproduction):
    return quick_reproduction("ng2005")


@pytest.fixture(scope="module")
def verdicts(out):
    return {r["id"]: r for r in cl.read_csv(out / "claims.csv")}


def runs(out, case):
    df = pd.read_csv(out / "tcp_runs.csv")
    return df[(df["case"] == case) & (df["queue"] == ng2005_tcp.QUEUE)]


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
    assert "This run leaves out" in report and "queue-size sweep" in report
    assert "hardware test-bed" in report, "the report says why the profile is the standard"


def test_quick_mode_says_what_it_does_not_run(verdicts):
    for cid in ("fig4-model-inaccurate", "fig1/fer-2", "up3-unfair", "mix-3-9-fair"):
        assert verdicts[cid]["verdict"] == "not run", cid
        assert "not run" in verdicts[cid]["sentence"]
    decided = [r for r in verdicts.values() if r["verdict"] in ("holds", "does not hold")]
    assert len(decided) >= 15


def test_sentences_carry_the_measured_numbers(verdicts):
    """No fixed conclusion: each decided sentence quotes its own estimate."""
    for r in verdicts.values():
        if r["verdict"] in ("holds", "does not hold", "undecided"):
            assert r["sentence"].startswith(r["verdict"]), r["id"]
            assert r["ours"] and r["ours"].split()[0].lstrip("+-") in r["sentence"], r["id"]


def test_txop_steps_at_multiples_of_one_exchange(out, verdicts):
    df = pd.read_csv(out / "fig3.csv").groupby("x")["ratio"].mean().reset_index()
    step = ng2005.exchange_step_us()
    assert 1500 < step < 1650, "DATA 1257 µs + SIFS + ACK at 1 Mb/s + SIFS"
    below, above = df.iloc[1::2].reset_index(), df.iloc[2::2].reset_index()
    for k, (lo, hi) in enumerate(zip(below["ratio"], above["ratio"]), start=1):
        # just below the edge k+1 exchanges do not fit, just above they do: +1 frame
        assert lo == pytest.approx(k, rel=0.1)
        assert hi == pytest.approx(k + 1, rel=0.1)
    # the standard's steps are one exchange apart, 25 % wider than the paper's 1270 µs
    assert verdicts["fig3-step-width"]["verdict"] == "does not hold"
    assert float(verdicts["fig3-step-width"]["value"]) == pytest.approx(step / 1270 - 1, abs=0.01)


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
    for cid in ("fig8-fair", "fig8-fairer", "fig9-up-down", "fig7-up-down"):
        assert verdicts[cid]["verdict"] == "holds", cid
    # under DCF the AP is never confined to 1/(n+1): stations' queues empty out
    assert verdicts["fig6-ap-share"]["verdict"] == "does not hold"
    assert default["ap_share"].mean() > 2 / 13


def test_readings_of_station_11s_advantage(out, verdicts):
    fer = runs(out, "fig1-fer-5")
    assert 1.05 < fer["advantage"].mean() < 1.5, "the others lose 5 % of their frames"
    assert (fer["captures_11"] == 0).all()
    g = ng2005_tcp.capture_gain_db()
    for case in (f"fig1-capture-{g}db", f"fig2-capture-{g}db"):
        r = runs(out, case)
        assert (r["captures_11"] > 0).all() and (r["captures_others"] == 0).all()
        assert r["collision_prob_11"].mean() < r["collision_prob_others"].mean()
    udp = runs(out, f"fig1-capture-{g}db")
    assert udp["advantage"].mean() > 1.5, "near-certain capture is no slight advantage"
    assert verdicts[f"fig1/capture-{g}db"]["verdict"] == "does not hold"
    assert verdicts["fig1/fer-5"]["verdict"] == "holds"


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


def test_every_case_runs_under_the_ns2_profile_too():
    """ng2005 was a hardware test-bed; its other profile (ns2) answers what an ns-2 study
    of it would have concluded, so every scenario must resolve under ns-2's rules."""
    cases = [f"fig{k}-{r.id}" for r in ng2005_tcp.readings() for k in (1, 2)]
    for case in [*cases, *ng2005_tcp.SECTION5]:
        s = resolve(with_profile(ng2005_tcp.scenario(case, "10 s"), "ns2"))
        assert s["profile"] == "ns2", case
    assert resolve(with_profile(ng2005.load_scenario("10 s"), "ns2"))["profile"] == "ns2"


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


def test_step_width_and_decay_factors_read_per_run():
    rows = [(x, s, 1 + math.floor((x + 10) / 1583)) for s in (1, 2) for x in range(0, 8001, 200)]
    df = pd.DataFrame(rows, columns=["x", "seed", "ratio"])
    w = ng2005.step_width(df)
    assert w.values == (1600.0, 1600.0) and w.seeds == (1, 2)
    f4 = pd.DataFrame(
        [(x, s, 0.9**x) for s in (1, 2) for x in range(0, 14)], columns=["x", "seed", "ratio"]
    )
    late, early = ng2005.decay_factors(f4)
    assert late.values == pytest.approx([0.9, 0.9]) and early.values == pytest.approx([0.9, 0.9])
