"""EDCA, the classifier and frame error rates through the Python API."""

import pytest

import wlansim
from wlansim.errors import ScenarioError


def cell(**group):
    return {
        "duration": "5 s",
        "warmup": "1 s",
        "stations": [{"name": "sta", "count": 2, **group}],
        "flows": [
            {"name": "data", "direction": "uplink", "stations": "sta", "packet_size": 1000},
            {"name": "voice", "direction": "uplink", "stations": "sta", "packet_size": 100},
        ],
    }


def test_classifier_puts_flows_in_their_ac_and_vo_wins():
    s = cell(qos=True)
    s["qos"] = {"classifier": [{"ac": "vo", "max_size": "200 B"}]}
    r = wlansim.run(s, seed=1)
    ac = r.access_categories.set_index(["node", "ac"])
    assert ac.loc[("sta-0", "AC_VO"), "successes"] > 0
    assert ac.loc[("sta-0", "AC_BE"), "successes"] > 0
    assert ac.loc[("sta-0", "AC_BK"), "attempts"] == 0
    # AC_VO (CWmin 7, AIFSN 2, TXOP 3.264 ms) gets many more frames out than AC_BE
    assert ac.loc[("sta-0", "AC_VO"), "successes"] > 3 * ac.loc[("sta-0", "AC_BE"), "successes"]
    assert ac.loc[("sta-0", "AC_VO"), "burst_exchanges"] > 0
    node = r.nodes.set_index("name").loc["sta-0"]
    assert node["successes"] == ac.xs("sta-0")["successes"].sum()


def test_frame_errors_cost_retries_under_dcf():
    clean = wlansim.run(cell(), seed=1)
    lossy = wlansim.run(cell(fer_uplink=0.2), seed=1)
    n = lossy.nodes.set_index("name").loc["sta-0"]
    assert n["frame_errors"] > 0
    assert n["frame_errors"] / n["attempts"] == pytest.approx(0.2, abs=0.05)
    assert lossy.metrics["throughput_bps"] < clean.metrics["throughput_bps"]
    assert clean.nodes["frame_errors"].sum() == 0
    assert clean.access_categories.empty


def test_bad_edca_value_names_the_key():
    s = cell(qos=True, edca={"be": {"cw_min": 30}})
    with pytest.raises(ScenarioError, match=r"stations\.sta\.edca\.be\.cw_min.*30.*2\^k"):
        wlansim.run(s)


def test_ng2005_preset_applies_to_any_scenario_and_shows_in_the_resolved_form():
    from wlansim.evidence.studies.pilosof2003 import scenario as pilosof

    s = pilosof(2, 3, duration="10 s")
    s["qos"] = {"preset": "ng2005-table2"}
    r = wlansim.scenario.resolve(s)
    assert r["ap"]["qos"] and all(g["qos"] for g in r["stations"])
    assert r["qos"]["classifier"][0] == {"ac": "vo", "tcp_ack": True}
    ap = r["ap"]["edca"]
    assert (ap["vo"]["aifsn"], ap["vo"]["cw_min"]) == (2, 3)
    assert (ap["be"]["aifsn"], ap["be"]["cw_min"]) == (6, 31)
    assert ap["be"]["txop"] != "0 s", "3 downloads: a TXOP of 3 exchanges"
    out = wlansim.run(s, seed=1)
    ac = out.access_categories.set_index(["node", "ac"])
    # the AP's TCP ACKs (to the uploads) ride AC_VO, its download data AC_BE in bursts
    assert ac.loc[("ap", "AC_VO"), "frames_ack"] > 0 and ac.loc[("ap", "AC_VO"), "frames_data"] == 0
    assert ac.loc[("ap", "AC_BE"), "frames_data"] > 0
    assert ac.loc[("ap", "AC_BE"), "burst_exchanges"] > 0


def test_unknown_preset_is_named_with_the_allowed_ones():
    s = cell()
    s["qos"] = {"preset": "fair"}
    with pytest.raises(ScenarioError, match=r"qos\.preset.*fair.*ng2005-table2"):
        wlansim.run(s)
