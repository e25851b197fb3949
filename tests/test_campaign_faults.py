"""Campaign faults: a run that crashes its worker process, damaged/empty/read-only/missing
stores, `kill -9` and Ctrl-C of `wlansim sweep`, two sweeps on one store, and a Dask
worker killed mid-campaign or during cluster start-up. Each ends in a finished campaign
with nothing lost or duplicated, or in a clear error (no traceback) that says what to do.
Every wait is bounded."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import faulty
import pandas as pd
import pytest
from conftest import ROOT, SATURATED, wlansim_cli

from wlansim.campaign import Campaign, ExecutorError, StoreError, load_runs

TINY = ["--set", "duration=1 s", "--set", "warmup=0.1 s"]


def no_traceback(out: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in out.stderr, out.stderr
    assert "Traceback" not in out.stdout, out.stdout


def sweep(out: Path, *extra: str, points: str = "1,2") -> subprocess.CompletedProcess:
    return wlansim_cli(
        "sweep", str(SATURATED), "--vary", f"stations.sta.count={points}", *TINY,
        "--out", str(out), "--no-progress", *extra, timeout=120,
    )  # fmt: skip


def stored(out: Path) -> int:
    """Runs stored in `out` (0 while the store does not exist yet)."""
    try:
        con = sqlite3.connect(f"file:{out / 'campaign.sqlite'}?mode=ro", uri=True, timeout=30)
        try:
            return con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:  # not created yet
        return 0


def children(pid: int) -> set[int]:
    """Processes whose parent is `pid` (Linux /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


# ------------------------------------------------------------------ crashing runs


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_that_aborts_its_worker_is_recorded_and_the_campaign_goes_on(tmp_path, jobs):
    c = Campaign(
        SATURATED,
        {"stations.sta.count": [1, 2, 3, 4]},
        reps=2,
        store=tmp_path / "s",
        overrides={"duration": "1 s", "warmup": "0.1 s"},
        run_fn=faulty.abort_at_three_stations,
    )
    report = c.run(jobs=jobs, progress=False)
    assert (report.ok, report.failed, report.lost) == (6, 2, [])
    runs = c.results()
    assert len(runs) == 8 and runs["key"].is_unique
    failed = runs[runs["status"] == "failed"]
    assert list(failed["stations.sta.count"]) == [3, 3]
    for error, command in zip(failed["error"], failed["command"]):
        assert "crashed its worker process" in error and "SIGABRT" in error
        assert command.startswith("wlansim run ") and "stations.sta.count=3" in command
    # a re-run executes nothing; --retry-failed tries the crashed runs again only
    assert c.run(jobs=jobs, progress=False).executed == 0
    again = c.run(jobs=jobs, progress=False, retry_failed=True)
    assert (again.executed, again.failed) == (2, 2)


# ------------------------------------------------------------------ scheduling, time limits


def test_a_short_run_never_waits_behind_a_long_one_and_a_hung_run_is_killed(tmp_path):
    """jobs=2, the first run hangs: every other run goes to the free worker at once (with
    a prefetch of 2 the third run waited behind the hung one); the hung run is killed at
    the time limit (+ the grace a run gets to stop by itself) and stored as failed."""
    c = Campaign(
        SATURATED,
        {"stations.sta.count": [3, 1, 2, 4]},
        store=tmp_path / "s",
        overrides={"duration": "1 s", "warmup": "0.1 s"},
        run_fn=faulty.hang_at_three_stations,
    )
    t0 = time.monotonic()
    report = c.run(jobs=2, progress=False, run_timeout=2.0)
    assert time.monotonic() - t0 < 30
    assert (report.ok, report.failed, report.lost) == (3, 1, [])
    runs = c.results().set_index("stations.sta.count")
    assert "time limit of 2 s per run (--run-timeout)" in runs.loc[3, "error"]
    assert "stations.sta.count=3" in runs.loc[3, "command"]
    # the short runs were stored long before the hung one was given up
    hung = pd.Timestamp(runs.loc[3, "finished_at"])
    for n in (1, 2, 4):
        assert pd.Timestamp(runs.loc[n, "finished_at"]) < hung - pd.Timedelta(seconds=3), n


def test_run_timeout_stops_a_never_ending_run_and_the_sweep_goes_on(tmp_path):
    out = tmp_path / "s"
    res = wlansim_cli(
        "sweep", str(SATURATED), "--vary", "duration=1e6 s,2 s", "--set", "warmup=0.1 s",
        "--run-timeout", "2 s", "--jobs", "1", "--out", str(out), "--no-progress", timeout=120,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    no_traceback(res)
    assert "1 failed run(s)" in res.stderr and "--run-timeout" in res.stderr
    shown = wlansim_cli("results", str(out))
    assert "2 runs (1 ok, 1 failed)" in shown.stdout
    assert "reproduce: wlansim run" in shown.stdout and "duration=1e6 s" in shown.stdout
    bad = wlansim_cli("sweep", str(SATURATED), "--run-timeout", "0 s", "--out", str(out))
    assert bad.returncode == 2 and "--run-timeout must be above 0 s" in bad.stderr


def test_a_sweep_whose_every_run_fails_exits_2_with_the_first_error(tmp_path):
    # every run outlasts its time limit
    res = wlansim_cli(
        "sweep", str(SATURATED), "--vary", "stations.sta.count=1,2", "--set", "duration=1e6 s",
        "--run-timeout", "0.5 s", "--jobs", "1", "--out", str(tmp_path / "s"), "--no-progress",
        timeout=120,
    )  # fmt: skip
    assert res.returncode == 2, (res.stdout, res.stderr)
    no_traceback(res)
    assert "wlansim: error: every run of the sweep failed (2); the first error: " in res.stderr
    assert "--run-timeout" in res.stderr


def test_a_sweep_with_no_valid_point_exits_2_and_stores_nothing(tmp_path):
    # the scenario's 1 s warm-up is not shorter than the 1 s duration: no point is valid
    res = wlansim_cli(
        "sweep", str(SATURATED), "--vary", "stations.sta.count=1,2", "--set", "duration=1 s",
        "--out", str(tmp_path / "s"), "--no-progress",
    )  # fmt: skip
    assert res.returncode == 2, (res.stdout, res.stderr)
    no_traceback(res)
    assert "2 of 2 point(s) do not validate, nothing was run or stored" in res.stderr
    assert "scenario key `warmup`" in res.stderr
    assert not (tmp_path / "s" / "campaign.sqlite").exists()


# ------------------------------------------------------------------ store faults


@pytest.fixture(scope="module")
def good_store(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("good") / "store"
    done = sweep(out)
    assert done.returncode == 0, done.stderr
    return out


def copy_store(good_store: Path, tmp_path: Path) -> Path:
    out = tmp_path / "store"
    shutil.copytree(good_store, out)
    return out


@pytest.mark.parametrize("damage", ["truncated", "random", "header", "one-page"])
def test_a_damaged_store_is_a_clear_error_for_results_and_sweep(good_store, tmp_path, damage):
    out = copy_store(good_store, tmp_path)
    db = out / "campaign.sqlite"
    data = db.read_bytes()
    assert len(data) >= 8192
    if damage == "truncated":
        db.write_bytes(data[: len(data) // 3])
    elif damage == "random":
        db.write_bytes(os.urandom(len(data)))
    elif damage == "header":
        db.write_bytes(b"\x00" * 100 + data[100:])
    else:  # random bytes over the second page: the file still opens and reads
        page = int.from_bytes(data[16:18], "big")
        db.write_bytes(data[:page] + os.urandom(page) + data[2 * page :])
    plot = wlansim_cli("plot", str(out), "--x", "stations.sta.count", "--y", "throughput_bps",
                       "--out", str(tmp_path / "p.png"))  # fmt: skip
    for out_ in (wlansim_cli("results", str(out)), sweep(out), plot):
        assert out_.returncode == 2, (out_.stdout, out_.stderr)
        no_traceback(out_)
        assert "wlansim: error:" in out_.stderr and "damaged" in out_.stderr
        assert f"mv {db} {db}.damaged" in out_.stderr
        if damage == "one-page":
            assert "integrity check" in out_.stderr
    # the advice works: moved away, the sweep runs again
    db.rename(db.with_suffix(".damaged"))
    assert sweep(out).returncode == 0 and stored(out) == 2


def test_a_zero_length_store_is_an_empty_store_for_results_and_sweep(tmp_path):
    out = tmp_path / "store"
    out.mkdir()
    (out / "campaign.sqlite").write_bytes(b"")
    res = wlansim_cli("results", str(out))
    assert res.returncode == 0 and "no runs stored yet" in res.stdout, res.stderr
    assert sweep(out).returncode == 0
    res = wlansim_cli("results", str(out))
    assert res.returncode == 0 and "2 runs (2 ok, 0 failed)" in res.stdout


@pytest.mark.parametrize("tables", [["t (x)"], ["runs (x)"]])
def test_a_foreign_sqlite_file_is_not_taken_for_a_store(tmp_path, tables):
    out = tmp_path / "store"
    out.mkdir()
    con = sqlite3.connect(out / "campaign.sqlite")
    for t in tables:
        con.execute(f"CREATE TABLE {t}")
    con.commit()
    con.close()
    for res in (sweep(out), wlansim_cli("results", str(out))):
        assert res.returncode == 2, res.stderr
        assert "is an SQLite database but not a campaign store" in res.stderr
        assert "OperationalError" not in res.stderr and "no such" not in res.stderr
        no_traceback(res)


def readonly_cli(directory: Path, *args: str) -> subprocess.CompletedProcess:
    """`wlansim ARGS` with `directory` read-only: a read-only bind mount for root (whom
    permissions do not stop), file modes otherwise."""
    cmd = [sys.executable, "-m", "wlansim", *args]
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [directory, *directory.rglob("*")]}
        for p in modes:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
    if shutil.which("unshare") is None:
        pytest.skip("running as root without unshare: cannot make a read-only directory")
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    out = subprocess.run(
        ["unshare", "--mount", "sh", "-c", script, str(directory), *cmd],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    if "mount:" in out.stderr or "unshare:" in out.stderr:
        pytest.skip(f"cannot make a read-only mount here: {out.stderr.strip()}")
    return out


def test_read_only_store_and_out_directory_are_clear_errors(good_store, tmp_path):
    out = copy_store(good_store, tmp_path)
    args = ["--vary", "stations.sta.count=1,2,3", *TINY, "--no-progress"]
    res = readonly_cli(out, "sweep", str(SATURATED), *args, "--out", str(out))
    assert res.returncode == 2, (res.stdout, res.stderr)
    no_traceback(res)
    assert "read-only" in res.stderr and "another --out" in res.stderr
    new = out / "new"
    res = readonly_cli(out, "sweep", str(SATURATED), *args, "--out", str(new))
    assert res.returncode == 2 and "cannot create store directory" in res.stderr, res.stderr
    no_traceback(res)
    # reading a read-only store works
    res = readonly_cli(out, "results", str(out))
    assert res.returncode == 0 and "2 runs (2 ok, 0 failed)" in res.stdout, res.stderr


def test_missing_store_and_unusable_out_are_clear_errors(tmp_path):
    res = wlansim_cli("results", str(tmp_path / "nothing"))
    assert res.returncode == 2 and "no campaign store here" in res.stderr
    a_file = tmp_path / "file"
    a_file.write_text("x")
    res = sweep(a_file / "sub")
    assert res.returncode == 2 and "cannot create store directory" in res.stderr
    res = sweep(a_file)
    assert res.returncode == 2 and "it is a file" in res.stderr
    for r in (res,):
        no_traceback(r)


def test_store_errors_are_store_errors_in_python(good_store, tmp_path):
    from wlansim.campaign import load_runs

    out = copy_store(good_store, tmp_path)
    (out / "campaign.sqlite").write_bytes(b"garbage" * 2000)
    with pytest.raises(StoreError, match="damaged"):
        load_runs(out)


# ------------------------------------------------------------------ process handling

SLOW = ["--set", "duration=3000 s", "--set", "stations.sta.count=20", "--reps", "12"]


def start_sweep(out: Path, *extra: str) -> subprocess.Popen:
    """A sweep of 24 runs of ~0.3 s each on 2 workers."""
    return subprocess.Popen(
        [sys.executable, "-m", "wlansim", "sweep", str(SATURATED), "--vary",
         "mac.rts_threshold=off,always", *SLOW, "--jobs", "2", "--out", str(out),
         "--no-progress", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip


def test_kill_9_of_sweep_leaves_no_worker_and_loses_no_finished_run(tmp_path):
    out = tmp_path / "s"
    proc = start_sweep(out)
    try:
        wait_for(lambda: stored(out) >= 2, 60, "two stored runs")
        workers = children(proc.pid)
        assert workers, "the sweep has worker processes"
        proc.kill()
        proc.wait(10)
        before = stored(out)
        wait_for(lambda: not any(alive(w) for w in workers), 10, "the workers to end")
    finally:
        proc.kill()
        proc.communicate()
    # every stored run is complete, and a re-run executes only the missing ones
    res = wlansim_cli("sweep", str(SATURATED), "--vary", "mac.rts_threshold=off,always",
                      *SLOW, "--jobs", "2", "--out", str(out), "--dry-run")  # fmt: skip
    assert f"{24 - before} runs missing" in res.stdout, res.stdout


def test_ctrl_c_and_a_second_sweep_on_the_same_store(tmp_path):
    out = tmp_path / "s"
    proc = start_sweep(out)
    try:
        wait_for(lambda: stored(out) >= 1, 60, "a stored run")
        second = start_sweep(out)
        _, err2 = second.communicate(timeout=60)
        assert second.returncode == 2, err2
        assert f"in use by another campaign (process {proc.pid})" in err2
        assert "Traceback" not in err2
        workers = children(proc.pid)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "wlansim: error:" not in err
    n = stored(out)
    assert f"wlansim: interrupted; {n} of 24 runs stored in {out}" in err
    assert "re-run the same command to resume" in err
    wait_for(lambda: not any(alive(w) for w in workers), 10, "the workers to end")


# ------------------------------------------------------------------ Dask


def test_dask_cluster_start_up_failure_is_a_clear_error(monkeypatch, tmp_path):
    distributed = pytest.importorskip("distributed")

    def nanny_fails(*args, **kwargs):
        raise RuntimeError("Nanny failed to start.")

    monkeypatch.setattr(distributed, "LocalCluster", nanny_fails)
    c = Campaign(SATURATED, {"stations.sta.count": [1]}, store=tmp_path / "s",
                 overrides={"duration": "1 s", "warmup": "0.1 s"})  # fmt: skip
    with pytest.raises(ExecutorError, match="cannot start a local Dask cluster.*Nanny failed"):
        c.run(dask="local", progress=False)


def dask_campaign(tmp_path: Path, timeout: float = 300, **kwargs) -> dict:
    """`faulty.dask_campaign(**kwargs)` in a process of its own session, killed with its
    workers after `timeout` s (a failure that says so, never a hung test); its report."""
    pytest.importorskip("distributed")
    env = {**os.environ, "FAULTY_MARKERS": str(tmp_path / "markers")}
    tests = str(Path(faulty.__file__).parent)
    env["PYTHONPATH"] = os.pathsep.join([tests, env.get("PYTHONPATH", "")])
    call = f"import faulty; faulty.dask_campaign(**{kwargs!r})"
    proc = subprocess.Popen([sys.executable, "-c", call], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                            start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(
            f"the Dask campaign did not end within {timeout:g} s; its stderr:\n{err[-3000:]}"
        ) from None
    finally:
        with contextlib.suppress(ProcessLookupError):  # workers left behind, if any
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


#: one task per worker thread at a time (so a worker's death blames only the task it was
#: running), and KilledWorker after a second death (default: a fourth)
ONE_TASK_PER_WORKER = {
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.scheduler.allowed-failures": 1,
}


def test_dask_worker_killed_mid_campaign(tmp_path):
    """A worker killed once: Dask runs the task again elsewhere, the run is stored ok. A
    run that kills every worker it lands on: recorded as failed. The campaign finishes.
    The cluster waits for a killed worker's restart as long as it takes (the default 15 s
    is less than a worker's start on a loaded machine: the cluster then closed the
    restarting workers, blaming the runs on them, and was left with none)."""
    config = {**ONE_TASK_PER_WORKER, "distributed.deploy.lost-worker-timeout": "300s"}
    store = tmp_path / "s"
    report = dask_campaign(tmp_path, store=str(store), counts=[1, 2, 3], reps=1, workers=2,
                           config=config)  # fmt: skip
    assert (report["ok"], report["failed"], report["lost"]) == (2, 1, []), report
    runs = load_runs(store).set_index("stations.sta.count")
    assert runs.loc[2, "status"] == "ok" and runs.loc[3, "status"] == "failed"
    assert "killed its Dask worker" in runs.loc[3, "error"]


def test_a_dask_cluster_left_without_workers_ends_the_campaign(tmp_path):
    """Every run kills its worker and the cluster closes a lost worker at once (it never
    comes back): after NO_WORKER_S without a worker the campaign ends, its runs reported
    as not executed and nothing stored for them; the same campaign then runs them all."""
    config = {**ONE_TASK_PER_WORKER, "distributed.deploy.lost-worker-timeout": "0s"}
    store = tmp_path / "s"
    report = dask_campaign(tmp_path, store=str(store), counts=[3], reps=2, workers=1,
                           config=config, no_worker_s=3.0)  # fmt: skip
    assert (report["ok"], report["failed"], len(report["lost"])) == (0, 0, 2), report
    assert all("has had no worker for 3 s" in e for e in report["lost"]), report["lost"]
    assert not (store / "campaign.sqlite").exists() or load_runs(store).empty
    again = Campaign(SATURATED, {"stations.sta.count": [3]}, reps=2, store=store,
                     overrides={"duration": "1 s", "warmup": "0.1 s"})  # fmt: skip
    assert (again.run(jobs=1, progress=False).ok, len(again.results())) == (2, 2)
