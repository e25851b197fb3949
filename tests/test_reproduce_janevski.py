"""`wlansim reproduce janevski2009 --quick`: the outputs, a verdict for every claim, what
quick mode skips, and the facts the study rests on (3 seeds per point, every variant and
IFQ at 50 and 100 m, 3 and 4 attempts); the scenario builder and the geometry in one place.
(tests/test_reproduce_claims.py checks that every claim can flip and that no quick verdict
contradicts the committed full run.)"""

import math
import re

import pandas as pd
import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.report import CSV_COLUMNS
from wlansim.evidence.studies import janevski2009 as j
from wlansim.scenario import load


@pytest.fixture(scope="module")
def out(quick_reproduction):
    return quick_reproduction("janevski2009")


def test_outputs_claims_and_figures(out):
    for name in ("claims.csv", "report.md", "static.csv", "ftp_summary.csv", "table4.csv"):
        assert (out / name).is_file(), name
    pngs = sorted(p.name for p in out.glob("*.png"))
    # Figs 2-10 and Table 4 under each of the three PHY readings
    assert len(pngs) == 12 and all((out / p).stat().st_size > 10_000 for p in pngs), pngs
    rows = cl.read_csv(out / "claims.csv")
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["id"] for r in rows] == [c.id for c in j.CLAIMS]
    assert all(r["verdict"] in cl.VERDICTS and r["sentence"] for r in rows)
    # Table 4: a claim per cell against the paper's value
    assert sum(r["id"].startswith("table4-") and r["kind"] == "simulation vs paper"
               for r in rows) == 15  # fmt: skip


def test_quick_mode_says_what_it_skips_and_does_not_decide_those_claims(out):
    report = (out / "report.md").read_text()
    assert "This run leaves out:" in report and "quick mode" in report
    rows = {r["id"]: r for r in cl.read_csv(out / "claims.csv")}
    for cid in ("fig2-retx-up", "fig9-retx-up", "fig10-sack-best", "fig8-optimal-2"):
        assert rows[cid]["verdict"] == "not run", (cid, rows[cid]["sentence"])
    assert "not run: attempts 1" in rows["fig2-retx-up"]["sentence"]


def test_distance_drives_the_ftp_through_the_channel(out):
    """Every frame is shadowed: at 100 m BS1's attempts to n3 fail on the channel often
    (an attempt succeeds with p^4, p = 0.79: RTS, CTS, DATA, ACK; BS1's attempts to n1 and
    n2, 10 m away, dilute the share), so the FTP gets far less than at 50 m and a 4th
    attempt helps there; at 50 m nothing fills a queue of 25."""
    s = pd.read_csv(out / "static.csv")
    by = s.groupby("distance")[["ftp_mbps", "bs1_frame_errors", "bs1_attempts",
                                "bs1_queue_drops"]].mean()  # fmt: skip
    err = by["bs1_frame_errors"] / by["bs1_attempts"]
    assert err[100] > 0.05 and err[50] < 0.01, err.to_dict()
    assert by.loc[100, "ftp_mbps"] < 0.5 * by.loc[50, "ftp_mbps"]
    assert by.loc[50, "bs1_queue_drops"] == 0
    rows = {r["id"]: r for r in cl.read_csv(out / "claims.csv")}
    assert rows["fig5-longer-more"]["verdict"] != "does not hold"


def test_table4_and_the_sizing_rule(out):
    """The game waits behind the FTP's exchanges at BS1 whose RTS, CTS and ACK go at ns-2's
    1 Mb/s: 1-3 ms above every Table 4 cell. The sizing rule (RTT x 20 Mb/s) gives about
    four times Table 3's largest IFQ."""
    t4 = pd.read_csv(out / "table4.csv")
    assert len(t4) == 15 and t4["diff_ms"].between(1.0, 3.0).all(), t4["diff_ms"].tolist()
    rows = {r["id"]: r for r in cl.read_csv(out / "claims.csv")}
    assert rows["sizing-rule"]["verdict"] == "does not hold"
    assert 300 < float(rows["sizing-rule"]["value"]) < 500


def test_scenario_sets_the_swept_parameters_and_the_readings():
    r = j.Reading("bs0", 128)
    s = j.scenario("sack", 25, 2, 100, mobile=True, reading=r, phy="ofdm-6")
    assert s["tcp"]["variant"] == "sack" and s["tcp"]["rwnd"] == 128
    assert s["tcp"]["profile"] == "ns2" and s["profile"] == "ns2"
    assert s["mac"]["long_retry_limit"] == 2 and s["mac"]["queue"] == 25
    assert {ap["queue"] for ap in s["aps"]} == {25}
    st = {g["name"]: g for g in s["stations"]}
    assert st["n1"]["ap"] == "bs0" and st["n1"]["position"] == [0.0, -10.0]
    assert st["n3"]["ap"] == "bs1" and st["n3"]["position"] == [100.0, 100.0]
    assert st["n3"]["mobility"]["waypoints"] == [[0.0, 0.0]]
    assert s["output"]["series"] == ["position"]
    assert s["phy"]["standard"] == "802.11g" and s["phy"]["control_rate"] == "6 Mb/s"
    std = j.scenario("vegas", 50, 3, profile="standard")
    assert "profile" not in std and std["tcp"]["profile"] == "ns2-compat"
    with pytest.raises(ValueError, match="n1_bs"):
        j.scenario("vegas", 50, 3, reading=j.Reading("bs2", 20))


def test_the_example_scenario_is_the_main_reading():
    """The geometry lives in `place`: the TOML example stands as the main reading puts it."""
    home, built = load(str(j.HOME)), j.scenario("newreno", 50, 3)
    for key in ("aps", "stations"):
        assert [(x["name"], x.get("ap"), list(map(float, x["position"]))) for x in home[key]] == [
            (x["name"], x.get("ap"), x["position"]) for x in built[key]
        ]


def test_parked_share_reads_the_position_series():
    t = list(range(1, 111))
    x = [max(0.0, 100 - 4 * max(0, s - 35)) for s in t]
    series = {"position": {"t_s": t, "n3-0.x": x, "n3-0.y": [0.0] * len(t)}}
    share, since = j.parked_share(series, "n3-0", (0.0, 0.0))
    assert since == 60 and share == pytest.approx(51 / 75)
    assert all(map(pd.isna, j.parked_share({}, "n3-0", (0.0, 0.0))))


def test_the_report_says_what_moved_and_that_nobody_leaves_carrier_sense_range(out):
    """The Geometry section is computed: n3 is the only node that moves; the farthest two
    points any two nodes reach (n1 beside BS0 and n3 100 m from BS1) lie inside the median
    carrier-sense range of ns-2's CSThresh_; every run of the ns2 profile used the spatial
    medium all the same (ns-2's capture rule decides per receiver), and the text says so."""
    report = (out / "report.md").read_text()
    geometry = report.split("## Geometry")[1].split("\n## ")[0]
    assert "What moves: n3 " in geometry
    far = math.dist((0.0, -10.0), (100.0, 100.0))
    assert f"{far:.0f} m apart (n1 and n3)" in geometry and "nobody becomes hidden" in geometry
    assert "-78.1 dBm" in geometry  # CSThresh_ 1.559e-11 W
    s = pd.read_csv(out / "static.csv")
    assert (s["spatial_medium"] == 1).all()
    found = re.search(r"Of this run's (\d+) simulations (\d+) used the spatial medium", geometry)
    assert found and int(found.group(1)) == int(found.group(2)) >= len(s), geometry
    assert "Under the ns2 profile the runs use the spatial medium" in geometry


def test_the_geometry_section_counts_the_runs_on_the_spatial_medium():
    tables = {"static": pd.DataFrame({"spatial_medium": [0.0, 1.0, 1.0]})}
    text = "\n".join(j._geometry_lines(tables))
    assert "Of this run's 3 simulations 2 used the spatial medium and 1 the shared one" in text
    assert "simulations" not in "\n".join(j._geometry_lines({}))
