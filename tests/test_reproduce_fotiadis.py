"""`wlansim reproduce fotiadis2005 --quick` (run once per session): the files, a verdict per
claim, what the quick plan leaves out, and facts of the 1-flow cases the runs can fail:
the AP's hold removes inf-RL's spurious timeouts and lengthens the RTT, 802.11's RetryLimit
turns bursts into fast retransmits, inf-RL loses nothing on the radio. Plus the scenarios
of the settings the sensitivity sweeps run, the ns-2.35 scripts of the baselines (their
parameters, the loss pattern's phase, the spurious-timeout rule) and, where ns-2.35 is
installed, `--quick --against ns2`: the ns-2 column and the report's first screen."""

from __future__ import annotations

import pandas as pd
import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.ns2 import fotiadis2005 as ns2
from wlansim.evidence.ns2.run import ns_binary
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
    for cid in ("fig2.above-both-above-10", "table1.per15.vs-inf-rl", "fig4.above-standard",
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
    assert b["phase"] == "ns2" and "shared" not in b
    # inf-RL is the mobiles': the AP keeps ns-2.35's ShortRetryLimit_ 7
    assert (s["ap"]["short_retry_limit"], s["ap"]["long_retry_limit"]) == (7, 4)
    assert s["ap"]["delay_injection"] == {"delay_factor": 1.5, "subthresh_packets": 5.0,
                                          "scope": "ap"}  # fmt: skip
    assert (s["tcp"]["rwnd"], s["mac"]["queue"], s["ap"]["queue"]) == (20, 50, 50)
    assert "min_rto" not in s["tcp"] and s["mac"]["short_retry_limit"] == "unlimited"
    ns2 = with_profile(s, "ns2")
    assert ns2["profile"] == "ns2" and ns2["tcp"]["profile"] == "ns2"
    std = study.scenario(1, 10, 5, "standard", "10 s", study.VARIANTS["retry-5-attempts"])
    assert std["mac"]["short_retry_limit"] == 5 and "delay_injection" not in std["ap"]
    assert "short_retry_limit" not in std["ap"]  # standard 802.11: every node's limit
    v = study.VARIANTS
    assert study.scenario(1, 20, 20, "inf-rl", "10 s", v["ap-unlimited"])["ap"][
        "short_retry_limit"] == "unlimited"  # fmt: skip
    uni = study.scenario(1, 20, 20, "standard", "10 s", v["phase-uniform"])
    assert uni["channel"]["links"][0]["bursts_uplink"]["phase"] == "uniform"
    both = study.scenario(1, 20, 20, "standard", "10 s", v["both-ways"])["channel"]["links"][0]
    assert "bursts_uplink" not in both and both["bursts"]["per"] == 0.2
    tick = study.scenario(1, 20, 20, "inf-rl", "10 s", v["tick-100ms"])
    assert tick["tcp"]["clock_granularity"] == "100 ms"
    assert study.scenario(1, 20, 20, "inf-rl", "10 s", v["minrto-0"])["tcp"]["min_rto"] == "0 ms"
    assert study.scenario(1, 20, 20, "standard", "10 s", v["timestamps-off"])["tcp"][
        "timestamps"] is False  # fmt: skip
    with pytest.raises(ValueError, match="timestamps"):
        study.scenario(1, 20, 20, "inject", "10 s", v["timestamps-off"])
    assert study.build({"case": "fig2", "variant": "main", "per": 5, "method": "inf-rl"},
                       "ns2")["phy"]["propagation_delay"] == "33 ns"  # fmt: skip
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


def test_each_statement_is_one_row_with_its_value_and_premises():
    ids = [c.id for c in study.CLAIMS]
    assert len(ids) == len(set(ids))
    assert not [i for i in ids if i.endswith((".sign", ".value"))]
    by = {c.id: c for c in study.CLAIMS}
    cell = by["table1.per15.vs-inf-rl"]
    assert cell.rule.op == ">" and [t.label for t in cell.also] == ["value"]
    value = cell.also[0].rule
    assert isinstance(value, cl.PaperValue) and value.paper == pytest.approx(0.29)
    # "larger gain" presupposes gains
    for cid in ("table1.gain-larger-than-15ms", "fig3.gain-larger-than-1-flow"):
        assert by[cid].premise is not None, cid
    # the paper's own baselines: Table I, PER 15 %: (1 + 0.47) / (1 + 0.29) = 1.14
    ratio = by["table1.per15.baselines"]
    assert ratio.rule.paper == pytest.approx(1.47 / 1.29 - 1)
    assert 0 < ratio.rule.tol < 0.01 and not ratio.ns2
    assert study.HEADLINE and all(h in by for h in study.HEADLINE)
    # every statement about injection says what ns-2.35 lacks and rests on baselines it
    # decides; the baseline statements run there
    for c in study.CLAIMS:
        assert all(not by[r].ns2 for r in c.rests_on), c.id
        if c.rests_on:
            assert c.ns2 == study.NEEDS_INJECTION, c.id
    assert not by["table2.standard-beats-inf-rl-25-30"].ns2
    assert by["fig2.above-both-above-10"].ns2 == study.NEEDS_INJECTION


def test_ns2_script_carries_the_case():
    inf = ns2.tcl(ns2.Case(2, 15, 20, "inf-rl"), 7, 100.0, 5.0)
    assert inf.count("100Mb 15ms DropTail") == 2 and "$defaultRNG seed 7" in inf
    assert "burstlen_ 20" in inf and "period_ 100" in inf and "match_ 0" in inf
    assert "-OutgoingErrProc uplink_loss" in inf and "IncomingErrProc" not in inf
    assert "Agent/TCP set timestamps_ true" in inf and "window_ 20" in inf
    # the AP keeps ns-2's limit, the mobiles none
    assert "Mac/802_11 set ShortRetryLimit_ 7" in inf
    assert inf.count(f"set ShortRetryLimit_ {ns2.UNLIMITED}") == 2
    assert f'$ns at {ns2.START_S:.2f} "$ftp(0) start"' in inf
    std = ns2.tcl(ns2.Case(1, 20, 5, "standard", min_rto_s=0.1, tcp_tick_s=0.1), 1, 100.0, 5.0)
    assert "Mac/802_11 set ShortRetryLimit_ 4" in std and "set ShortRetryLimit_ 4\n" in std
    assert "minrto_ 0.1" in std and "tcpTick_ 0.1" in std and "burstlen_ 5" in std
    both = ns2.tcl(ns2.Case(1, 20, 20, "inf-rl", both_ways=True, timestamps=False), 1, 100, 5)
    assert "-IncomingErrProc downlink_loss" in both and "match_ 5" in both
    assert "timestamps_ false" in both
    lossless = ns2.tcl(ns2.Case(1, 20, 0, "inf-rl"), 1, 100.0, 5.0)
    assert "ErrorModel" not in lossless
    with pytest.raises(ValueError, match="Algorithm 1"):
        ns2.Case(1, 20, 20, "inject")
    with pytest.raises(ValueError, match="1 user"):
        ns2.Case(2, 20, 20, "inf-rl", both_ways=True)
    case = study._ns2_case({"case": "fig4", "variant": "main", "per": 30, "method": "standard"})
    assert (case.users, case.delay_ms, case.per_pct) == (5, 15, 30)
    with pytest.raises(ValueError, match="shared_errors"):
        study._ns2_case({"case": "fig4", "variant": "shared-errors", "per": 30,
                         "method": "standard"})  # fmt: skip


def test_ns2_loss_phase_never_starts_inside_a_burst():
    """offset_ k: k − 1 attempts delivered, then a whole burst; k from 2 to 100 − PER + 1,
    both ends drawn, so a run starts between two bursts (its first attempt never lost)."""
    for per in (5, 20, 30):
        ks = [k for seed in range(1, 400) for k in ns2.loss_offsets(per, 2, seed)]
        assert min(ks) == 2 and max(ks) == ns2.PERIOD - per + 1
    assert ns2.loss_offsets(20, 5, 3) == ns2.loss_offsets(20, 5, 3)  # deterministic
    # each direction of a link has its own phase
    assert any(ns2.loss_offsets(20, 1, s, 1) != ns2.loss_offsets(20, 1, s, 0) for s in range(9))


def test_ns2_spurious_timeouts_follow_wlansims_rule():
    """A series of timeouts from T; the first ACK that advances after it, with its RTT
    sample (now − echoed timestamp; ns-2 prints `rtt_` only when it changes), makes it
    spurious when the echo lies before T: as wlansim's Eifel detection."""

    def ev(t, name, value):
        return ns2.VarEvent(t, 1, name, value)

    events = [
        ev(0.0, "nrexmit_", 0), ev(0.0, "ack_", -1), ev(0.0, "rtt_", 0.0),
        ev(6.0, "ack_", 10), ev(6.0, "rtt_", 0.05),
        ev(6.1, "ack_", 11),  # the same sample again: no rtt_ line
        ev(10.0, "nrexmit_", 1), ev(10.3, "ack_", 12), ev(10.3, "rtt_", 0.5),  # echo 9.8
        ev(20.0, "nrexmit_", 2), ev(20.3, "ack_", 13), ev(20.3, "rtt_", 0.29),  # 20.01
        ev(30.0, "nrexmit_", 3), ev(30.6, "nrexmit_", 4),  # a series of two from 30
        ev(31.0, "ack_", 14), ev(31.0, "rtt_", 0.5),  # echo 30.5 > 30: genuine
        ev(40.0, "nrexmit_", 5), ev(40.5, "ack_", 15),  # echo 40.0 (sample 0.5 again)
        ev(41.0, "ack_", 15),  # not an advance
    ]  # fmt: skip
    spurious, total, n = ns2.spurious_and_rtt(events, 5.0, 0.01)
    assert spurious == 1 and n == 6
    assert total == pytest.approx(0.05 + 0.05 + 0.5 + 0.29 + 0.5 + 0.5)
    # before the warm-up nothing is counted
    assert ns2.spurious_and_rtt(events, 15.0, 0.01)[:2] == (0, pytest.approx(1.29))
    line = "10.10993 4194305 0  0  0  nrexmit_ 9\n12.5 4194305 0  0  0  rtt_ 0.040 \n"
    assert ns2.var_events(line) == [
        ns2.VarEvent(10.10993, 4194305, "nrexmit_", 9),
        ns2.VarEvent(12.5, 4194305, "rtt_", 0.04),
    ]


needs_ns = pytest.mark.skipif(ns_binary() is None, reason="ns-2.35 (`ns`) is not installed")


@pytest.fixture(scope="module")
def against_ns2(tmp_path_factory):
    from wlansim.cli import main

    out = tmp_path_factory.mktemp("quick-fotiadis-ns2")
    args = ["reproduce", "fotiadis2005", "--quick", "--against", "ns2", "--out", str(out)]
    assert main([*args, "--no-progress", "--jobs", "2"]) == 0
    return out


@needs_ns
def test_quick_against_ns2_writes_the_ns2_column_and_concludes(against_ns2):
    out = against_ns2
    rows = {r["id"]: r for r in cl.read_csv(out / "claims.csv")}
    # baselines decided by ns-2.35, injection not run there and saying why
    assert rows["fig2.per10.baselines"]["ns2_verdict"] in ("holds", "does not hold")
    assert rows["table1.per10.baselines"]["ns2_ours"].endswith("×")
    head = rows["fig2.above-both-above-10"]
    assert head["ns2_verdict"] == "not run" and "Algorithm 1" in head["ns2_sentence"]
    runs = pd.read_csv(out / "ns2_runs.csv")
    assert set(runs["method"]) == {"standard", "inf-rl"} and runs["seed"].nunique() == 4
    assert len(runs) == 2 * 4 * 2 * study.QUICK_REPS  # cases × PERs × methods × seeds
    p = runs.groupby(["case", "per", "method"]).mean(numeric_only=True)
    for case in ("fig2", "table1"):
        inf, std = p.loc[(case, 30, "inf-rl")], p.loc[(case, 30, "standard")]
        assert inf["spurious_timeouts"] >= 10 and inf["mobile_drops"] == 0
        assert inf["spurious_timeouts"] <= inf["timeouts"] + 1
        assert std["fast_retransmits"] > 0
        assert p.loc[(case, 5, "inf-rl")]["spurious_timeouts"] < 1
    # the first screen: the headline, then ns-2.35 beside wlansim (the quick plan sweeps
    # no setting: the full run's bottom line lists those it tried)
    first = "\n".join((out / "report.md").read_text().split("\n")[:12])
    assert "## Bottom line" in first and "The paper's headline:" in first
    assert "The paper's own simulator, ns-2.35, ran" in first
    assert "![fig2.png](fig2.png)" in (out / "report.md").read_text()


def test_named_differences_are_statements_ns2_decides():
    decided = {c.id for c in study.CLAIMS if not c.ns2}
    assert study.DIFFERENCES and set(study.DIFFERENCES) <= decided
    assert all("ns-2.35" in text for text in study.DIFFERENCES.values())


def test_rl4_loses_what_ns2_loses_per_burst():
    """20 ms, PER 15 %, RetryLimit 4, the plan's first seed: a burst of 15 attempts costs
    3 frames and one fast retransmit, as in ns-2.35 (its committed runs: 186 fast
    retransmits and 1.317-1.319 Mb/s at every seed; wlansim's goodput within 0.3 %, the
    baselines' named difference, `study.RWND_LIMITED`). Counting only the attempts that
    did not collide, a collision inside a burst stretched it (182 fast retransmits, 1.305
    Mb/s)."""
    import wlansim
    from wlansim.campaign.keys import replication_seed

    point = {"case": "table1", "variant": "main", "per": 15, "method": "standard"}
    m = wlansim.run(study.build(point, "ns2"), seed=replication_seed(1, 0)).metrics
    assert m["fast_retransmits"] == 186
    assert m["goodput_bps"] == pytest.approx(1.318e6, rel=0.003)
