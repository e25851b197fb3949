"""miorandi2004 as claims: the quick study once per session (files, figures, claims.csv, a
verdict for every claim, the runs' pairing), eq 14 against one station with fixed files,
and the same files for every W*, d and profile under one seed."""

from __future__ import annotations

import pandas as pd
import pytest

import wlansim
from wlansim.evidence import claims as cl
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
    assert by_id["tab3-d2-beats-d1"]["verdict"] == "not run"
    assert "did not run" in by_id["fig9-grows"]["sentence"]
    # model properties are labelled so
    assert "a property of the models" in by_id["fig12-phi-decreasing"]["sentence"]


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
