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
is therefore data. A run that kills its process (the simulator aborts or segfaults) fails
its future with :class:`WorkerCrash` (local pool: the worker is replaced) or Dask's
``KilledWorker`` (after Dask's retries on other workers); the campaign records it as a
failed run. Any other exception *from the future* means the infrastructure failed (the
cluster went away) and the run is left unrecorded so that the next invocation retries it.
No wait is unbounded: a Dask cluster left without any worker for :data:`NO_WORKER_S`
(its nannies gave up restarting the workers the runs killed) raises
:class:`ExecutorLost`, and every run not finished is reported as not executed.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import contextvars
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any, Callable

from ..errors import WlansimError


class ExecutorError(WlansimError):
    """An executor cannot be created (e.g. dask is not installed, cluster unreachable)."""


class ExecutorLost(ExecutorError):
    """The executor can run nothing any more (no Dask worker left): the runs not finished
    are not recorded, so that the next invocation runs them."""


# ----------------------------------------------------------------------------- the task


#: The wall-clock time by which the run in progress in this thread must end (None: no
#: limit), set by :func:`execute_run` for :func:`run_scenario`.
_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar("deadline", default=None)


#: Seconds a local worker may overrun the time limit per run before it is killed: the run
#: stops itself at the limit (the simulator checks every few milliseconds of work), the
#: kill is for one that does not.
KILL_GRACE_S = 5.0


class RunTimeout(Exception):
    """A run went past the campaign's time limit per run (``--run-timeout``)."""

    def __init__(self, limit_s: float):
        super().__init__(
            f"the run took longer than the time limit of {limit_s:g} s per run "
            "(--run-timeout) and was stopped"
        )


def _check_deadline(limit_s: float) -> Callable[[float], None]:
    end = time.monotonic() + limit_s

    def check(_fraction: float) -> None:
        if time.monotonic() > end:
            raise RunTimeout(limit_s)

    return check


def run_scenario(scenario: dict, seed: int) -> dict:
    """Default run function, executed in workers: one simulation → ``Results.to_dict()``;
    a run past the campaign's time limit (see :func:`execute_run`) stops with
    :class:`RunTimeout` (the simulator checks it every few milliseconds of work)."""
    import wlansim

    limit = _deadline.get()
    progress = None if limit is None else _check_deadline(limit)
    return wlansim.run(scenario, seed=seed, progress=progress).to_dict()


def execute_run(
    run_fn: Callable[[dict, int], dict], scenario: dict, seed: int, timeout_s: float | None = None
) -> dict:
    """Run one simulation in a worker; never raises for an error of the run itself (a run
    past `timeout_s` seconds included)."""
    t0 = time.perf_counter()
    token = _deadline.set(timeout_s)
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
    finally:
        _deadline.reset(token)
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

    def result(self, fut: _Lazy) -> Any:
        return fut.result()

    def close(self, kill: bool = False) -> None:
        pass


class WorkerCrash(Exception):
    """The worker process running a task died (a signal such as SIGABRT or SIGSEGV, or an
    exit): the run crashed its process. The campaign records the run as failed."""


def _describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}"
    return f"exited with status {code}"


def _die_with_parent(parent: int) -> None:
    """Make this worker end when the campaign process ends, even by SIGKILL: on Linux the
    kernel sends SIGKILL on the parent's death (prctl PR_SET_PDEATHSIG); elsewhere a
    daemon thread polls the parent's pid."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # pragma: no cover
            pass
    else:  # pragma: no cover

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _worker_main(conn: Any, parent: int) -> None:
    """A pool worker: run ``fn(*args)`` for each message, send back ``("ok", value)`` or
    ``("exc", exception)``; stop on None or when the pipe closes."""
    _die_with_parent(parent)
    # Ctrl-C in a terminal reaches the whole process group: the campaign process decides
    # (it stops the workers), a worker does not die of it half-way through a run.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, args = message
        try:
            reply = ("ok", fn(*args))
        except Exception as exc:
            reply = ("exc", exc)
        try:
            conn.send(reply)
        except Exception as exc:  # an unpicklable value or exception
            conn.send(("exc", RuntimeError(f"{type(exc).__name__}: {exc}")))


class _Worker:
    def __init__(self, ctx: Any):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main, args=(child, os.getpid()), name="wlansim-worker", daemon=True
        )
        self.process.start()
        child.close()
        # the task it runs (future, fn, args) and since when (time.monotonic()); a worker
        # gets a task only when it is free, so that no task waits behind a long one
        self.task: tuple | None = None
        self.since = 0.0


class LocalExecutor:
    """``jobs`` local worker processes (default: all cores), one task at a time each: a
    task is sent to a worker only when the worker is free (a short run never waits behind
    a long one while another worker is idle).

    A worker that dies while running a task (e.g. the simulator aborts) fails that task's
    future with :class:`WorkerCrash` and is replaced, the other tasks go on. With a
    ``run_timeout``, a worker still on one task `KILL_GRACE_S` after it is killed and the
    task fails with :class:`RunTimeout` (the time limit per run, enforced even on a run
    that does not stop by itself). Workers end with the campaign process, even when it is
    killed (see :func:`_die_with_parent`).
    """

    def __init__(self, jobs: int | None = None, run_timeout: float | None = None):
        self.workers = jobs or os.cpu_count() or 1
        self.name = f"local pool, {self.workers} process{'es' if self.workers > 1 else ''}"
        self.run_timeout = run_timeout
        self.kill_after_s = None if run_timeout is None else run_timeout + KILL_GRACE_S
        self._ctx = multiprocessing.get_context()
        self._pool: list[_Worker] = []
        self._queue: collections.deque = collections.deque()

    def submit(self, fn: Callable, *args: Any, key: str | None = None) -> cf.Future:
        fut: cf.Future = cf.Future()
        self._queue.append((fut, fn, args))
        self._dispatch()
        return fut

    def _free(self) -> _Worker | None:
        for w in self._pool:
            if w.task is None:
                return w
        if len(self._pool) < self.workers:
            w = _Worker(self._ctx)
            self._pool.append(w)
            return w
        return None

    def _dispatch(self) -> None:
        while self._queue:
            worker = self._free()
            if worker is None:
                return
            task = self._queue.popleft()
            fut, fn, args = task
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                worker.conn.send((fn, args))
            except (OSError, EOFError):  # the worker is gone: its sentinel tells
                worker.task, worker.since = task, time.monotonic()
            except Exception as exc:  # the task cannot be pickled
                fut.set_exception(exc)
            else:
                worker.task, worker.since = task, time.monotonic()

    def _collect(self, worker: _Worker) -> None:
        """The busy `worker` has a reply, or has died."""
        try:
            if worker.conn.poll():
                status, value = worker.conn.recv()
                fut = worker.task[0]
                worker.task = None
                if status == "ok":
                    fut.set_result(value)
                else:
                    fut.set_exception(value)
                return
            if worker.process.is_alive():
                return
        except (EOFError, OSError):
            pass
        worker.process.join(5)
        self._retire(
            worker,
            WorkerCrash(
                f"the run crashed its worker process ({_describe_exit(worker.process.exitcode)})"
            ),
        )

    def _retire(self, worker: _Worker, exc: BaseException) -> None:
        """Take `worker` out of the pool and fail its task with `exc`."""
        self._pool.remove(worker)
        worker.conn.close()
        fut, worker.task = worker.task[0], None
        fut.set_exception(exc)

    def _overdue(self, now: float) -> None:
        """Kill the workers on one task for longer than `kill_after_s`."""
        for w in [w for w in self._pool if w.task is not None]:
            if now - w.since > self.kill_after_s:
                w.process.kill()
                w.process.join(5)
                self._retire(w, RunTimeout(self.run_timeout))

    def wait(self, futures: set) -> set:
        while True:
            done = {f for f in futures if f.done()}
            if done:
                return done
            self._dispatch()
            busy = [w for w in self._pool if w.task is not None]
            if not busy:  # pragma: no cover - a future of another executor
                raise ExecutorError("waiting for tasks this pool does not run")
            handles = {w.conn: w for w in busy}
            handles.update({w.process.sentinel: w for w in busy})
            timeout = None
            if self.kill_after_s is not None:
                first = min(w.since for w in busy) + self.kill_after_s
                timeout = max(0.0, first - time.monotonic()) + 0.01
            ready = multiprocessing.connection.wait(list(handles), timeout)
            for worker in {handles[h] for h in ready}:
                if worker.task is not None:
                    self._collect(worker)
            if self.kill_after_s is not None:
                self._overdue(time.monotonic())
            self._dispatch()

    def result(self, fut: cf.Future) -> Any:
        """The value of a future :meth:`wait` returned (it is done)."""
        return fut.result()

    def close(self, kill: bool = False) -> None:
        """Stop the workers: idle ones are asked to exit; busy ones (their tasks cancelled)
        and, with ``kill``, all are terminated."""
        for fut, _fn, _args in self._queue:
            fut.cancel()
        self._queue.clear()
        for w in self._pool:
            if w.task is None and not kill:
                try:
                    w.conn.send(None)
                except OSError:
                    pass
            else:
                w.process.kill()
        for w in self._pool:
            w.process.join(10)
            if w.process.is_alive():  # pragma: no cover
                w.process.kill()
                w.process.join()
            w.conn.close()
        self._pool.clear()


#: Seconds a Dask cluster may be without any worker while runs wait, before the campaign
#: gives them up (:class:`ExecutorLost`): a worker a run killed is restarted by its nanny
#: within seconds, even on a loaded machine; a nanny that gives up never restarts it, and
#: Dask would keep the runs queued for ever.
NO_WORKER_S = 60.0

#: Seconds between two looks at the cluster while waiting for runs.
POLL_S = 1.0


class DaskExecutor:
    """A Dask distributed cluster: ``address`` is ``"tcp://host:8786"``, ``"local"`` (start a
    ``LocalCluster`` on this machine), or an existing ``distributed.Client``. The workers
    need wlansim installed (same version). dask is an optional extra:
    ``pip install wlansim[cluster]``. A wait gives up when the cluster has had no worker
    for :data:`NO_WORKER_S` (:class:`ExecutorLost`)."""

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
        # what this executor set for its own cluster, undone by close()
        self._settings = contextlib.ExitStack()
        if isinstance(address, distributed.Client):
            self.client = address
        else:
            try:
                if address == "local":
                    import dask

                    # The cluster gives a killed worker (a run that crashes its process)
                    # as long to come back as the campaign waits for one: after Dask's
                    # default 15 s it closes the worker's nanny, restart under way, for
                    # good, and a worker can take longer than that to start on a loaded
                    # machine.
                    timeout = {"distributed.deploy.lost-worker-timeout": f"{NO_WORKER_S:g}s"}
                    self._settings.enter_context(dask.config.set(timeout))
                    self._cluster = distributed.LocalCluster(
                        n_workers=jobs or os.cpu_count() or 1,
                        threads_per_worker=1,
                        dashboard_address=None,
                    )
                    self.client = distributed.Client(self._cluster)
                else:
                    self.client = distributed.Client(address, timeout="20s")
            except Exception as exc:  # OSError, TimeoutError, "Nanny failed to start", ...
                if self._cluster is not None:
                    with contextlib.suppress(Exception):
                        self._cluster.close()
                self._settings.close()
                what = (
                    "cannot start a local Dask cluster"
                    if address == "local"
                    else f"cannot connect to Dask scheduler {address!r}"
                )
                raise ExecutorError(
                    f"{what}: {type(exc).__name__}: {exc}; nothing was run: retry, or run "
                    "on the local pool (--jobs N without --dask)"
                ) from None
            self._own = True
        self.workers = max(1, self._threads())
        self.name = f"dask {self.client.scheduler.address}, {self.workers} worker threads"

    def _threads(self) -> int:
        """The worker threads the scheduler has now (0 when it cannot be asked)."""
        try:
            return sum(self.client.nthreads().values())
        except Exception:  # the scheduler is unreachable: no worker either
            return 0

    def submit(self, fn: Callable, *args: Any, key: str | None = None) -> Any:
        kw = {"pure": False}
        if key is not None:
            kw["key"] = f"wlansim-run-{key}-{time.monotonic_ns()}"
        return self.client.submit(fn, *args, **kw)

    def wait(self, futures: set) -> set:
        """The futures of `futures` that are done (finished, failed or cancelled), as soon
        as there is one; :class:`ExecutorLost` when the cluster has had no worker for
        :data:`NO_WORKER_S` meanwhile."""
        alone_since = None
        while True:
            start = time.monotonic()
            try:
                self._distributed.wait(list(futures), timeout=POLL_S, return_when="FIRST_COMPLETED")
            except Exception:  # TimeoutError; a cancelled future (it is done: seen below), ...
                pass
            done = {f for f in futures if f.done()}
            if done:
                return done
            alone_since = self._alone(alone_since, start)

    def result(self, fut: Any) -> Any:
        """The value of a future :meth:`wait` returned. The worker that holds it may die
        before it is fetched: Dask then computes it again, and this waits for it, up to
        :data:`NO_WORKER_S` without any worker (:class:`ExecutorLost`)."""
        alone_since = None
        while True:
            start = time.monotonic()
            try:
                return fut.result(timeout=POLL_S)
            except TimeoutError:
                if fut.status == "error":  # the task's own exception
                    raise
            alone_since = self._alone(alone_since, start)

    def _alone(self, since: float | None, start: float) -> float | None:
        """After a look at the futures that began at `start` found nothing: since when
        the cluster has had no worker (None: it has one now); :class:`ExecutorLost` once
        that is longer than :data:`NO_WORKER_S`."""
        now = time.monotonic()
        if now - start < POLL_S:  # the look failed at once (the client is closing, ...)
            time.sleep(POLL_S - (now - start))
            now = time.monotonic()
        if self._threads() > 0:
            return None
        if since is None:
            return now
        if now - since > NO_WORKER_S:
            raise ExecutorLost(
                f"the Dask cluster {self.client.scheduler.address} has had no worker for "
                f"{NO_WORKER_S:g} s (its workers died and were not restarted)"
            )
        return since

    def close(self, kill: bool = False) -> None:
        if self._own:
            self.client.close()
            if self._cluster is not None:
                self._cluster.close()
        self._settings.close()


def make_executor(
    jobs: int | None = None,
    dask: Any = None,
    in_process: bool = False,
    run_timeout: float | None = None,
):
    """``dask`` given → :class:`DaskExecutor`; ``in_process`` → :class:`InlineExecutor`
    (runs in this process: a crashing run takes the caller down with it); otherwise a
    :class:`LocalExecutor` with ``jobs`` processes (None: all cores; 1: one worker
    process, so that a run that crashes its process is recorded and the campaign goes on)
    that kills a worker still on a run `KILL_GRACE_S` after ``run_timeout``.
    """
    if jobs is not None and jobs < 1:
        raise ExecutorError(f"jobs must be >= 1, got {jobs}")
    if dask is not None:
        return DaskExecutor(dask, jobs=jobs)
    if in_process:
        return InlineExecutor()
    return LocalExecutor(jobs, run_timeout=run_timeout)


def map_unordered_batches(
    executor: Any,
    fn: Callable,
    tasks: Iterable[tuple[Any, tuple, str | None]],
    window: int | None = None,
) -> Iterator[list[tuple[Any, Any, BaseException | None]]]:
    """Submit ``fn(*args)`` for each ``(tag, args, key)`` keeping at most ``window`` in
    flight; each time some complete, yield them as a list of ``(tag, value, None)`` or
    ``(tag, None, exception)`` (so the caller can commit runs that finished together in
    one transaction). Closing the generator cancels what has not started (best effort).
    When the executor is lost (:class:`ExecutorLost`), the last batch holds every task not
    finished, submitted or not, with that exception."""
    import asyncio  # here, not at the top: it costs `wlansim results` its quick start

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
            try:
                for fut in executor.wait(set(pending)):
                    try:
                        value = executor.result(fut)
                    except ExecutorLost:
                        raise
                    except (Exception, asyncio.CancelledError) as exc:  # the worker died, ...
                        batch.append((pending.pop(fut), None, exc))
                    else:
                        batch.append((pending.pop(fut), value, None))
            except ExecutorLost as exc:  # nothing more will run: every task left is lost
                yield (
                    batch
                    + [(tag, None, exc) for tag in pending.values()]
                    + [(tag, None, exc) for tag, _args, _key in it]
                )
                return
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
