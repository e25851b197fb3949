"""`wlansim reproduce pilosof2003 --quick` (and `--against ns2`): files, claims, the
paper's regions, the linearity rule, the readings of the open parameters, and the ns-2.35
scripts."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.ns2 import pilosof2003 as ns2
from wlansim.evidence.ns2.run import ns_binary
from wlansim.evidence.studies import pilosof2003 as study


@pytest.fixture(scope="module")
def quick(quick_reproduction):
    return quick_reproduction("pilosof2003")


@pytest.fixture(scope="module")
def against_ns2(quick, tmp_path_factory):
    """`--quick --against ns2` in a folder of its own, reusing the quick run's wlansim
    campaigns (only ns-2.35 runs)."""
    if ns_binary() is None:
        pytest.skip("ns-2 is not installed (make ns2)")
    from wlansim.cli import main

    out = tmp_path_factory.mktemp("pilosof-ns2")
    shutil.copytree(quick / "campaigns", out / "campaigns")
    args = ["reproduce", "pilosof2003", "--quick", "--against", "ns2", "--out", str(out)]
    assert main([*args, "--no-progress", "--jobs", "2"]) == 0
    return out


def test_quick_run_writes_report_claims_and_every_figure(quick):
    report = (quick / "report.md").read_text()
    assert report.split("\n")[2] == "## Bottom line"
    assert "The paper's headline:" in report
    assert "Profile `ns2` (the study's own)" in report and "This run leaves out:" in report
    assert "## Parameters" in report and "RTSThreshold_ 0" in report
    assert "## Table I" in report
    rows = cl.read_csv(quick / "claims.csv")
    assert [r["id"] for r in rows] == [c.id for c in study.CLAIMS]
    assert all(r["verdict"] in cl.VERDICTS for r in rows)
    # quick mode runs no other profile and no ns-2.35: those verdicts are "not run"
    assert {r["other_verdict"] for r in rows} == {"not run"}
    assert {r["ns2_verdict"] for r in rows} == {"not run"}
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


def test_quick_run_runs_table1_with_background_udp(quick):
    """Table I's cases: the background CBR through the AP takes from the downloads (their
    share of a flow pair's goodput falls, the ratio grows)."""
    t = pd.read_csv(quick / "table1_runs.csv")
    k2 = t[(t["mtu"] == 1500) & (t["k"] == 2)]
    plain, udp = k2[k2["udp_bytes"] == 0], k2[k2["udp_bytes"] == 1000]
    assert len(plain) == len(udp) == 3
    share = lambda g: (g["down_flow_bps"] / (g["up_flow_bps"] + g["down_flow_bps"])).mean()  # noqa: E731
    assert share(udp) < share(plain)


def _fig6(ratios: dict[int, list[float]]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"n": n, "seed": s, "ratio": r} for n, rs in ratios.items() for s, r in enumerate(rs)]
    )


def test_linearity_is_the_offset_from_the_line_through_the_ends():
    """A straight line (proportional or not) is linear; a ratio that bows over it by a
    quarter of its rise is not; the rule decides on the runs' spread."""
    claim = next(c for c in study.CLAIMS if c.id == "fig6.linear-in-n")
    seeds, ns = range(4), (1, 2, 4, 8)

    def noise(n, s):
        return 0.02 * ((n * 7 + s * 3) % 5 - 2)

    line = _fig6({n: [1 + 0.5 * (n - 1) + noise(n, s) for s in seeds] for n in ns})
    origin = _fig6({n: [n + noise(n, s) for s in seeds] for n in ns})
    bowed = _fig6({n: [1 + 3.5 * ((n - 1) / 7) ** 0.4 + noise(n, s) for s in seeds] for n in ns})
    for runs, verdict in ((line, "holds"), (origin, "holds"), (bowed, "does not hold")):
        assert claim.decide({"fig6_runs": runs}).verdict == verdict
    off, zero = study._linearity(bowed)
    assert off.mean == pytest.approx(0.30, abs=0.05) and zero.exact
    flat = _fig6({n: [2.0 + 0.01 * s for s in seeds] for n in (1, 2, 4)})
    assert claim.decide({"fig6_runs": flat}).verdict == "cannot show"  # its premise


def test_readings_are_the_sweeps_of_the_open_parameters(quick):
    """Quick mode sweeps nothing; a sensitivity table gives one reading per setting with
    the main tables' names, Table I as run."""
    tables = {k: pd.read_csv(quick / f"{k}.csv") for k in ("fig2_runs", "table1_runs")}
    plan = study.Plan.of(True, "ns2")
    assert study.readings(tables, plan) == {}
    parts = []
    for label in study.SENSITIVITY:
        for name in study.FIGURES:
            parts.append(
                pd.DataFrame(
                    {"n": [1, 2], "B": [10, 10], "seed": [1, 1], "ratio": [1.0, 2.0]}
                ).assign(setting=label, figure=name)
            )
    tables["sensitivity_runs"] = pd.concat(parts, ignore_index=True)
    read = study.readings(tables, plan)
    assert list(read) == list(study.SENSITIVITY)
    for t in read.values():
        assert set(t) == {*(f"{n}_runs" for n in study.FIGURES), "table1_runs"}
        assert "setting" not in t["fig2_runs"] and len(t["fig2_runs"]) == 2
        assert t["table1_runs"] is tables["table1_runs"]


def test_ns2_scripts_match_the_study():
    """The fix as the paper ran it in ns-2 (window_ = floor(B/F) before the agents are
    made); the main PHY (1 Mb/s, RTS/CTS), 1024-byte packets, Reno, capture off, the
    flows after the warm-up; Table I's CBR in IP bytes; bad input named."""
    plan = study.Plan.of(False, "ns2")
    assert plan.seeds(5) == [1, 2, 3, 4, 5]
    s = ns2.script(ns2.Case(13, 13, 100, 100 // 26), seed=4)
    assert "Agent/TCP set window_ 3\n" in s and "Agent/TCP set packetSize_ 1024" in s
    assert s.index("Agent/TCP set window_") < s.index("[new Agent/TCP/Reno]")
    assert "Mac/802_11 set dataRate_ 1Mb" in s and "Mac/802_11 set RTSThreshold_ 0" in s
    assert "CPThresh_ 1e9" in s and "$defaultRNG seed 4" in s
    assert f'$ns at {ns2.WARMUP_S} "$f25_ftp start"' in s and s.count("_ftp start") == 26
    case = study._table1_case(study.table1_point(500, 2, (450, 1), 2000), 100.0)
    assert case.window == 2000 // 460 and case.mss == 460 and not case.rts
    t = ns2.script(case, seed=1)
    assert "$cbr set packetSize_ 478" in t and "$cbr set interval_ 0.001" in t
    with pytest.raises(ValueError, match="rate '1 Gb/s'"):
        ns2.script(ns2.Case(1, 1, 10, 42, rate="1 Gb/s"), 1)
    with pytest.raises(ValueError, match="tcp variant 'vegas'"):
        ns2.script(ns2.Case(1, 1, 10, 42, variant="vegas"), 1)


def test_against_ns2_writes_ns2_verdicts_beside_wlansims(against_ns2):
    rows = {r["id"]: r for r in cl.read_csv(against_ns2 / "claims.csv")}
    assert all(r["ns2_verdict"] in cl.VERDICTS for r in rows.values())
    ran = [r for r in rows.values() if r["ns2_verdict"] != "not run"]
    assert len(ran) >= 15
    report = (against_ns2 / "report.md").read_text()
    assert "The paper's own simulator, ns-2.35, ran" in report
    for name in ("fig2_runs", "fig6_runs", "fig7_runs", "fig11_runs", "table1_runs"):
        assert (against_ns2 / f"ns2_{name}.csv").is_file()
    # ns-2.35 shows the paper's regions on the same scenarios: fair with room for both
    # windows, the upload far ahead below 42, the fix fair
    b = pd.read_csv(against_ns2 / "ns2_fig2.csv").set_index("B")
    assert 0.9 <= b.loc[85, "ratio"] <= 1.1 and (b.loc[10:40, "ratio"] >= 4).all()
    assert pd.read_csv(against_ns2 / "ns2_fig11.csv")["ratio"].between(0.85, 1.15).all()
    assert rows["fig3.rtt-down-grows"]["ns2_verdict"] == "holds"
    # ns-2.35's runs packed for committing: every one of them
    from wlansim.evidence.ns2 import pack

    runs = len(list((against_ns2 / "ns2").rglob("*.json")))
    assert runs >= 60
    assert pack.restore(against_ns2 / pack.PACK, against_ns2.parent / "from-pack") == runs


def test_ns2_frames_and_drops_are_counted_from_the_trace():
    trace = "\n".join([
        "r 10.5 _3_ AGT  --- 7 tcp 1064 [13a 2 0 800] ------- [0:2 4194306:1 30 4194306]",
        "r 10.6 _2_ AGT  --- 9 ack 60 [13a 2 0 800] ------- [0:2 4194306:1 30 4194306]",
        "r 10.7 1 0 tcp 1084 ------- 0 1.0.1.0 0.0.0.1 5 11",
        "r 10.8 0 1 tcp 1064 ------- 0 0.0.0.2 1.0.2.1 5 12",
        "D 10.9 _1_ IFQ  --- 13 ack 40 [0 0 0 0] ------- [0:0 4194305:0 30 4194305]",
        "D 11.0 _2_ IFQ  --- 14 tcp 1064 [0 0 0 0] ------- [0:0 4194305:0 30 4194305]",
    ])  # fmt: skip
    c = ns2._counts(trace)
    assert c == {"ap_data": 1, "ap_ack": 1, "sta_data": 1, "sta_ack": 0, "drop_data": 0,
                 "drop_ack": 1}  # fmt: skip
    assert ns2._rtt_mean("10.1 1 0 0 0 rtt_ 0.500\n10.9 1 0 0 0 rtt_ 0.700\n") == pytest.approx(0.6)


def test_profiles_turn_the_scenarios_to_ns2_rules():
    from wlansim.evidence.study import with_profile

    s = study.scenario(1, 1)
    assert with_profile(s, "standard") is s
    ns2_ = with_profile(s, "ns2")
    assert ns2_["profile"] == "ns2" and ns2_["tcp"]["profile"] == "ns2"
    assert s["tcp"]["profile"] == "ns2-compat" and "profile" not in s
    assert s["mac"]["rts_threshold"] == 0 and s["phy"]["data_rate"] == "1 Mb/s"
    udp = study.table1_scenario(study.table1_point(1500, 2, (1000, 2), 65_535))
    bg = next(f for f in udp["flows"] if f["name"] == "udp")
    assert bg["rate"] == "4e+06 b/s" and bg["packet_size"] == "1000 B"
    assert udp["tcp"]["mss"] == 1460 and udp["tcp"]["rwnd"] == "65535 B"
