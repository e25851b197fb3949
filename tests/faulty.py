"""Run functions that misbehave, for the campaign fault tests: importable by the test
modules and by the worker processes they start."""

from __future__ import annotations

import faulthandler
import os
import resource
import signal
import time
from pathlib import Path

from wlansim.campaign.executors import run_scenario


def _count(scenario: dict) -> int:
    return scenario["stations"][0]["count"]


def abort_at_three_stations(scenario: dict, seed: int) -> dict:
    """The simulator, except that a cell of 3 stations aborts its process (as the core
    does on a failed memory allocation)."""
    if _count(scenario) == 3:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file
        faulthandler.disable()  # no Python stack dump in the test log
        os.abort()
    return run_scenario(scenario, seed)


def kill_worker(scenario: dict, seed: int) -> dict:
    """The simulator, except that it kills its own (Dask worker) process: always for 3
    stations, and on the first try only for 2 stations (a marker file in the directory
    $FAULTY_MARKERS records the try)."""
    n = _count(scenario)
    marker = Path(os.environ["FAULTY_MARKERS"]) / f"tried-{n}-{seed}"
    if n == 3 or (n == 2 and not marker.exists()):
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return run_scenario(scenario, seed)


def hang_at_three_stations(scenario: dict, seed: int) -> dict:
    """The simulator, except that a cell of 3 stations never returns (and never looks at
    the time limit, as a run stuck outside the simulator's loop would)."""
    if _count(scenario) == 3:
        time.sleep(3600)
    return run_scenario(scenario, seed)
