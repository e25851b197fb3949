"""Acceptance tests of campaigns (issue 3) against the real simulator, in quick settings:
short simulated durations so the file runs in about a minute on 2 cores."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from wlansim.campaign import Campaign, CampaignError, Space

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "saturated-11b.toml"

# quick settings: a short run of the saturated cell
QUICK = {"duration": "2 s", "warmup": "0.2 s"}
# the killed campaign must last long enough to be killed half-way: long simulated runs
SLOW = {"duration": "300 s", "warmup": "1 s"}
QUICK_SET = [f"{k}={v}" for k, v in QUICK.items()]


def comparable(df: pd.DataFrame) -> pd.DataFrame:
    drop = ("wall_s", "finished_at", "command", "metric.wall_s")  # timings and paths
    cols = [c for c in df.columns if c not in drop]
    return df[cols].sort_values(["key"]).reset_index(drop=True)


def stored_count(db: Path) -> int:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def test_saturated_sweep_1_to_50_stations_5_reps(tmp_path):
    c = Campaign(
        SCENARIO,
        Space.grid({"stations.sta.count": "1:50:1"}),
        reps=5,
        store=tmp_path / "sat",
        overrides=QUICK,
    )
    report = c.run(jobs=2, progress=False)
    assert report.total == 250 and report.ok == 250 and report.failed == 0, report
    s = c.summary("throughput_bps")
    assert list(s["stations.sta.count"]) == list(range(1, 51))
    assert (s["n"] == 5).all() and (s["failed"] == 0).all()
    assert s["half_width"].notna().all() and (s["half_width"] >= 0).all()
    assert (s["ci95_low"] <= s["mean"]).all() and (s["mean"] <= s["ci95_high"]).all()
    assert (s["mean"] > 0).all()
    # common random numbers: replication r has the same seed at every point
    df = c.results()
    assert df.groupby("rep")["seed"].nunique().eq(1).all() and df["seed"].nunique() == 5
    # re-running executes nothing
    again = Campaign(
        SCENARIO,
        Space.grid({"stations.sta.count": "1:50:1"}),
        reps=5,
        store=tmp_path / "sat",
        overrides=QUICK,
    ).run(jobs=2, progress=False)
    assert again.executed == 0 and again.skipped == 250


def _sweep_cmd(out: Path, jobs: int = 2) -> list[str]:
    return [
        sys.executable, "-m", "wlansim", "sweep", str(SCENARIO),
        "--vary", "stations.sta.count=2:20:2", "--reps", "3",
        "--set", f"duration={SLOW['duration']}", "--set", f"warmup={SLOW['warmup']}",
        "--out", str(out), "--jobs", str(jobs), "--no-progress",
    ]  # fmt: skip


def test_sigkill_half_way_then_resume_loses_and_duplicates_nothing(tmp_path):
    out = tmp_path / "killed"
    db = out / "campaign.sqlite"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), env.get("PYTHONPATH", "")])
    proc = subprocess.Popen(
        _sweep_cmd(out),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: we kill it with its pool workers
    )
    total = 30
    killed_at = None
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            n = stored_count(db) if db.exists() else 0
            if n >= 8:
                os.killpg(proc.pid, signal.SIGKILL)
                killed_at = n
                break
            time.sleep(0.02)
    finally:
        if proc.poll() is None and killed_at is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert killed_at is not None, "campaign finished before it could be killed"
    assert proc.returncode == -signal.SIGKILL
    after_kill = stored_count(db)
    assert killed_at <= after_kill < total  # nothing lost, and it really was cut short

    # resume: only the missing runs execute
    res = subprocess.run(_sweep_cmd(out), env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert f"{after_kill} already stored, {total - after_kill} executed" in res.stderr

    con = sqlite3.connect(db)
    runs = pd.read_sql("SELECT key, params, rep, seed, status FROM runs", con)
    con.close()
    assert len(runs) == total and runs["key"].is_unique
    assert runs.groupby(["params", "rep"]).size().eq(1).all()
    assert (runs["status"] == "ok").all()

    # every result equals the one of an uninterrupted campaign with the same seeds
    ref = Campaign(
        SCENARIO,
        Space.grid({"stations.sta.count": "2:20:2"}),
        reps=3,
        store=tmp_path / "ref",
        overrides=SLOW,
    )
    ref.run(jobs=2, progress=False)
    resumed = Campaign(
        SCENARIO,
        Space.grid({"stations.sta.count": "2:20:2"}),
        reps=3,
        store=out,
        overrides=SLOW,
    )
    assert resumed.missing() == []
    pd.testing.assert_frame_equal(comparable(resumed.results()), comparable(ref.results()))


def test_dask_local_cluster_matches_local_pool(tmp_path):
    import distributed  # the cluster extra, installed by `make test`

    space = Space.grid({"stations.sta.count": [1, 5, 12]})
    pool = Campaign(SCENARIO, space, reps=2, store=tmp_path / "pool", overrides=QUICK)
    pool.run(jobs=2, progress=False)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        dask = Campaign(SCENARIO, space, reps=2, store=tmp_path / "dask", overrides=QUICK)
        report = dask.run(dask=client, progress=False)
    assert report.ok == 6 and "dask" in report.executor
    pd.testing.assert_frame_equal(comparable(dask.results()), comparable(pool.results()))


def test_an_invalid_point_stops_the_campaign_naming_key_value_and_rule(tmp_path):
    space = Space([{"stations.sta.count": n} for n in (2, "many", 4)])
    c = Campaign(SCENARIO, space, reps=2, store=tmp_path / "bad", overrides=QUICK)
    with pytest.raises(CampaignError) as err:
        c.run(jobs=2, progress=False)
    text = str(err.value)
    assert "1 of 3 point(s) do not validate, nothing was run or stored" in text
    assert "stations.sta.count=many" in text and "count" in text
    assert not (tmp_path / "bad" / "campaign.sqlite").exists()


def test_time_series_are_stored_beside_the_run(tmp_path):
    c = Campaign(
        SCENARIO,
        Space.grid({"stations.sta.count": [3]}),
        store=tmp_path / "ts",
        overrides={**QUICK, "output.series": ["queue_length"], "output.series_interval": "0.1 s"},
    )
    assert c.run(jobs=1, progress=False).ok == 1
    series = c.series(c.results()["key"].iloc[0])
    assert series, "no time series stored"
    for df in series.values():
        assert "t_s" in df.columns and len(df) >= 2


def test_cli_sweep_results_plot(tmp_path, capsys):
    from wlansim.cli import main

    out = tmp_path / "cli"
    rc = main(
        ["sweep", str(SCENARIO), "--vary", "stations.sta.count=1,4,8", "--reps", "3",
         "--set", QUICK_SET[0], "--set", QUICK_SET[1], "--out", str(out), "--jobs", "2",
         "--no-progress"]
    )  # fmt: skip
    assert rc == 0
    cap = capsys.readouterr()
    assert "9 executed (9 ok, 0 failed)" in cap.err
    assert "half_width" in cap.out
    assert (
        main(["results", str(out), "--metric", "throughput_bps", "--csv", str(tmp_path / "s.csv")])
        == 0
    )
    table = pd.read_csv(tmp_path / "s.csv")
    assert list(table["stations.sta.count"]) == [1, 4, 8] and list(table["n"]) == [3, 3, 3]
    png = tmp_path / "thr.png"
    assert main(["plot", str(out), "--x", "stations.sta.count", "--y", "throughput_bps",
                 "--out", str(png)]) == 0  # fmt: skip
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image

    img = matplotlib.image.imread(png)
    assert img.ndim == 3 and min(img.shape[:2]) > 100
    # a second sweep executes nothing
    assert main(_sweep_cmd_args(out)) == 0
    assert "0 executed" in capsys.readouterr().err


def _sweep_cmd_args(out: Path) -> list[str]:
    return ["sweep", str(SCENARIO), "--vary", "stations.sta.count=1,4,8", "--reps", "3",
            "--set", QUICK_SET[0], "--set", QUICK_SET[1], "--out", str(out), "--jobs", "2",
            "--no-progress"]  # fmt: skip
