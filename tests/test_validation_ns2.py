"""wlansim's ns-2 profile beside ns-2.35 itself (`wlansim validate ns2`): the matched
scripts, the comparison where `ns` is installed (`make test` installs it on Debian), and
the message where it is not."""

from __future__ import annotations

import math
import re
import shutil

import pytest

from wlansim.cli import main
from wlansim.evidence.ns2 import run as ns2run
from wlansim.evidence.ns2 import tcl as ns2tcl
from wlansim.evidence.validations import ns2 as v


def test_the_tcl_script_carries_the_cells_parameters():
    tcl = v.udp_uplink_tcl(v.Cell(5, True, 2, queue=20), 30.0, 2.0, seed=7)
    for text in (
        "$defaultRNG seed 7",
        "Mac/802_11 set dataRate_ 11Mb",
        "Mac/802_11 set basicRate_ 2Mb",
        "Mac/802_11 set RTSThreshold_ 0",
        "-ifqLen 20",
        "create-god 6",
        '$ns at 2.0 "mark"',
        '$ns at 30.0 "finish"',
    ):
        assert text in tcl
    assert tcl.count("[new Agent/UDP]") == 5
    assert "RTSThreshold_ 3000" in v.udp_uplink_tcl(v.Cell(1, False, 1), 10.0, 2.0, 1)
    s = v.udp_uplink_scenario(v.Cell(5, True, 2, queue=20), 30.0, 2.0)
    assert s["profile"] == "ns2" and s["mac"] == {"rts_threshold": 0, "queue": 20}
    assert s["flows"][0]["packet_size"] == "972 B"
    # ns-2's DumbAgent adds no header: wlansim's routing agent matches it.
    assert s["routing_agent"] == "none" and "-adhocRouting DumbAgent" in tcl


def test_the_capture_case_places_both_sides_alike():
    """The capture case's stations stand where the Tcl puts them; the circle is the UDP
    cells' geometry; capture off is ns-2's CPThresh_ out of reach and wlansim's reception
    "none"."""
    spread = v.station_positions("spread", 20)
    distances = [((x - 50) ** 2 + (y - 50) ** 2) ** 0.5 for x, y in spread]
    assert distances[0] == pytest.approx(5.0) and distances[-1] == pytest.approx(45.0)
    circle = v.udp_uplink_tcl(v.Cell(3, False, 1), 30.0, 2.0, seed=1)
    x, y = v.station_positions("circle", 3)[1]
    assert f"$n(2) set X_ {x:.6f}" in circle and f"$n(2) set Y_ {y:.6f}" in circle
    assert "CPThresh_" not in circle
    tcl = v.udp_uplink_tcl(v.Cell(20, False, 1), 30.0, 2.0, 1, layout="spread", capture=False)
    assert tcl.index(ns2tcl.NO_CAPTURE_TCL) < tcl.index("$ns node-config")
    assert f"$n(20) set X_ {spread[-1][0]:.6f}" in tcl
    s = v.udp_uplink_scenario(v.Cell(20, False, 1), 30.0, 2.0, "spread", capture=False)
    assert s["ap"] == {"position": [50.0, 50.0]} and len(s["flows"]) == 20
    assert s["stations"][19]["position"] == list(spread[-1])
    assert s["flows"][19]["stations"] == "sta19" and s["channel"]["reception"]["model"] == "none"
    # Without a layout the scenario has no position: one power, the shared medium.
    assert "ap" not in v.udp_uplink_scenario(v.Cell(20, False, 1), 30.0, 2.0)
    with pytest.raises(ValueError, match="layout 'ring'"):
        v.station_positions("ring", 3)


def test_tcp_scripts_start_each_flow_at_its_own_time_and_trace_drops():
    ups, downs = v.tcp_starts(2)
    assert ups == pytest.approx([0.1, 0.11]) and downs == pytest.approx([0.22, 0.23])
    tcl = v.tcp_updown_tcl(20, 70.0, 10.0, seed=3, k=2)
    assert '$ns at 0.23 "$dn3_ftp start"' in tcl and f"open {ns2run.TRACE_FILE} w" in tcl
    s = v.tcp_updown_scenario(20, 70.0, 10.0, k=2)
    assert [f["start"] for f in s["flows"]] == ["0.1 s", "0.11 s", "0.22 s", "0.23 s"]
    assert v._flow_label("down1-0") == "down-1" and v._flow_label("up0-0") == "up-0"
    # With a wired host: DSDV, hierarchical addresses, the agents on the host.
    wired = v.tcp_updown_tcl(20, 70.0, 10.0, seed=3, k=2, host=True)
    for text in ("-adhocRouting DSDV", "-wiredRouting ON", "set host [$ns node 0.0.0]",
                 "set s3 [$ns node 1.0.4]", "$ns attach-agent $host $dn3"):  # fmt: skip
        assert text in wired
    # The window case sets the class default before making the agent (ssthresh_ = window_).
    w = v.window_case_tcl(128, 25, 30.0, 0.1, seed=1)
    assert w.index("Agent/TCP set window_ 128") < w.index("[new Agent/TCP/Newreno]")
    assert v.window_case_scenario(128, 25, 30.0, 0.1)["flows"][0]["tcp"] == {"rwnd": 128}
    # ns-2's propagation delay at 10 m on the wlansim side (33 ns, not the preset's 1 µs).
    assert s["phy"]["propagation_delay"] == v.NS2_PROPAGATION_DELAY == "33 ns"


def test_tcp_layouts_put_stations_opposite_or_not():
    """The "circle" puts each upload station across the AP from a download station;
    the "half-circle" no two stations in line with the AP; all stand 10 m from it."""

    def places(layout: str) -> list[tuple[float, float]]:
        tcl = v.tcp_updown_tcl(50, 70.0, 10.0, seed=1, k=3, layout=layout)
        xs = [float(x) for x in re.findall(r"\$s\d set X_ ([0-9.]+)", tcl)]
        ys = [float(y) for y in re.findall(r"\$s\d set Y_ ([0-9.]+)", tcl)]
        return [(x - 50, y - 50) for x, y in zip(xs, ys, strict=True)]

    for layout, opposite in (("circle", 3), ("half-circle", 0)):
        p = places(layout)
        assert len(p) == 6 and all(math.hypot(*q) == pytest.approx(10, abs=1e-5) for q in p)
        pairs = [(a, b) for i, a in enumerate(p) for b in p[i + 1 :]]
        assert sum(math.dist(a, b) == pytest.approx(20, abs=1e-5) for a, b in pairs) == opposite
    with pytest.raises(ValueError, match="layout 'ring'"):
        v.tcp_updown_tcl(50, 70.0, 10.0, seed=1, layout="ring")


def test_drop_lines_of_the_wireless_trace_are_parsed():
    trace = (
        "D 10.254025000 _0_ IFQ  --- 88 cbr 1000 [0 2 0 800] ------- [0:3 2:1 32 0] [39] 0 0\n"
        "M 10.3 0 (50.00, 50.00, 0.00), (50.00, 50.00), 0.00\n"
        "D 11.5 _3_ MAC  RET 91 ack 94 [0 1 0 800] ------- [3:0 0:0 32 0] [32 0] 0 0\n"
    )
    assert ns2run.parse_drops(trace) == [
        ns2run.Drop(10.254025, 0, "IFQ", "cbr", 1000),
        ns2run.Drop(11.5, 3, "MAC", "ack", 94),
    ]


def test_permutation_test_and_ratio_of_means():
    same = [10.0, 11.0, 9.0, 10.5]
    p = v.permutation_p(same, [1.0, 1.1, 0.9, 1.0], same, [1.0, 1.1, 0.9, 1.0])
    assert p == 1.0
    # Ratios of 10 against 20 in every run: the observed split is the most extreme one
    # (and its mirror), 2 of the 70 relabellings of 4 + 4 runs.
    p = v.permutation_p([10.0] * 4, [1.0] * 4, [20.0] * 4, [1.0] * 4)
    assert p == pytest.approx(2 / 70)
    runs = [
        {"sim": sim, "k": 2, "buffer": 20, "seed": seed, "up_pkts": up, "down_pkts": down,
         "up_timeouts": 0, "down_timeouts": 3}
        for sim, ratio in (("ns2", 100.0), ("wlansim", 110.0))
        for seed, (up, down) in enumerate([(480.0, 4.8 * 100 / ratio), (482.0, 0.0)], 1)
    ]  # fmt: skip
    row = v.summarize_tcp_point(runs)
    assert row["ns2_ratio"] == pytest.approx(962 / 4.8)
    assert row["ratio_diff_pct"] == pytest.approx(10.0)
    assert row["starving"] and row["ns2_down_timeouts"] == 3
    assert row["ns2_ratio_lo"] <= row["ns2_ratio"] <= row["ns2_ratio_hi"]


def test_a_point_gets_more_seeds_only_when_its_interval_is_too_wide():
    """The grid re-runs a sharing point with --tcp-seeds-wide seeds when its 95 % interval
    of the ratio difference is wider than ±10 %, whatever the difference itself."""
    row = {"starving": False, "ratio_diff_lo": -4.0, "ratio_diff_hi": 15.0}
    assert not v.ratio_too_wide(row)  # half width 9.5 %, although it reaches +15 %
    assert v.ratio_too_wide({**row, "ratio_diff_lo": -6.0})  # half width 10.5 %
    assert v.ratio_too_wide({**row, "ratio_diff_lo": -30.0, "ratio_diff_hi": -8.0})
    assert not v.ratio_too_wide({**row, "starving": True, "ratio_diff_lo": -60.0})


def test_without_ns_the_command_says_how_to_install_it(monkeypatch, capsys, tmp_path):
    from wlansim.evidence.validations import ns2_probes

    for module in (v, ns2_probes):
        monkeypatch.setattr(module, "ns_binary", lambda: None)
    for mode in ([], ["--speed"], ["--probe", "ap-queue"]):
        assert main(["validate", "ns2", "--quick", "--out", str(tmp_path), *mode]) == 0
        assert "make ns2" in capsys.readouterr().out
        assert not list(tmp_path.iterdir())


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_saturated_cells_match_ns2_within_one_percent():
    """The issue's acceptance for saturated UDP, on two of its cells (the full set is
    `wlansim validate ns2`): means over 3 seeds of 20 measured seconds, whose 95 %
    intervals are about 0.3 % wide on both sides, within 1 %."""
    rows = v.compare_udp_uplink(v.cells(quick=True), [1, 2, 3], 30.0)
    for r in rows:
        assert abs(r["diff_pct"]) < 1.0, r


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_ns2_capture_rule_matches_ns2_with_stations_spread():
    """ns-2's capture rule on both sides (the ns2 profile's default, ns-2's defaults), 20
    stations 5-45 m from the AP: the AP keeps the nearer of two colliding frames when it
    is 10 dB stronger, and the cell carries more than with capture off, in both
    simulators by about as much; with it on, within 1 % of ns-2 (2 seeds of 20 measured
    seconds; `wlansim validate ns2` runs 5 seeds of 30 and claims 0.5 %)."""
    rows = {r["capture"]: r for r in v.compare_capture(["spread"], [1, 2], 30.0, jobs=2)}
    assert abs(rows["on"]["diff_pct"]) < 1.0, rows
    for sim in ("ns2", "wlansim"):
        gain = rows["on"][f"{sim}_pkts"] / rows["off"][f"{sim}_pkts"] - 1
        assert gain > 0.02, (sim, rows)


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_one_upload_and_one_download_match_ns2():
    """The issue's TCP acceptance on two buffers (`wlansim validate ns2` runs 5, 20, 50
    and 100 with 20 seeds): B = 50 holds both windows (no drops), B = 20 drops the
    download's packets and times it out about 27 times a run in both simulators. Up/down
    ratio within 10 % and total within 2 % of ns-2, 4 seeds of 60 measured seconds."""
    series: list[dict] = []
    for row in v.compare_tcp_updown([20, 50], [1, 2, 3, 4], series=series):
        assert abs(row["ratio_diff_pct"]) < 10.0, row
        assert abs(row["total_diff_pct"]) < 2.0, row
        assert row["wlansim_down_fast_retransmits"] > 0 or row["buffer"] == 50, row
        # Both simulators' smoothed RTTs (ns-2's in 10 ms ticks) within 10 %, and the
        # per-second activity counts in [0, k].
        for d in ("up", "down"):
            ns2, ours = row[f"ns2_{d}_srtt_ms"], row[f"wlansim_{d}_srtt_ms"]
            assert ns2 > 20 and abs(ours / ns2 - 1) < 0.10, row
            ns2, ours = row[f"ns2_{d}_rto_ms"], row[f"wlansim_{d}_rto_ms"]
            assert ns2 >= 200 and abs(ours / ns2 - 1) < 0.10, row  # minrto_ 0.2 s
            assert 0 < row[f"wlansim_{d}_active"] <= 1 and 0 < row[f"ns2_{d}_active"] <= 1
    # One row per flow, second and run (the 59 whole seconds sampled after the warm-up and
    # before the end): 2 flows, 2 buffers, 4 seeds, 2 simulators.
    assert len(series) == 2 * 2 * 4 * 2 * 59
    assert {r["sim"] for r in series} == {"ns2", "wlansim"}


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_newreno_with_a_window_the_queue_cannot_hold_matches_ns2():
    """The large-window case (`wlansim validate ns2` runs windows 128 and 390 with 10
    seeds of 60 s): window 128, IFQ 25, CBR through the same queue, 2 seeds of 30 s from
    the start. Goodput within 5 %, and the TCP's drops at the AP and retransmissions
    within 15 % of ns-2's (before the ssthresh of a timeout in recovery was taken without
    the inflation, they were 13-19 % above ns-2's over 8 seeds)."""
    (row,) = v.compare_window_case([128], [1, 2], duration_s=30.1, warmup_s=0.1)
    assert abs(row["goodput_diff_pct"]) < 5.0, row
    for key in ("ap_drops", "rexmits"):
        assert abs(row[f"wlansim_{key}"] / row[f"ns2_{key}"] - 1) < 0.15, (key, row)
    assert row["ns2_timeouts"] > 0 and row["wlansim_timeouts"] > 0, row


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_dsdv_sizes_cost_their_airtime_and_stay_near_ns2():
    """ns-2 with DSDV and a wired host behind the AP against wlansim with routing_agent
    dsdv and none, at one point (k = 1, B = 50: no loss, the totals set by the airtime):
    DSDV's 20 bytes on the stations' packets cost wlansim 0.4-1.2 % of its total, and
    both stay within 1 % of ns-2; with ns-2's airtimes (README "The third difference")
    the bytes bring wlansim within 0.3 % again (seed 1: -0.05 %), and without them it
    carries about 0.5 % more."""
    (row,) = v.compare_sizes([(1, 50)], [1])
    assert 0.4 < (row["wlansim_none"] / row["wlansim_dsdv"] - 1) * 100 < 1.2, row
    assert abs(row["dsdv_diff_pct"]) < 1.0 and abs(row["none_diff_pct"]) < 1.0, row
    assert abs(row["dsdv_diff_pct"]) < 0.3, row
    assert row["none_diff_pct"] > abs(row["dsdv_diff_pct"]) + 0.2, row


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_speed_times_both_at_the_same_goodput():
    s = v.speed(n=5, duration_s=20.0, runs=1)
    assert s["ns2_pkts"] == pytest.approx(s["wlansim_pkts"], rel=0.02)
    assert s["ns2_interval_s"] == pytest.approx(5 / (v.SPEED_LOAD_FACTOR * s["wlansim_pkts"]))
    for key in ("run_wall_ratio", "process_wall_ratio", "run_cpu_ratio", "process_cpu_ratio"):
        assert s[key] > 0
    assert len(s["load_before"].split()) == 3


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_an_interface_queue_of_b_holds_b_packets_in_both_simulators():
    """A burst of 20 packets into an idle station with a queue of B: ns-2.35 delivers B
    (its drop-tail queue keeps B − 1 behind the frame in the MAC), and so does wlansim."""
    for row in v.compare_buffer([2, 5, 10]):
        assert row["ns2_delivered"] == row["wlansim_delivered"] == row["buffer"], row
        assert row["wlansim_offered"] == v.BURST_PACKETS, row


def test_series_summary_leaves_out_srtt_before_the_first_sample():
    rows = [
        {"flow": "down-0", "srtt_s": None, "active": False},  # wlansim: no RTT sample yet
        {"flow": "down-0", "srtt_s": 0.0, "active": False},  # ns-2: srtt_ still 0
        {"flow": "down-0", "srtt_s": 0.10, "active": True},
        {"flow": "down-0", "srtt_s": 0.12, "active": True},
        {"flow": "up-0", "srtt_s": 0.5, "active": True},
    ]
    for r in rows:
        r["rto_s"] = 0.3
    srtt_ms, rto_ms, active = v._series_summary(rows, "down", k=1)
    assert srtt_ms == pytest.approx(110.0) and active == pytest.approx(0.5)
    assert rto_ms == pytest.approx(300.0)


def test_agreement_is_decided_by_the_claims_engine():
    """`validate ns2` decides its agreement statements with `wlansim.evidence.claims`: synthetic
    runs that agree within the tolerances hold, a 50 % gap in the window case's timeouts
    does not, and starving grid points are left out of the per-direction claims."""
    import pandas as pd

    from wlansim.evidence import claims as cl

    def both(points, key, column, ns2, ours):
        return [{key: p, "sim": sim, "seed": s, column: base * (1 + 0.001 * s)}
                for p in points for sim, base in (("ns2", ns2), ("wlansim", ours))
                for s in range(1, 6)]  # fmt: skip

    udp = pd.DataFrame(both(["n=1", "n=10"], "cell", "pkts", 600.0, 601.0))
    # The capture claim reads the "capture on" cells only: a gap with capture off is shown,
    # not claimed.
    capture = pd.DataFrame(
        both(["spread capture on"], "cell", "pkts", 600.0, 601.0)
        + both(["spread capture off"], "cell", "pkts", 500.0, 600.0)
    )
    window = pd.DataFrame(
        [{**r, "timeouts": r["goodput_mbps"] * (10 if r["sim"] == "ns2" else 15)}
         for r in both([128], "window", "goodput_mbps", 1.0, 1.01)]
    )  # fmt: skip
    tcp = pd.DataFrame(
        [{"k": k, "buffer": 20, "sim": sim, "seed": s, "starving": k == 2,
          "up_pkts": 300.0 + s, "down_pkts": (1.0 if k == 2 and sim == "ns2" else 100.0) + s}
         for k in (1, 2) for sim in ("ns2", "wlansim") for s in range(1, 6)]
    )  # fmt: skip
    runs = {"udp-runs": udp, "capture-runs": capture, "window-runs": window, "tcp-runs": tcp}
    verdicts = cl.decide_all(v.CLAIMS, runs)
    by = {x.claim.id: x.verdict for x in verdicts}
    assert by == {
        "ns2.udp": "holds",
        "ns2.capture": "holds",
        "ns2.window-goodput": "holds",
        "ns2.window-timeouts": "does not hold",
        "ns2.tcp-uploads": "holds",
        "ns2.tcp-downloads": "holds",
    }, [x.sentence for x in verdicts]


def test_the_parser_offers_the_probes_and_layouts_the_package_has():
    from wlansim.cli import build_parser
    from wlansim.evidence.validations import ns2_probes

    parser = build_parser()
    ns2 = parser._subparsers._group_actions[0].choices["validate"]
    ns2 = ns2._subparsers._group_actions[0].choices["ns2"]
    choices = {a.dest: a.choices for a in ns2._actions if a.choices}
    assert tuple(choices["probe"]) == tuple(ns2_probes.PROBES)
    assert tuple(choices["layout"]) == v.TCP_LAYOUTS


def _probe(name: str, tmp_path, *args: str) -> tuple[list[dict], str]:
    """Run `validate ns2 --probe NAME ARGS`: the rows of the table it wrote, what it
    printed."""
    import contextlib
    import io

    import pandas as pd

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["validate", "ns2", "--probe", name, *args, "--out", str(tmp_path)]) == 0
    rows = pd.read_csv(tmp_path / f"probe-{name}.csv").to_dict(orient="records")
    return rows, printed.getvalue()


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_probe_ap_queue_rebuilds_ns2s_buffer_and_finds_it_full_as_often_as_wlansim(tmp_path):
    """k = 1, B = 20 (the download loses packets at the AP), seed 1, 30 s: every IFQ drop
    of ns-2 finds the level rebuilt from its trace at B, and the buffer is full about as
    often on both sides (seeds 1-2, 60 s: 14.6 % and 14.4 % of the samples)."""
    rows, printed = _probe("ap-queue", tmp_path, "--k", "1", "--buffer", "20", "--seeds", "1",
                           "--duration", "30")  # fmt: skip
    ns2, ours = rows
    assert (ns2["sim"], ours["sim"]) == ("ns-2", "wlansim")
    assert ns2["misfits"] == 0 and "did not find the rebuilt level at B: 0" in printed
    for r in rows:
        assert 0 < r["full_pct"] < 50 and r["level_q90"] == 20, r
        assert r["ack_segments"] > 1000 and r["full_periods"] > 100, r
    assert abs(ns2["full_pct"] - ours["full_pct"]) < 5, rows


@pytest.mark.skipif(ns2run.ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_probe_tie_collisions_classes_the_collisions_after_a_success(tmp_path):
    """k = 1, B = 50, seed 1, 20 s: with three nodes no collision is between two "third"
    nodes; both simulators see about as many successes, and collisions of the ACK's
    sender with the node it acknowledged (seeds 1-2: 280 in ns-2, 273 in wlansim)."""
    rows, printed = _probe("tie-collisions", tmp_path, "--k", "1", "--buffer", "50",
                           "--seeds", "1", "--duration", "20")  # fmt: skip
    ns2, ours = rows
    assert "ns-2's stations on the circle, 10 s measured" in printed
    for r in rows:
        assert r["third+third"] == 0 and r["acker+acked"] > 50, r
    assert abs(ours["successes"] / ns2["successes"] - 1) < 0.05, rows


@pytest.mark.skipif(
    ns2run.ns_binary() is None or shutil.which("gdb") is None,
    reason="needs ns-2 (make ns2) and gdb",
)
def test_probe_pause_slots_finds_ns2_losing_the_slot_after_its_own_ack(tmp_path):
    """k = 1, B = 5, seed 1, 11 s, inside ns-2 with gdb: between 1 and 2 s of the clock,
    every aligned pause after the last frame's sender won counts one slot fewer (seed 1,
    20 s: 470 of 470), and pauses are classed in every binade up to [8, 16) s."""
    rows, _ = _probe("pause-slots", tmp_path, "--k", "1", "--buffer", "5", "--seeds", "1",
                     "--duration", "11")  # fmt: skip
    by = {(r["clock"], r["transmitter"]): r for r in rows}
    one_two = by[("[1, 2) s", "last sender won")]
    assert one_two["lost"] > 100 and one_two["counted"] == 0, one_two
    assert {clock for clock, _ in by} == {"[0, 1) s", "[1, 2) s", "[2, 4) s", "[4, 8) s",
                                          "[8, 16) s"}  # fmt: skip
