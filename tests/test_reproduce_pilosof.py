"""`wlansim reproduce pilosof2003 --quick`: files, claims and the paper's regions."""

from __future__ import annotations

import pandas as pd
import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.studies import pilosof2003 as study


@pytest.fixture(scope="module")
def quick(quick_reproduction):
    return quick_reproduction("pilosof2003")


def test_quick_run_writes_report_claims_and_every_figure(quick):
    report = (quick / "report.md").read_text()
    assert "Profile `ns2` (the study's own)" in report and "This run leaves out:" in report
    assert "## Parameters" in report and "RTSThreshold_ 0" in report
    rows = cl.read_csv(quick / "claims.csv")
    assert [r["id"] for r in rows] == [c.id for c in study.CLAIMS]
    assert all(r["verdict"] in cl.VERDICTS for r in rows)
    # quick mode runs no other profile: those verdicts are "not run"
    assert {r["other_verdict"] for r in rows} == {"not run"}
    pngs = sorted(p.name for p in quick.glob("*.png"))
    assert len(pngs) >= 9, pngs
    for name in pngs:
        assert f"![{name}]({name})" in report


def test_quick_run_shows_the_regions_of_fig2_and_the_fix(quick):
    b = pd.read_csv(quick / "fig2.csv").set_index("B")
    assert 0.8 <= b.loc[85, "ratio"] <= 1.25  # room for both windows: fair
    assert (b.loc[10:40, "ratio"] >= 4).all()  # the upload takes most below 42
    assert b.loc[20, "ratio"] > 3 * b.loc[70, "ratio"]
    clamp = pd.read_csv(quick / "fig11.csv")
    assert clamp["ratio"].between(0.8, 1.25).all()
    plain = pd.read_csv(quick / "fig7.csv").set_index("n")
    assert plain.loc[8, "ratio"] >= 5
    rows = {r["id"]: r for r in cl.read_csv(quick / "claims.csv")}
    assert rows["fig3.rtt-down-grows"]["verdict"] == "holds"
    assert rows["fig2.fair-above-84"]["verdict"] != "does not hold"


def test_profiles_turn_the_scenarios_to_ns2_rules():
    from wlansim.evidence.study import with_profile

    s = study.scenario(1, 1)
    assert with_profile(s, "standard") is s
    ns2 = with_profile(s, "ns2")
    assert ns2["profile"] == "ns2" and ns2["tcp"]["profile"] == "ns2"
    assert s["tcp"]["profile"] == "ns2-compat" and "profile" not in s
    assert s["mac"]["rts_threshold"] == 0 and s["phy"]["data_rate"] == "1 Mb/s"
