"""`wlansim reproduce ng2005 --quick`: the UDP claims of ng2005 Section 4 and the TCP
fairness claims of Section 5 (Table 2 preset vs 802.11b defaults), and the physical
variant of Figs 1-2 (station 11's advantage by antenna gain and capture), asserted.

The 10% tolerance on simulation vs model is the issue's; the model (Bianchi per class with
AIFS zones) and the simulator share the EDCA slot rule, so nothing beyond sampling noise
(2 × 20 s per point) separates them in this regime."""

import pandas as pd
import pytest

from wlansim.cli import main
from wlansim.reproduce import ng2005, ng2005_tcp


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("ng2005")
    assert main(["reproduce", "ng2005", "--quick", "--out", str(d)]) == 0
    return d


def table(out, fig):
    return pd.read_csv(out / f"{fig}.csv")


def test_outputs_are_written(out):
    for fig in ("fig1", "fig2", "fig3", "fig4", "fig5", "fig6", "fig7", "fig8", "fig9"):
        assert (out / f"{fig}.csv").is_file()
        assert (out / f"{fig}.png").stat().st_size > 0
    report = (out / "report.md").read_text()
    assert "1270 µs" in report and "monotonically" in report
    assert "ng2005-table2" in report and "fig9" in report


def tcp_case(out, case):
    return pd.read_csv(out / "tcp_summary.csv").set_index("case").loc[case]


def test_12_uploads_table2_preset_is_fair_and_clearly_fairer_than_defaults(out):
    default, preset = tcp_case(out, "fig6"), tcp_case(out, "fig8")
    assert preset["jain_index"] >= 0.95
    # defaults: lockouts (ACKs starved at the AP) lower the whole-run index and, more
    # visibly, the index over 10 s windows
    assert preset["jain_index"] - default["jain_index"] >= 0.05
    assert preset["jain_window"] - default["jain_window"] >= 0.1
    stations = table(out, "fig8")
    assert len(stations) == 12 and (stations["mean"] > 0).all()


def test_6_up_6_down_table2_preset_balances_uploads_and_downloads(out):
    default, preset = tcp_case(out, "fig7"), tcp_case(out, "fig9")
    assert 0.7 <= preset["up_down_ratio"] <= 1.4
    assert default["up_down_ratio"] > 3, "with defaults the uploads take the channel"
    assert preset["jain_index"] >= 0.9


def test_station_11_has_a_slight_udp_advantage(out):
    adv = tcp_case(out, "fig1")["station11_advantage"]
    assert 1.05 < adv < 1.5, "the others lose 5% of their frames"


def test_capture_gain_is_where_one_equal_power_interferer_is_beaten():
    g = ng2005_tcp.capture_gain_db()
    assert g == 8, "ppdu_success of a 1536-byte 11 Mb/s frame: 7 dB 0.85, 8 dB 0.989"
    assert ng2005_tcp.capture_probability(g) >= ng2005_tcp.CAPTURE_TARGET
    assert ng2005_tcp.capture_probability(g - 1) < ng2005_tcp.CAPTURE_TARGET
    assert ng2005_tcp.capture_probability(3) < 1e-6
    s = ng2005_tcp.scenario("fig2-capture", "1 s")
    assert s["channel"]["reception"]["model"] == "sinr"
    assert [g.get("antenna_gain_db") for g in s["stations"]] == [None, 8.0]
    assert all("fer" not in g for g in s["stations"])
    assert ng2005_tcp.scenario("fig1-capture-3db")["stations"][1]["antenna_gain_db"] == 3.0


@pytest.mark.parametrize("case", ["fig1-capture", "fig2-capture"])
def test_capture_variant_station_11_wins_collisions_by_capture(out, case):
    r = tcp_case(out, case)
    assert r["captures_11"] > 0 and r["captures_others"] == 0
    assert r["collision_prob_11"] < r["collision_prob_others"]
    if case == "fig1-capture":
        # near-certain capture against one interferer: station 11 stays near CWmin (the
        # TCP ratio is not asserted: it spreads over 0.9-2 from run to run)
        assert r["station11_advantage"] > 1.5
        assert r["collision_prob_11"] < 0.1 < r["collision_prob_others"]
    for f in ("csv", "png"):
        assert (out / f"{case}.{f}").stat().st_size > 0


def test_below_the_capture_threshold_the_gain_changes_nothing(out):
    r = tcp_case(out, "fig1-capture-3db")
    assert r["captures_11"] == 0
    assert 0.85 < r["station11_advantage"] < 1.15, "6 dB already gives 1.3"


def test_report_compares_frame_errors_with_capture(out):
    report = (out / "report.md").read_text()
    assert "by frame errors or by capture" in report and "capture-gain.png" in report
    assert "variant reproduces" in report or "variants reproduce" in report
    assert (out / "capture-gain.png").stat().st_size > 0


def test_txop_steps_at_multiples_of_one_exchange(out):
    df = table(out, "fig3")
    step = ng2005.exchange_step_us()
    assert 1500 < step < 1650, "DATA 1257 µs + SIFS + ACK at 1 Mb/s + SIFS"
    below, above = df.iloc[1::2].reset_index(), df.iloc[2::2].reset_index()
    for k, (lo, hi) in enumerate(zip(below["sim"], above["sim"]), start=1):
        # just below the edge k+1 exchanges do not fit, just above they do: +1 frame
        assert lo == pytest.approx(k, rel=0.1)
        assert hi == pytest.approx(k + 1, rel=0.1)
    assert df["sim"].iloc[0] == pytest.approx(1.0, rel=0.1)


def test_aifs_relative_throughput_falls_monotonically(out):
    sim = list(table(out, "fig4")["sim"])
    assert all(b < a for a, b in zip(sim, sim[1:])), sim


@pytest.mark.parametrize("fig", ["fig4", "fig5"])
def test_aifs_and_cwmin_differentiation_match_the_model_within_10_percent(out, fig):
    df = table(out, fig)
    assert df["error"].abs().max() < 0.10, df


def test_the_preset_maps_ng2005_units_to_the_standard():
    s = ng2005.base_scenario()
    be = s["stations"][0]["edca"]["be"]
    assert be["aifsn"] == 2, "ng2005's zero extra AIFS slots = DIFS = AIFSN 2"
    assert be["cw_min"] == 31, "ng2005's CWmin 32 = CW 31"
    assert ng2005.sweeps(quick=False)["fig4"][1][:3] == [2, 3, 4]
