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


def dask_campaign(store: str, counts: list[int], reps: int, workers: int, config: dict,
                  no_worker_s: float | None = None) -> None:  # fmt: skip
    """The test's Dask campaign, in a process of its own (the test bounds its wall time
    and kills it with its workers): :func:`kill_worker` over `counts` stations × `reps`
    on a LocalCluster of `workers` one-thread workers under the dask `config`
    (`no_worker_s`: the executor's NO_WORKER_S); prints the report as JSON."""
    import json

    import dask
    import distributed
    from conftest import SATURATED

    from wlansim.campaign import Campaign, executors

    if no_worker_s is not None:
        executors.NO_WORKER_S = no_worker_s
    c = Campaign(
        SATURATED,
        {"stations.sta.count": counts},
        reps=reps,
        store=store,
        overrides={"duration": "1 s", "warmup": "0.1 s"},
        run_fn=kill_worker,
    )
    with (
        dask.config.set(config),
        distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, dashboard_address=None, silence_logs=50
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        report = c.run(dask=client, progress=False)
    lost = [error for _spec, error in report.lost]
    print(json.dumps({"ok": report.ok, "failed": report.failed, "lost": lost}), flush=True)
