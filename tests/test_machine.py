"""The CPU-time helper every timing of whole processes uses (wlansim.machine)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from wlansim.machine import cpu_seconds, load_average, timed_run


def test_timed_run_counts_the_cpu_of_the_process_it_ran():
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.2: pass"
    done, wall, cpu = timed_run([sys.executable, "-c", burn])
    assert done.returncode == 0
    assert 0.2 <= cpu <= wall + 0.05


def test_timed_run_counts_its_own_process_alone_beside_another():
    # a sleeping process timed while another thread's process burns 0.3 s of CPU and ends
    # first: the sleeper's CPU is its own (RUSAGE_CHILDREN would count the burner's too)
    from concurrent.futures import ThreadPoolExecutor

    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    with ThreadPoolExecutor(2) as pool:
        sleeper = pool.submit(timed_run, [sys.executable, "-c", "import time; time.sleep(1.0)"])
        burner = pool.submit(timed_run, [sys.executable, "-c", burn])
        (_, _, burnt), (_, _, slept) = burner.result(), sleeper.result()
    assert burnt >= 0.3
    assert slept < 0.2, slept


def test_timed_run_captures_checks_and_times_out():
    done, _, _ = timed_run([sys.executable, "-c", "print('x')"], capture_output=True, text=True)
    assert done.stdout == "x\n" and done.stderr == ""
    with pytest.raises(subprocess.CalledProcessError):
        timed_run([sys.executable, "-c", "raise SystemExit(3)"], check=True)
    with pytest.raises(subprocess.TimeoutExpired):
        timed_run([sys.executable, "-c", "import time; time.sleep(5)"], timeout=0.3)


def test_cpu_seconds_of_this_process_too():
    assert cpu_seconds(own=True) > cpu_seconds() >= 0


def test_load_average_gives_three_numbers():
    assert len([float(x) for x in load_average().split()]) == 3
