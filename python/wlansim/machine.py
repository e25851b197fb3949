"""What the timings of `wlansim bench --startup`, `wlansim validate ns2 --speed` and
`wlansim reproduce all` say about the machine: CPU seconds of processes and the load
average; and how a timed Python process starts (byte-compiled, as installed)."""

from __future__ import annotations

import contextlib
import io
import os
import resource
import selectors
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


def timed_run(
    args,
    *,
    capture_output: bool = False,
    timeout: float | None = None,
    check: bool = False,
    **kwargs,
) -> tuple[subprocess.CompletedProcess, float, float]:
    """``subprocess.run(args, ...)`` (`capture_output`, `timeout`, `check` as there), its
    wall time and the CPU seconds (user + system) of the process it ran, with its own
    children's: that process alone, reaped here (:func:`_reap`, ``os.wait4``). The
    difference of two RUSAGE_CHILDREN readings would count every child reaped in between,
    so runs made side by side (``--jobs 2``) each counted the other's CPU when it ended
    within them. A timeout, Ctrl-C or any other exception kills the process and reaps it
    before it goes on."""
    if capture_output:
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    t0 = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    with subprocess.Popen(args, **kwargs) as process:
        try:
            out, err = _read_to_end(process, deadline)
            usage = _reap(process, deadline)
        except BaseException as exc:
            process.kill()
            process.wait()
            if isinstance(exc, subprocess.TimeoutExpired):
                raise subprocess.TimeoutExpired(process.args, timeout) from None
            raise
    wall = time.perf_counter() - t0
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if check:
        done.check_returncode()
    return done, wall, (usage.ru_utime + usage.ru_stime) if usage else 0.0


def _read_to_end(process: subprocess.Popen, deadline: float | None) -> tuple:
    """What `process` wrote to its pipes (stdout, stderr; None where it has none), read
    until each closes, as ``Popen.communicate`` reads them (in text mode decoded, line
    ends translated), but without waiting for the process, which would reap it
    (:func:`_reap` does). ``TimeoutExpired`` at `deadline` (``time.monotonic()``)."""
    if process.stdin:
        process.stdin.close()
    pipes = [p for p in (process.stdout, process.stderr) if p is not None]
    chunks: dict[int, list[bytes]] = {p.fileno(): [] for p in pipes}
    with selectors.DefaultSelector() as selector:
        for p in pipes:
            selector.register(p.fileno(), selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(process.args, 0)
            for key, _ in selector.select(left):
                data = os.read(key.fd, 1 << 15)
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)

    def read(pipe):
        if pipe is None:
            return None
        data = b"".join(chunks[pipe.fileno()])
        if isinstance(pipe, io.TextIOWrapper):
            text = data.decode(pipe.encoding, pipe.errors)
            return text.replace("\r\n", "\n").replace("\r", "\n")
        return data

    return read(process.stdout), read(process.stderr)


def _reap(process: subprocess.Popen, deadline: float | None):
    """Wait for `process` to end and reap it (``os.wait4``, which gives its resource usage:
    its own and its waited-for children's), setting its ``returncode``, so that the
    ``Popen`` does not wait for it again. ``TimeoutExpired`` at `deadline`
    (``time.monotonic()``). None when it was reaped elsewhere (SIGCHLD ignored; then
    ``returncode`` 0, as CPython's ``Popen`` has it)."""
    delay = 0.0005
    while True:
        try:
            pid, status, usage = os.wait4(process.pid, 0 if deadline is None else os.WNOHANG)
        except ChildProcessError:
            process.returncode = 0
            return None
        if pid == process.pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return usage
        left = deadline - time.monotonic()
        if left <= 0:
            raise subprocess.TimeoutExpired(process.args, 0)
        delay = min(2 * delay, left, 0.05)
        time.sleep(delay)


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
