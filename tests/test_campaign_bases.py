"""Campaigns that cannot lie (issue 39, item 5), on the real simulator: the sequences of
the issue. A store keeps one base scenario per set of runs; a changed base is refused (or
kept apart with --new-base); reproduce commands run the stored copy; `--vary` keys and
values are checked before anything is stored; `prune` drops failed or stray runs; the
store is strict JSON."""

from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path

import pytest

from wlansim.campaign import Campaign, Space
from wlansim.campaign.store import Store
from wlansim.cli import main

ROOT = Path(__file__).resolve().parents[1]


def write_base(path: Path, rate: str) -> Path:
    """The issue's base.toml: a saturated 802.11g cell, short runs."""
    text = (ROOT / "scenarios" / "saturated-11g.toml").read_text()
    text = text.replace('data_rate = "54 Mb/s"', f'data_rate = "{rate}"')
    text = text.replace('duration = "20 s"', 'duration = "0.5 s"')
    text = text.replace('warmup = "1 s"', 'warmup = "0.1 s"')
    assert f'data_rate = "{rate}"' in text
    path.write_text(text)
    return path


def sweep(base: Path, out: Path, *extra: str) -> list[str]:
    return ["sweep", str(base), "--vary", "ap.queue=10,50", "--reps", "2", "--jobs", "1",
            "--out", str(out), "--no-progress", *extra]  # fmt: skip


def test_a_changed_base_is_refused_and_with_new_base_kept_apart(tmp_path, capsys):
    base, out = tmp_path / "base.toml", tmp_path / "sw"
    write_base(base, "54 Mb/s")
    assert main(sweep(base, out)) == 0
    capsys.readouterr()
    with Store(out, readonly=True) as st:
        first = st.runs()
        (stored,) = st.bases()
    assert stored["version"] and stored["resolved"]["phy"]["data_rate"] == "54 Mb/s"
    # the sequence: the data rate changed from 54 to 6 Mb/s, the same command
    write_base(base, "6 Mb/s")
    assert main(sweep(base, out)) == 2
    err = capsys.readouterr().err
    assert "holds the runs of another base scenario" in err
    assert "phy.data_rate: '54 Mb/s' -> '6 Mb/s'" in err and "--new-base" in err
    assert main(sweep(base, out, "--dry-run")) == 2  # a dry run says so too
    capsys.readouterr()
    with Store(out, readonly=True) as st:
        assert st.count() == 4  # nothing was added

    # kept apart: results never pools the two bases (n = 2 per base and queue, not 4)
    assert main(sweep(base, out, "--new-base")) == 0
    capsys.readouterr()
    assert main(["results", str(out), "--metric", "throughput_bps", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["summary"]
    assert [(r["base"], r["ap.queue"], r["n"]) for r in rows] == [
        (1, 10, 2), (1, 50, 2), (2, 10, 2), (2, 50, 2)
    ]  # fmt: skip
    fast = [r["mean"] for r in rows if r["base"] == 1]
    slow = [r["mean"] for r in rows if r["base"] == 2]
    assert min(fast) > 3 * max(slow)

    # the stored reproduce command of a 54 Mb/s run runs the stored copy: still 54 Mb/s
    run = first.iloc[0]
    args = shlex.split(run["command"])
    assert args[:2] == ["wlansim", "run"] and Path(args[2]).parent == out.resolve()
    assert main([*args[1:], "--json"]) == 0
    again = json.loads(capsys.readouterr().out)["metrics"]["throughput_bps"]
    assert again == pytest.approx(run["throughput_bps"], rel=1e-12)


def test_a_run_made_by_another_build_of_the_core_is_made_again(tmp_path, capsys):
    """The hazard of session 9: the core changed, the same sweep into the same directory
    handed back the old core's runs. A run of another build (here: one whose stored build
    is rewritten) is made again and replaces the stored one; the others are reused."""
    from wlansim import _core

    base, out = tmp_path / "base.toml", tmp_path / "sw"
    write_base(base, "54 Mb/s")
    assert main(sweep(base, out)) == 0
    capsys.readouterr()
    db = out / "campaign.sqlite"
    with sqlite3.connect(db) as con:
        builds = {b for (b,) in con.execute("SELECT json_extract(meta, '$.build') FROM runs")}
        assert builds == {_core.BUILD} and len(_core.BUILD) == 16
        int(_core.BUILD, 16)
        key, meta, metrics = con.execute("SELECT key, meta, metrics FROM runs").fetchone()
        old = dict(json.loads(meta), build="0123456789abcdef")
        con.execute(
            "UPDATE runs SET meta = ?, metrics = '{}' WHERE key = ?", (json.dumps(old), key)
        )
    con.close()
    assert main(sweep(base, out)) == 0
    err = capsys.readouterr().err
    assert "4 runs: 3 already stored, 1 stale runs rerun, 1 executed (1 ok, 0 failed)" in err
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT json_extract(meta, '$.build'), metrics FROM runs WHERE key = ?",
                           (key,)).fetchall()  # fmt: skip
        assert rows == [(_core.BUILD, metrics)]  # the same run again, on this build
        assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 4
    con.close()


def test_a_mistyped_vary_key_exits_2_naming_it_and_the_allowed_keys(tmp_path, capsys):
    base = write_base(tmp_path / "mine.toml", "54 Mb/s")
    out = tmp_path / "typo"
    for extra in (["--dry-run"], []):
        rc = main(["sweep", str(base), "--vary", "ap.qeue=10,50", "--out", str(out), *extra])
        assert rc == 2
        err = capsys.readouterr().err
        assert "ap.qeue" in err and "`queue`" in err and "expected one of" in err
        assert "nothing was run or stored" in err
        assert not out.exists() or not (out / "campaign.sqlite").exists()
    # a value out of range is refused the same way
    rc = main(["sweep", str(base), "--vary", "ap.queue=10,-1", "--out", str(out), "--dry-run"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "ap.queue=-1" in err and "expected a whole number from 1" in err


def test_prune_drops_failed_and_stray_runs(tmp_path, capsys):
    base = write_base(tmp_path / "base.toml", "54 Mb/s")
    out = tmp_path / "p"
    assert main(sweep(base, out)) == 0
    # a stray run: another point of the same base, and a failed one
    c = Campaign(base, Space.grid({"mac.rts_threshold": ["off"]}), reps=1, store=out)
    c.run(jobs=1, progress=False)
    with Store(out) as st:
        key = st.runs()["key"].iloc[0]
        st.conn.execute("UPDATE runs SET status = 'failed', error = 'boom' WHERE key = ?", (key,))
    capsys.readouterr()
    assert main(["prune", str(out), "--failed", "--dry-run"]) == 0
    assert "would remove 1 of 5 runs" in capsys.readouterr().out
    assert main(["prune", str(out), "--failed"]) == 0
    assert "removed 1 of 5 runs" in capsys.readouterr().out
    assert main(["prune", str(out), "--param", "mac.rts_threshold"]) == 0
    assert "removed 1 of 4 runs" in capsys.readouterr().out
    with Store(out, readonly=True) as st:
        runs = st.runs()
    assert list(runs.attrs["params"]) == ["ap.queue"] and set(runs["status"]) == {"ok"}
    assert main(["prune", str(out), "--param", "ap.qeue"]) == 2
    assert "no run of" in capsys.readouterr().err
    assert main(["prune", str(out)]) == 2


def test_the_store_is_strict_json_that_sqlite_reads(tmp_path):
    out = tmp_path / "j"
    # 0.3 s of the on/off workload: no session has ended and nothing was delivered, so
    # the delay, RTT, Jain and collision metrics are undefined (NaN in Python)
    scenario = ROOT / "scenarios" / "http-onoff.toml"
    c = Campaign(scenario, None, reps=1, store=out, overrides={"duration": "0.3 s"})
    c.run(jobs=1, progress=False)
    nan = [k for k, v in c.results().iloc[0].items() if isinstance(v, float) and v != v]
    assert "delay_mean_s" in nan and "jain_index" in nan
    con = sqlite3.connect(out / "campaign.sqlite")
    try:
        for column in ("params", "metrics", "meta", "flows", "nodes"):
            n = con.execute(f"SELECT COUNT(*) FROM runs WHERE json_valid({column})").fetchone()[0]
            assert n == 1, column
        (text,) = con.execute("SELECT metrics FROM runs").fetchone()
        delay = con.execute("SELECT json_extract(metrics, '$.delay_mean_s') FROM runs")
        assert delay.fetchone() == (None,)  # undefined: null
        events = con.execute("SELECT json_extract(meta, '$.events') FROM runs").fetchone()[0]
        assert events > 0
        (scenario_json,) = con.execute("SELECT scenario FROM bases").fetchone()
        assert json.loads(scenario_json)["name"] == "http-onoff"
    finally:
        con.close()
    assert "NaN" not in text and "Infinity" not in text


def trace_base(folder: Path, trace: str) -> Path:
    """A trace-driven download whose trace file lies beside the scenario (a relative path)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.txt").write_text(trace)
    (folder / "base.toml").write_text(
        'name = "t"\nduration = "0.5 s"\nwarmup = "0 s"\n'
        '[phy]\nstandard = "802.11b"\n[[stations]]\nname = "n"\n'
        '[[servers]]\nname = "srv"\n'
        '[[flows]]\nname = "f"\nstations = "n"\nserver = "srv"\ndirection = "downlink"\n'
        'traffic = "trace"\npacket_size = "1000 B"\n[flows.trace]\nfile = "t.txt"\n'
    )
    return folder / "base.toml"


def test_input_files_count_by_content_not_by_path(tmp_path, capsys):
    frames = (ROOT / "scenarios" / "traces" / "sample-100-frames.txt").read_text()
    here, there = trace_base(tmp_path / "a", frames), trace_base(tmp_path / "b", frames)
    space = Space.from_any({"ap.queue": [10, 50]})
    a = Campaign(here, space, reps=2, store=tmp_path / "s", version="test")
    b = Campaign(there, space, reps=2, store=tmp_path / "s", version="test")
    # another checkout of the same study: the same base and the same runs
    assert a.base_hash == b.base_hash
    assert [r.key for r in a.plan()] == [r.key for r in b.plan()]
    # an edited trace at the same path is another base, named as such
    out = tmp_path / "sw"
    assert main(sweep(here, out)) == 0
    capsys.readouterr()
    trace_base(tmp_path / "a", frames.replace("\n", "\n# edited\n", 1))
    assert Campaign(here, space, reps=2, store=tmp_path / "s", version="test").base_hash != (
        a.base_hash
    )
    assert main(sweep(here, out)) == 2
    assert "the contents of an input file differ" in capsys.readouterr().err
