"""`wlansim validate hidden --quick`: the spatial medium's hidden stations beside ns-2.35
(where `ns` is installed) and the vulnerable-period model, exposed senders, and BSSs on
channels 1, 6, 11 against all on channel 1 (3 seeds, 20 s each).

The verdicts asserted are the ones 3 seeds decide (the others may stay undecided in the
quick mode, never "does not hold"): hidden stations collide and collapse under basic
access, RTS/CTS more than doubles it, the model's independent attempts under-estimate
basic access, exposed senders share like one cell, BSSs on channel 1 share one medium.
"""

from __future__ import annotations

import pandas as pd
import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.ns2.run import ns_binary
from wlansim.evidence.validations.hidden import hidden_scenario, hidden_tcl
from wlansim.models import hidden as model
from wlansim.phy import timing

DECIDED = (
    "hidden.basic-collides",
    "hidden.basic-collapses",
    "hidden.rts-recovers",
    "hidden.model-basic",
    "exposed.lose-against-apart",
    "channels.one-medium",
)


@pytest.fixture(scope="module")
def run(quick_validation):
    out, printed = quick_validation("hidden")
    for name in ("hidden", "exposed", "channels"):
        assert (out / f"{name}.png").exists()
    assert ("ns-2 column left out" in printed) == (ns_binary() is None)
    verdicts = {r["id"]: r["verdict"] for r in cl.read_csv(out / "claims.csv")}
    tables = {k: pd.read_csv(out / f"{k}.csv") for k in ("hidden", "model", "exposed", "channels")}
    return verdicts, tables


def test_no_check_fails_and_the_decisive_ones_hold(run):
    verdicts, _ = run
    assert "does not hold" not in verdicts.values(), verdicts
    for claim in DECIDED:
        assert verdicts[claim] == "holds", (claim, verdicts)
    ns2 = "holds" if ns_binary() else "not run"
    assert verdicts["hidden.ns2-basic"] in (ns2, "undecided"), verdicts
    assert verdicts["hidden.ns2-rts"] in (ns2, "undecided"), verdicts


def test_hidden_stations_run_on_the_spatial_medium_and_collide_hidden(run):
    _, t = run
    h = t["hidden"]
    ours = h[h["sim"].isin(["wlansim", "wlansim-ns2"])]
    assert (ours["medium"] == "spatial").all()
    assert (h[h["sim"] == "one-cell"]["medium"] == "shared").all()
    basic = ours[ours["access"] == "basic"]
    # Nearly every collision is with a frame the sender could not sense start.
    assert basic["hidden_share"].min() > 0.9
    # RTS/CTS: the CTS a hidden station decodes sets its NAV.
    rts = ours[ours["access"] == "rts"]
    assert rts["nav_deferrals"].min() > 100


def test_three_bsss_on_one_channel_share_one_medium_and_apart_do_not(run):
    _, t = run
    c = t["channels"]
    assert set(c[c["case"] == "1, 6, 11"]["medium"]) == {"spatial"}
    assert set(c[c["case"] == "1, 1, 1"]["medium"]) == {"shared"}
    e = t["exposed"]
    assert set(e[e["case"] == "exposed"]["medium"]) == {"spatial"}


def test_the_tcl_script_has_the_geometry_and_thresholds():
    tcl = hidden_tcl("rts", 20.0, 10.0, seed=3)
    for text in (
        "$defaultRNG seed 3",
        "RTSThreshold_ 0",
        "Phy/WirelessPhy set RXThresh_ 1e-08",
        "Phy/WirelessPhy set CSThresh_ 1e-08",
        "$n(1) set X_ 400.0",
        "$n(2) set X_ 600.0",
        '$ns at 10.0 "mark"',
    ):
        assert text in tcl, text
    s = hidden_scenario("basic", profile="standard", distance_m=10.0)
    assert "profile" not in s and s["stations"][0]["position"] == [-10.0, 0.0]


def test_the_model_without_hidden_stations_and_with_them():
    t = timing({"standard": "802.11b", "data_rate": "2 Mb/s", "control_rate": "1 Mb/s"}, 972)
    alone = model.saturation(1, t)
    assert alone["p"] == 0.0 and alone["throughput_bps"] > 0
    basic, rts = model.saturation(2, t), model.saturation(2, t, access="rts")
    # The vulnerable period of a 1000-byte frame at 2 Mb/s is long, that of an RTS short.
    assert basic["vulnerable_slots"] > 10 * rts["vulnerable_slots"]
    assert basic["p"] > rts["p"] > 0
    assert rts["throughput_bps"] > 2 * basic["throughput_bps"]
    with pytest.raises(ValueError, match="access"):
        model.saturation(2, t, access="pcf")
