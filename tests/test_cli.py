"""The `wlansim` command line, run as a user would (subprocesses)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import wlansim_cli


def test_run_prints_tables(saturated):
    out = wlansim_cli("run", str(saturated), "--set", "duration=3 s", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "Flows" in out.stdout and "BSSs" in out.stdout and "sta-9" in out.stdout
    assert "seed 2" in out.stdout and "Nodes" not in out.stdout
    out = wlansim_cli("run", str(saturated), "--set", "duration=3 s", "--seed", "2", "--wide")
    assert "Nodes" in out.stdout and "collision_probability" in out.stdout


def test_run_json_document(saturated):
    out = wlansim_cli(
        "run", str(saturated), "--set", "duration=3 s", "--set", "stations.sta.count=3", "--json"
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [f["name"] for f in doc["flows"]] == ["up-0", "up-1", "up-2"]
    assert all(f["throughput_bps"] > 0 for f in doc["flows"])
    assert {"name", "attempts", "collisions"} <= set(doc["nodes"][1])
    assert {"events", "sim_time_s", "wall_s"} <= set(doc["meta"])


def test_run_resolve_prints_the_preset_written_out(saturated):
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib

    out = wlansim_cli(
        "run", str(saturated), "--set", "qos.preset=ng2005-table2", "--set", "mac.queue=10",
        "--resolve",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    doc = tomllib.loads(out.stdout)
    assert doc["stations"][0]["qos"] and doc["stations"][0]["queue"] == 10
    assert doc["stations"][0]["edca"]["be"]["aifsn"] == 6
    assert doc["qos"]["classifier"] == [{"ac": "vo", "tcp_ack": True}]


def test_bad_input_exits_2_with_message_and_no_traceback(saturated, tmp_path):
    cases = [
        ("run", str(saturated), "--set", "stations.sta.count=0"),
        ("run", str(saturated), "--set", "phy.data_rate=3 Mb/s"),
        ("run", str(tmp_path / "missing.toml")),
        ("run", str(saturated), "--set", "novalue"),
        ("model", "bianchi", "--stations", "0"),
    ]
    for args in cases:
        out = wlansim_cli(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert "wlansim: error:" in out.stderr
        assert "Traceback" not in out.stderr and "panicked" not in out.stderr


def test_model_bianchi_json():
    out = wlansim_cli(
        "model", "bianchi", "--phy", "802.11b", "--stations", "10", "--access", "rts", "--json"
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    (row,) = doc["results"]
    # p depends only on W = 32, m = 5 and n (model-vectors.md: n = 10 → p = 0.2898).
    assert row["n"] == 10 and abs(row["p"] - 0.2898) < 5e-5
    assert 4e6 < row["throughput_bps"] < 5e6


def test_validate_bianchi_writes_table_and_png(tmp_path):
    out = wlansim_cli(
        "validate", "bianchi", "--stations", "1,5", "--duration", "20 s", "--out", str(tmp_path)
    )
    assert out.returncode == 0, out.stderr
    assert "- bianchi.throughput-basic: " in out.stdout and "rts.scales-better" in out.stdout
    png = (tmp_path / "bianchi.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    # a row per run: 2 accesses x 2 n x 5 seeds
    assert (tmp_path / "bianchi.csv").read_text().count("\n") == 21
    assert (tmp_path / "claims.csv").read_text().count("bianchi.") == 4


def test_bench_json():
    out = wlansim_cli("bench", "--json", "--reps", "1", "--only", "20sta")
    assert out.returncode == 0, out.stderr
    cases = json.loads(out.stdout)
    assert {c["name"] for c in cases} == {
        "dcf-saturated-20sta-100s",
        "dcf-rts-20sta-100s",
        "dcf-saturated-20sta-sinr-100s",
        "dcf-rts-20sta-sinr-100s",
        "edca-udp-20sta-100s",
        "http-20sta-pareto-100s",
        "ampdu-11ac-20sta-saturated-100s",
    }
    http = next(c for c in cases if c["name"].startswith("http"))
    assert http["sessions_per_wall_s"] > 0
    assert all("sessions_per_wall_s" not in c for c in cases if c is not http)
    for c in cases:
        assert {"name", "wall_s", "events", "events_per_s", "sim_s_per_wall_s"} <= set(c)
        assert c["events"] > 10_000 and c["sim_s_per_wall_s"] > 0


def test_grid_costs_run_on_the_spatial_medium_beside_the_cell():
    from wlansim.bench import bss_grid, grid_costs

    rows = grid_costs(sizes=(1, 3), duration="2 s")
    assert [r["case"] for r in rows] == ["single cell, 20 stations", "1 BSSs", "3 BSSs"]
    assert [r["medium"] for r in rows] == ["shared", "spatial", "spatial"]
    assert [r["nodes"] for r in rows] == [21, 11, 33]
    assert all(r["events"] > 0 and r["ns_per_event"] > 0 for r in rows)
    # 30 BSSs: 6 x 5 cells of 50 m x 60 m, side neighbours on other channels
    aps = bss_grid(30, duration="1 s")["aps"]
    assert max(a["position"][0] for a in aps) == 275 and max(a["position"][1] for a in aps) == 270
    assert [a["channel"] for a in aps[:7]] == [1, 6, 11, 1, 6, 11, 6]


def test_scale_costs_and_peak_memory_of_the_bench():
    from wlansim.bench import cbr_cell, peak_rss_mb, scale_costs

    rows = scale_costs(stations=(2, 50), duration="2 s")
    assert [r["stations"] for r in rows] == [2, 50]
    assert all(r["events"] > 0 and r["attempts"] > 0 and r["ns_per_attempt"] > 0 for r in rows)
    assert rows[0]["per_event_vs_first"] == 1.0
    # 50 saturated stations collide more: more attempts per event than 2
    assert rows[1]["attempts"] / rows[1]["events"] > rows[0]["attempts"] / rows[0]["events"]

    small, wall = peak_rss_mb(cbr_cell(10, duration="0.1 s"))
    assert 1 < small < 200 and wall > 0
    assert peak_rss_mb(cbr_cell(3_000, duration="0.1 s"))[0] > small
    # a limit on the address space applies to the run (3,000 stations need more than 20 MiB)
    with pytest.raises(RuntimeError, match="cbr-3000sta"):
        peak_rss_mb(cbr_cell(3_000, duration="0.1 s"), address_space=20 << 20)


def test_every_example_scenario_runs():
    from conftest import ROOT

    import wlansim

    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        try:
            r = wlansim.run(path, overrides={"duration": "3 s", "warmup": "1 s"})
        except wlansim.ScenarioError as exc:
            # A scenario whose flows start later (janevski2009's FTP at 35 s) runs whole.
            assert "must be before the end of the run" in str(exc), (path.name, exc)
            r = wlansim.run(path)
        assert r.metrics["throughput_bps"] > 0, path.name


def test_run_two_bss_prints_the_per_bss_table():
    from conftest import ROOT

    out = wlansim_cli("run", str(ROOT / "scenarios" / "two-bss.toml"), "--set", "duration=4 s")
    assert out.returncode == 0, out.stderr
    table = out.stdout.split("BSSs", 1)[1]
    assert "upstairs" in table and "downstairs" in table
    # Each BSS: three saturated uploads share the channel with the other BSS's three.
    rows = [line.split() for line in table.strip().splitlines()[1:3]]
    up = [float(r[3]) for r in rows]
    assert all(u > 1.5 for u in up) and abs(up[0] / up[1] - 1) < 0.25, up


def test_scenario_paths_with_equals_sign_bom_and_directories(saturated, tmp_path):
    import shutil

    import wlansim

    odd = tmp_path / "a=b"
    odd.mkdir()
    path = odd / "x=1.toml"
    shutil.copy(saturated, path)
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + saturated.read_bytes())
    for p in (path, bom):
        for how in (p, str(p)):  # Path and str: one rule
            assert wlansim.run(how, overrides={"duration": "2 s"}).metrics["throughput_bps"] > 0
    out = wlansim_cli("run", str(path), "--set", "duration=2 s")
    assert out.returncode == 0 and "Flows" in out.stdout, out.stderr
    out = wlansim_cli("sweep", str(path), "--set", "duration=2 s", "--dry-run",
                      "--out", str(tmp_path / "s"))  # fmt: skip
    assert out.returncode == 0 and "1 runs missing" in out.stdout, out.stderr
    # TOML text still works as text
    text = 'duration = "2 s"\n[[stations]]\nname = "sta"\n'
    assert wlansim.scenario.load(text)["duration"] == "2 s"
    out = wlansim_cli("run", "scenarios")
    assert out.returncode == 2 and "is a directory, not a scenario file" in out.stderr
    first = sorted(p.name for p in Path("scenarios").glob("*.toml"))[0]
    assert f"it holds {first}" in out.stderr  # what it holds


def test_help_texts_show_percent_signs_once():
    for args in (("results", "--help"), ("plot", "--help"), ("--help",)):
        out = wlansim_cli(*args)
        assert out.returncode == 0 and "95%" in out.stdout and "%%" not in out.stdout


def test_validate_names_its_own_options_and_payload_defaults_agree(tmp_path):
    out = wlansim_cli("validate", "bianchi", "--duration", "1 s", "--stations", "2",
                      "--out", str(tmp_path))  # fmt: skip
    assert out.returncode == 2
    assert "--duration '1 s' must be longer than the warm-up (--warmup" in out.stderr
    assert "scenario key" not in out.stderr
    out = wlansim_cli("validate", "bianchi", "--duration", "1 s", "--warmup", "0.2 s",
                      "--stations", "2", "--access", "basic", "--out", str(tmp_path))  # fmt: skip
    assert out.returncode == 0 and "1472-byte UDP payload" in out.stdout, out.stderr
    out = wlansim_cli("model", "bianchi", "--stations", "2")
    assert "1472-byte UDP payload" in out.stdout


def test_run_labels_the_tcp_drop_column():
    out = wlansim_cli("run", "scenarios/pilosof-1up-1down.toml", "--set", "ap.queue=20",
                      "--set", "duration=10 s")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "dropped*" in out.stdout and "its ACKs dropped at any queue" in out.stdout
    out = wlansim_cli("run", "scenarios/pilosof-1up-1down.toml", "--set", "ap.queue=20",
                      "--set", "duration=10 s", "--wide")  # fmt: skip
    assert "dropped_queue*" in out.stdout
    assert "its ACKs dropped at any queue" in out.stdout
    out = wlansim_cli("run", "scenarios/saturated-11b.toml", "--set", "duration=2 s", "--wide")
    assert "dropped_queue*" not in out.stdout and "dropped_queue" in out.stdout


def test_ctrl_c_stops_a_long_run_with_a_message(saturated):
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "wlansim", "run", str(saturated), "--set", "duration=100000 s"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # interrupt it inside the run, not while Python starts: wait for 2 s of its CPU time
    # (start-up takes about 1 s; a fixed sleep fails on a loaded machine)
    clock = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / clock >= 2.0:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "wlansim: interrupted"
