"""miorandi2004 as claims: the quick study once per session (files, figures, claims.csv, a
verdict for every claim, the runs' pairing), eq 14 against one station with fixed files,
the same files for every W*, d and profile under one seed, the readings of the open
parameters, and the study's scenarios in ns-2.35 (`--against ns2`)."""

from __future__ import annotations

import math
import shutil

import pandas as pd
import pytest

import wlansim
from wlansim.evidence import claims as cl
from wlansim.evidence.ns2 import miorandi2004 as ns2
from wlansim.evidence.ns2.run import ns_binary
from wlansim.evidence.report import CSV_COLUMNS
from wlansim.evidence.studies import miorandi2004 as mio
from wlansim.evidence.study import with_profile
from wlansim.models import miorandi as model


@pytest.fixture
def quick(quick_reproduction):
    return quick_reproduction("miorandi2004")  # once per test session


def test_quick_run_writes_report_tables_figures_and_claims(quick):
    report = (quick / "report.md").read_text()
    assert "## Claims" in report and "## Parameters" in report
    assert "Profile: `ns2`" in report  # the study's own profile, stated
    for name in ("saturated", "persistent", "sessions"):
        assert (quick / f"{name}.csv").is_file()
    pngs = sorted(p.name for p in quick.glob("*.png"))
    assert len(pngs) >= 10, pngs
    rows = cl.read_csv(quick / "claims.csv")
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["id"] for r in rows] == [c.id for c in mio.CLAIMS]
    assert all(r["verdict"] in cl.VERDICTS for r in rows)
    by_id = {r["id"]: r for r in rows}
    # what quick mode leaves out is "not run", with the reason
    assert by_id["tab3-delack-beats-d1"]["verdict"] == "not run"
    assert "did not run" in by_id["fig9"]["sentence"]
    # model properties are labelled so and counted apart
    assert "a property of the models" in by_id["fig12-phi-decreasing"]["sentence"]
    assert by_id["fig12-phi-decreasing"]["category"] == "model property"
    assert "Counted apart (not reproductions): 5 model properties" in report
    # one row per statement: the tests of one statement are in its row
    assert by_id["fig3-eq8"]["tests"].startswith("d = 3-5: not run")


def test_quick_runs_are_complete_and_paired(quick):
    """Every file of every session run finished; the same seed downloads the same files at
    W* = 1 and W* = 1000 (the mean file size of each pair is equal); saturated stations
    collide as eqs 1-2 say (3 seeds of 20 s: within 0.02 absolute)."""
    ses = pd.read_csv(quick / "sessions.csv")
    assert (ses["sessions_unfinished"] == 0).all()
    single = ses[ses["stations"] == 1].pivot_table(
        index="seed", columns="w_star", values="file_bytes_mean"
    )
    assert len(single) == 3 and (single[1] == single[1000]).all()
    sat = pd.read_csv(quick / "saturated.csv")
    for n_b, g in sat.groupby("n_b"):
        assert abs(g["p_collision_sta"].mean() - model.collision_probability(n_b)[0]) < 0.02


def test_single_station_w1_fixed_files_meets_eq14():
    """One station, W* = 1, 200 files of 30 KB (30 full segments, so padding changes
    nothing): eq 14's assumptions hold (no contention: the AP and the station alternate,
    one frame in flight). The simulator's setup is longer than eq 13 (its SYN frames use
    RTS/CTS and carry the MAC header), by less than a millisecond of a ~108 ms session."""
    s = mio.scenario(1, w_star=1, think="1 s")
    s["flows"][0]["files"]["size"] = {"distribution": "fixed", "value": 30_000}
    s["flows"][0]["files"]["count"] = 200
    r = wlansim.run(s, seed=1)
    m = r.session_summary()
    assert m["sessions"] == 200 and m["sessions_unfinished"] == 0
    eq14 = model.session_delay_single(240_000)
    assert m["session_delay_mean_s"] == pytest.approx(eq14, rel=0.05)


def test_one_seed_downloads_the_same_files_whatever_the_window_d_or_profile():
    """The design that pairs the study's comparisons: a station's sizes come from its own
    stream, so W*, d, the number of stations and the profile leave them unchanged."""

    def files(profile, n, **kw):
        s = with_profile(mio.scenario(n, files=20, **kw), profile)
        sess = wlansim.run(s, seed=7).sessions.sort_values(["flow", "start_s"])
        return sess.groupby("flow")["bytes"].apply(list).to_dict()

    a = files("ns2", 3, w_star=1)
    b = files("ns2", 3, w_star=1000, d=2, delack_timeout="40 ms")
    c = files("standard", 5, w_star=1000)
    assert a == b
    assert all(c[k] == v for k, v in a.items())


def test_ns2_profile_runs_at_the_propagation_delay_of_the_ns2_scripts():
    """ns-2.35 delays a frame by distance / c, and its scripts stand every station 10 m
    from the AP: the ns2 profile's runs use that delay, not the standard's 1 µs (with 1 µs
    each RTS/CTS exchange lasted 3.9 µs longer, 0.9 % of 802.11a's goodput at d = 2)."""
    from wlansim.evidence.ns2.tcl import arc_positions
    from wlansim.units import parse

    ap, (x, y) = (50.0, 50.0), arc_positions(1, math.pi)[0]
    ns2_delay = math.hypot(x - ap[0], y - ap[1]) / 299_792_458
    built = mio.profiled(mio.persistent_scenario(mio.PERSISTENT), "ns2")
    ours = parse("duration", built["phy"]["propagation_delay"])
    assert ours == pytest.approx(ns2_delay, abs=0.5e-9)
    standard = mio.profiled(mio.persistent_scenario(mio.PERSISTENT), "standard")
    assert "propagation_delay" not in standard["phy"] and built["profile"] == "ns2"


@pytest.fixture
def against_ns2(quick, tmp_path_factory):
    """`--quick --against ns2` in a folder of its own, reusing the quick run's wlansim
    campaigns (only ns-2.35 runs); once per test session."""
    if ns_binary() is None:
        pytest.skip("ns-2 is not installed (make ns2)")
    from wlansim.cli import main

    out = tmp_path_factory.getbasetemp() / "miorandi-ns2"
    if not (out / "claims.csv").is_file():
        shutil.copytree(quick / "campaigns", out / "campaigns", dirs_exist_ok=True)
        args = ["reproduce", "miorandi2004", "--quick", "--against", "ns2", "--out", str(out)]
        assert main([*args, "--no-progress", "--jobs", "2"]) == 0
    return out


def test_against_ns2_decides_what_ns2_can_run_and_says_what_it_cannot(against_ns2):
    rows = {r["id"]: r for r in cl.read_csv(against_ns2 / "claims.csv")}
    for name in ("saturated", "persistent", "sessions"):
        assert (against_ns2 / f"ns2_{name}.csv").is_file()
    # the statements of mechanisms ns-2.35 lacks say what they need
    for cid in ("tab3-d5-worse", "tab3-dynamic-worse", "tab3-dynamic-paper"):
        assert rows[cid]["ns2_verdict"] == "not run"
        assert "ns-2.35 cannot run this" in rows[cid]["ns2_sentence"]
    # ns-2.35 decides what quick mode runs: Table 2 and the persistent runs
    assert rows["tab2-window-faster"]["ns2_verdict"] == "holds"
    assert rows["fig3-eq8"]["ns2_verdict"] in ("holds", "undecided")
    ses = pd.read_csv(against_ns2 / "ns2_sessions.csv")
    assert (ses["sessions_unfinished"] == 0).all()
    single = ses[ses["stations"] == 1].pivot_table(
        index="seed", columns="w_star", values="file_bytes_mean"
    )
    assert (single[1] == single[1000]).all()  # the same files at both W*


def test_readings_put_the_swept_runs_in_place_of_the_main_ones():
    """Where a reading applies, its runs stand in for the main value's and the points it
    did not run are left out (no statement mixes the two); elsewhere nothing changes."""
    base = {**mio.PERSISTENT}
    rows = [{**base, "stations": n, "ap_queue": b, "seed": s, "goodput_bps": b + n}
            for n in (2, 30) for b in (50, 10_000) for s in (1, 2)]  # fmt: skip
    rows += [{**base, "stations": 5, "seed": s, "goodput_bps": 7.0} for s in (1, 2)]
    rows += [{**base, "stations": 5, "w_star": 1, "seed": s, "goodput_bps": 9.0} for s in (1, 2)]
    t = pd.DataFrame(rows)
    r = mio._reading(t, "ap_queue", 10_000, mio.FIG4_SCOPE)
    assert set(r["ap_queue"]) == {50} and len(r) == 6
    assert sorted(r[r["stations"] == 30]["goodput_bps"]) == [10_030, 10_030]
    assert list(r[r["stations"] == 5]["goodput_bps"]) == [9.0, 9.0]  # outside: W* = 1
    read = mio.readings({"persistent": t, "sessions": pd.DataFrame(columns=list(mio.SESSION))},
                        mio.Plan.of(True))  # fmt: skip
    assert list(read) == ["persistent runs' AP buffer 10,000 (never overflows; Fig 4)"]


def test_bounds_place_runs_between_eqs_9_and_10():
    """s32-bounds: W* = 1 runs at the collision-free (eq 9) aggregate lie at 0, above the
    higher bound at more than 1."""
    claim = next(c for c in mio.CLAIMS if c.id == "s32-bounds")

    def table(over):
        rows = []
        for n in (2, 10):
            lo, hi = sorted((mio.eq9_aggregate(n), mio.eq10_aggregate(n)))
            rows += [
                {
                    **mio.PERSISTENT,
                    "stations": n,
                    "w_star": 1,
                    "seed": s,
                    "goodput_bps": lo + (hi - lo) * (0.5 + over + 0.01 * s),
                }
                for s in (1, 2, 3)
            ]
        return {"persistent": pd.DataFrame(rows)}  # fmt: skip

    assert claim.decide(table(0.0)).verdict == "holds"
    assert claim.decide(table(2.0)).verdict == "does not hold"


def test_every_session_point_runs_the_same_seeds():
    """Fig 10's table and its statement read the same runs (one number of seeds for every
    session point); the run under the other profile runs only the points its statements
    read."""
    main, other = mio.Plan.of(False), mio.Plan.of(False, "standard", 1, False)
    assert set(other.fig7) < set(main.fig7) and other.stations_delack == (30,)
    assert set(other.windows) < set(main.windows) and not other.windows_sweep
    assert len({p["stations"] for p in mio._session_points(other)} - {1, 10, 20, 30}) == 0
    assert not hasattr(main, "reps_more")


def test_ns2_scripts_follow_table1_and_say_what_ns2_lacks():
    p = {**mio.PERSISTENT, "d": 2, "w_star": 2}
    s = ns2.persistent_script(p, seed=3)
    for line in ("Mac/802_11 set dataRate_ 11Mb", "Mac/802_11 set basicRate_ 2Mb",
                 "Mac/802_11 set RTSThreshold_ 0", "Mac/802_11 set CWMin_ 31",
                 "Mac/802_11 set ShortRetryLimit_ 7", "Agent/TCP set window_ 2",
                 "Agent/TCP set windowInit_ 2", "Agent/TCPSink/DelAck set interval_ 0.04",
                 "[new Agent/TCP]", "[new Agent/TCPSink/DelAck]"):  # fmt: skip
        assert line in s, line
    a = ns2.persistent_script({**mio.PERSISTENT, "phy": "802.11a"}, seed=1)
    assert "Mac/802_11 set SlotTime_ 0.000009" in a and "PLCPDataRate_ 6.0e6" in a
    assert ns2.needs(2) == "" and "d > 2" in ns2.needs(3) and "dynamic" in ns2.needs("dynamic")
    with pytest.raises(ValueError, match="d = 3: ns-2.35 cannot run it"):
        ns2.persistent_script({**mio.PERSISTENT, "d": 3}, seed=1)
    ses = ns2.sessions_script({**mio.SESSION, "stations": 2, "files": 5}, seed=7)
    assert "$rng seed 7001" in ses and "$rng seed 7002" in ses
    assert "set shape_ 1.5" in ses and "set avg_ 30000" in ses


@pytest.mark.skipif(ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_ns2_sessions_download_the_same_files_whatever_the_window():
    def files(**kw):
        p = {**mio.SESSION, "stations": 2, "files": 6, "think_s": 0.5, **kw}
        return ns2.sessions_run(p, 5, per_file=lambda sizes: {"sizes": tuple(sorted(sizes))})

    a, b = files(w_star=1), files(w_star=1000, d="2")
    assert a["sessions"] == b["sessions"] == 12 and a["sessions_unfinished"] == 0
    assert a["sizes"] == b["sizes"] and a["session_delay_mean_s"] != b["session_delay_mean_s"]


@pytest.mark.skipif(ns_binary() is None, reason="ns-2 is not installed (make ns2)")
def test_ns2_rts_cts_lets_the_last_sender_win_ties():
    """The difference named for fig1-fit: with RTS/CTS ns-2.35's deferring stations count
    their slots 0.388 µs behind the last sender's (their NAV, set in whole µs, ends after
    the medium goes idle), so it never collides with them; without RTS/CTS every station
    counts on one grid and they collide."""
    rts = ns2.saturated_ties(3, 1)
    offsets = {last: {o for (x, o), n in rts["firsts"].items() if x == last and n > 50}
               for last in (True, False)}  # fmt: skip
    assert offsets == {True: {0.0}, False: {0.387, 0.388}}
    basic = ns2.saturated_ties(3, 1, rts=False)
    assert {o for (_, o), n in basic["firsts"].items() if n > 50} == {0.0}
    assert rts["p_collision_sta"] < 0.7 * basic["p_collision_sta"]
