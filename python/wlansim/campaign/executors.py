"""Where runs execute: in-process, a local process pool, or a Dask distributed cluster.

One code path: every executor turns tasks into futures that complete in any order, and
:func:`map_unordered` keeps a bounded window of them in flight, yielding each outcome as
soon as it completes. The main process then writes it to the store — workers never touch
the store, they only return plain picklable data.

A task is ``execute_run(run_fn, scenario, seed)``: a top-level function (so both pickle
and Dask ship it by reference) that calls ``run_fn(scenario_dict, seed)`` — by default
:func:`run_scenario`, i.e. ``wlansim.run(...).to_dict()`` — and returns
``{"ok": True, "result": ..., "wall_s": ...}`` or, if the run raised,
``{"ok": False, "error": "...", "error_type": "...", "wall_s": ...}``. A run's own error
is therefore data; an exception *from the future* means the infrastructure failed (a
worker process died, the cluster went away) and the run is left unrecorded so that the
next invocation retries it.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import time
from collections.abc import Iterable, Iterator
from typing import Any, Callable

from ..errors import WlansimError


class ExecutorError(WlansimError):
    """An executor cannot be created (e.g. dask is not installed, cluster unreachable)."""


# ----------------------------------------------------------------------------- the task


def run_scenario(scenario: dict, seed: int) -> dict:
    """Default run function, executed in workers: one simulation → ``Results.to_dict()``."""
    import wlansim

    return wlansim.run(scenario, seed=seed).to_dict()


def execute_run(run_fn: Callable[[dict, int], dict], scenario: dict, seed: int) -> dict:
    """Run one simulation in a worker; never raises for an error of the run itself."""
    t0 = time.perf_counter()
    try:
        result = run_fn(scenario, seed)
    except Exception as exc:  # the run failed: that is a result, not a crash
        msg = str(exc) or type(exc).__name__
        return {
            "ok": False,
            "error": msg,
            "error_type": type(exc).__name__,
            "wall_s": time.perf_counter() - t0,
        }
    return {"ok": True, "result": result, "wall_s": time.perf_counter() - t0}


# ----------------------------------------------------------------------------- executors


class _Lazy:
    """A future that runs its call when first waited on (in-process executor)."""

    def __init__(self, fn: Callable, args: tuple):
        self.fn, self.args = fn, args
        self._done = False
        self._value: Any = None
        self._exc: BaseException | None = None

    def run(self) -> None:
        if not self._done:
            try:
                self._value = self.fn(*self.args)
            except Exception as exc:
                self._exc = exc
            self._done = True

    def result(self) -> Any:
        self.run()
        if self._exc is not None:
            raise self._exc
        return self._value


class InlineExecutor:
    """Runs tasks one at a time in this process (``--jobs 1``): simplest to debug/profile."""

    workers = 1
    name = "in-process"

    def submit(self, fn: Callable, *args: Any, key: str | None = None) -> _Lazy:
        return _Lazy(fn, args)

    def wait(self, futures: set) -> set:
        fut = next(iter(futures))
        fut.run()
        return {fut}

    def close(self) -> None:
        pass


class LocalExecutor:
    """A local ``ProcessPoolExecutor`` with ``jobs`` worker processes (default: all cores)."""

    def __init__(self, jobs: int | None = None):
        self.workers = jobs or os.cpu_count() or 1
        self.name = f"local pool, {self.workers} processes"
        self._pool = cf.ProcessPoolExecutor(max_workers=self.workers)

    def submit(self, fn: Callable, *args: Any, key: str | None = None) -> cf.Future:
        return self._pool.submit(fn, *args)

    def wait(self, futures: set) -> set:
        done, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
        return done

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """A Dask distributed cluster: ``address`` is ``"tcp://host:8786"``, ``"local"`` (start a
    ``LocalCluster`` on this machine), or an existing ``distributed.Client``. The workers
    need wlansim installed (same version). dask is an optional extra:
    ``pip install wlansim[cluster]``."""

    def __init__(self, address: Any, jobs: int | None = None):
        try:
            import distributed
        except ImportError as exc:
            raise ExecutorError(
                "the Dask executor needs dask.distributed: pip install 'wlansim[cluster]' "
                f"(import failed: {exc})"
            ) from None
        self._distributed = distributed
        self._own = False
        self._cluster = None
        if isinstance(address, distributed.Client):
            self.client = address
        else:
            try:
                if address == "local":
                    self._cluster = distributed.LocalCluster(
                        n_workers=jobs or os.cpu_count() or 1,
                        threads_per_worker=1,
                        dashboard_address=None,
                    )
                    self.client = distributed.Client(self._cluster)
                else:
                    self.client = distributed.Client(address, timeout="20s")
            except (OSError, TimeoutError) as exc:
                raise ExecutorError(
                    f"cannot connect to Dask scheduler {address!r}: {exc}"
                ) from None
            self._own = True
        info = self.client.scheduler_info()
        workers = info.get("workers", {})
        self.workers = max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))
        self.name = f"dask {self.client.scheduler.address}, {self.workers} worker threads"

    def submit(self, fn: Callable, *args: Any, key: str | None = None) -> Any:
        kw = {"pure": False}
        if key is not None:
            kw["key"] = f"wlansim-run-{key}-{time.monotonic_ns()}"
        return self.client.submit(fn, *args, **kw)

    def wait(self, futures: set) -> set:
        done, _ = self._distributed.wait(list(futures), return_when="FIRST_COMPLETED")
        return set(done)

    def close(self) -> None:
        if self._own:
            self.client.close()
            if self._cluster is not None:
                self._cluster.close()


def make_executor(jobs: int | None = None, dask: Any = None):
    """``dask`` given → :class:`DaskExecutor`; ``jobs == 1`` → :class:`InlineExecutor`;
    otherwise a :class:`LocalExecutor` with ``jobs`` processes (None: all cores)."""
    if jobs is not None and jobs < 1:
        raise ExecutorError(f"jobs must be >= 1, got {jobs}")
    if dask is not None:
        return DaskExecutor(dask, jobs=jobs)
    if jobs == 1:
        return InlineExecutor()
    return LocalExecutor(jobs)


def map_unordered_batches(
    executor: Any,
    fn: Callable,
    tasks: Iterable[tuple[Any, tuple, str | None]],
    window: int | None = None,
) -> Iterator[list[tuple[Any, Any, BaseException | None]]]:
    """Submit ``fn(*args)`` for each ``(tag, args, key)`` keeping at most ``window`` in
    flight; each time some complete, yield them as a list of ``(tag, value, None)`` or
    ``(tag, None, exception)`` (so the caller can commit runs that finished together in
    one transaction). Closing the generator cancels what has not started (best effort)."""
    window = window or max(2, 4 * getattr(executor, "workers", 1))
    it = iter(tasks)
    pending: dict[Any, Any] = {}

    def fill() -> None:
        while len(pending) < window:
            try:
                tag, args, key = next(it)
            except StopIteration:
                return
            pending[executor.submit(fn, *args, key=key)] = tag

    try:
        fill()
        while pending:
            batch = []
            for fut in executor.wait(set(pending)):
                tag = pending.pop(fut)
                try:
                    value = fut.result()
                except Exception as exc:  # infrastructure failure (worker died, ...)
                    batch.append((tag, None, exc))
                else:
                    batch.append((tag, value, None))
            fill()  # keep the workers busy while the caller writes the batch
            yield batch
    finally:
        for fut in pending:
            cancel = getattr(fut, "cancel", None)
            if cancel is not None:
                cancel()


def map_unordered(
    executor: Any,
    fn: Callable,
    tasks: Iterable[tuple[Any, tuple, str | None]],
    window: int | None = None,
) -> Iterator[tuple[Any, Any, BaseException | None]]:
    """Like :func:`map_unordered_batches`, one ``(tag, value, exception)`` at a time."""
    for batch in map_unordered_batches(executor, fn, tasks, window):
        yield from batch
