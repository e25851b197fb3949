"""Emulation (`wlansim emulate`): real hosts in network namespaces through the simulated
cell in real time. These tests need root, /dev/net/tun and `ip`; elsewhere they skip and
say why. Each lasts seconds; timing figures are asserted loosely here (the machine may be
busy) and measured for the README with the commands there."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wlansim.emulation import _report, _seconds, leftovers, unavailable

ROOT = Path(__file__).resolve().parent.parent
REASON = unavailable()
needs_host = pytest.mark.skipif(REASON is not None, reason=f"emulation unavailable: {REASON}")
needs_ping = pytest.mark.skipif(shutil.which("ping") is None, reason="`ping` is not installed")


def _cell(duration: str, ap: str = "", emulation: str = "") -> str:
    """One 802.11g station and one wired server, both emulated (TOML up to the groups)."""
    return f"""
duration = "{duration}"
[phy]
standard = "802.11g"
[ap]
{ap}
[[stations]]
name = "sta"
[[servers]]
name = "srv"
[emulation]
{emulation}
"""


PING = (
    _cell("4 s", emulation="{hard_limit}")
    + """
[[emulation.groups]]
name = "srv"
[[emulation.groups]]
name = "sta"
command = "ping -c {count} -i 0.1 -W 1 -q {{srv.ip}}"
start = "0.2 s"
wait = true
"""
)


# A simulated station sending 125 packets/s: an event is due every 8 ms, so a stall of the
# loop longer than that always makes it late (the pings alone leave it idle most of the time)
BACKGROUND = """
[[stations]]
name = "bg"
[[flows]]
name = "bg"
stations = "bg"
direction = "uplink"
traffic = "cbr"
rate = "100 kb/s"
packet_size = "100 B"
"""


def _ping_scenario(
    tmp_path: Path, count: int = 10, hard_limit: str = "", background: bool = False
) -> Path:
    path = tmp_path / "ping.toml"
    path.write_text(
        PING.format(count=count, hard_limit=hard_limit) + (BACKGROUND if background else "")
    )
    return path


def test_reports_and_durations_parse():
    assert _seconds("300 ms") == pytest.approx(0.3)
    assert _seconds("2 s") == 2.0
    two = '{"bps": 1.0, "mode": "udp-recv"}\nnoise\n{"bps": 2.5}\n'
    assert _report(two)["bps"] == 3.5
    # receivers stopped before their window opened report no rate
    assert _report('{"bps": null}\n{"bps": 2.0}\n')["bps"] == 2.0
    assert _report('{"bps": null}\n{"bps": null}\n') is None
    assert _report('{"end": {}}') == {"end": {}}
    assert _report("PING 10.0.0.3 ...") is None


def test_unknown_placeholder_is_refused(tmp_path):
    from wlansim.emulation import _expand
    from wlansim.errors import ScenarioError

    node = {"index": 0, "ip": "10.0.0.2", "name": "sta-0"}
    assert (
        _expand(
            "ping {srv.ip} -p {port}",
            "k",
            node,
            {"srv": [{"ip": "10.0.0.3", "name": "srv-0"}]},
            tmp_path,
        )
        == "ping 10.0.0.3 -p 5201"
    )
    with pytest.raises(ScenarioError, match=r"unknown placeholder \{nope.ip\}"):
        _expand("ping {nope.ip}", "emulation.groups[1].command", node, {}, tmp_path)


def test_emulation_table_is_checked():
    from wlansim import run
    from wlansim.errors import ScenarioError

    bad = {
        "duration": "1 s",
        "ap": {},
        "stations": [{"name": "sta"}],
        "emulation": {"groups": [{"name": "nope"}]},
    }
    with pytest.raises(ScenarioError, match=r"emulation.groups\[0\].name.*nope"):
        run(bad)
    # `wlansim run` ignores a valid table.
    ok = {**bad, "emulation": {"groups": [{"name": "sta"}], "hard_limit": "10 ms"}}
    assert run(ok).meta["sim_time_s"] == 1.0


@needs_ping
@needs_host
def test_ping_crosses_the_cell_in_real_time(tmp_path):
    from wlansim.emulation import emulate

    r = emulate(_ping_scenario(tmp_path))
    ping = r.applications[0]
    assert ping.returncode == 0, ping.output
    assert "10 received" in ping.output
    avg_ms = float(re.search(r"= [\d.]+/([\d.]+)/", ping.output).group(1))
    flows = r.results.to_dict()["flows"]
    (icmp,) = [f for f in flows if f["protocol"] == "icmp"]
    assert icmp["delivered_packets"] == 20  # requests and replies
    simulated_rtt_ms = 2 * icmp["delay_mean_s"] * 1e3
    # The real RTT is the simulated one plus the loop's lateness and the hosts' stacks:
    # never less, and (even on a busy machine) not seconds more.
    assert simulated_rtt_ms > 2.0  # two 1 ms wires, the air both ways
    assert simulated_rtt_ms - 0.05 <= avg_ms <= simulated_rtt_ms + 50, (avg_ms, simulated_rtt_ms)
    rt = r.realtime
    assert rt["packets_out"] == 20 and rt["packets_in"] == 20
    assert rt["dropped_unroutable"] == 0 and rt["write_errors"] == 0
    assert 0 <= rt["lateness_p50_s"] <= rt["lateness_max_s"]
    assert leftovers(r.prefix) == []


def _start(scenario: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "wlansim", "emulate", str(scenario), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def _wait_for_namespaces(pid: int, timeout: float = 20.0) -> str:
    prefix = f"wls{pid}x"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        if prefix in names:
            time.sleep(0.5)  # the run is set up and running
            return prefix
        time.sleep(0.05)
    raise AssertionError("the run never created its namespaces")


def _ours(prefix: str) -> list[str]:
    names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line for line in names.splitlines() if line.startswith(prefix)]


@needs_ping
@needs_host
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_run_and_removes_everything(tmp_path, sig):
    p = _start(_ping_scenario(tmp_path, count=100))
    prefix = _wait_for_namespaces(p.pid)
    p.send_signal(sig)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert _ours(prefix) == []
    # the ping inside is gone with its namespace
    assert (
        subprocess.run(["pgrep", "-f", "ping -c 100 -i 0.1"], capture_output=True).returncode == 1
    )


@needs_ping
@needs_host
def test_cleanup_removes_what_a_killed_run_left(tmp_path):
    p = _start(_ping_scenario(tmp_path, count=100))
    prefix = _wait_for_namespaces(p.pid)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=10)
    assert _ours(prefix), "a killed run leaves its namespaces"
    out = subprocess.run(
        [sys.executable, "-m", "wlansim", "emulate", "--cleanup"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert _ours(prefix) == []


@needs_ping
@needs_host
def test_hard_limit_stops_a_stalled_loop_with_a_clear_error(tmp_path):
    scenario = _ping_scenario(
        tmp_path, count=30, hard_limit='hard_limit = "10 ms"', background=True
    )
    p = _start(scenario)
    prefix = _wait_for_namespaces(p.pid)
    os.kill(p.pid, signal.SIGSTOP)
    time.sleep(0.3)
    os.kill(p.pid, signal.SIGCONT)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 2, err
    assert "ms late, more than hard_limit (10.000 ms)" in err
    assert _ours(prefix) == []


@needs_host
def test_udp_saturation_matches_the_simulation():
    """10 real stations saturate an 802.11b cell (7 s here; README: the full figure)."""
    from wlansim import run
    from wlansim.emulation import emulate

    scenario = ROOT / "scenarios" / "emulation-udp-11b.toml"
    short = ["duration=7 s", "warmup=3 s"]
    sim = run(scenario, overrides=short)
    emu = emulate(scenario, overrides=short)

    def successes(r):
        return sum(n["successes"] for n in r.to_dict()["nodes"] if n["role"] == "station")

    s, e = successes(sim), successes(emu.results)
    # Loose on a busy machine (the loop's lag can empty a queue that a real host would
    # have kept full); README: within ±3 % on a quiet one.
    assert abs(e - s) / s < 0.15, (e, s)
    # The stations' senders outrun the cell: their devices are stopped while their MAC
    # queues are full, and the packets wait in the devices' rings, not in the queueing
    # discipline (a TUN device never stops its queue; README: the kernel drops once a
    # ring is full).
    assert emu.realtime["flow_control_stops"] > 0
    assert all(d.get("qdisc_backlog_packets", 0) == 0 for d in emu.devices.values())
    assert leftovers(emu.prefix) == []


CLAMP = (
    _cell("6 s", ap="queue = 10\nrwnd_clamp = true")
    + """
[[emulation.groups]]
name = "srv"
command = "{python} -m wlansim.bulk tcp-recv {port}"
[[emulation.groups]]
name = "sta"
command = "{python} -m wlansim.bulk tcp-send {srv.ip} {port} --seconds 4"
start = "0.3 s"
wait = true
"""
)


@needs_host
def test_rwnd_clamping_rewrites_the_real_windows(tmp_path):
    """The AP clamps the receiver's real ACKs to ⌊B/n⌋ = 10 segments: the adapter rewrites
    their window fields (checksums patched: the sender keeps sending)."""
    from wlansim.emulation import emulate

    path = tmp_path / "clamp.toml"
    path.write_text(CLAMP)
    r = emulate(path, pcap=tmp_path / "pcap")
    rt = r.realtime
    assert rt["windows_rewritten"] > 0 and rt["windows_unscaled"] == 0
    server = [a for a in r.applications if a.node == "srv-0"][0]
    assert server.report is not None and server.report["bytes"] > 100_000, server.output
    assert (tmp_path / "pcap" / "ap.pcap").stat().st_size > 24
    assert leftovers(r.prefix) == []


# A receiver that is still running when the run ends and takes a while to write its report
# (the shell around it dies of the SIGTERM at once; the report comes 0.3 s later).
LATE_REPORT = (
    _cell("1 s")
    + """
[[emulation.groups]]
name = "sta"
command = '''{python} -c "import json, signal, time
def stop(*_):
    time.sleep(0.3)
    print(json.dumps({'bps': 1.0}), flush=True)
    raise SystemExit(0)
signal.signal(signal.SIGTERM, stop)
time.sleep(60)"'''
"""
)


@needs_host
def test_reports_written_after_the_stop_signal_are_kept(tmp_path):
    """The applications' reports are read once every process of their group has exited, not
    when the shell that started them has (the rwnd-clamping test lost its receiver's report
    to that race once)."""
    from wlansim.emulation import emulate

    path = tmp_path / "late.toml"
    path.write_text(LATE_REPORT)
    r = emulate(path)
    (app,) = r.applications
    assert app.report == {"bps": 1.0}, app.output
    assert leftovers(r.prefix) == []


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_bulk_receivers_count_over_a_fixed_window():
    """wlansim.bulk's receivers measure from `--warmup` seconds after they started, as a
    simulation measures after its warm-up: a connection that opens late counts over the
    whole window, and a receiver that got nothing reports 0 b/s (not an undefined rate)."""
    import json
    import socket

    def receiver(mode: str, port: int) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "wlansim.bulk", mode, str(port), "--warmup", "0.2"],
            stdout=subprocess.PIPE,
            text=True,
        )

    idle = receiver("udp-recv", _free_port())
    port = _free_port()
    late = receiver("tcp-recv", port)
    try:
        time.sleep(1.0)  # the window opened about 0.7 s ago (after the interpreter started)
        with socket.create_connection(("127.0.0.1", port)) as c:
            c.sendall(bytes(100_000))
        out, _ = late.communicate(timeout=10)
        r = json.loads(out)
        assert r["bytes"] == 100_000
        assert r["seconds"] >= 0.4, r  # from the window's opening, not from the connection
        idle.send_signal(signal.SIGTERM)
        out, _ = idle.communicate(timeout=10)
        r = json.loads(out)
        assert r["bytes"] == 0 and r["bps"] == 0.0, r
    finally:  # a failed assertion must not leave a receiver running
        for proc in (idle, late):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
