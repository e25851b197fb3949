"""Campaigns: parameter sweeps with replications, confidence intervals, a resumable store,
and a local process pool or a Dask cluster to run them.

Modules, one job each:

* :mod:`~wlansim.campaign.space` — parameter spaces (lists, ranges, products, lockstep,
  derived values with a safe expression evaluator);
* :mod:`~wlansim.campaign.keys` — replication seeds (common random numbers), run keys,
  reproduction commands;
* :mod:`~wlansim.campaign.store` — the SQLite results store (durable, duplicate-free,
  readable by pandas without wlansim);
* :mod:`~wlansim.campaign.executors` — in-process, local pool and Dask executors;
* :mod:`~wlansim.campaign.stats` — Student-t confidence intervals and summary tables;
* :mod:`~wlansim.campaign.progress` — the progress bar;
* :mod:`~wlansim.campaign.campaign` — the :class:`Campaign` tying them together.

Importing the package loads no numpy, pandas or scipy; tables and statistics import them
when they are built.
"""

from .campaign import Campaign, CampaignError, CampaignInterrupted, RunReport, RunSpec
from .executors import ExecutorError, RunTimeout, WorkerCrash, execute_run, run_scenario
from .keys import replication_seed, reproduce_command, run_key
from .space import Space, SpaceError, frange, safe_eval, values
from .store import Store, StoreError, load_runs, read_series


def __getattr__(name: str):
    # the statistics need numpy, pandas and scipy: imported on first use
    if name in ("summarize", "t_interval"):
        from . import stats

        return getattr(stats, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Campaign",
    "CampaignError",
    "CampaignInterrupted",
    "ExecutorError",
    "RunReport",
    "RunSpec",
    "RunTimeout",
    "Space",
    "SpaceError",
    "Store",
    "StoreError",
    "WorkerCrash",
    "execute_run",
    "frange",
    "load_runs",
    "read_series",
    "replication_seed",
    "reproduce_command",
    "run_key",
    "run_scenario",
    "safe_eval",
    "summarize",
    "t_interval",
    "values",
]
