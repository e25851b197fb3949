"""The :class:`Campaign`: base scenario + parameter space + replications + store.

>>> from wlansim.campaign import Campaign, Space
>>> c = Campaign("scenarios/saturated-11b.toml",
...              Space.grid({"stations.sta.count": "1:50:1"}),
...              reps=5, store="out/sat", overrides={"duration": "10 s"})
>>> c.run(jobs=None)           # executes only the runs missing from out/sat
>>> c.summary("throughput_bps")  # mean, std, n, ci95_low, ci95_high, half_width, failed

Each (point, replication) is one run: the point's values (and the campaign's fixed
``overrides``) are applied to the base scenario, which is then resolved and validated
in the main process — every point before anything is stored: a point that does not
validate (an unknown key, a value out of range) stops the campaign with a
:class:`CampaignError` naming the key, the value and what is allowed. Each run's key (see
:mod:`wlansim.campaign.keys`) is looked up in the store and only missing runs are
executed (on a local process pool, in-process, or on a Dask cluster —
:mod:`wlansim.campaign.executors`). Each finished run is committed to the store at once
(:mod:`wlansim.campaign.store`), so an interrupted campaign resumes where it stopped. A
run that raises or crashes its worker process is stored as ``failed`` with the error
message and the command reproducing it; the campaign carries on.

A store never mixes scenarios. The campaign's *base* — the scenario as written plus the
fixed overrides, and wlansim's version — is recorded in the store (its resolved form, its
hash, and a copy ``DIR/base-<hash>.toml`` that every run's reproduce command runs, so the
command still reproduces the run after the original file changed). A campaign whose base
differs from the one stored is refused (``changed_base="refuse"``: what ``wlansim
sweep`` does unless given ``--new-base``) or recorded as a further base
(``changed_base="add"``, the default of this class): its runs get their own keys, and
`wlansim results` shows each base apart (a ``base`` column), never pooled.

A store never hands back the runs of another build of the core either. The core reports
its build (``meta.build``: a digest of its sources, ``wlansim._core.BUILD``) in every run;
a stored ok run whose ``meta.build`` differs from the current core's is *stale*: it runs
again and its row is replaced (the report counts the stale runs rerun). The build is not
part of the run key (a run of the ns-2 side, without ``meta.build``, keeps its key and is
reused).

The run, load and resolve functions are injectable (``run_fn``, ``load_fn``,
``resolve_fn``) so the machinery can be tested without the simulator; ``run_fn`` must be
a picklable top-level function ``(scenario_dict, seed) -> Results.to_dict()``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..errors import WlansimError
from . import keys as _keys
from .executors import (
    LocalExecutor,
    RunTimeout,
    WorkerCrash,
    execute_run,
    make_executor,
    map_unordered_batches,
    run_scenario,
)
from .progress import Progress
from .space import Space
from .store import Names, Store
from .tomlout import dumps as _toml_dumps

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


@dataclasses.dataclass
class RunSpec:
    """One planned run."""

    key: str
    point: int  # index of the point in the space
    params: dict[str, Any]  # varied and derived values of the point
    rep: int
    seed: int
    scenario: dict  # resolved scenario
    command: str  # reproduces this run


@dataclasses.dataclass
class RunReport:
    """What :meth:`Campaign.run` did."""

    total: int  # distinct runs in the campaign
    skipped: int  # already in the store
    executed: int  # executed now (ok + failed)
    ok: int
    failed: int  # stored as failed (the run raised, crashed or outlasted its time)
    lost: list[tuple[RunSpec, str]]  # not recorded: infrastructure failure
    wall_s: float
    executor: str
    stale: int = 0  # stored by another build of the core, executed again (among executed)

    def __str__(self) -> str:
        rerun = f", {self.stale} stale runs rerun" if self.stale else ""
        s = (
            f"{self.total} runs: {self.skipped} already stored{rerun}, {self.executed} "
            f"executed ({self.ok} ok, {self.failed} failed) in {self.wall_s:.1f} s on "
            f"{self.executor}"
        )
        if self.lost:
            s += f"; {len(self.lost)} not executed (worker failure: {self.lost[0][1]}), re-run"
        return s


class CampaignError(WlansimError):
    """A campaign cannot run as asked: a point does not validate, or the store holds the
    runs of another base scenario."""


class CampaignInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a campaign; the message says how many runs are stored."""


def _crashed(exc: BaseException) -> bool:
    """Did the run kill its worker process or outlast its time limit (rather than the
    infrastructure failing)?"""
    # Dask's KilledWorker: the task's workers died `allowed-failures` + 1 times
    return isinstance(exc, (WorkerCrash, RunTimeout)) or type(exc).__name__ == "KilledWorker"


def _crash_outcome(exc: BaseException) -> dict:
    if isinstance(exc, (WorkerCrash, RunTimeout)):
        error = str(exc)
    else:
        error = f"the run killed its Dask worker on every try ({type(exc).__name__}: {exc})"
    return {
        "ok": False,
        "error": f"{error}; reproduce it with the command stored beside it, or retry it "
        "with --retry-failed",
        "error_type": type(exc).__name__,
    }


def _default_version() -> str:
    try:
        import wlansim

        return str(getattr(wlansim, "__version__", "0+unknown"))
    except Exception:
        return "0+unknown"


def _default_build() -> str | None:
    """The current core's build (None when the extension does not report one)."""
    try:
        from wlansim import _core

        return getattr(_core, "BUILD", None)
    except ImportError:
        return None


def _default_load(scenario: Any) -> dict:
    from wlansim import scenario as _sc

    return _sc.load(scenario)


def _default_resolve(scenario: Any, overrides: Mapping[str, Any]) -> dict:
    from wlansim import scenario as _sc

    return _sc.resolve(scenario, overrides=dict(overrides))


class Campaign:
    """A parameter sweep with replications, stored in ``store`` (a directory).

    Parameters
    ----------
    base : path, TOML text or dict — the base scenario.
    space : :class:`Space`, ``{key: values}`` (Cartesian product) or a list of point dicts.
    reps : replications per point (seeds: :func:`wlansim.campaign.keys.replication_seed`).
    store : directory of the results store (created if missing).
    seed : base seed of the campaign (default: the scenario's ``seed``, else 1).
    overrides : fixed ``{key: value}`` (or ``["key=value", ...]``) applied to every point.
    changed_base : what :meth:`run` does when the store holds runs of another base:
        ``"add"`` records this one as a further base (kept apart), ``"refuse"`` raises a
        :class:`CampaignError` that names the differences.
    build : the current core's build (default ``wlansim._core.BUILD``): a stored ok run
        whose ``meta.build`` differs is run again and replaced; None reuses every run.
    """

    def __init__(
        self,
        base: Any,
        space: Any = None,
        *,
        reps: int = 1,
        store: str | os.PathLike,
        seed: int | None = None,
        overrides: Mapping[str, Any] | Sequence[str] | None = None,
        run_fn: Callable[[dict, int], dict] | None = None,
        load_fn: Callable[[Any], dict] | None = None,
        resolve_fn: Callable[[Any, Mapping[str, Any]], dict] | None = None,
        version: str | None = None,
        changed_base: str = "add",
        build: str | None = None,
    ):
        if changed_base not in CHANGED_BASE:
            raise ValueError(f"changed_base must be one of {CHANGED_BASE}, got {changed_base!r}")
        self.changed_base = changed_base
        if int(reps) < 1:
            raise ValueError(f"reps must be >= 1, got {reps}")
        self.space = Space.from_any(space)
        self.reps = int(reps)
        self.store_dir = Path(store)
        self.run_fn = run_fn or run_scenario
        self._load = load_fn or _default_load
        self._resolve = resolve_fn or _default_resolve
        self.version = version or _default_version()
        self.build = build or _default_build()
        self.overrides = _parse_overrides(overrides)
        self.base = self._load(base)
        self.seed = int(seed if seed is not None else self.base.get("seed", 1))
        self._plan: list[RunSpec] | None = None
        self.base_hash = _keys.base_hash(self.base, self.overrides, self.version)
        #: the copy of the base that the reproduce commands run
        self.scenario_file = str(self.store_dir.resolve() / f"base-{self.base_hash[:12]}.toml")

    # ------------------------------------------------------------------ planning
    def seeds(self) -> list[int]:
        """The seed of each replication (the same for every point)."""
        return [_keys.replication_seed(self.seed, r) for r in range(self.reps)]

    def plan(self) -> list[RunSpec]:
        """Every (point, replication) run, resolved and keyed (cached)."""
        if self._plan is not None:
            return self._plan
        seeds = self.seeds()
        plan: list[RunSpec] = []
        invalid: list[str] = []
        for i, point in enumerate(self.space.points()):
            ov = {**self.overrides, **point}
            try:
                resolved = self._resolve(self.base, ov)
            except Exception as exc:
                error = str(exc) or type(exc).__name__
                if not isinstance(exc, ValueError):
                    error = f"{type(exc).__name__}: {error}"
                where = ", ".join(f"{k}={v}" for k, v in point.items()) or "the base scenario"
                invalid.append(f"{where}: {error}")
                continue
            for r, seed in enumerate(seeds):
                key = _keys.run_key(resolved, seed, self.base_hash)
                cmd = _keys.reproduce_command(self.scenario_file, ov, seed)
                plan.append(RunSpec(key, i, dict(point), r, seed, resolved, cmd))
        if invalid:
            more = f" (and {len(invalid) - 1} more point(s))" if len(invalid) > 1 else ""
            raise CampaignError(
                f"{len(invalid)} of {len(self.space)} point(s) do not validate, nothing was "
                f"run or stored; the first: {invalid[0]}{more}"
            )
        self._plan = plan
        return plan

    def check_store(self, store: Store | None = None) -> int | None:
        """The id of this campaign's base in the store (None when it is not recorded yet),
        or a :class:`CampaignError` when the store holds another base and
        ``changed_base="refuse"``."""
        if store is None:
            if not (self.store_dir / "campaign.sqlite").exists():
                return None
            with Store(self.store_dir, readonly=True) as st:
                return self.check_store(st)
        bases = store.bases()
        ours = [b["id"] for b in bases if b["hash"] == self.base_hash]
        if ours:
            return ours[0]
        if self.changed_base == "refuse":
            if bases:
                last = bases[-1]
                raise CampaignError(
                    f"{self.store_dir} holds the runs of another base scenario (base "
                    f"{last['id']}, {last['runs']} runs, wlansim {last['version']}, "
                    f"{last['created_at']}): {_describe_change(last, self)}. Runs of two "
                    "scenarios are never pooled: sweep into another --out directory, or pass "
                    f"--new-base to store these runs as base {last['id'] + 1} (`wlansim "
                    "results` then shows each base apart)"
                )
            if store.unattributed():
                raise CampaignError(
                    f"{self.store_dir} holds {store.unattributed()} runs written by a wlansim "
                    "that did not record their base scenario, so they cannot be told apart "
                    "from this sweep's: sweep into another --out directory, or pass --new-base "
                    "to store these runs as a base of their own"
                )
        return None

    def stale(self, store: Store | None = None) -> set[str]:
        """Keys of the stored runs made by another build of the core (see
        :meth:`Store.stale`; none when the build is unknown)."""
        if store is None:
            if self.build is None or not (self.store_dir / "campaign.sqlite").exists():
                return set()
            with Store(self.store_dir, readonly=True) as st:
                return self.stale(st)
        return set() if self.build is None else store.stale(self.build)

    def missing(self, retry_failed: bool = False, store: Store | None = None) -> list[RunSpec]:
        """Distinct runs not yet in the store, stored by another build of the core
        (:meth:`stale`), and failed ones if ``retry_failed``."""
        if store is None and (self.store_dir / "campaign.sqlite").exists():
            with Store(self.store_dir, readonly=True) as st:
                return self.missing(retry_failed, st)
        stored = {} if store is None else store.statuses()
        stale = set() if store is None else self.stale(store)
        out, seen = [], set()
        for spec in self.plan():
            if spec.key in seen:
                continue
            seen.add(spec.key)
            status = stored.get(spec.key)
            if status is None or (retry_failed and status == "failed") or spec.key in stale:
                out.append(spec)
        return out

    # ------------------------------------------------------------------ running
    def run(
        self,
        jobs: int | None = None,
        dask: Any = None,
        progress: bool = True,
        retry_failed: bool = False,
        label: str = "runs",
        in_process: bool = False,
        run_timeout: float | None = None,
    ) -> RunReport:
        """Execute the missing runs. ``jobs``: local worker processes (None: all cores;
        1: one worker process). ``in_process``: run in this process instead (to debug or
        profile; a run that crashes its process then ends the campaign too). ``dask``: a
        scheduler address, ``"local"`` or a ``distributed.Client`` (then ``jobs`` only sizes
        a ``"local"`` cluster).
        ``retry_failed``: execute runs stored as failed again. ``label``: what the progress
        bar counts (e.g. ``"fig3 runs"``). ``run_timeout``: seconds of wall-clock time a run
        may take; one that takes longer is stopped and stored as failed (with its
        reproduce command), the others go on.

        A run that crashes its worker process is stored as failed (with its reproduce
        command) and the others go on. A Dask cluster left without any worker for
        :data:`~wlansim.campaign.executors.NO_WORKER_S` ends the run: the runs not finished
        are in ``lost`` (not stored; the next call runs them). One campaign at a time
        writes to a store: a second one on the same directory raises :class:`StoreError`.
        Ctrl-C (KeyboardInterrupt) stops the workers and raises
        :class:`CampaignInterrupted` saying how many runs are stored; every finished run is
        kept."""
        if run_timeout is not None and not run_timeout > 0:
            raise ValueError(f"run_timeout must be a number of seconds > 0, got {run_timeout}")
        t0 = time.perf_counter()
        plan = self.plan()
        total = len({s.key for s in plan})
        with Store(self.store_dir) as store:
            base_id = self.check_store(store)
            if base_id is None:
                base_id = self._add_base(store)
            todo = self.missing(retry_failed=retry_failed, store=store)
            report = RunReport(total, total - len(todo), 0, 0, 0, [], 0.0, "nothing to do")
            report.stale = len({s.key for s in todo} & self.stale(store))
            if report.stale:
                print(
                    f"wlansim: {report.stale} stored runs were made by another build of the "
                    f"core (not {self.build}): running them again",
                    file=sys.stderr,
                )
            self._write_info(store)
            bar = Progress(
                total, done=total - len(todo), label=label, enabled=progress and bool(todo)
            )
            try:
                if todo:
                    if dask is None and jobs is None and not in_process:  # no idle workers
                        workers = max(1, min(os.cpu_count() or 1, len(todo)))
                        executor = LocalExecutor(workers, run_timeout=run_timeout)
                    else:
                        executor = make_executor(
                            jobs=jobs, dask=dask, in_process=in_process, run_timeout=run_timeout
                        )
                    report.executor = executor.name
                    kill = False
                    try:
                        tasks = (
                            (s, (self.run_fn, s.scenario, s.seed, run_timeout), s.key) for s in todo
                        )
                        for batch in map_unordered_batches(executor, execute_run, tasks):
                            done = []
                            for spec, out, exc in batch:
                                if exc is not None and _crashed(exc):
                                    done.append((spec, _crash_outcome(exc)))
                                elif exc is not None:
                                    report.lost.append((spec, f"{type(exc).__name__}: {exc}"))
                                else:
                                    done.append((spec, out))
                            # runs that finished together: one durable transaction
                            store.put_many(
                                [self._record(spec, out, base_id) for spec, out in done],
                                build=self.build,
                            )
                            for _spec, out in done:
                                report.executed += 1
                                if out.get("ok"):
                                    report.ok += 1
                                    bar.update()
                                else:
                                    report.failed += 1
                                    bar.update(failed=1)
                    except KeyboardInterrupt:
                        kill = True
                        raise
                    finally:
                        executor.close(kill=kill)
            except KeyboardInterrupt:
                bar.close()
                stored = len(store.statuses({s.key for s in plan}))
                raise CampaignInterrupted(
                    f"interrupted; {stored} of {total} runs stored in {self.store_dir}, "
                    "re-run the same command to resume"
                ) from None
            finally:
                bar.close()
        report.wall_s = time.perf_counter() - t0
        if report.lost:
            print(f"wlansim: warning: {report}", file=sys.stderr)
        return report

    def _record(self, spec: RunSpec, out: Mapping[str, Any], base: int) -> dict:
        ok = bool(out.get("ok"))
        return {
            "key": spec.key,
            "base": base,
            "params": spec.params,
            "rep": spec.rep,
            "seed": spec.seed,
            "status": "ok" if ok else "failed",
            "error": None if ok else out.get("error"),
            "command": spec.command,
            "result": out.get("result") if ok else None,
            "wall_s": out.get("wall_s"),
            "version": self.version,
        }

    def _add_base(self, store: Store) -> int:
        """Write the stored copy of the base (atomically) and record the base."""
        path = Path(self.scenario_file)
        text = _toml_dumps(self.base)
        if not path.exists() or path.read_text() != text:
            tmp = path.with_suffix(".toml.tmp")
            tmp.write_text(text)
            os.replace(tmp, path)
        try:
            resolved = self._resolve(self.base, self.overrides)
        except Exception:  # a base valid only with each point's values
            resolved = None
        return store.add_base(
            {
                "hash": self.base_hash,
                "version": self.version,
                "scenario": self.base,
                "overrides": self.overrides,
                "resolved": resolved,
                "file": self.scenario_file,
            }
        )

    def _write_info(self, store: Store) -> None:
        store.set_info(
            "campaign",
            {
                "scenario_file": self.scenario_file,
                "space": self.space.describe(),
                "params": self.space.keys,
                "reps": self.reps,
                "seed": self.seed,
                "overrides": self.overrides,
                "version": self.version,
            },
        )

    # ------------------------------------------------------------------ results
    def records(self) -> tuple[list[dict[str, Any]], list[str]]:
        """One record per stored run of this campaign, in plan order (what
        :meth:`results` holds, without pandas), and the names of the metrics."""
        plan = self.plan()
        params = self.space.keys
        if (self.store_dir / "campaign.sqlite").exists():
            with Store(self.store_dir, readonly=True) as st:
                stored, stored_params, metrics = st.records({s.key for s in plan})
        else:
            stored, stored_params, metrics = [], [], []
        by_key = {r["key"]: r for r in stored}
        skip = {"key", "rep", "seed", *(c for c in stored_params if c not in metrics)}
        out = []
        for spec in plan:
            found = by_key.get(spec.key)
            if found is None:
                continue
            row = {"key": spec.key, **{k: spec.params.get(k) for k in params}}
            row.update(rep=spec.rep, seed=spec.seed)
            row.update((c, v) for c, v in found.items() if c not in skip and c not in row)
            out.append(row)
        return out, metrics

    def results(self) -> pd.DataFrame:
        """One row per stored run of this campaign, in plan order: ``key``, every parameter,
        ``rep``, ``seed``, ``status``, every metric, ``wall_s``, ``error``, ``command``."""
        import pandas as pd

        records, metrics = self.records()
        params = self.space.keys
        columns = ["key", *params, "rep", "seed", "status", *metrics]
        columns += ["wall_s", "error", "command", "finished_at"]
        df = pd.DataFrame.from_records(records, columns=columns)
        for col in metrics:
            df[col] = pd.to_numeric(df[col], errors="coerce")
        df.attrs["params"] = Names(params)
        df.attrs["metrics"] = Names(metrics)
        return df

    def summary(
        self,
        metric: str | Sequence[str] | None = None,
        by: Sequence[str] | None = None,
        confidence: float = 0.95,
    ) -> pd.DataFrame:
        """Per point: ``mean, std, n, ci95_low, ci95_high, half_width, failed`` of
        ``metric`` (all metrics, in long form, if None) grouped by ``by`` (default: every
        parameter of the space)."""
        from . import stats as _stats

        return _stats.summarize(self.results(), metric, by=by, confidence=confidence)

    def series(self, key: str) -> dict[str, pd.DataFrame]:
        """Time series recorded by run ``key`` (see ``results()["key"]``)."""
        with Store(self.store_dir, readonly=True) as st:
            return st.series(key)

    def __repr__(self) -> str:
        return (
            f"Campaign({len(self.space)} points x {self.reps} reps, keys={self.space.keys}, "
            f"store={str(self.store_dir)!r})"
        )


#: what :meth:`Campaign.run` does with a store that holds another base
CHANGED_BASE = ("add", "refuse")


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flatten(v, f"{prefix}{k}."))
        return out
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        out = {}
        for i, v in enumerate(value):
            out.update(_flatten(v, f"{prefix}{v.get('name', i)}."))
        return out
    return {prefix.rstrip("."): value}


def _describe_change(stored: Mapping[str, Any], campaign: Campaign) -> str:
    """What differs between a stored base and a campaign's: version, keys, overrides."""
    changes = []
    if stored["version"] != campaign.version:
        changes.append(f"wlansim {stored['version']} -> {campaign.version}")
    for what, old, new in (
        ("", stored["scenario"], campaign.base),
        ("--set ", stored["overrides"], campaign.overrides),
    ):
        a, b = _flatten(old or {}), _flatten(new or {})
        for k in sorted(set(a) | set(b)):
            if a.get(k, "(unset)") != b.get(k, "(unset)"):
                changes.append(f"{what}{k}: {a.get(k, '(unset)')!r} -> {b.get(k, '(unset)')!r}")
    if not changes:
        # the same text, overrides and version: only an input file's bytes are left
        return "the contents of an input file differ"
    shown = "; ".join(changes[:5])
    return shown + (f"; and {len(changes) - 5} more" if len(changes) > 5 else "")


def _parse_overrides(overrides: Any) -> dict[str, Any]:
    from .space import parse_assignment, parse_scalar

    if overrides is None:
        return {}
    if isinstance(overrides, Mapping):
        return dict(overrides)
    out = {}
    for item in overrides:
        k, v = parse_assignment(item)
        out[k] = parse_scalar(v)
    return out
