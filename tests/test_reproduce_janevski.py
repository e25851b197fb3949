"""`wlansim reproduce janevski2009 --quick [--against ns2]`: the outputs, a verdict for
every statement, what quick mode skips, the setup checks, the IFQ shortcut the runs rest
on, the readings, and ns-2.35 beside wlansim on Table 4's cases (where `ns` exists).
(tests/test_reproduce_claims.py checks that every claim can flip and that no quick verdict
contradicts the committed full run.)"""

import math
import re
import shutil

import pandas as pd
import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.ns2 import run as ns2run
from wlansim.evidence.report import CSV_COLUMNS
from wlansim.evidence.studies import janevski2009 as j
from wlansim.scenario import load
from wlansim.traces import read_frames


@pytest.fixture(scope="module")
def out(quick_reproduction):
    return quick_reproduction("janevski2009")


def test_outputs_claims_and_figures(out):
    for name in ("claims.csv", "report.md", "static.csv", "ftp_summary.csv", "table4.csv"):
        assert (out / name).is_file(), name
    pngs = sorted(p.name for p in out.glob("*.png"))
    # Figs 2-10 and Table 4 under each PHY timing, control rate and RTS setting
    assert len(pngs) == 13 and all((out / p).stat().st_size > 10_000 for p in pngs), pngs
    rows = cl.read_csv(out / "claims.csv")
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["id"] for r in rows] == [c.id for c in j.CLAIMS]
    assert all(r["verdict"] in cl.VERDICTS and r["sentence"] for r in rows)
    # one row per statement: Table 4 is one, its cells are its tests
    t4 = next(r for r in rows if r["id"] == "table4")
    assert t4["kind"] == "simulation vs paper" and t4["tests"].count("/IFQ ") == 15
    report = (out / "report.md").read_text()
    assert report.split("\n")[2] == "## Bottom line" and "The paper's headline:" in report
    for cid in j.HEADLINE:
        assert f"({cid}): **" in report


def test_quick_mode_says_what_it_skips_and_does_not_decide_those_claims(out):
    report = (out / "report.md").read_text()
    assert "This run leaves out:" in report and "quick mode" in report
    rows = {r["id"]: r for r in cl.read_csv(out / "claims.csv")}
    for cid in ("figs23-retx-up", "fig9-retx-up", "fig10-sack-best", "fig8-optimal-2"):
        assert rows[cid]["verdict"] == "not run", (cid, rows[cid]["sentence"])
    assert "not run: attempts 1" in rows["figs23-retx-up"]["sentence"]


def test_window_limited_runs_cannot_rank_the_variants_or_the_queues(out):
    """With ns-2's window of 20 segments the FTP at 50 m loses nothing and fills no
    queue (counted per run): the statements that rank the loss-based variants or the IFQs
    there say why they cannot show anything, from those counters."""
    s = pd.read_csv(out / "static.csv")
    near = s[s["distance"] == 50]
    assert near["ftp_retransmissions"].sum() == 0 and near["queue_drops"].sum() == 0
    rows = {r["id"]: r for r in cl.read_csv(out / "claims.csv")}
    for cid in ("fig4-sack-best", "fig4-tahoe25-worst", "figs23-ifq100-best-50m"):
        assert rows[cid]["verdict"] == "cannot show", rows[cid]["sentence"]
    assert "no FTP segment was retransmitted" in rows["fig4-sack-best"]["sentence"]
    assert "no queue overflowed" in rows["figs23-ifq100-best-50m"]["sentence"]


def test_the_setup_checks_read_the_counters():
    base = {"distance": 50, "attempts": 3, "ifq": 25, "window": 20, "seed": 1,
            "ftp_retransmissions": 0, "queue_drops": 0}  # fmt: skip
    blind = {"static": pd.DataFrame([base, {**base, "seed": 2}])}
    lossy = {"static": pd.DataFrame([base, {**base, "seed": 2, "ftp_retransmissions": 3}])}
    full = {"static": pd.DataFrame([base, {**base, "seed": 2, "queue_drops": 1}])}
    nothing_lost, never_full = j._nothing_lost(50, 3), j._queues_never_full(50)
    assert "2 runs at 50 m, 3 attempts" in nothing_lost(blind)
    assert nothing_lost(lossy) == "" and nothing_lost(full) == ""
    assert "2 runs with IFQ 25 at 50 m" in never_full(blind) and never_full(full) == ""
    assert never_full({}) == ""


def test_run_grid_runs_a_larger_ifq_only_where_a_queue_overflowed():
    calls = []

    def run(points, tag):
        calls.append((tag, len(points)))
        rows = []
        for p in points:
            for seed in (1, 2):
                drops = 5 if (p["variant"] == "vegas" and p["ifq"] == 25) else 0
                rows.append({**p, "seed": seed, "queue_drops": drops, "x": p["ifq"] * 10})
        return pd.DataFrame(rows)

    points = [{"reading": "r", "case": "static", "distance": 50, "variant": v, "ifq": q,
               "attempts": 3} for v in ("tahoe", "vegas") for q in j.IFQS]  # fmt: skip
    df = j.run_grid(points, run)
    # every IFQ of Tahoe from its IFQ-25 runs; Vegas, which overflowed at 25, at 50 too
    assert calls == [("ifq25", 2), ("ifq50", 1)]
    assert len(df) == 12 and sorted(set(zip(df["variant"], df["ifq"]))) == sorted(
        (v, q) for v in ("tahoe", "vegas") for q in j.IFQS
    )
    tahoe = df[df["variant"] == "tahoe"]
    assert (tahoe["ran_ifq"] == 25).all() and (tahoe["x"] == 250).all()
    vegas = df[df["variant"] == "vegas"].set_index("ifq")
    assert vegas.loc[100, "ran_ifq"].tolist() == [50, 50]


def test_a_queue_that_never_overflows_changes_nothing():
    """What the IFQ shortcut rests on: the same case and seed with IFQ 25 and 100, at 50 m
    where no queue overflows, give the same results."""
    a, b = (j.run_case(j.scenario("newreno", q, 3, 50.0), 7) for q in (25, 100))
    assert a["metrics"]["queue_drops"] == 0
    assert a["metrics"] == b["metrics"] and a["flows"] == b["flows"]


def test_run_grid_runs_a_larger_attempt_limit_only_where_a_frame_reached_it():
    calls = []

    def run(points, tag):
        calls.append((tag, sorted({p["attempts"] for p in points}), len(points)))
        rows = []
        for p in points:
            for seed in (1, 2):
                # Vegas drops a frame at its limit below 3 attempts, and overflows IFQ 25
                retry = 1 if (p["variant"] == "vegas" and p["attempts"] < 3) else 0
                queue = 5 if (p["variant"] == "vegas" and p["ifq"] == 25) else 0
                rows.append({**p, "seed": seed, "queue_drops": queue, "retry_drops": retry,
                             "x": p["ifq"] * 10 + p["attempts"]})  # fmt: skip
        return pd.DataFrame(rows)

    points = [{"reading": "r", "case": "static", "distance": 50, "variant": v, "ifq": q,
               "attempts": a} for v in ("tahoe", "vegas") for q in j.IFQS
              for a in j.ATTEMPTS]  # fmt: skip
    df = j.run_grid(points, run)
    # Tahoe: every IFQ and limit from its (25, 1) runs; Vegas: limits 1-3 at IFQ 25 (it
    # dropped at its limit below 3) and again at IFQ 50 (it overflowed IFQ 25)
    assert calls == [("ifq25", [1], 2), ("ifq25", [2], 1), ("ifq25", [3], 1),
                     ("ifq50", [1], 1), ("ifq50", [2], 1), ("ifq50", [3], 1)]  # fmt: skip
    assert len(df) == 2 * 2 * len(j.IFQS) * len(j.ATTEMPTS)
    tahoe = df[df["variant"] == "tahoe"]
    assert (tahoe["ran_ifq"] == 25).all() and (tahoe["ran_attempts"] == 1).all()
    assert (tahoe["x"] == 251).all()
    vegas = df[df["variant"] == "vegas"].set_index(["ifq", "attempts"]).sort_index()
    assert vegas.loc[(25, 4), "ran_attempts"].tolist() == [3, 3]
    assert vegas.loc[(100, 4), ["ran_ifq", "ran_attempts"]].values.tolist() == [[50, 3]] * 2
    assert vegas.loc[(100, 2), ["ran_ifq", "ran_attempts"]].values.tolist() == [[50, 2]] * 2
    # settled by the IFQ alone (ns-2.35's runs): every limit of an IFQ runs at once
    calls.clear()
    j.run_grid(points, run, j.SETTLES[:1])
    assert calls == [("ifq25", [1, 2, 3, 4], 8), ("ifq50", [1, 2, 3, 4], 4)]


def test_a_frame_that_never_reaches_its_limit_changes_nothing():
    """What the attempt-limit shortcut rests on: the same case and seed with 3 and 4
    attempts, at 50 m where no frame uses all of 3 attempts, give the same results."""
    a, b = (j.run_case(j.scenario("newreno", 25, n, 50.0), 7) for n in (3, 4))
    assert a["metrics"]["retry_drops"] == 0
    assert a["metrics"] == b["metrics"] and a["flows"] == b["flows"]


def test_table4_and_the_sizing_rule(out):
    """The game waits behind the FTP's exchanges at BS1 whose RTS, CTS and ACK go at ns-2's
    1 Mb/s: 1-3 ms above every Table 4 cell. The sizing rule (RTT x 20 Mb/s) gives about
    four times Table 3's largest IFQ."""
    t4 = pd.read_csv(out / "table4.csv")
    assert len(t4) == 15 and t4["diff_ms"].between(1.0, 3.0).all(), t4["diff_ms"].tolist()
    rows = {r["id"]: r for r in cl.read_csv(out / "claims.csv")}
    assert rows["table4"]["verdict"] == "does not hold"
    assert rows["sizing-rule"]["verdict"] == "does not hold"
    assert 300 < float(rows["sizing-rule"]["value"]) < 500


def test_scenario_sets_the_swept_parameters_and_the_readings():
    r = j.Reading("bs0", 128, "ofdm-6", rts=False)
    assert r.key == "n1-bs0-w128-ofdm-6-rts-off" and j.MAIN.key == "n1-bs1-w20"
    s = j.scenario("sack", 25, 2, 100, mobile=True, reading=r)
    assert s["tcp"]["variant"] == "sack" and s["tcp"]["rwnd"] == 128
    assert s["tcp"]["profile"] == "ns2" and s["profile"] == "ns2"
    assert s["mac"]["long_retry_limit"] == 2 and s["mac"]["queue"] == 25
    assert s["mac"]["rts_threshold"] == "off"
    assert j.scenario("sack", 25, 2)["mac"]["rts_threshold"] == 0
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
    with pytest.raises(ValueError, match="phy"):
        j.scenario("vegas", 50, 3, reading=j.Reading("bs1", 20, "dsss-2"))


def test_the_readings_are_the_combined_ones_and_every_other_table4_setting():
    """The full plan runs every case under n1's BS × the window and the two combinations
    under which ns-2.35 gives the paper's delays; Table 4's cases under every other PHY
    and RTS setting; `readings` hands each back as the main tables."""
    assert j.COMBINED == (j.Reading("bs0", 128, "ofdm-6"), j.Reading("bs0", 128, rts=False))
    plan = j.Plan.of(False)
    assert plan.readings == j.READINGS and plan.table4_readings == j.TABLE4_READINGS
    assert len(j.TABLE4_READINGS) == 10 and not set(j.TABLE4_READINGS) & set(j.READINGS)
    assert set(plan.ns2_readings) | set(plan.ns2_table4) == set(j.ALL_READINGS.values())
    rows = [{"reading": r.key, "x": i} for i, r in enumerate(j.READINGS)]
    tables = {"sweep_static": pd.DataFrame(rows[1:]),
              "table4_readings": pd.DataFrame([{"reading": j.TABLE4_READINGS[0].key}])}  # fmt: skip
    views = j.readings(tables, plan)
    assert list(views) == [r.label for r in j.READINGS[1:]] + [j.TABLE4_READINGS[0].label]
    assert views[j.COMBINED[1].label]["static"]["x"].tolist() == [5]


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
    medium all the same (every node draws each frame's power), and the text says so."""
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
    assert "every node draws each frame's power" in geometry


def test_the_geometry_section_counts_the_runs_on_the_spatial_medium():
    tables = {"static": pd.DataFrame({"spatial_medium": [0.0, 1.0, 1.0]})}
    text = "\n".join(j._geometry_lines(tables))
    assert "Of this run's 3 simulations 2 used the spatial medium and 1 the shared one" in text
    assert "simulations" not in "\n".join(j._geometry_lines({}))


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_quick_against_ns2_writes_the_ns2_column(out, tmp_path):
    """`--quick --against ns2` (wlansim's runs reused from the quick run): ns-2.35 runs
    Table 4's cases with the same seeds count, its tables carry the study's columns, and
    claims.csv its verdicts. On the main reading the two simulators agree (issue 38: ns-2
    23.64 ± 0.08 ms, wlansim 23.53 ± 0.05 ms): the game's delay within 0.2 ms, the FTP
    within 1 %, both window-limited and loss-free."""
    from wlansim.cli import main

    shutil.copytree(out / "campaigns", tmp_path / "campaigns")
    args = ["reproduce", "janevski2009", "--quick", "--against", "ns2", "--out", str(tmp_path)]
    assert main([*args, "--no-progress", "--jobs", "2"]) == 0
    ours, theirs = pd.read_csv(out / "static.csv"), pd.read_csv(tmp_path / "ns2_static.csv")
    assert list(theirs.columns) == list(ours.columns)
    assert len(theirs) == 15 * 3 and set(theirs["seed"]) == set(ours["seed"])
    near = ours[(ours["distance"] == 50) & (ours["attempts"] == 3)]
    assert abs(theirs["game_delay_ms"].mean() - near["game_delay_ms"].mean()) < 0.2
    assert abs(theirs["ftp_mbps"].mean() / near["ftp_mbps"].mean() - 1) < 0.01
    assert theirs["ftp_retransmissions"].sum() == 0 and theirs["queue_drops"].sum() == 0
    rows = {r["id"]: r for r in cl.read_csv(tmp_path / "claims.csv")}
    assert rows["table4"]["ns2_verdict"] == "does not hold"
    assert rows["fig4-sack-best"]["ns2_verdict"] == "cannot show"
    assert rows["fig9-retx-up"]["ns2_verdict"] == "not run"
    report = (tmp_path / "report.md").read_text()
    assert "## ns-2.35 beside wlansim" in report


def test_the_ns2_script_is_written_from_the_same_scenario():
    """ns-2.35's script of a case carries the scenario's retry limit, RTS setting, IFQ,
    TCP agent and window, PHY timing, radio, positions (shifted onto ns-2's flat grid) and
    n3's walk; the traces' frames become binary records of the same IP packets."""
    from wlansim.evidence.ns2 import janevski2009 as ns2

    r = j.Reading("bs0", 128, "ofdm-6", rts=False)
    case, traffic = ns2.case_of(j.scenario("vegas", 25, 2, 100, mobile=True, reading=r))
    tcl = ns2.script(case, traffic, j.END_S, j.FTP_START_S)
    for line in ("Mac/802_11 set LongRetryLimit_ 2", "Mac/802_11 set RTSThreshold_ 3000",
                 "-ifqLen 25", "[new Agent/TCP/Vegas]", "$tcp set window_ 128",
                 "$tcp set packetSize_ 512", "Mac/802_11 set SlotTime_ 0.000009",
                 "Mac/802_11 set basicRate_ 6Mb", "$prop set pathlossExp_ 2.7",
                 "$prop set std_db_ 4", f'$ns at {j.FTP_START_S} "$n3 setdest 200.000000 '
                 '200.000000 4.0"', "$n1 set Y_ 190.000000", "$n3 set Y_ 300.000000"):  # fmt: skip
        assert line in tcl, line
    # n1 on BS0: domain 1 holds BS0, n0 and n1; domain 2 BS1, n2 and n3
    assert "AddrParams set nodes_num_ {4 3 3}" in tcl
    assert traffic.game_down == (200, 0.05, 10.0) and traffic.game_up == (42, 0.06, 10.1)
    frames = {name: records for name, records, _, _ in traffic.traces}
    assert set(frames) == {"movie", "chat-down", "chat-up"}
    movie = frames["movie"]
    sizes = [row[3] for row in read_frames(j._home()["flows"][0]["trace"]["file"])]
    assert [s for _, s in movie[:50]] == [s + 28 * math.ceil(s / 1000) for s in sizes[:50]]
    assert {gap for gap, _ in movie} == {40_000}  # 25 frames/s
    assert ns2.seeds(2**40).startswith("set seed ") and "set seed 2\n" in ns2.seeds(1)
    for line in ns2.seeds(2**63 - 1).splitlines():
        assert 0 < int(line.split()[2]) < 2**31 - 1


def test_the_ns2_metrics_come_from_what_the_script_printed_and_traced():
    from wlansim.evidence.ns2 import janevski2009 as ns2

    r = ns2.resolved(j.scenario("newreno", 25, 3, 100.0), j.END_S, j.FTP_START_S,
                     j.GAME_START_S)  # fmt: skip
    printed = "\n".join([
        "node bs0 4", "node bs1 5", "node n0 6", "node n1 7", "node n2 8", "node n3 9",
        "ftp_bytes 552000", "ftp_timeouts 2", "ftp_cuts 7", "ftp_rexmits 9",
        "ftp_srtt_s 0.09", "game_down_n 1990", "game_down_sum_s 47.76", "game_up_n 1665",
        "game_up_sum_s 39.96",
    ])  # fmt: skip
    drops = [ns2run.Drop(40.0, 5, "IFQ", "tcp", 552, "---"),
             ns2run.Drop(41.0, 5, "IFQ", "audio", 228, "---"),
             ns2run.Drop(42.0, 5, "RTR", "tcp", 552, "CBK"),
             ns2run.Drop(43.0, 9, "RTR", "ack", 60, "CBK"),
             ns2run.Drop(1.0, 4, "IFQ", "udp", 1048, "ARP")]  # fmt: skip
    m = ns2.metrics(r, printed, drops)
    assert m["ftp_mbps"] == pytest.approx(1000 * 512 * 8 / 75 / 1e6)
    assert (m["ftp_timeouts"], m["ftp_fast_retransmits"], m["ftp_retransmissions"]) == (2, 5, 9)
    assert m["ftp_rtt_ms"] == pytest.approx(90.0)
    assert m["game_delay_ms"] == pytest.approx(24.0) and m["game_received"] == 1990
    assert m["game_kbps"] == pytest.approx(1990 * 200 * 8 / 100 / 1e3)
    assert (m["ftp_queue_drops"], m["ftp_retry_drops"], m["game_queue_drops"]) == (1, 2, 1)
    assert (m["bs1_queue_drops"], m["bs1_retry_drops"], m["queue_drops"]) == (2, 1, 2)
    assert math.isnan(m["bs1_attempts"]) and math.isnan(m["n3_parked_share"])
    # ns-2's Vegas sends its segments without the TCP/IP header: 512 bytes a segment
    vegas = ns2.resolved(j.scenario("vegas", 25, 3, 100.0), j.END_S, j.FTP_START_S,
                         j.GAME_START_S)  # fmt: skip
    assert ns2.metrics(vegas, printed.replace("552000", "512000"), [])["ftp_mbps"] == (
        pytest.approx(m["ftp_mbps"])
    )
    walk = ns2.resolved(j.scenario("newreno", 25, 3, 50.0, mobile=True), j.END_S,
                        j.FTP_START_S, j.GAME_START_S)  # fmt: skip
    m = ns2.metrics(walk, printed, [])
    # 50 m beside BS1 to BS0 (112 m) at 4 m/s: at BS0 from 62.95 s, i.e. 63-110 s
    assert m["n3_parked_share"] == pytest.approx(48 / 75) and m["n3_parked_from_s"] == 63


def test_the_ns2_case_refuses_what_its_script_cannot_express():
    """A scenario the ns-2 script cannot carry is an error naming the key, the value and
    what is allowed, not a script that runs something else."""
    from wlansim.evidence.ns2 import janevski2009 as ns2

    base = j.scenario("newreno", 25, 3, 50.0, mobile=True)
    ns2.case_of(base)  # the study's own scenario is fine

    def refused(change, match):
        s = j.scenario("newreno", 25, 3, 50.0, mobile=True)
        change(s)
        with pytest.raises(ValueError, match=match):
            ns2.case_of(s)

    def phy(s):
        s["phy"]["control_rate"] = "2 Mb/s"

    def rts(s):
        s["mac"]["rts_threshold"] = 500

    def queues(s):
        s["aps"][1]["queue"] = 100

    def walk(s):
        s["stations"][-1]["mobility"]["waypoints"].append([10.0, 0.0])

    def speed(s):
        s["stations"][-1]["mobility"]["speed"] = "2 m/s"

    refused(phy, r"phy.control_rate '2 Mb/s'.*802.11b with 1 Mb/s")
    refused(rts, r"mac.rts_threshold 500: 0 .* or 'off'")
    refused(queues, "one IFQ at every node")
    refused(walk, "one waypoint")
    refused(speed, "only n3 walks")
    with pytest.raises(ValueError, match="expected a number of s"):
        ns2._quantity("10 ms", "s")
    assert ns2._quantity("10 s", "s") == ns2._quantity(10, "s") == 10.0
