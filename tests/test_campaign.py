"""Campaign machinery tested with a small deterministic fake simulator (no Rust core needed):
parameter spaces, seeds, the store, executors, statistics, failures, results/plot CLI."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import math
import random
import sqlite3
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

import pandas as pd
import pytest
from scipy import stats as st

from wlansim.campaign import (
    Campaign,
    CampaignError,
    Space,
    SpaceError,
    Store,
    frange,
    load_runs,
    read_series,
    replication_seed,
    safe_eval,
    summarize,
    t_interval,
    values,
)
from wlansim.campaign.executors import (
    ExecutorLost,
    InlineExecutor,
    execute_run,
    map_unordered,
)
from wlansim.campaign.keys import reproduce_command
from wlansim.campaign.progress import Progress
from wlansim.campaign.tomlout import dumps as toml_dumps
from wlansim.errors import WlansimError

# ----------------------------------------------------------------------------- fake core

BASE = {"seed": 7, "duration": "1 s", "stations": {"sta": {"count": 1}}, "ap": {"queue": 50}}


def fake_load(scenario):
    return copy.deepcopy(scenario)


def fake_resolve(base, overrides):
    d = copy.deepcopy(base)
    for key, value in overrides.items():
        parts = key.split(".")
        node = d
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = value
    n = d["stations"]["sta"]["count"]
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"stations.sta.count: {n!r} is not allowed (an integer >= 1)")
    return d


def fake_run(scenario, seed):
    n = scenario["stations"]["sta"]["count"]
    if n == 13:
        raise RuntimeError("unlucky number of stations")
    rng = random.Random(f"{seed}-{n}")
    thr = 5e6 * (1 - 0.02 * n) + rng.gauss(0, 5e4)
    return {
        "metrics": {"throughput_bps": thr, "collision_probability": 0.01 * n},
        "meta": {"seed": seed, "events": 100 * n},
        "flows": [{"flow": "up", "bytes": int(thr)}],
        "nodes": [{"node": "ap"}],
        "series": {"queue_length": {"t_s": [0.0, 0.5, 1.0], "ap": [0, n, 2 * n]}},
    }


def campaign(store, space=None, reps=3, **kw):
    if space is None:
        space = {"stations.sta.count": [1, 2, 5]}
    kw.setdefault("run_fn", fake_run)
    return Campaign(
        BASE,
        space,
        reps=reps,
        store=store,
        load_fn=fake_load,
        resolve_fn=fake_resolve,
        version="test",
        **kw,
    )


def comparable(df):
    return df.drop(columns=["wall_s", "finished_at", "command"]).reset_index(drop=True)


# ----------------------------------------------------------------------------- space


def test_values_lists_and_ranges():
    assert values("1,2,5") == [1, 2, 5]
    assert values("0.5, 1000 B, true") == [0.5, "1000 B", True]
    assert values("1:10:3") == [1, 4, 7, 10]  # stop lands on the grid: included
    assert values("1:9:3") == [1, 4, 7]
    assert values("1:4") == [1, 2, 3, 4]
    assert values("5:1:-2") == [5, 3, 1]
    assert values("0:1:0.1")[-1] == 1.0 and len(values("0:1:0.1")) == 11
    assert frange(0.1, 0.35, 0.1) == [0.1, 0.2, 0.3]
    assert values([3, 4]) == [3, 4] and values(7) == [7]
    with pytest.raises(SpaceError):
        values("1:5:0")
    with pytest.raises(SpaceError):
        values("5:1:1")
    with pytest.raises(SpaceError):
        values("a:b")


def test_space_product_zip_derive():
    s = Space.grid({"a": [1, 2], "b": "10,20"})
    assert s.points() == [
        {"a": 1, "b": 10},
        {"a": 1, "b": 20},
        {"a": 2, "b": 10},
        {"a": 2, "b": 20},
    ]
    z = Space.zip({"x": [1, 2, 3], "y": ["p", "q", "r"]})
    assert [tuple(p.values()) for p in z] == [(1, "p"), (2, "q"), (3, "r")]
    assert len(s * z) == 12 and (s * z).keys == ["a", "b", "x", "y"]
    assert len(s + Space([{"a": 9, "b": 9}])) == 5
    with pytest.raises(SpaceError, match="equal numbers"):
        Space.zip({"x": [1, 2], "y": [1]})
    with pytest.raises(SpaceError, match="both factors"):
        s * Space.grid({"a": [1]})

    d = Space.grid({"ap.queue": [30, 50], "stations.sta.count": [4]}).derive(
        "tcp.rwnd", "floor(queue / count)"
    )
    assert [p["tcp.rwnd"] for p in d] == [7, 12]
    d2 = d.derive("x", lambda p: p["tcp.rwnd"] * 2).derive("y", "ap.queue // tcp.rwnd + 1")
    assert [(p["x"], p["y"]) for p in d2] == [(14, 5), (24, 5)]
    assert d2.keys == ["ap.queue", "stations.sta.count", "tcp.rwnd", "x", "y"]


def test_safe_eval_is_restricted():
    env = {"ap.queue": 20, "stations.sta.count": 3, "b.count": 1}
    assert safe_eval("max(1, ap.queue // stations.sta.count)", env) == 6
    assert safe_eval("2 if queue > 10 else 1", env) == 2
    assert safe_eval("'1000 B'", env) == "1000 B"
    for bad in [
        "__import__('os').system('true')",
        "queue.__class__",
        "(lambda: 1)()",
        "[x for x in (1,)]",
        "open('/etc/passwd')",
        "queue[0]",
        "2 ** 100000",
    ]:
        with pytest.raises(SpaceError):
            safe_eval(bad, env)
    with pytest.raises(SpaceError, match="ambiguous"):
        safe_eval("count + 1", env)
    with pytest.raises(SpaceError, match="unknown name"):
        safe_eval("nope + 1", env)


# ----------------------------------------------------------------------------- seeds/keys


def test_seeds_common_across_points_independent_across_reps(tmp_path):
    seeds = [replication_seed(1, r) for r in range(100)]
    assert len(set(seeds)) == 100 and all(0 <= s < 2**53 for s in seeds)
    assert seeds[0] == replication_seed(1, 0) != replication_seed(2, 0)
    c = campaign(tmp_path / "s")
    plan = c.plan()
    by_rep = {}
    for spec in plan:
        by_rep.setdefault(spec.rep, set()).add(spec.seed)
    assert all(len(v) == 1 for v in by_rep.values())  # same seed for every point
    assert len({next(iter(v)) for v in by_rep.values()}) == 3  # distinct across reps
    assert c.seeds() == [replication_seed(7, r) for r in range(3)]  # scenario seed default
    assert len({s.key for s in plan}) == 9


def test_reproduce_command_quotes():
    cmd = reproduce_command("a b.toml", {"flows.up.packet_size": "1000 B", "x": 2.0}, 5)
    assert cmd == "wlansim run 'a b.toml' --set 'flows.up.packet_size=1000 B' --set x=2.0 --seed 5"


# ----------------------------------------------------------------------------- campaign


def test_campaign_runs_resumes_and_summarises(tmp_path):
    c = campaign(tmp_path / "s")
    rep = c.run(jobs=2, progress=False)
    assert (rep.total, rep.executed, rep.ok, rep.failed, rep.skipped) == (9, 9, 9, 0, 0)
    again = campaign(tmp_path / "s").run(jobs=2, progress=False)
    assert again.executed == 0 and again.skipped == 9

    df = c.results()
    assert len(df) == 9 and set(df["status"]) == {"ok"}
    assert list(df.columns[:4]) == ["key", "stations.sta.count", "rep", "seed"]
    assert {"throughput_bps", "collision_probability", "wall_s", "error", "command"} <= set(
        df.columns
    )
    s = c.summary("throughput_bps")
    assert list(s["stations.sta.count"]) == [1, 2, 5]
    assert list(s["n"]) == [3, 3, 3] and list(s["failed"]) == [0, 0, 0]
    x = df[df["stations.sta.count"] == 2]["throughput_bps"].to_numpy()
    half = st.t.ppf(0.975, 2) * x.std(ddof=1) / math.sqrt(3)
    row = s.iloc[1]
    assert row["mean"] == pytest.approx(x.mean()) and row["half_width"] == pytest.approx(half)
    assert row["ci95_low"] == pytest.approx(x.mean() - half)
    assert row["ci95_high"] == pytest.approx(x.mean() + half)
    long = c.summary()  # every metric, long form
    assert set(long["metric"]) == {"throughput_bps", "collision_probability"}

    # more replications later: only the new ones run
    more = campaign(tmp_path / "s", reps=4).run(jobs=1, progress=False)
    assert more.executed == 3 and more.skipped == 9


def test_inline_pool_and_rerun_give_identical_results(tmp_path):
    a = campaign(tmp_path / "a")
    a.run(jobs=1, progress=False)
    b = campaign(tmp_path / "b")
    b.run(jobs=2, progress=False)
    pd.testing.assert_frame_equal(comparable(a.results()), comparable(b.results()))


def test_an_invalid_point_stops_the_campaign_before_anything_is_stored(tmp_path):
    space = Space.grid({"stations.sta.count": [1, 0, 4]})
    c = campaign(tmp_path / "s", space=space, reps=2)
    with pytest.raises(CampaignError) as err:
        c.run(jobs=1, progress=False)
    assert "1 of 3 point(s) do not validate, nothing was run or stored" in str(err.value)
    assert "stations.sta.count=0: stations.sta.count: 0 is not allowed" in str(err.value)
    assert not (tmp_path / "s" / "campaign.sqlite").exists()


def test_failures_are_recorded_and_campaign_carries_on(tmp_path):
    space = Space.grid({"stations.sta.count": [1, 13, 4]})
    c = campaign(tmp_path / "s", space=space, reps=2, overrides={"ap.queue": 20})
    rep = c.run(jobs=2, progress=False)
    assert (rep.executed, rep.ok, rep.failed) == (6, 4, 2)
    df = c.results()
    assert len(df) == 6
    crash = df[df["stations.sta.count"] == 13]
    assert set(crash["status"]) == {"failed"}
    assert set(crash["error"]) == {"unlucky number of stations"}
    cmd = crash["command"].iloc[0]
    assert "--set ap.queue=20 --set stations.sta.count=13 --seed " in cmd
    # the command runs the store's copy of the base, not the original
    copy_path = tmp_path / "s" / f"base-{c.base_hash[:12]}.toml"
    assert cmd.startswith(f"wlansim run {copy_path} ")
    assert tomllib.loads(copy_path.read_text()) == BASE
    s = c.summary("throughput_bps")
    assert list(s["failed"]) == [0, 2, 0]  # failed points stay visible
    assert list(s["n"]) == [2, 0, 2]
    # failed runs are not retried unless asked
    again = campaign(tmp_path / "s", space=space, reps=2, overrides={"ap.queue": 20})
    assert again.run(jobs=1, progress=False).executed == 0
    retry = campaign(tmp_path / "s", space=space, reps=2, overrides={"ap.queue": 20})
    r2 = retry.run(jobs=1, progress=False, retry_failed=True)
    assert r2.executed == 2 and r2.failed == 2
    assert len(retry.results()) == 6


def test_a_store_of_another_base_is_refused_or_kept_apart(tmp_path):
    store = tmp_path / "s"
    campaign(store, reps=2).run(jobs=1, progress=False)
    changed = {**BASE, "ap": {"queue": 10}}
    refuse = Campaign(changed, {"stations.sta.count": [1, 2, 5]}, reps=2, store=store,
                      run_fn=fake_run, load_fn=fake_load, resolve_fn=fake_resolve,
                      version="test", changed_base="refuse")  # fmt: skip
    with pytest.raises(CampaignError, match=r"ap\.queue: 50 -> 10"):
        refuse.run(jobs=1, progress=False)
    # a new wlansim version is another base too
    newer = Campaign(BASE, {"stations.sta.count": [1, 2, 5]}, reps=2, store=store,
                     run_fn=fake_run, load_fn=fake_load, resolve_fn=fake_resolve,
                     version="test2", changed_base="refuse")  # fmt: skip
    with pytest.raises(CampaignError, match="wlansim test -> test2"):
        newer.check_store()
    # kept apart: a second base, never pooled with the first
    added = Campaign(changed, {"stations.sta.count": [1, 2, 5]}, reps=2, store=store,
                     run_fn=fake_run, load_fn=fake_load, resolve_fn=fake_resolve,
                     version="test")  # fmt: skip
    added.run(jobs=1, progress=False)
    runs = load_runs(store)
    assert runs.attrs["params"][0] == "base" and sorted(set(runs["base"])) == [1, 2]
    s = summarize(runs, "throughput_bps", by=["stations.sta.count"])
    assert list(s["base"]) == [1, 1, 1, 2, 2, 2] and set(s["n"]) == {2}
    assert len(added.results()) == 6  # a campaign reads its own base's runs only


def test_runs_without_a_recorded_base_are_refused(tmp_path):
    store = tmp_path / "s"
    campaign(store, reps=1).run(jobs=1, progress=False)
    with Store(store) as st:  # as a store written before bases were recorded
        st.conn.execute("UPDATE runs SET base = NULL")
        st.conn.execute("DELETE FROM bases")
    again = campaign(store, reps=1)
    again.changed_base = "refuse"
    with pytest.raises(CampaignError, match="did not record their base scenario"):
        again.run(jobs=1, progress=False)


def test_store_is_plain_sqlite_without_duplicates(tmp_path):
    c = campaign(tmp_path / "s")
    c.run(jobs=1, progress=False)
    db = tmp_path / "s" / "campaign.sqlite"
    assert not (tmp_path / "s" / "campaign.sqlite-wal").exists()  # clean close: one file
    con = sqlite3.connect(db)
    runs = pd.read_sql("SELECT * FROM runs", con)
    assert len(runs) == 9 and runs["key"].is_unique
    m = pd.read_sql("SELECT * FROM metrics WHERE name = 'throughput_bps'", con)
    assert len(m) == 9
    # SQL gives no row order: compare the stored points as a multiset
    counts = sorted(json.loads(p)["stations.sta.count"] for p in runs["params"])
    assert counts == [1, 1, 1, 2, 2, 2, 5, 5, 5]
    con.close()
    # putting a stored run again is refused, nothing duplicated
    with Store(tmp_path / "s") as store:
        key = c.results()["key"].iloc[0]
        rec = {"key": key, "params": {}, "rep": 0, "seed": 1, "status": "ok", "result": {}}
        assert store.put(rec) is False
        assert store.count() == 9
    # time series stored beside the run
    key = c.results()["key"].iloc[4]
    ser = read_series(tmp_path / "s", key)
    assert list(ser) == ["queue_length"]
    assert list(ser["queue_length"].columns) == ["t_s", "ap"]
    assert c.series(key)["queue_length"]["ap"].tolist() == [0, 2, 4]
    runs2 = load_runs(tmp_path / "s")
    assert runs2.attrs["params"] == ["stations.sta.count"] and len(runs2) == 9
    # pandas deep-copies attrs into every derived frame: the names copy as one list
    calls = []

    def count(frame, event, _arg):
        if event == "call" and frame.f_code is copy.deepcopy.__code__:
            calls.append(1)

    sys.setprofile(count)
    try:
        attrs = copy.deepcopy(runs2.attrs)
    finally:
        sys.setprofile(None)
    assert attrs == runs2.attrs and len(runs2.attrs["metrics"]) == 2
    assert len(calls) == 1 + 2 * len(attrs), calls  # the dict, each key and value
    assert runs2[runs2["rep"] == 0].attrs == runs2.attrs
    with Store(tmp_path / "s", readonly=True) as store:
        det = store.run_details(key)
    assert det["status"] == "ok" and det["meta"]["events"] == 200 and len(det["flows"]) == 1


def test_dask_local_cluster_matches_local_pool(tmp_path):
    # the cluster extra, installed by `make test`; skipped where it is not installed
    distributed = pytest.importorskip("distributed")

    a = campaign(tmp_path / "pool")
    a.run(jobs=2, progress=False)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        b = campaign(tmp_path / "dask")
        rep = b.run(dask=client, progress=False)
        assert rep.executed == 9 and "dask" in rep.executor
    pd.testing.assert_frame_equal(comparable(a.results()), comparable(b.results()))


# ----------------------------------------------------------------------------- pieces


def test_t_interval_and_summarize_edge_cases():
    ci = t_interval([1.0, 2.0, 3.0, float("nan")])
    assert ci["n"] == 3 and ci["mean"] == 2.0 and ci["std"] == 1.0
    assert ci["half_width"] == pytest.approx(st.t.ppf(0.975, 2) / math.sqrt(3))
    one = t_interval([4.0])
    assert one["n"] == 1 and math.isnan(one["half_width"])
    df = pd.DataFrame({"k": [1, 1, 2], "status": ["ok", "ok", "failed"], "m": [1.0, 3.0, None]})
    df.attrs = {"params": ["k"], "metrics": ["m"]}
    s = summarize(df, "m")
    assert list(s["n"]) == [2, 0] and list(s["failed"]) == [0, 1]
    with pytest.raises(WlansimError, match="unknown metric"):
        summarize(df, "nope")


def test_map_unordered_reports_infrastructure_errors():
    def boom(x):
        raise OSError("worker died")

    out = list(map_unordered(InlineExecutor(), boom, [("t", (1,), None)]))
    assert out[0][0] == "t" and isinstance(out[0][2], OSError)
    ok = execute_run(fake_run, fake_resolve(BASE, {}), 3)
    assert ok["ok"] and ok["result"]["metrics"]["collision_probability"] == 0.01
    bad = execute_run(fake_run, fake_resolve(BASE, {"stations.sta.count": 13}), 3)
    assert not bad["ok"] and bad["error"] == "unlucky number of stations"


def test_a_lost_executor_ends_the_map_with_every_task_left():
    """An executor lost while a result is fetched (a Dask cluster left without workers,
    the worker holding the result dead): the runs that came back are yielded, and every
    other task, submitted or not, once with the ExecutorLost; nothing more is waited for."""

    class LostAtSecond(InlineExecutor):
        fetched = 0

        def result(self, fut):
            self.fetched += 1
            if self.fetched == 2:
                raise ExecutorLost("no worker")
            return super().result(fut)

    tasks = [(n, (n,), None) for n in range(1, 6)]
    out = list(map_unordered(LostAtSecond(), lambda x: x * 10, tasks, window=2))
    assert sorted(tag for tag, _value, _exc in out) == [1, 2, 3, 4, 5]
    done = [(tag, value) for tag, value, exc in out if exc is None]
    assert len(done) == 1 and done[0][1] == done[0][0] * 10
    assert all(isinstance(exc, ExecutorLost) for _tag, _value, exc in out if exc is not None)


def test_progress_text():
    import io

    buf = io.StringIO()
    p = Progress(10, done=4, stream=buf)
    p.update(failed=1)
    p.close()
    text = buf.getvalue()
    assert "5/10 runs, 1 failed" in text and "ETA" in text


def test_toml_writer_round_trips():
    d = {
        "seed": 3,
        "name": 'a "quoted" name',
        "x": 0.5,
        "flag": True,
        "list": [1, 2],
        "ap": {"queue": 20, "edca": {"be": {"aifsn": 3}}},
        "flows": [{"name": "up", "size": "1000 B"}, {"name": "down", "opts": {"a": 1}}],
    }
    assert tomllib.loads(toml_dumps(d)) == d


# ----------------------------------------------------------------------------- CLI on a fake store


def test_cli_results_and_plot_on_a_store(tmp_path, capsys):
    from wlansim.cli import main

    space = Space.grid({"stations.sta.count": [1, 2, 13], "ap.queue": [10, 20]})
    campaign(tmp_path / "s", space=space, reps=3).run(jobs=1, progress=False)
    assert main(["results", str(tmp_path / "s"), "--metric", "throughput_bps"]) == 0
    out = capsys.readouterr().out
    assert "half_width" in out and "ci95_low" in out and "failed runs (6)" in out
    assert "reproduce: wlansim run" in out
    csv = tmp_path / "sum.csv"
    assert main(["results", str(tmp_path / "s"), "--csv", str(csv)]) == 0
    table = pd.read_csv(csv)
    assert len(table) == 12 and {"metric", "mean", "half_width", "failed"} <= set(table.columns)
    pq = tmp_path / "runs.parquet"
    assert main(["results", str(tmp_path / "s"), "--runs", "--parquet", str(pq)]) == 0
    assert len(pd.read_parquet(pq)) == 18

    png = tmp_path / "p.png"
    rc = main(["plot", str(tmp_path / "s"), "--x", "count", "--y", "throughput_bps",
               "--hue", "ap.queue", "--out", str(png)])  # fmt: skip
    assert rc == 0
    assert_png(png)
    # other varied keys are folded into the lines instead of being averaged
    rc = main(["plot", str(tmp_path / "s"), "--x", "stations.sta.count", "--y", "throughput_bps"])
    assert rc == 0
    assert_png(tmp_path / "s" / "throughput_bps-vs-stations.sta.count.png")
    assert main(["plot", str(tmp_path / "s"), "--x", "nope", "--y", "throughput_bps"]) == 2
    assert "unknown parameter 'nope'" in capsys.readouterr().err
    assert main(["results", str(tmp_path / "missing")]) == 2


def assert_png(path):
    import matplotlib.image

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = matplotlib.image.imread(path)
    assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100


# ----------------------------------------------------------------------------- SIGKILL (fake)

KILL_SCRIPT = """
import random, sys, time
from wlansim.campaign import Campaign

def slow_run(scenario, seed):
    time.sleep(0.03)
    rng = random.Random(f"{seed}-{scenario['k']}")
    return {"metrics": {"throughput_bps": rng.random() * scenario["k"]}}

def resolve(base, ov):
    return {**base, **ov}

if __name__ == "__main__":
    c = Campaign({"k": 0}, {"k": list(range(20))}, reps=3, store=sys.argv[1], seed=5,
                 run_fn=slow_run, load_fn=dict, resolve_fn=resolve, version="test")
    print(c.run(jobs=2, progress=False))
"""


def test_sigkill_mid_campaign_fake(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    script = tmp_path / "camp.py"
    script.write_text(KILL_SCRIPT)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(__file__).resolve().parents[1] / "python"), env.get("PYTHONPATH", "")]
    )
    store = tmp_path / "killed"
    db = store / "campaign.sqlite"
    proc = subprocess.Popen(
        [sys.executable, str(script), str(store)], env=env, start_new_session=True
    )
    n = 0
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if db.exists():
                try:
                    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
                    n = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
                    con.close()
                except sqlite3.Error:
                    n = 0
                if n >= 15:
                    break
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the campaign and its pool workers
        proc.wait()
    assert proc.returncode == -signal.SIGKILL and n >= 15
    con = sqlite3.connect(db)
    after = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    con.close()
    assert 15 <= after < 60
    res = subprocess.run(
        [sys.executable, str(script), str(store)], env=env, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    assert f"{after} already stored, {60 - after} executed" in res.stdout
    ref = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "ref")], env=env, capture_output=True
    )
    assert ref.returncode == 0
    a, b = load_runs(store), load_runs(tmp_path / "ref")
    assert len(a) == 60 and a["key"].is_unique
    assert a.groupby(["k", "rep"]).size().eq(1).all()
    pd.testing.assert_frame_equal(comparable(a), comparable(b))


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99, 0.999])
def test_t_quantile_written_out_matches_scipy(confidence):
    from wlansim.campaign.stats import t_quantile

    p = 0.5 + confidence / 2
    for df in [1, 2, 3, 4, 5, 9, 10, 29, 30, 100, 1000, 10**6]:
        assert t_quantile(p, df) == pytest.approx(st.t.ppf(p, df), rel=1e-8), df


# ------------------------------------------------------------- runs of another build of the core


def run_as_build(build, scenario, seed):
    """fake_run on a core whose build is ``build`` (None: a run without one, like ns-2's);
    a build "broken" fails every run."""
    if build == "broken":
        raise RuntimeError("this build fails")
    out = fake_run(scenario, seed)
    if build is not None:
        out["meta"]["build"] = build
    return out


def stored_builds(store_dir):
    with sqlite3.connect(store_dir / "campaign.sqlite") as con:
        rows = con.execute("SELECT json_extract(meta, '$.build'), status FROM runs").fetchall()
        metrics = con.execute("SELECT COUNT(*) FROM metrics").fetchone()[0]
    return sorted(rows, key=str), metrics


def test_a_run_of_another_build_is_rerun_and_replaced(tmp_path, capsys):
    def on(build, core=None):
        return campaign(tmp_path / "s", run_fn=functools.partial(run_as_build, core or build),
                        build=build)  # fmt: skip

    first = on("aaaa").run(jobs=1, progress=False)
    assert (first.executed, first.stale) == (9, 0)
    # the same build: every run reused
    same = on("aaaa").run(jobs=1, progress=False)
    assert (same.skipped, same.executed, same.stale) == (9, 0, 0)
    assert "stale" not in str(same)
    before = on("aaaa").results()
    capsys.readouterr()
    # another build: every run made again, its row replaced (no duplicate, no stray metric)
    rep = on("bbbb").run(jobs=2, progress=False)
    assert (rep.total, rep.skipped, rep.executed, rep.ok, rep.stale) == (9, 0, 9, 9, 9)
    assert "9 runs: 0 already stored, 9 stale runs rerun, 9 executed" in str(rep)
    assert "9 stored runs were made by another build of the core" in capsys.readouterr().err
    assert stored_builds(tmp_path / "s") == ([("bbbb", "ok")] * 9, 9 * 2)
    after = on("bbbb").results()
    assert (after["finished_at"] > before["finished_at"]).all()
    pd.testing.assert_frame_equal(comparable(after), comparable(before))  # fake: same numbers
    assert on("bbbb").missing() == [] and on("cccc").missing() != []
    # a rerun that fails on the new build replaces the stale ok run too: the store says how
    # the current core does
    broken = on("dddd", core="broken").run(jobs=1, progress=False)
    assert (broken.stale, broken.failed) == (9, 9)
    assert stored_builds(tmp_path / "s") == ([(None, "failed")] * 9, 0)


def test_runs_without_a_build_are_reused(tmp_path):
    old = campaign(tmp_path / "s", run_fn=functools.partial(run_as_build, None), build="aaaa")
    assert old.run(jobs=1, progress=False).executed == 9
    rep = campaign(tmp_path / "s", build="bbbb").run(jobs=1, progress=False)
    assert (rep.skipped, rep.executed, rep.stale) == (9, 0, 0)
    assert stored_builds(tmp_path / "s") == ([(None, "ok")] * 9, 9 * 2)
    with Store(tmp_path / "s") as store:
        assert store.stale("bbbb") == set()


def test_the_store_replaces_only_a_stale_ok_run(tmp_path):
    def record(key, build, status="ok"):
        meta = {} if build is None else {"build": build}
        result = {"meta": meta, "metrics": {"x": 1.0}} if status == "ok" else None
        return {"key": key, "params": {}, "rep": 0, "seed": 1, "status": status,
                "result": result}  # fmt: skip

    with Store(tmp_path / "s") as store:
        store.put_many([record("a", "old"), record("b", None), record("c", "new")])
        assert store.stale("new") == {"a"}
        assert store.put(record("a", "new")) is False  # without a build: kept as it is
        assert store.put(record("a", "new"), build="new") is True
        assert store.put(record("b", "new"), build="new") is False  # no build: not stale
        assert store.put(record("c", "new"), build="new") is False  # the same build
        assert store.stale("new") == set() and store.count() == 3


# ------------------------------------------------------------- dump, merge and the ns-2 pack


def test_dump_and_merge_carry_every_run_and_its_base(tmp_path):
    c = campaign(tmp_path / "a")
    c.run(in_process=True, progress=False)
    with Store(tmp_path / "a", readonly=True) as store:
        dump = store.dump()
    assert len(dump["runs"]) == 9 and len(dump["bases"]) == 1
    with Store(tmp_path / "b") as store:
        assert store.merge(dump) == 9
        assert store.merge(dump) == 0  # a run already stored is kept, not added twice
    again = campaign(tmp_path / "b")
    assert again.missing() == []  # the merged runs are this campaign's runs
    pd.testing.assert_frame_equal(comparable(again.results()), comparable(c.results()))
    with Store(tmp_path / "b", readonly=True) as store:
        assert store.dump() == dump
        assert store.series(dump["runs"][0]["key"])  # series come along


def test_ns2_pack_restores_what_it_saved_byte_for_byte(tmp_path):
    from wlansim.evidence.ns2 import pack
    from wlansim.evidence.ns2.run import stored

    ns2 = tmp_path / "out" / "ns2"
    campaign(ns2 / "near-a").run(in_process=True, progress=False)
    row = stored(ns2 / "scripts", "set ns [new Simulator]", lambda: {"seed": 1, "packets": 7})
    first = tmp_path / "out" / pack.PACK
    assert pack.save(ns2, first) == 10
    fresh = tmp_path / "clone" / "ns2"
    assert pack.restore(first, fresh) == 10
    assert pack.restore(first, fresh) == 0
    # a stored script's row is found without computing it again
    again = stored(fresh / "scripts", "set ns [new Simulator]", lambda: 1 / 0)
    assert again == row and list(again) == ["seed", "packets"]  # its columns' order too
    assert campaign(fresh / "near-a").missing() == []
    second = tmp_path / "clone" / pack.PACK
    pack.save(fresh, second)
    assert second.read_bytes() == first.read_bytes()
    assert pack.restore(tmp_path / "none.jsonl.xz", fresh) == 0


def test_ns2_pack_of_a_whole_run_drops_what_it_no_longer_asks_for(tmp_path):
    from wlansim.evidence.ns2 import pack
    from wlansim.evidence.ns2.run import asked_runs, asking, stored

    # a whole run's pack: a campaign of 9 runs and two scripts' rows
    ns2 = tmp_path / "old" / "ns2"
    campaign(ns2 / "near-a").run(in_process=True, progress=False)
    stored(ns2 / "runs", "kept", lambda: {"packets": 1})
    stored(ns2 / "runs", "stale", lambda: {"packets": 2})
    committed = tmp_path / pack.PACK
    assert pack.save(ns2, committed) == 11

    def invocation(out, quick):
        """As `reproduce NAME --against ns2`: restore, run the ns-2 side (asking for one
        script and 6 of the campaign's runs), save."""
        pack.restore(committed, out)
        c = campaign(out / "near-a", space={"stations.sta.count": [1, 2]})
        with asking() as asked:
            c.run(in_process=True, progress=False)
            asked_runs(out / "near-a", c.results()["key"])
            assert stored(out / "runs", "kept", lambda: 1 / 0) == {"packets": 1}
        whole = pack.whole(quick, "ns2", "ns2", 1)
        return pack.save(out, committed, asked if whole else None)

    # a quick run keeps the whole run's entries, the stale one too
    assert invocation(tmp_path / "quick" / "ns2", quick=True) == 11
    # a whole run keeps what it asked for alone (a campaign's base with its runs)
    assert invocation(tmp_path / "full" / "ns2", quick=False) == 7
    fresh = tmp_path / "fresh" / "ns2"
    assert pack.restore(committed, fresh) == 7
    kept = hashlib.sha256(b"kept").hexdigest()[:24] + ".json"
    assert [p.name for p in (fresh / "runs").iterdir()] == [kept]  # "stale" left
    assert campaign(fresh / "near-a", space={"stations.sta.count": [1, 2]}).missing() == []
    assert len(campaign(fresh / "near-a").missing()) == 3  # the 5-station runs: not asked
    with Store(fresh / "near-a", readonly=True) as st:
        assert len(st.bases()) == 1
    # only the committed report's invocation is whole
    assert pack.whole(False, "ns2", "ns2", 1)
    assert not pack.whole(True, "ns2", "ns2", 1)
    assert not pack.whole(False, "standard", "ns2", 1)
    assert not pack.whole(False, "ns2", "ns2", 2)
