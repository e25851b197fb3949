"""The CPU-time helper every timing of whole processes uses (wlansim.machine)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

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


def test_a_timed_out_or_interrupted_process_is_killed_and_reaped(tmp_path):
    # a process that would sleep 30 s: a timeout, and Ctrl-C (SIGINT to this process
    # alone, not to the child), each end the call at once, the child killed and reaped
    # (no zombie keeps its pid)
    pid_file = tmp_path / "pid"
    sleeper = ["sh", "-c", f"echo $$ > {pid_file}.tmp; mv {pid_file}.tmp {pid_file}; exec sleep 30"]

    def started() -> int:
        for _ in range(1000):
            if pid_file.exists():
                return int(pid_file.read_text())
            time.sleep(0.01)
        raise AssertionError("the child never started")

    def gone(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False

    t0 = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        timed_run(sleeper, capture_output=True, timeout=1.0)
    assert gone(started())
    pid_file.unlink()
    interrupt = threading.Thread(target=lambda: started() and os.kill(os.getpid(), signal.SIGINT))
    interrupt.start()
    with pytest.raises(KeyboardInterrupt):
        timed_run(sleeper)
    interrupt.join()
    assert gone(started())
    assert time.monotonic() - t0 < 10


def test_cpu_seconds_of_this_process_too():
    assert cpu_seconds(own=True) > cpu_seconds() >= 0


def test_load_average_gives_three_numbers():
    assert len([float(x) for x in load_average().split()]) == 3
