"""The results store of a campaign: one SQLite database, ``DIR/campaign.sqlite``.

Why SQLite (and not one Parquet file per run)
---------------------------------------------
* **Durability per run at no cost in code**: each finished run is one transaction
  (``BEGIN IMMEDIATE … COMMIT``) in WAL mode with ``synchronous=FULL``, so the commit is
  fsync'd before :meth:`Store.put` returns. A process killed with SIGKILL (or a power
  cut) loses at most runs that had not been committed yet; a half-written run can never
  be seen — SQLite's journal makes the row, its metrics and its time series appear
  together or not at all. Per-run Parquet files need temp file + fsync + rename + fsync of
  the directory for the same guarantee, and leave thousands of small files.
* **No duplicates by construction**: the run key (hash of resolved scenario, seed and
  version, see :mod:`wlansim.campaign.keys`) is the PRIMARY KEY; a run stored twice is
  rejected by the database, not by our bookkeeping.
* **Readable without wlansim**: ``sqlite3`` is in Python's standard library and every
  language has a driver; ``pandas.read_sql("SELECT * FROM metrics", sqlite3.connect(p))``
  works directly. ``wlansim results DIR --parquet FILE`` exports a flat table for
  Parquet-based tools.
* Only the main process writes (workers return plain data), so SQLite's single-writer
  model is no limitation, and concurrent readers (a notebook watching a running
  campaign) are fine in WAL mode. On a clean close the database is checkpointed and
  switched back to a single self-contained file.

Schema (all JSON columns are UTF-8 JSON text)
---------------------------------------------
``runs``    key (PK), params (JSON: varied and derived values), rep, seed, status
            ('ok' | 'failed'), error, command (reproduces the run), metrics (JSON),
            meta (JSON; its ``build``: the core's, see :meth:`Store.stale`), flows / nodes
            (JSON records), wall_s, finished_at (UTC ISO
            8601), version, base (the id of its base scenario in ``bases``).
``bases``   id (PK, 1, 2, ...), hash, version, scenario (JSON: the base scenario as
            written, input files as absolute paths), overrides (JSON: the fixed
            ``--set`` values), resolved (JSON: both resolved, every default written out;
            null when the base alone does not validate), file (the stored copy that the
            runs' reproduce commands run), created_at. Runs of two bases are never pooled:
            a store with more than one base shows ``base`` as its first parameter.
``metrics`` key, name, value — the scalar metrics in long form (one row per run and
            metric), e.g. ``SELECT * FROM metrics WHERE name='throughput_bps'``.
``series``  key, name, data (JSON ``{"t_s": [...], column: [...]}``) — time series
            recorded on request by the scenario's ``[output] series``.
``info``    name (PK), value (JSON) — the campaign definition(s) that wrote here.

Every JSON column is strict JSON (:mod:`wlansim.strict_json`: an undefined number is
``null``), so SQLite's ``json_extract(metrics, '$.throughput_bps')`` reads every row.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import json
import math
import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import WlansimError
from ..strict_json import dumps as strict_dumps

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

DB_NAME = "campaign.sqlite"
SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,
    params TEXT NOT NULL,
    rep INTEGER,
    seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error TEXT,
    command TEXT,
    metrics TEXT,
    meta TEXT,
    flows TEXT,
    nodes TEXT,
    wall_s REAL,
    finished_at TEXT NOT NULL,
    version TEXT,
    base INTEGER
);
CREATE TABLE IF NOT EXISTS metrics (
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    value REAL,
    PRIMARY KEY (key, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS series (
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (key, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS info (
    name TEXT PRIMARY KEY,
    value TEXT
);
CREATE TABLE IF NOT EXISTS bases (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    version TEXT,
    scenario TEXT NOT NULL,
    overrides TEXT NOT NULL,
    resolved TEXT,
    file TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

#: what a campaign store holds (another SQLite database is refused)
STORE_TABLES = {"runs", "metrics", "series", "info"}
RUN_COLUMNS = {"key", "params", "rep", "seed", "status", "error", "command", "metrics"}

#: columns of :func:`load_runs` that are neither parameters nor metrics
BOOKKEEPING = ["key", "rep", "seed", "status", "wall_s", "error", "command", "finished_at"]

#: the parameter column that tells the runs of several base scenarios apart
BASE = "base"


#: the columns of a run and of a base as :meth:`Store.dump` gives them and
#: :meth:`Store.merge` takes them (a run's ``base`` goes as its base's hash)
_RUN_COLUMNS = ("key", "params", "rep", "seed", "status", "error", "command", "metrics",
                "meta", "flows", "nodes", "wall_s", "finished_at", "version")  # fmt: skip
_BASE_COLUMNS = ("hash", "version", "scenario", "overrides", "resolved", "file", "created_at")
_INSERT_RUN = (
    f"INSERT OR IGNORE INTO runs({', '.join(_RUN_COLUMNS)}, base) VALUES "
    f"({', '.join('?' * (len(_RUN_COLUMNS) + 1))})"
)


#: a stored run made by another build of the core (``?``: the current build): an ok run
#: whose ``meta.build`` is set and differs. A run without ``meta.build`` (ns-2's, or one
#: stored before the core reported its build) is never stale.
_STALE = "status = 'ok' AND json_extract(meta, '$.build') <> ?"


class StoreError(WlansimError):
    """The store directory or database cannot be used."""


def _json(obj: Any, sort_keys: bool = True) -> str | None:
    if obj is None:
        return None
    return strict_dumps(obj, sort_keys=sort_keys, default=_json_default)


def _json_default(obj: Any) -> Any:
    if hasattr(obj, "item"):
        return obj.item()
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return str(obj)


def _float(v: Any) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if not math.isnan(f) else None


def db_path(directory: str | os.PathLike) -> Path:
    return Path(directory) / DB_NAME


LOCK_NAME = "campaign.lock"


def _damaged(path: Path, exc: BaseException) -> StoreError:
    return StoreError(
        f"{path} is not a readable campaign store ({exc}): the file is damaged (truncated, "
        "overwritten or not an SQLite database). To recover, move it away (e.g. "
        f"`mv {path} {path}.damaged`) and re-run the sweep: the runs are executed again "
        "(or restore the file from a copy)"
    )


def _sqlite_error(path: Path, exc: sqlite3.Error, writing: bool) -> StoreError:
    """A clear StoreError for an SQLite failure on the store at `path`."""
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return StoreError(
            f"{path} is read-only ({text}): make the file and its directory writable, or "
            "write the campaign to another --out directory"
        )
    if "unable to open" in text:
        return StoreError(
            f"cannot open {path} ({text}): check that the directory exists and is "
            f"{'writable' if writing else 'readable'}, or choose another --out directory"
        )
    if "locked" in text or "busy" in text:
        return StoreError(f"{path} is busy ({text}): another process holds it; retry later")
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return _damaged(path, exc)
    if "malformed" in text or "not a database" in text:
        return _damaged(path, exc)
    return StoreError(f"{path}: {type(exc).__name__}: {text}")


def _guarded(method):
    """Turn SQLite errors of a Store method into a StoreError that says what to do."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise _sqlite_error(self.path, exc, not self.readonly) from None

    return wrapper


class Store:
    """A campaign store in ``directory`` (created if missing). Use as a context manager or
    call :meth:`close`. ``readonly=True`` never creates or writes anything.

    A writable store is locked (``DIR/campaign.lock``, an advisory lock the system releases
    when the process ends, even when killed): a second writer on the same directory gets a
    :class:`StoreError` instead of running the same runs again. An empty (zero-length)
    database file is an empty store, for readers and writers alike; a damaged one, a
    read-only or missing directory are :class:`StoreError` with what to do."""

    def __init__(self, directory: str | os.PathLike, *, readonly: bool = False):
        self.directory = Path(directory)
        self.path = db_path(self.directory)
        self.readonly = readonly
        self._conn = None
        self._lock = None
        if readonly:
            self._open_readonly()
        else:
            self._open_writable()

    def _open_readonly(self) -> None:
        if self.directory.exists() and not self.directory.is_dir():
            raise StoreError(f"{self.directory} is a file, not a campaign store directory")
        if not self.path.exists():
            raise StoreError(
                f"{self.directory}: no campaign store here (expected {DB_NAME}); "
                "run `wlansim sweep ... --out DIR` first"
            )
        try:
            if os.access(self.path, os.W_OK) and os.access(self.directory, os.W_OK):
                # a normal connection (we still never write): it can recover the WAL of a
                # campaign that was killed, which a mode=ro connection cannot
                self._conn = sqlite3.connect(self.path, timeout=60)
            else:
                self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=60)
            tables = self._tables()
            self._verify(tables, "give the directory of a campaign store")
        except sqlite3.Error as exc:
            self._close_quietly()
            raise _sqlite_error(self.path, exc, False) from None
        except StoreError:
            self._close_quietly()
            raise
        if not tables:  # an empty (e.g. zero-length) database: an empty store
            self._conn.close()
            self._conn = sqlite3.connect(":memory:")
            self._conn.executescript(_SCHEMA)

    def _open_writable(self) -> None:
        d = self.directory
        if d.exists() and not d.is_dir():
            raise StoreError(f"cannot use {d} as a store directory: it is a file")
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create store directory {d}: {exc.strerror or exc}; choose another "
                "--out directory"
            ) from None
        if not os.access(d, os.W_OK | os.X_OK) or (
            self.path.exists() and not os.access(self.path, os.W_OK)
        ):
            what = "directory" if not os.access(d, os.W_OK | os.X_OK) else "file"
            raise StoreError(
                f"the store {what} {d if what == 'directory' else self.path} is read-only: "
                "make it writable, or write the campaign to another --out directory"
            )
        self._take_lock()
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None, timeout=60)
            self._verify(self._tables(), "choose another --out directory")
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(_SCHEMA)
            if "base" not in self._columns("runs"):  # a store of schema 1: runs had no base
                self._conn.execute("ALTER TABLE runs ADD COLUMN base INTEGER")
            self._conn.execute(
                "INSERT OR REPLACE INTO info(name, value) VALUES ('schema_version', ?)",
                (json.dumps(SCHEMA_VERSION),),
            )
        except sqlite3.Error as exc:
            self.close()
            raise _sqlite_error(self.path, exc, True) from None
        except BaseException:
            self.close()
            raise

    def _tables(self) -> set[str]:
        rows = self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {r[0] for r in rows}

    def _columns(self, table: str) -> set[str]:
        return {r[1] for r in self._conn.execute(f"PRAGMA table_info({table})")}

    def _verify(self, tables: set[str], advice: str) -> None:
        """Refuse another program's SQLite database (a StoreError naming its tables, with
        `advice`) and a damaged store: SQLite's integrity check reads every page, so
        random bytes over one page are found before a table built on it is shown."""
        if tables:
            columns = self._columns("runs")
            if not STORE_TABLES <= tables or not RUN_COLUMNS <= columns:
                raise StoreError(
                    f"{self.path} is an SQLite database but not a campaign store (its tables: "
                    f"{', '.join(sorted(tables))}; a store has {', '.join(sorted(STORE_TABLES))} "
                    f"with runs({', '.join(sorted(RUN_COLUMNS))})); {advice}"
                )
        problems = [r[0] for r in self._conn.execute("PRAGMA integrity_check(3)")]
        if problems != ["ok"]:
            raise _damaged(self.path, "SQLite's integrity check: " + "; ".join(problems))

    def _take_lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no lock
            return
        path = self.directory / LOCK_NAME
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot create the lock file {path}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            owner = os.read(fd, 64).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise StoreError(
                f"{self.directory} is in use by another campaign (process {owner}); two "
                "campaigns on one store would run the same runs twice. Wait for it to finish "
                "(a re-run then executes only what is missing), or use another --out "
                "directory"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock = fd

    def _close_quietly(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    # -- context manager
    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Checkpoint the WAL and leave a single self-contained database file."""
        conn, self._conn = getattr(self, "_conn", None), None
        if conn is not None:
            if not self.readonly:
                try:
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    conn.execute("PRAGMA journal_mode=DELETE")
                except sqlite3.Error:
                    pass  # another reader holds the WAL open: fine, it stays consistent
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is not None:
            os.close(lock)  # releases the lock

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("store is closed")
        return self._conn

    # -- writing
    @_guarded
    def set_info(self, name: str, value: Any) -> None:
        with self._transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO info(name, value) VALUES (?, ?)", (name, _json(value))
            )

    @_guarded
    def get_info(self, name: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM info WHERE name = ?", (name,)).fetchone()
        return default if row is None or row[0] is None else json.loads(row[0])

    def _transaction(self):
        store = self

        class _Tx:
            def __enter__(self_inner):
                store.conn.execute("BEGIN IMMEDIATE")

            def __exit__(self_inner, exc_type, *rest):
                if exc_type is None:
                    store.conn.execute("COMMIT")
                else:
                    store.conn.execute("ROLLBACK")
                return False

        return _Tx()

    def put(
        self, record: Mapping[str, Any], *, replace_failed: bool = True, build: str | None = None
    ) -> bool:
        """Store one finished run durably (committed and fsync'd on return).

        ``record`` has ``key, params, rep, seed, status, error, command, result`` (the
        ``Results.to_dict()`` of the run or None), ``wall_s`` and ``version``. Returns False
        (and writes nothing) if a run with this key is already stored — except that a
        stored *failed* run is replaced when ``replace_failed`` (a retry), and a run made
        by another build of the core than ``build`` (see :meth:`stale`) is replaced.
        """
        return self.put_many([record], replace_failed=replace_failed, build=build)[0]

    @_guarded
    def put_many(
        self,
        records: Iterable[Mapping[str, Any]],
        *,
        replace_failed: bool = True,
        build: str | None = None,
    ) -> list[bool]:
        """Store runs that finished together in one durable transaction (see :meth:`put`)."""
        with self._transaction():
            return [self._insert(r, replace_failed, build) for r in records]

    def _insert(self, record: Mapping[str, Any], replace_failed: bool, build: str | None) -> bool:
        key = record["key"]
        result = record.get("result") or {}
        metrics = result.get("metrics") or {}
        series = result.get("series") or {}
        finished = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")
        c = self.conn
        if replace_failed or build is not None:  # (`<> NULL` is never true: no build, no stale)
            gone = c.execute(
                f"DELETE FROM runs WHERE key = ? AND ((? AND status = 'failed') OR ({_STALE}))",
                (key, replace_failed, build),
            ).rowcount
            if gone:
                c.execute("DELETE FROM metrics WHERE key = ?", (key,))
                c.execute("DELETE FROM series WHERE key = ?", (key,))
        return self._insert_row(
            (
                key,
                _json(dict(record.get("params") or {}), sort_keys=False),
                record.get("rep"),
                int(record["seed"]),
                record["status"],
                record.get("error"),
                record.get("command"),
                _json(metrics, sort_keys=False),
                _json(result.get("meta")),
                _json(result.get("flows")),
                _json(result.get("nodes")),
                _float(record.get("wall_s")),
                finished,
                record.get("version"),
                record.get("base"),
            ),
            metrics,
            {str(k): _json(v, sort_keys=False) for k, v in series.items()},
        )

    def _insert_row(self, values: Sequence[Any], metrics: Mapping[str, Any],
                    series: Mapping[str, str]) -> bool:  # fmt: skip
        """Insert a run's row (`values` in the order of :data:`_RUN_COLUMNS`, then its
        base's id), unless its key is stored, with its metrics in long form and its series
        (as JSON text); whether it was inserted."""
        c = self.conn
        cur = c.execute(_INSERT_RUN, values)
        if cur.rowcount == 0:
            return False
        key = values[0]
        c.executemany(
            "INSERT INTO metrics(key, name, value) VALUES (?, ?, ?)",
            [(key, str(k), _float(v)) for k, v in metrics.items()],
        )
        c.executemany(
            "INSERT INTO series(key, name, data) VALUES (?, ?, ?)",
            [(key, k, d) for k, d in series.items()],
        )
        return True

    @_guarded
    def add_base(self, base: Mapping[str, Any]) -> int:
        """Record a base scenario (``hash, version, scenario, overrides, resolved, file``)
        if it is not stored yet; its id."""
        with self._transaction():
            self.conn.execute(
                "INSERT OR IGNORE INTO bases(hash, version, scenario, overrides, resolved, file,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    base["hash"],
                    base["version"],
                    _json(base["scenario"]),
                    _json(base["overrides"], sort_keys=False),
                    _json(base["resolved"]),
                    str(base["file"]),
                    _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                ),
            )
            row = self.conn.execute("SELECT id FROM bases WHERE hash = ?", (base["hash"],))
            return int(row.fetchone()[0])

    @_guarded
    def delete(self, keys: Iterable[str]) -> int:
        """Remove the runs ``keys`` (with their metrics and series) in one transaction; how
        many were stored."""
        keys = list(keys)
        with self._transaction():
            gone = 0
            for key in keys:
                gone += self.conn.execute("DELETE FROM runs WHERE key = ?", (key,)).rowcount
                self.conn.execute("DELETE FROM metrics WHERE key = ?", (key,))
                self.conn.execute("DELETE FROM series WHERE key = ?", (key,))
            return gone

    @_guarded
    def merge(self, dump: Mapping[str, Any]) -> int:
        """Add the bases and runs of another store's :meth:`dump` that this one does not
        hold (a run already stored is kept as it is), in one transaction; how many runs it
        added. A run keeps its base by the base's hash."""
        with self._transaction():
            c = self.conn
            for b in dump["bases"]:
                c.execute(
                    f"INSERT OR IGNORE INTO bases({', '.join(_BASE_COLUMNS)}) VALUES "
                    f"({', '.join('?' * len(_BASE_COLUMNS))})",
                    [b[k] for k in _BASE_COLUMNS],
                )
            ids = {h: i for i, h in c.execute("SELECT id, hash FROM bases")}
            added = 0
            for r in dump["runs"]:
                metrics = json.loads(r["metrics"]) if r["metrics"] else {}
                values = [r[k] for k in _RUN_COLUMNS] + [ids.get(r["base_hash"])]
                added += self._insert_row(values, metrics, r["series"])
            return added

    # -- reading
    @_guarded
    def bases(self) -> list[dict[str, Any]]:
        """The base scenarios of the store, in the order they were recorded: ``id, hash,
        version, scenario, overrides, resolved, file, created_at`` and ``runs`` (how many
        runs of it are stored)."""
        if "bases" not in self._tables():  # a store of schema 1
            return []
        rows = self.conn.execute(
            "SELECT b.id, b.hash, b.version, b.scenario, b.overrides, b.resolved, b.file,"
            " b.created_at, (SELECT COUNT(*) FROM runs r WHERE r.base = b.id)"
            " FROM bases b ORDER BY b.id"
        ).fetchall()
        names = ["id", "hash", "version", "scenario", "overrides", "resolved", "file"]
        out = []
        for row in rows:
            base = dict(zip(names + ["created_at", "runs"], row))
            for k in ("scenario", "overrides", "resolved"):
                base[k] = None if base[k] is None else json.loads(base[k])
            out.append(base)
        return out

    @_guarded
    def dump(self) -> dict[str, list[dict[str, Any]]]:
        """Every base and run of the store as plain JSON-able rows, as the database holds
        them (JSON columns as text; a run names its base by the base's hash, and carries
        its series), in key order: what :meth:`merge` takes."""
        c = self.conn
        hashes, bases = {}, []
        for row in c.execute(f"SELECT id, {', '.join(_BASE_COLUMNS)} FROM bases ORDER BY hash"):
            hashes[row[0]] = row[1]
            bases.append(dict(zip(_BASE_COLUMNS, row[1:])))
        series: dict[str, dict[str, str]] = {}
        for key, name, data in c.execute("SELECT key, name, data FROM series ORDER BY key, name"):
            series.setdefault(key, {})[name] = data
        runs = []
        for row in c.execute(f"SELECT {', '.join(_RUN_COLUMNS)}, base FROM runs ORDER BY key"):
            run = dict(zip(_RUN_COLUMNS, row[:-1]))
            run["base_hash"] = hashes.get(row[-1])
            run["series"] = series.get(run["key"], {})
            runs.append(run)
        return {"bases": bases, "runs": runs}

    @_guarded
    def base_of(self) -> dict[str, int | None]:
        """``{run key: id of its base}`` (None: stored before stores recorded bases)."""
        if "base" not in self._columns("runs"):
            return {k: None for k in self.statuses()}
        return dict(self.conn.execute("SELECT key, base FROM runs").fetchall())

    @_guarded
    def unattributed(self) -> int:
        """Runs stored without a base scenario (by a wlansim before stores recorded it)."""
        if "base" not in self._columns("runs"):
            return self.count()
        return self.conn.execute("SELECT COUNT(*) FROM runs WHERE base IS NULL").fetchone()[0]

    @_guarded
    def statuses(self, keys: Iterable[str] | None = None) -> dict[str, str]:
        """``{key: status}`` of stored runs (all, or only those among ``keys``)."""
        rows = self.conn.execute("SELECT key, status FROM runs").fetchall()
        found = dict(rows)
        if keys is None:
            return found
        return {k: found[k] for k in keys if k in found}

    @_guarded
    def stale(self, build: str) -> set[str]:
        """Keys of the ok runs made by another build of the core than ``build``: their
        ``meta.build`` is set and differs (a run without it, ns-2's or one stored before
        the core reported its build, is not stale). A campaign runs them again."""
        return {k for (k,) in self.conn.execute(f"SELECT key FROM runs WHERE {_STALE}", (build,))}

    @_guarded
    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]

    @_guarded
    def records(
        self, keys: Iterable[str] | None = None
    ) -> tuple[list[dict[str, Any]], list[str], list[str]]:
        """The stored runs as plain records (what :meth:`runs` holds, without pandas), and
        the names of the parameter and metric columns."""
        return _records(self.conn, None if keys is None else list(keys))

    @_guarded
    def runs(self, keys: Iterable[str] | None = None) -> pd.DataFrame:
        """One row per stored run: parameters and metrics as columns (see :func:`load_runs`)."""
        return _frame(self.conn, None if keys is None else list(keys))

    @_guarded
    def series(self, key: str) -> dict[str, pd.DataFrame]:
        """Time series of one run: ``{name: DataFrame with t_s and value columns}``."""
        import pandas as pd

        rows = self.conn.execute("SELECT name, data FROM series WHERE key = ?", (key,)).fetchall()
        out = {}
        for name, data in rows:
            df = pd.DataFrame(json.loads(data))
            if "t_s" in df.columns:  # time first, then the recorded columns in order
                df = df[["t_s"] + [c for c in df.columns if c != "t_s"]]
            out[name] = df
        return out

    @_guarded
    def run_details(self, key: str) -> dict[str, Any]:
        """The stored record of one run (flows/nodes as DataFrames, meta and metrics dicts)."""
        import pandas as pd

        row = self.conn.execute(
            "SELECT params, rep, seed, status, error, command, metrics, meta, flows, nodes,"
            " wall_s, version FROM runs WHERE key = ?",
            (key,),
        ).fetchone()
        if row is None:
            raise StoreError(f"no run with key {key!r} in {self.path}")
        names = ["params", "rep", "seed", "status", "error", "command", "metrics", "meta"]
        out: dict[str, Any] = dict(zip(names, row[:8]))
        for k in ("params", "metrics", "meta"):
            out[k] = json.loads(out[k]) if out[k] else {}
        out["flows"] = pd.DataFrame(json.loads(row[8])) if row[8] else pd.DataFrame()
        out["nodes"] = pd.DataFrame(json.loads(row[9])) if row[9] else pd.DataFrame()
        out["wall_s"], out["version"] = row[10], row[11]
        out["series"] = self.series(key)
        return out


def _records(
    conn: sqlite3.Connection, keys: list[str] | None
) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The stored runs as flat records, sorted by parameters then replication (insertion
    order where a parameter mixes value types), with the parameter and metric columns."""
    has_base = "base" in {r[1] for r in conn.execute("PRAGMA table_info(runs)")}
    q = (
        "SELECT key, params, rep, seed, status, wall_s, error, command, finished_at, metrics,"
        f" {'base' if has_base else 'NULL'} FROM runs"
    )
    rows = conn.execute(q).fetchall()
    if keys is not None:
        wanted = set(keys)
        rows = [r for r in rows if r[0] in wanted]
    # runs of several base scenarios: `base` is their first parameter, so that no
    # summary, table or plot ever pools them
    several = len({r[10] for r in rows}) > 1
    param_keys: dict[str, None] = {}
    metric_keys: dict[str, None] = {}
    parsed = []
    if several:
        param_keys[BASE] = None
    for key, params, rep, seed, status, wall_s, error, command, finished_at, metrics, base in rows:
        p = json.loads(params) if params else {}
        if several:
            p = {BASE: base, **p}
        m = json.loads(metrics) if metrics else {}
        for k in p:
            param_keys.setdefault(k, None)
        for k in m:
            metric_keys.setdefault(k, None)
        book = dict(zip(BOOKKEEPING, (key, rep, seed, status, wall_s, error, command, finished_at)))
        parsed.append((book, p, m))
    # a metric never shadows a parameter or a bookkeeping column of the same name (e.g. the
    # simulator's own `wall_s`): it becomes `metric.<name>`
    taken = set(param_keys) | set(BOOKKEEPING)
    metric_names = {k: (k if k not in taken else f"metric.{k}") for k in metric_keys}
    records = []
    for book, p, m in parsed:
        rec = {"key": book["key"], **{k: p.get(k) for k in param_keys}}
        rec.update(rep=book["rep"], seed=book["seed"], status=book["status"])
        rec.update({metric_names[k]: _float(m.get(k)) for k in metric_keys})
        rec.update({k: book[k] for k in ("wall_s", "error", "command", "finished_at")})
        records.append(rec)

    def order(r: dict[str, Any]) -> tuple:
        values = [r[k] for k in param_keys] + [r["rep"]]
        return tuple((1, 0) if v is None or v != v else (0, v) for v in values)

    try:
        records.sort(key=order)
    except TypeError:  # mixed value types in a parameter column: keep insertion order
        pass
    return records, list(param_keys), list(metric_names.values())


class Names(list):
    """The column names a runs table lists in its ``attrs`` (``params``, ``metrics``).
    pandas deep-copies a frame's ``attrs`` into every frame derived from it, and a study
    derives tens of thousands (each claim selects, groups and averages runs): a copy of
    these names shares the (immutable) strings, one list copy instead of a deep copy
    per name."""

    def __deepcopy__(self, memo: dict) -> Names:
        return Names(self)


def _frame(conn: sqlite3.Connection, keys: list[str] | None) -> pd.DataFrame:
    import pandas as pd

    records, params, metrics = _records(conn, keys)
    cols = ["key", *params, "rep", "seed", "status", *metrics]
    cols += ["wall_s", "error", "command", "finished_at"]
    df = pd.DataFrame.from_records(records, columns=cols)
    for col in metrics:
        df[col] = pd.to_numeric(df[col], errors="coerce")
    df.attrs["params"] = Names(params)
    df.attrs["metrics"] = Names(metrics)
    return df


def load_runs(directory: str | os.PathLike) -> pd.DataFrame:
    """Read every run of the store in ``directory`` as a DataFrame (read-only).

    Columns: ``key``, one column per parameter (key path), ``rep``, ``seed``, ``status``,
    one column per metric, ``wall_s``, ``error``, ``command``, ``finished_at``.
    ``df.attrs["params"]`` and ``df.attrs["metrics"]`` list the parameter and metric
    columns.
    """
    with Store(directory, readonly=True) as store:
        return store.runs()


def read_series(directory: str | os.PathLike, key: str) -> dict[str, pd.DataFrame]:
    """Time series stored with run ``key``: ``{name: DataFrame(t_s, ...)}``."""
    with Store(directory, readonly=True) as store:
        return store.series(key)
