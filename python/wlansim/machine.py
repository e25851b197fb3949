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


def timed_run(args, **kwargs) -> tuple[subprocess.CompletedProcess, float, float]:
    """``subprocess.run(args, **kwargs)``, its wall time and the CPU seconds (user +
    system) of the process it ran."""
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    done = subprocess.run(args, **kwargs)
    wall = time.perf_counter() - t0
    return done, wall, cpu_seconds() - cpu0


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
