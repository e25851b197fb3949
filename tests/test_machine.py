"""The CPU-time helper every timing of whole processes uses (wlansim.machine)."""

from __future__ import annotations

import sys

from wlansim.machine import cpu_seconds, load_average, timed_run


def test_timed_run_counts_the_cpu_of_the_process_it_ran():
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.2: pass"
    done, wall, cpu = timed_run([sys.executable, "-c", burn])
    assert done.returncode == 0
    assert 0.2 <= cpu <= wall + 0.05


def test_cpu_seconds_of_this_process_too():
    assert cpu_seconds(own=True) > cpu_seconds() >= 0


def test_load_average_gives_three_numbers():
    assert len([float(x) for x in load_average().split()]) == 3
