"""Issue 12's findings through the Python API: inputs that aborted the process or looped
without end now end at once with a clear error (each run in a subprocess with a time
limit, so a regression cannot take the test session down), Ctrl-C stops a long run, and
errors name the key, the value and what is allowed."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT

import wlansim
from wlansim.api import StderrBar

SATURATED = str(ROOT / "scenarios" / "saturated-11b.toml")
MIXED = str(ROOT / "scenarios" / "mixed-udp-11b.toml")
PILOSOF = str(ROOT / "scenarios" / "pilosof-1up-1down.toml")

# A child that runs one scenario and prints the error it gets (or "ok").
CHILD = """
import json, sys
import wlansim
path, overrides = sys.argv[1], json.loads(sys.argv[2])
try:
    wlansim.run(path, overrides=overrides)
    print("ok")
except wlansim.ScenarioError as exc:
    print("ScenarioError:", exc)
"""

CASES = {
    # Aborts: allocation failures before the fix.
    "abort-duration-1e12-s": (SATURATED, {"duration": "1e12 s"}, ["`duration`", "at most 1e9 s"]),
    "abort-duration-1e8-min": (SATURATED, {"duration": "100000000 min"}, ["at most 1e9 s"]),
    "abort-duration-18446744073-s": (SATURATED, {"duration": "18446744073 s"}, ["at most 1e9 s"]),
    "abort-10-million-stations": (
        SATURATED,
        {"stations.sta.count": 10_000_000},
        ["stations.sta.count", "10000000", "100000"],
    ),
    "abort-1e9-stations": (SATURATED, {"stations.sta.count": 10**9}, ["stations.sta.count"]),
    # Endless loops before the fix.
    "endless-cbr-1e30-gbps": (MIXED, {"flows.up.rate": "1e30 Gb/s"}, ["flows.up.rate", "1 Tb/s"]),
    "endless-poisson-rate-0": (
        MIXED,
        {"flows.down.rate": 0, "flows.down.start": "1 s"},
        ["flows.down.rate", "b/s"],
    ),
    "endless-series-interval-1e30-s": (
        MIXED,
        {"warmup": "2 s", "output.series_interval": "1e30 s"},
        ["output.series_interval", "at most 1e9 s"],
    ),
    # Nonsense accepted (or a panic) before the fix.
    "nonsense-cbr-rate-0": (MIXED, {"flows.up.rate": 0}, ["flows.up.rate"]),
    "nonsense-rate-0.1-bps": (MIXED, {"flows.up.rate": "0.1 b/s"}, ["below 1 b/s"]),
    "panic-server-rate-0.1-bps": (
        PILOSOF,
        {"servers.0.rate": "0.1 b/s"},
        ["servers[0].rate", "below 1 b/s"],
    ),
    "nonsense-server-delay-1e30-s": (
        PILOSOF,
        {"servers.0.delay": "1e30 s"},
        ["servers[0].delay", "at most 1e9 s"],
    ),
    "nonsense-flow-idle-timeout-1e30-s": (
        PILOSOF,
        {"ap.flow_idle_timeout": "1e30 s"},
        ["ap.flow_idle_timeout", "at most 1e9 s"],
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_former_abort_or_endless_loop_ends_with_a_clear_error(name):
    path, overrides, words = CASES[name]
    out = subprocess.run(
        [sys.executable, "-c", CHILD, path, json.dumps(overrides)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ScenarioError:"), out.stdout
    for word in words:
        assert word in out.stdout, out.stdout


def test_ctrl_c_stops_a_long_run_with_keyboard_interrupt():
    code = (
        "import sys, wlansim\n"
        "print('running', flush=True)\n"
        f"wlansim.run({SATURATED!r}, overrides={{'duration': '1e6 s'}})\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert child.stdout.readline().strip() == "running"
        time.sleep(1.0)  # well inside the run (it would take hours)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
        stopped_after = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode != 0
    assert "KeyboardInterrupt" in err, err
    assert stopped_after < 10


def test_progress_callback_gets_increasing_fractions():
    seen: list[float] = []
    wlansim.run(SATURATED, overrides={"duration": "300 s"}, progress=seen.append)
    assert len(seen) >= 2
    assert seen == sorted(seen) and all(0 < f < 1 for f in seen)


class Stop(Exception):
    pass


def test_an_exception_in_the_progress_callback_stops_the_run():
    def stop(_fraction):
        raise Stop

    with pytest.raises(Stop):
        wlansim.run(SATURATED, overrides={"duration": "60 s"}, progress=stop)


def test_stderr_bar_is_silent_for_short_runs_and_drawn_for_long_ones():
    quiet = StderrBar(after_s=1e9, stream=io.StringIO())
    quiet(0.5)
    quiet.close()
    assert quiet.stream.getvalue() == ""
    loud = StderrBar(after_s=0.0, stream=io.StringIO())
    loud(0.25)
    loud.close()
    text = loud.stream.getvalue()
    assert "25.0%" in text and text.endswith("\n")


def test_nan_infinity_and_huge_integers_name_key_value_and_allowed():
    base = {"duration": "1 s", "stations": [{"name": "sta"}]}
    cases = [
        ({"stations": [{"name": "sta", "fer": float("nan")}]}, ["stations.sta.fer", "NaN"]),
        ({"stations": [{"name": "sta", "count": float("inf")}]}, ["Infinity", "1 to 100000"]),
        ({"seed": 2**64}, ["`seed`", "18446744073709551616", "18446744073709551615"]),
        ({"phy": {"standard": 3}}, ["phy.standard", "3 is not allowed", '"802.11b"']),
    ]
    for change, words in cases:
        with pytest.raises(wlansim.ScenarioError) as err:
            wlansim.run({**base, **change})
        message = str(err.value)
        assert "expected value" not in message and "expected u" not in message, message
        for word in words:
            assert word in message, message


def test_a_bad_group_name_is_not_echoed_into_the_key_path():
    with pytest.raises(wlansim.ScenarioError) as err:
        wlansim.run({"duration": "1 s", "stations": [{"name": "my sta"}]})
    message = str(err.value)
    assert "`stations[0].name`" in message and '"my sta"' in message, message
