"""`wlansim reproduce fotiadis2005 --quick`: the outputs, a claim row per claim of section
IV, and the mechanism's effect the study rests on: delay injection removes most of inf-RL's
spurious timeouts (1 flow, PER 20 and 30 %, 2 seeds × 30 s per point)."""

import pandas as pd
import pytest

from wlansim.cli import main
from wlansim.reproduce import fotiadis2005


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("fotiadis2005")
    assert main(["reproduce", "fotiadis2005", "--quick", "--out", str(d), "--no-progress"]) == 0
    return d


def test_outputs_are_written(out):
    for name in ("fig2", "table1", "table2", "fig3", "fig4", "fig5"):
        assert (out / f"{name}.csv").is_file()
        assert (out / f"{name}.png").stat().st_size > 0
    report = (out / "report.md").read_text()
    assert report.count("| yes |") + report.count("| no |") >= 10  # one row per claim
    t1 = pd.read_csv(out / "table1_improvement.csv")
    assert list(t1["paper_vs_inf-rl"]) == [-2, 23, 19]  # the paper's Table I at 10/20/30 %


def test_check_runs_count_spikes_without_losses_and_try_random_bursts(out):
    n = pd.read_csv(out / "check_no_loss.csv").set_index("method")
    assert n.loc["inject", "delay_spikes"] > 0 and n.loc["inject", "acks_delayed"] > 0
    assert n.loc["inf-rl", "spurious_timeouts"] == 0
    m = pd.read_csv(out / "check_models.csv")
    assert set(m["model"]) == {"bernoulli", "gilbert-elliott"}
    assert "Check run with random bursts" in (out / "report.md").read_text()


def test_injection_cuts_spurious_timeouts_of_inf_rl(out):
    t = pd.read_csv(out / "fig2.csv").set_index(["per", "method"])
    for per in (20, 30):
        inf, inj = t.loc[(per, "inf-rl")], t.loc[(per, "inject")]
        assert inf["spurious_timeouts"] >= 10
        assert inj["spurious_timeouts"] < 0.5 * inf["spurious_timeouts"]
        assert inj["acks_delayed"] > 0
        assert t.loc[(per, "standard")]["fast_retransmits"] > 0  # bursts become losses


def test_scenario_uses_the_paper_burst_pattern():
    s = fotiadis2005.scenario(2, 20, 15, "inject", "10 s", delay_factor=2.25)
    b = s["channel"]["links"][0]["bursts_uplink"]
    assert (b["model"], b["per"], b["burst_length"]) == ("periodic", 0.15, 15)
    assert s["ap"]["delay_injection"] == {"delay_factor": 2.25}
    assert s["servers"][0]["delay"] == "20 ms" and s["mac"]["short_retry_limit"] == "unlimited"
