"""What the timings of `wlansim bench --startup`, `wlansim validate ns2 --speed` and
`wlansim reproduce all` say about the machine: CPU seconds of processes and the load
average; and how a timed Python process starts (byte-compiled, as installed)."""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def cpu_seconds(own: bool = False) -> float:
    """User + system CPU seconds used so far by the child processes this one has waited
    for (and by this process too when `own`): the difference of two calls is the CPU
    time of what ran in between."""
    who = [resource.RUSAGE_CHILDREN] + ([resource.RUSAGE_SELF] if own else [])
    return sum(u.ru_utime + u.ru_stime for u in map(resource.getrusage, who))


class _Reaped(subprocess.Popen):
    """A `subprocess.Popen` that keeps its child's resource usage as it reaps it
    (``os.wait4``): that child's CPU time alone (with its own children's), whatever this
    process's other threads run meanwhile. The difference of two RUSAGE_CHILDREN readings
    counts every child reaped in between, so runs made side by side (``--jobs 2``) each
    counted the other's CPU when it ended within them."""

    rusage = None

    def _try_wait(self, wait_flags):  # CPython's one call of waitpid (Lib/subprocess.py)
        try:
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): as CPython's
            return self.pid, 0
        if pid == self.pid:
            self.rusage = usage
        return pid, status


def timed_run(
    args,
    *,
    capture_output: bool = False,
    timeout: float | None = None,
    check: bool = False,
    **kwargs,
) -> tuple[subprocess.CompletedProcess, float, float]:
    """``subprocess.run(args, ...)`` (`capture_output`, `timeout`, `check` as there), its
    wall time and the CPU seconds (user + system) of the process it ran (:class:`_Reaped`:
    exact when other threads run processes at the same time)."""
    if capture_output:
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    t0 = time.perf_counter()
    with _Reaped(args, **kwargs) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
    wall = time.perf_counter() - t0
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if check:
        done.check_returncode()
    usage = process.rusage
    return done, wall, (usage.ru_utime + usage.ru_stime) if usage else 0.0


@contextlib.contextmanager
def byte_compiled() -> Iterator[dict[str, str]]:
    """The environment in which to time Python processes as an installed wlansim starts:
    with its modules and the standard library's byte-compiled (as pip leaves a wheel's).
    This process's environment without PYTHONDONTWRITEBYTECODE (with it set and no cache
    beside the sources, every start compiles wlansim's modules again: about 48 M
    instructions of `validate ns2 --speed`'s process, a fifth of it) and with the cache in
    a temporary directory (PYTHONPYCACHEPREFIX), so nothing is written beside the sources.
    Run each timed command once untimed first: that run fills the cache."""
    with tempfile.TemporaryDirectory(prefix="wlansim-pycache-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        yield env


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`), or "?"."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"
