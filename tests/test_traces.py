"""Synthetic video frame-size traces (wlansim.traces) and `wlansim trace` (trace_cmd)."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import pytest

from wlansim import traces
from wlansim.cli import trace_cmd
from wlansim.errors import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "scenarios" / "traces"
SPECS = {name: spec for name, (spec, _, _) in traces.PRESETS.items()}


def close(got: float, want: float, rel: float) -> bool:
    return abs(got - want) <= rel * want


@pytest.mark.parametrize("name", sorted(traces.PRESETS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generator_hits_mean_and_peak(name, seed):
    spec = SPECS[name]
    rows = traces.generate(spec, 3000, seed)
    got = traces.stats(rows, spec.frame_rate)
    assert got["frames"] == 3000
    assert close(got["mean_bit_rate"], spec.mean_bit_rate, 0.01)
    assert close(got["peak_bit_rate"], spec.peak_bit_rate, 0.05)
    assert [r[0] for r in rows] == list(range(3000))
    assert all(r[1] == pytest.approx(r[0] * 1000 / spec.frame_rate) for r in rows)
    coded = [r for r in rows if r[2] != traces.SKIP_TYPE]
    assert all(r[3] >= spec.min_size >= 1 for r in coded)
    assert all(r[3] == 0 for r in rows if r[2] == traces.SKIP_TYPE)
    assert 0.5 * _published_cov(name) < got["cov"] < 1.5 * _published_cov(name)


def _published_cov(name: str) -> float:
    return {"starwars4": 0.66, "lecture-room": 1.30}[name]


def test_gop_pattern_and_skips():
    sw = traces.generate(SPECS["starwars4"], 24, 5)
    assert "".join(r[2] for r in sw) == "IBBPBBPBBPBB" * 2
    lr = traces.generate(SPECS["lecture-room"], 3000, 5)
    kinds = [r[2] for r in lr]
    assert kinds[0] == "I"
    skipped = kinds.count(traces.SKIP_TYPE) / len(kinds)
    assert skipped == pytest.approx(SPECS["lecture-room"].skip_share, abs=1e-3)
    assert set(kinds) == {"I", "P", traces.SKIP_TYPE}


def test_no_skips_means_every_frame_at_least_one_byte():
    spec = dataclasses.replace(SPECS["starwars4"], min_size=1, skip_share=0.0)
    assert min(r[3] for r in traces.generate(spec, 500, 9)) >= 1


@pytest.mark.parametrize("name", sorted(traces.PRESETS))
def test_shipped_files_match_their_targets(name):
    spec, seed, filename = traces.PRESETS[name]
    path = SHIPPED / filename
    assert path.stat().st_size < 80_000
    rows = traces.read_frames(path)
    got = traces.stats(rows, spec.frame_rate)
    assert got["frames"] == 3000
    assert got["duration_s"] == pytest.approx(120.0)
    assert close(got["mean_bit_rate"], spec.mean_bit_rate, 0.01)
    assert close(got["peak_bit_rate"], spec.peak_bit_rate, 0.05)
    text = path.read_text()
    assert "SYNTHETIC" in text and f"seed {seed}" in text and "real trace" in text
    # the file is what the module makes with the seed it names
    assert rows == traces.generate(spec, 3000, seed)


def test_published_statistics_behind_the_presets():
    sw, lr = SPECS["starwars4"], SPECS["lecture-room"]
    assert sw.max_frame_bytes == 9370 and lr.max_frame_bytes == 5760
    assert sw.peak_bit_rate / sw.mean_bit_rate == pytest.approx(6.81)
    assert close(sw.mean_bit_rate, 2.8e5, 0.02) and close(sw.peak_bit_rate, 1.9e6, 0.02)
    assert lr.mean_frame_bytes == pytest.approx(311.65)
    assert close(lr.mean_bit_rate, 6.2e4, 0.01)


def test_write_read_round_trip(tmp_path):
    rows = traces.generate(SPECS["lecture-room"], 200, 7)
    path = tmp_path / "t.txt"
    traces.write_frames(path, rows, "a header\nover two lines")
    assert path.read_text().startswith("# a header\n# over two lines\n#")
    assert traces.read_frames(path) == rows


def test_read_ignores_comments_header_and_extra_columns(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text(
        "# comment\nFrame  Time[ms]  Type  Size[byte]\n\n0 0.0 I 1000 38.2 37.9\n"
        "1 40.0 B 300\n  # indented comment\n2 80 P 500.0\n"
    )
    assert traces.read_frames(path) == [
        (0, 0.0, "I", 1000),
        (1, 40.0, "B", 300),
        (2, 80.0, "P", 500),
    ]


@pytest.mark.parametrize(
    ("line", "fragment"), [("0 0.0 I", "number time_ms"), ("0 0.0 I 12.5", "whole number")]
)
def test_read_rejects_bad_lines(tmp_path, line, fragment):
    path = tmp_path / "bad.txt"
    path.write_text(f"0 0.0 I 10\n{line}\n")
    with pytest.raises(ValueError, match=fragment):
        traces.read_frames(path)


def test_deterministic_for_a_seed():
    spec = SPECS["starwars4"]
    assert traces.generate(spec, 600, 11) == traces.generate(spec, 600, 11)
    assert traces.generate(spec, 600, 11) != traces.generate(spec, 600, 12)


def test_stats_of_a_small_trace():
    rows = [(0, 0.0, "I", 1000), (1, 40.0, "P", 500), (2, 80.0, "S", 0), (3, 120.0, "P", 500)]
    got = traces.stats(rows, 25)
    assert got["frames"] == 4 and got["duration_s"] == pytest.approx(0.16)
    assert got["mean_frame_bytes"] == 500 and got["max_frame_bytes"] == 1000
    assert got["mean_bit_rate"] == pytest.approx(2000 * 8 / 0.16)
    assert got["peak_bit_rate"] == 1000 * 8 * 25
    assert got["cov"] == pytest.approx((125_000**0.5) / 500)


@pytest.mark.parametrize(
    ("change", "field", "value", "allowed"),
    [
        ({"frame_rate": 0.0}, "frame_rate", "0.0", "> 0"),
        ({"frame_rate": -25.0}, "frame_rate", "-25.0", "> 0"),
        ({"peak_bit_rate": 1e5}, "peak_bit_rate", "100000.0", ">= mean_bit_rate"),
        ({"gop": ""}, "gop", "''", "non-empty"),
        ({"gop": "IXP"}, "gop", "'IXP'", "allowed are I, P, B"),
        ({"skip_share": 1.0}, "skip_share", "1.0", "[0, 1)"),
        ({"min_size": 0}, "min_size", "0", ">= 1"),
    ],
)
def test_bad_spec_raises_value_error_naming_field_value_and_allowed(change, field, value, allowed):
    with pytest.raises(ValueError) as info:
        dataclasses.replace(SPECS["starwars4"], **change)
    message = str(info.value)
    assert message.startswith(f"{field}: ") and value in message and allowed in message


def test_too_few_frames_for_mean_and_peak():
    with pytest.raises(ValueError, match=r"frames: 3 \(3 coded\) .*at least about 7\)"):
        traces.generate(SPECS["starwars4"], 3, 1)
    with pytest.raises(ValueError, match="frames: 0 must be"):
        traces.generate(SPECS["starwars4"], 0, 1)


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="wlansim")
    trace_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_generate_and_stats(tmp_path, capsys):
    out = tmp_path / "sub" / "lr.txt"
    argv = ["trace", "generate", "--preset", "lecture-room", "--frames", "500"]
    assert run_cli([*argv, "--seed", "3", "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert traces.read_frames(out) == traces.generate(SPECS["lecture-room"], 500, 3)
    assert run_cli(["trace", "stats", str(out)]) == 0
    table = capsys.readouterr().out
    assert "mean bit rate" in table and "62330 b/s" in table and "5760 B" in table
    assert run_cli(["trace", "stats", str(out), "--json", "--frame-rate", "25"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["frames"] == 500 and document["max_frame_bytes"] == 5760


def test_cli_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0 0.0 I ten\n")
    with pytest.raises(ScenarioError, match="trace stats: .*bad.txt:1"):
        run_cli(["trace", "stats", str(bad)])
    with pytest.raises(ScenarioError, match="--frames: 0"):
        run_cli(["trace", "generate", "--preset", "starwars4", "--frames", "0", "--out", "x"])
    with pytest.raises(ScenarioError, match="trace generate: frames: 2"):
        run_cli(["trace", "generate", "--preset", "starwars4", "--frames", "2", "--out", str(bad)])
    with pytest.raises(SystemExit):
        run_cli(["trace", "generate", "--preset", "nope", "--out", "x"])
