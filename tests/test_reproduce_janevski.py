"""`wlansim reproduce janevski2009 --quick`: the outputs, a claim row per claim, and the
effects the study rests on (2 seeds per point, 3 variants, IFQ 25 and 100, 1/3/4
attempts)."""

import pandas as pd
import pytest

from wlansim.cli import main
from wlansim.reproduce import janevski2009


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("janevski2009")
    assert main(["reproduce", "janevski2009", "--quick", "--out", str(d), "--no-progress"]) == 0
    return d


def test_outputs_are_written(out):
    for name in ("static", "mobile", "table4", "table4_fast_control", "wide_window", "ofdm"):
        assert (out / f"{name}.csv").is_file()
    for name in ("fig4_50m", "fig5_100m", "fig9_mobile", "table4"):
        assert (out / f"{name}.png").stat().st_size > 0
    report = (out / "report.md").read_text()
    assert report.count("| yes |") + report.count("| no |") >= 15  # one row per claim
    assert "Profile: `ns2`" in report


def test_distance_and_attempts_drive_the_ftp(out):
    """Every frame is shadowed: at 100 m an attempt succeeds with p^4 (p = 0.79), so the
    FTP gets far less than at 50 m and gains from every extra attempt."""
    s = pd.read_csv(out / "static.csv").set_index(["distance", "variant", "ifq", "attempts"])
    near, far = s.loc[50, "ftp_mbps"], s.loc[100, "ftp_mbps"]
    assert (far < 0.5 * near).all()
    for (variant, ifq), g in far.groupby(level=["variant", "ifq"]):
        g = g.droplevel(["variant", "ifq"])
        assert g[1] < g[3] <= g[4] * 1.01, (variant, ifq, g.to_dict())
    assert (s.loc[100, "n3_retry_drops"] > 0).all()


def test_table4_game_delay_needs_fast_control_frames(out):
    t4 = pd.read_csv(out / "table4.csv")
    assert t4["diff_ms"].between(1.0, 3.0).all()  # control frames at ns-2's 1 Mb/s
    assert t4["fast_control_diff_ms"].abs().max() < 1.0  # at 20 Mb/s: within 1 ms
    # OFDM timing (9 us slot, 20 us preamble, 6 Mb/s control frames) is faster still.
    assert (t4["ours_ofdm_ms"] < t4["ours_fast_control_ms"]).all()
    s = pd.read_csv(out / "static.csv")
    ok = s[(s["distance"] == 50) & (s["attempts"] >= 3)]
    assert (ok["game_received"] >= 0.99 * ok["game_offered"]).all()


def test_scenario_sets_the_swept_parameters():
    s = janevski2009.scenario("sack", 25, 2, 100, mobile=True, rwnd=64)
    assert s["tcp"]["variant"] == "sack" and s["tcp"]["rwnd"] == 64
    assert s["mac"]["long_retry_limit"] == 2 and s["mac"]["queue"] == 25
    assert {ap["queue"] for ap in s["aps"]} == {25}
    n3 = next(g for g in s["stations"] if g["name"] == "n3")
    assert n3["position"] == [100.0, 100.0] and n3["mobility"]["waypoints"] == [[0, 0]]
    assert janevski2009.scenario("vegas", 50, 3, profile="standard")["profile"] == "standard"
    ofdm = janevski2009.scenario("vegas", 50, 3, timing="ofdm")["phy"]
    assert ofdm["standard"] == "802.11g" and ofdm["control_rate"] == "6 Mb/s"
    assert ofdm["data_rate"] == "20 Mb/s" and ofdm["nonstandard_rate"]
