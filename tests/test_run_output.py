"""Output a newcomer can read (issue 39, item 4): `run` prints a compact summary first
and the wide tables with --wide; `--resolve` writes every default, TCP's included; each
number the issue found unexplained is explained where it is printed (or fixed), each
with a test that could fail."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import wlansim
from wlansim.cli import main
from wlansim.scenario import resolve

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"


def run_cli(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_run_prints_a_compact_summary_and_the_wide_tables_on_request(capsys):
    args = [str(SCENARIOS / "saturated-11b.toml"), "--set", "duration=2 s",
            "--set", "stations.sta.count=8"]  # fmt: skip
    compact = run_cli(capsys, "run", *args)
    assert compact.startswith("Flows\n") and "\nBSSs" in compact and "\nNodes" not in compact
    assert "total " in compact and "--wide" in compact
    assert max(len(line) for line in compact.splitlines()) <= 110
    wide = run_cli(capsys, "run", *args, "--wide")
    assert "\nNodes\n" in wide and "offered_packets" in wide
    nodes = wide.split("\nNodes\n")[1].split("\n\n")[0]
    assert "(all zero, not shown: " in nodes
    hidden = nodes.split("(all zero, not shown: ")[1].split(")")[0].split(", ")
    assert "internal_collisions" in hidden and "attempts" not in hidden
    header = nodes.splitlines()[0]
    assert not any(f" {c} " in f" {header} " for c in hidden)


def test_run_shows_the_sessions_of_an_on_off_workload(capsys):
    out = run_cli(capsys, "run", str(SCENARIOS / "http-onoff.toml"), "--set", "duration=60 s")
    assert "\nSessions" in out
    table = out.split("\nSessions")[1].split("\n\n")[0].splitlines()
    assert "finished" in table[1] and "delay_mean (ms)" in table[1]
    assert table[2].split()[0] == "files-down" or len(table) > 2


def test_resolve_writes_every_tcp_default():
    tcp = resolve(SCENARIOS / "pilosof-1up-1down.toml")["tcp"]
    for key in (
        "mss",
        "rwnd",
        "initial_window",
        "initial_ssthresh",
        "min_rto",
        "max_rto",
        "initial_rto",
        "clock_granularity",
        "delayed_ack_timeout",
        "timestamps",
        "dupack_threshold",
        "limited_transmit",
        "cubic_c",
        "hystart",
        "variant",
    ):
        assert key in tcp, key  # fmt: skip
    # the file sets the ns2-compat profile, mss and rwnd; the rest is the profile's
    assert (tcp["profile"], tcp["mss"], tcp["rwnd"]) == ("ns2-compat", "1024 B", 42)
    assert (tcp["initial_window"], tcp["min_rto"], tcp["clock_granularity"]) == (
        2,
        "200 ms",
        "10 ms",
    )
    standard = resolve(SCENARIOS / "wired-tree.toml")["tcp"]
    assert (standard["initial_window"], standard["min_rto"]) == ("rfc3390", "1 s")
    assert "tcp" not in resolve(SCENARIOS / "saturated-11b.toml")  # no TCP flow


@pytest.mark.parametrize(
    "name", ["pilosof-1up-1down", "capture-mixed", "wired-tree", "bursty-upload-delay-injection"]
)
def test_a_resolved_tcp_scenario_runs_exactly_as_the_original(name):
    path = SCENARIOS / f"{name}.toml"
    overrides = {"duration": "3 s", "warmup": "0.5 s"}
    a = wlansim.run(path, overrides=overrides).to_dict()
    b = wlansim.run({**resolve(path), **overrides}).to_dict()
    assert a["flows"] == b["flows"] and a["meta"]["events"] == b["meta"]["events"]


def test_the_scenario_reference_shows_the_tcp_defaults_of_each_profile():
    text = (ROOT / "docs" / "scenario.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `tcp.mss`"))
    assert '`"1460 B"` (standard)' in row and '`"1000 B"` (ns2-compat, ns2)' in row
    tcp_rows = [line for line in text.splitlines() if line.startswith("| `tcp.")]
    assert len(tcp_rows) > 20
    assert not [r for r in tcp_rows if r.split(" | ")[2] == "—"]


def test_goodput_above_throughput_is_data_received_before_the_warm_up(capsys):
    # capture-mixed: SACK, a 256 KiB window; the warm-up cuts through the flows' recovery
    path = SCENARIOS / "capture-mixed.toml"
    with_warmup = wlansim.run(path, seed=1, overrides={"warmup": "1 s"})
    flows = with_warmup.to_dict()["flows"]
    over = [f for f in flows if f.get("goodput_bps", 0) > f["throughput_bps"]]
    assert over, "the case shows the effect"
    rwnd = 256 * 1024
    for f in over:
        excess_bytes = (f["goodput_bps"] - f["throughput_bps"]) * 4.0 / 8
        assert excess_bytes <= rwnd  # at most one receive window
    # without a warm-up, nothing can be received before it: goodput <= throughput
    for f in wlansim.run(path, seed=1).to_dict()["flows"]:
        assert f.get("goodput_bps", 0) <= f["throughput_bps"]
    out = run_cli(capsys, "run", str(path), "--set", "warmup=1 s")
    assert "note: goodput above throughput" in out


CUBIC = """
name = "cubic-upload"
duration = "20 s"
warmup = "2 s"
[phy]
standard = "802.11g"
[[stations]]
name = "sta"
[[servers]]
name = "srv"
delay = "20 ms"
[tcp]
variant = "cubic"
rwnd = "65535 B"
[[flows]]
name = "up"
protocol = "tcp"
direction = "uplink"
stations = "sta"
server = "srv"
"""


def test_a_cubic_cwnd_above_rwnd_is_explained_and_the_flight_stays_within_rwnd(capsys, tmp_path):
    r = wlansim.run(CUBIC)
    (flow,) = r.to_dict()["flows"]
    assert flow["cwnd_bytes"] > 4 * 65535  # it grew far beyond the window
    # yet the flow is window-limited: rate x RTT (the bytes in flight) within rwnd
    in_flight = flow["goodput_bps"] / 8 * flow["rtt_mean_s"]
    assert in_flight <= 65535 * 1.02
    scenario = tmp_path / "cubic.toml"
    scenario.write_text(CUBIC)
    out = run_cli(capsys, "run", str(scenario), "--wide")
    assert "cwnd_bytes" in out and "note: cwnd_bytes" in out and "min(cwnd" in out


def test_a_finite_transfer_reports_when_it_completed(capsys, tmp_path):
    path = tmp_path / "finite.toml"
    path.write_text(CUBIC.replace('duration = "20 s"', 'duration = "5 s"')
                    .replace('warmup = "2 s"', 'warmup = "0 s"')
                    .replace('server = "srv"', 'server = "srv"\nbytes = "400 kB"'))  # fmt: skip
    (flow,) = wlansim.run(path).to_dict()["flows"]
    assert 0 < flow["completed_s"] < 5
    # the rates are over the whole window: 400 kB / 5 s, whatever the transfer took
    assert flow["goodput_bps"] == pytest.approx(400_000 * 8 / 5, rel=1e-9)
    out = run_cli(capsys, "run", str(path))
    assert "completed (s)" in out and "note: completed:" in out
    persistent = wlansim.run(CUBIC).to_dict()["flows"][0]
    assert persistent["completed_s"] is None


def ratio_run(scenario, seed):
    """A stand-in run: a ratio with a large spread over replications, 0.2 or 5."""
    return {"metrics": {"up_down_ratio": 0.2 if seed % 2 else 5.0}}


def test_a_t_interval_below_zero_of_a_positive_metric_is_explained(tmp_path, capsys):
    from wlansim.campaign import Campaign

    c = Campaign({"x": 1}, {"x": [1]}, reps=3, store=tmp_path / "s", run_fn=ratio_run,
                 load_fn=dict, resolve_fn=lambda b, o: {**b, **o}, version="t")  # fmt: skip
    c.run(jobs=1, progress=False)
    values = c.results()["up_down_ratio"].tolist()
    assert sorted(values) == [0.2, 5.0, 5.0]  # the three seeds of base seed 1
    low = c.summary("up_down_ratio")["ci95_low"].iloc[0]
    assert low < 0
    out = run_cli(capsys, "results", str(tmp_path / "s"))
    assert "note: up_down_ratio: no run gave a value below 0" in out
    assert not math.isnan(low)
    doc = json.loads(run_cli(capsys, "results", str(tmp_path / "s"), "--json"))
    assert doc["summary"][0]["ci95_low"] < 0  # the interval itself is not altered


def test_plots_are_in_the_units_of_the_tables(tmp_path):
    from test_campaign import BASE, fake_load, fake_resolve, fake_run

    from wlansim.campaign import Campaign, load_runs
    from wlansim.plots import plot_campaign

    Campaign(BASE, {"stations.sta.count": [1, 2, 5]}, reps=2, store=tmp_path / "s",
             run_fn=fake_run, load_fn=fake_load, resolve_fn=fake_resolve,
             version="t").run(jobs=1, progress=False)  # fmt: skip
    runs = load_runs(tmp_path / "s")
    fig = plot_campaign(runs, "stations.sta.count", "throughput_bps")
    ax = fig.axes[0]
    assert ax.get_ylabel().startswith("throughput (Mb/s)")
    ys = ax.lines[0].get_ydata()
    # the table's means, in Mb/s (the fake cell gives about 4.9 Mb/s with one station)
    assert 4 < ys[0] < 6
