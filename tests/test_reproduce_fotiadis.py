"""`wlansim reproduce fotiadis2005 --quick` (run once per session): the files, a verdict per
claim, what the quick plan leaves out, and facts of the 1-flow cases the runs can fail:
the AP's hold removes inf-RL's spurious timeouts and lengthens the RTT, 802.11's RetryLimit
turns bursts into fast retransmits, inf-RL loses nothing on the radio. Plus the scenarios
of the settings the sensitivity sweeps run."""

from __future__ import annotations

import pandas as pd
import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.report import CSV_COLUMNS
from wlansim.evidence.studies import fotiadis2005 as study
from wlansim.evidence.study import with_profile


@pytest.fixture(scope="module")
def quick(quick_reproduction):
    return quick_reproduction("fotiadis2005")


def test_quick_run_writes_report_claims_and_its_figures(quick):
    report = (quick / "report.md").read_text()
    assert "Profile `ns2` (the study's own)" in report and "This run leaves out:" in report
    assert "PER 15 and 25 %" in report  # quick mode says what it skips
    assert "## Parameters" in report and "window_" in report and "minrto_" in report
    rows = cl.read_csv(quick / "claims.csv")
    assert [r["id"] for r in rows] == [c.id for c in study.CLAIMS]
    assert set(CSV_COLUMNS) <= set(rows[0])
    assert all(r["verdict"] in cl.VERDICTS for r in rows)
    assert {r["other_verdict"] for r in rows} == {"not run"}
    by = {r["id"]: r["verdict"] for r in rows}
    # claims whose points quick mode does not run are "not run", never decided
    for cid in ("fig2.above-inf-rl-above-10", "table1.per15.vs-inf-rl.sign", "fig4.above-standard",
                "subthresh.no-direct-effect", "sec4.rtt-outweighs"):  # fmt: skip
        assert by[cid] == "not run", cid
    decided = [v for v in by.values() if v in ("holds", "does not hold")]
    assert len(decided) >= 10
    pngs = sorted(p.name for p in quick.glob("*.png"))
    assert pngs == ["fig2.png", "table1.png"], pngs
    for name in pngs:
        assert f"![{name}]({name})" in report


def test_quick_runs_show_the_hold_and_the_bursts(quick):
    runs = pd.read_csv(quick / "runs.csv")
    # the full run's first seeds, each at every point (2 cases × 4 PERs × 3 methods)
    assert runs["seed"].nunique() == study.QUICK_REPS
    assert (runs["seed"].value_counts() == 24).all()
    p = pd.read_csv(quick / "points.csv").set_index(["case", "per", "method"])
    for case in ("fig2", "table1"):
        for per in (20, 30):
            inf, inj = p.loc[(case, per, "inf-rl")], p.loc[(case, per, "inject")]
            assert inf["spurious_timeouts"] >= 10  # delay spikes fire inf-RL's timer
            assert inj["spurious_timeouts"] < 0.5 * inf["spurious_timeouts"]  # the hold
            assert inj["acks_delayed"] > 0 and inj["rtt_ms"] > 1.5 * inf["rtt_ms"]
            assert inf["mobile_drops"] == 0  # nothing lost on the radio, window ≤ queue
            assert p.loc[(case, per, "standard")]["fast_retransmits"] > 0
        assert p.loc[(case, 5, "inf-rl")]["spurious_timeouts"] < 1
    imp = pd.read_csv(quick / "improvements.csv")
    assert set(imp["profile"]) == {"ns2"} and len(imp) == 16
    t1 = imp[(imp["case"] == "table1") & (imp["vs"] == "inf-rl")].set_index("per")
    assert list(t1["paper_pct"]) == [-9, -2, 23, 19]


def test_scenarios_of_the_main_setting_and_the_swept_values():
    s = study.scenario(2, 20, 15, "inject", "10 s")
    b = s["channel"]["links"][0]["bursts_uplink"]
    assert (b["model"], b["per"], b["burst_length"]) == ("periodic", 0.15, 15)
    assert "shared" not in b
    assert s["ap"]["delay_injection"] == {"delay_factor": 1.5, "subthresh_packets": 5.0,
                                          "scope": "ap"}  # fmt: skip
    assert (s["tcp"]["rwnd"], s["mac"]["queue"], s["ap"]["queue"]) == (20, 50, 50)
    assert "min_rto" not in s["tcp"] and s["mac"]["short_retry_limit"] == "unlimited"
    ns2 = with_profile(s, "ns2")
    assert ns2["profile"] == "ns2" and ns2["tcp"]["profile"] == "ns2"
    std = study.scenario(1, 10, 5, "standard", "10 s", study.VARIANTS["retry-5-attempts"])
    assert std["mac"]["short_retry_limit"] == 5 and "delay_injection" not in std["ap"]
    v = study.VARIANTS
    shared = study.scenario(5, 15, 20, "inf-rl", "10 s", v["shared-errors"])
    assert shared["channel"]["links"][0]["bursts_uplink"]["shared"] is True
    assert study.scenario(2, 15, 20, "inject", "10 s", v["flow-state"])["ap"][
        "delay_injection"]["scope"] == "flow"  # fmt: skip
    w = study.scenario(1, 20, 20, "inf-rl", "10 s", v["rwnd64-q100"])
    assert (w["tcp"]["rwnd"], w["mac"]["queue"]) == (64, 100)
    assert w["name"].endswith("rwnd64-mobile_queue100")
    assert study.scenario(1, 20, 0, "inject", "10 s").get("channel") is None
    assert study.scenario(1, 20, 20, "inf-rl", "10 s", v["minrto-1s"])["tcp"]["min_rto"] == (
        "1000 ms"
    )
    with pytest.raises(ValueError, match="method"):
        study.scenario(1, 20, 20, "eifel", "10 s")


def test_every_sweep_value_of_the_issue_is_planned():
    plan = study.Plan.of(False, "ns2")
    pts = {(c, v) for c, v, _, _ in plan.groups}
    for w in (20, 32, 44, 64):
        for q in (50, 100):
            assert ("table1", "main" if (w, q) == (20, 50) else f"rwnd{w}-q{q}") in pts
    assert plan.reps >= 10 and plan.sensitivity and plan.agreement
    other = study.Plan.of(False, "standard", main=False)
    claim_settings = {"main", "df-1.0", "df-2.25", "df-3.0", "subthresh-2.5", "subthresh-10",
                      "no-subthresh"}  # fmt: skip
    assert not other.sensitivity and {g[1] for g in other.groups} == claim_settings
    assert study.Plan.of(True, "ns2").skips()
