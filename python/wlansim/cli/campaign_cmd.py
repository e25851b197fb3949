"""``wlansim sweep``, ``results``, ``plot`` and ``prune``: campaigns from the shell.

    wlansim sweep scenarios/saturated-11b.toml --vary stations.sta.count=1:50:5 \\
        --set duration="20 s" --reps 5 --out out/sat
    wlansim results out/sat --metric throughput_bps
    wlansim plot out/sat --x stations.sta.count --y throughput_bps --out sat.png
    wlansim prune out/sat --failed
"""

from __future__ import annotations

import argparse
import sys

from ..errors import WlansimError
from .flags import DURATION, add_reps, add_seed, comma_list
from .output import format_table, json_dumps, unit_of

#: what `results` shows of each base scenario of a store
BASE_FIELDS = ("id", "runs", "version", "created_at", "hash", "file")


def bases_text(bases: list[dict]) -> str:
    """The bases of a store, one line each (shown when there are several)."""
    lines = ["base scenarios (never pooled: column base):"]
    for b in bases:
        lines.append(
            f"  base {b['id']}: {b['runs']} runs, wlansim {b['version']}, created "
            f"{b['created_at']}, copy {b['file']}"
        )
    return "\n".join(lines)


EPILOG_SWEEP = """\
value lists:  --vary KEY=v1,v2,...       (values: numbers, true/false or strings like "1000 B")
ranges:       --vary KEY=start:stop:step  (stop included when it lands on the grid)
products:     several --vary options give the Cartesian product
lockstep:     --zip K1=a,b,c K2=x,y,z     (one --zip option = one group varied together;
                                           give FILE before any --zip)
derived:      --derive KEY=EXPR, e.g. --derive tcp.rwnd="floor(ap.queue / count)"
seeds:        replication r of every point uses the same seed (common random numbers);
              replications are independent. Only runs missing from --out are executed.
exit status:  0 when every run is stored and some succeeded (failed runs included: see
              `wlansim results`; a run that crashes its worker process or outlasts
              --run-timeout is stored as failed), 1 if some runs could not be executed
              (e.g. the Dask cluster went away), 2 on a usage or store error or when
              every run failed (the first error is printed), 130 when interrupted
              (Ctrl-C; finished runs are kept).
one writer:   a store takes one sweep at a time; a second sweep on the same --out
              stops with an error instead of running the same runs twice.
one scenario: the store records the base scenario (FILE and --set) with wlansim's
              version, and keeps a copy (DIR/base-<hash>.toml) that the runs' reproduce
              commands run. A sweep whose base differs from the stored one is refused
              (exit 2, naming the differences) unless --new-base: then its runs are a
              further base, shown apart by `wlansim results` (column base).
validation:   every point is resolved and validated before anything runs or is stored
              (--dry-run too): an unknown key or a value out of range exits 2 naming the
              key, the value and what is allowed.
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "sweep",
        help="run a parameter sweep with replications (resumable)",
        description="Run a campaign: a base scenario, a parameter space and replications. "
        "Results are stored in --out as each run finishes; re-running executes only "
        "missing runs.",
        epilog=EPILOG_SWEEP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="base scenario (.toml)")
    p.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=VALUES",
        help="vary KEY over v1,v2,... or start:stop[:step] (repeatable: product)",
    )
    p.add_argument(
        "--zip",
        action="append",
        nargs="+",
        default=[],
        metavar="KEY=VALUES",
        help="vary several keys in lockstep (equal numbers of values)",
    )
    p.add_argument(
        "--derive",
        action="append",
        default=[],
        metavar="KEY=EXPR",
        help="set KEY from an expression over the other parameters",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="set",
        help="fixed override applied to every run (repeatable)",
    )
    add_reps(p, "replications per point (default: %(default)s)")
    add_seed(p, "base seed (default: the scenario's seed)")
    p.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="store directory (default: out/sweep-<scenario name>)",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="local worker processes (default: all cores); each run executes in a worker "
        "process, so a run that crashes is recorded as failed and the sweep goes on; "
        "with --dask local: the number of Dask workers",
    )
    p.add_argument(
        "--dask",
        default=None,
        metavar="ADDR",
        help="run on a Dask cluster: tcp://HOST:PORT, or 'local' (a LocalCluster)",
    )
    p.add_argument(
        "--run-timeout",
        type=DURATION,
        default=None,
        metavar="DURATION",
        help='wall-clock time limit per run, e.g. "30 s": a run that takes longer is stopped '
        "and stored as failed with its reproduce command (default: none)",
    )
    p.add_argument("--retry-failed", action="store_true", help="execute failed runs again")
    p.add_argument(
        "--new-base",
        action="store_true",
        help="when --out holds runs of another base scenario: store these runs as a further "
        "base, kept apart from the others (default: refuse)",
    )
    p.add_argument(
        "--metric",
        action="append",
        default=None,
        metavar="M[,M...]",
        help="metric(s) of the summary printed at the end (default: throughput_bps)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the points and how many runs are missing, run nothing",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_sweep)  # fmt: skip

    r = subparsers.add_parser(
        "results",
        help="summary table of a campaign (mean, std, n, 95%% CI per point)",
        description="Print the summary table of a campaign store: per point and metric, "
        "mean, standard deviation, n, the 95% Student-t confidence interval and the number "
        "of failed runs; failed runs are listed with their error and reproduction command.",
    )
    r.add_argument("dir", metavar="DIR", help="campaign store directory")
    r.add_argument(
        "--metric",
        action="append",
        default=None,
        metavar="M[,M...]",
        help="metric(s) to summarise (default: all)",
    )
    r.add_argument(
        "--by",
        action="append",
        default=None,
        metavar="KEY[,KEY...]",
        help="group by these parameters (default: every varied parameter)",
    )
    r.add_argument("--runs", action="store_true", help="the per-run table instead of the summary")
    r.add_argument(
        "--json",
        action="store_true",
        help="print one JSON document (counts, bases, the table's rows, the failed runs) "
        "instead of the text",
    )
    r.add_argument("--csv", default=None, metavar="FILE", help="also write the table as CSV")
    r.add_argument(
        "--parquet", default=None, metavar="FILE", help="also write the table as Parquet"
    )
    r.add_argument("--confidence", type=float, default=0.95, help=argparse.SUPPRESS)
    r.set_defaults(func=cmd_results)  # fmt: skip

    pl = subparsers.add_parser(
        "plot",
        help="plot a metric against a parameter with 95%% CI error bars",
        description="Plot METRIC (mean over replications, 95% CI error bars) against the "
        "parameter KEY, one line per --hue value; writes a PNG.",
    )
    pl.add_argument("dir", metavar="DIR", help="campaign store directory")
    pl.add_argument("--x", required=True, metavar="KEY", help="parameter on the x axis")
    pl.add_argument("--y", required=True, metavar="METRIC", help="metric on the y axis")
    pl.add_argument("--hue", default=None, metavar="KEY", help="one line per value of KEY")
    pl.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="keep only runs with this parameter value (repeatable)",
    )
    pl.add_argument(
        "--out",
        default=None,
        metavar="FILE.png",
        help="output image (default: DIR/<metric>-vs-<key>.png)",
    )
    pl.add_argument("--title", default=None)
    pl.set_defaults(func=cmd_plot)  # fmt: skip

    pr = subparsers.add_parser(
        "prune",
        help="remove failed or stray runs from a campaign store",
        description="Remove runs from a campaign store: failed runs, the runs of one base "
        "scenario, or the runs that set a parameter (e.g. a mistyped one). Prints what it "
        "removes; with --dry-run removes nothing.",
    )
    pr.add_argument("dir", metavar="DIR", help="campaign store directory")
    pr.add_argument("--failed", action="store_true", help="the failed runs")
    pr.add_argument(
        "--base", type=int, default=None, metavar="N", help="the runs of base scenario N"
    )
    pr.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY",
        help="the runs whose point sets parameter KEY (repeatable)",
    )
    pr.add_argument("--dry-run", action="store_true", help="list what would go, remove nothing")
    pr.set_defaults(func=cmd_prune)  # fmt: skip


# ----------------------------------------------------------------------------- sweep


def build_space(vary, zips, derive):
    from ..campaign.space import Space, parse_assignment

    space = Space()
    seen: set[str] = set()

    def check(key: str) -> None:
        if key in seen:
            raise WlansimError(f"parameter {key!r} is varied twice")
        seen.add(key)

    for item in vary:
        key, spec = parse_assignment(item)
        check(key)
        space = space * Space.grid({key: spec})
    for group in zips:
        axes = {}
        for item in group:
            key, spec = parse_assignment(item)
            check(key)
            axes[key] = spec
        space = space * Space.zip(axes)
    for item in derive:
        key, expr = parse_assignment(item)
        check(key)
        space = space.derive(key, expr)
    return space


def cmd_sweep(args) -> int:
    from pathlib import Path

    from ..campaign import Campaign
    from ..scenario import check_file

    path = check_file(args.file)
    if args.reps < 1:
        raise WlansimError(f"--reps must be >= 1, got {args.reps}")
    if args.jobs is not None and args.jobs < 1:
        raise WlansimError(f"--jobs must be >= 1, got {args.jobs}")
    if args.run_timeout is not None and not args.run_timeout > 0:
        raise WlansimError(f"--run-timeout must be above 0 s, got {args.run_timeout:g} s")
    space = build_space(args.vary, args.zip, args.derive)
    out = Path(args.out) if args.out else Path("out") / f"sweep-{path.stem}"
    campaign = Campaign(
        path,
        space,
        reps=args.reps,
        store=out,
        seed=args.seed,
        overrides=args.set,
        changed_base="add" if args.new_base else "refuse",
    )
    campaign.plan()  # every point validated before anything is stored
    campaign.check_store()  # a store of another base scenario refused
    if args.dry_run:
        missing = campaign.missing(retry_failed=args.retry_failed)
        points = space.points()
        print(f"{len(points)} points x {args.reps} reps; {len(missing)} runs missing in {out}")
        for p in points[:50]:
            print("  " + ", ".join(f"{k}={v}" for k, v in p.items()))
        if len(points) > 50:
            print(f"  ... ({len(points) - 50} more)")
        return 0
    report = campaign.run(
        jobs=args.jobs,
        dask=args.dask,
        progress=not args.no_progress,
        retry_failed=args.retry_failed,
        run_timeout=args.run_timeout,
    )
    print(f"{report}; store: {out}", file=sys.stderr)
    records, metrics = campaign.records()
    wanted = comma_list(args.metric) or (
        ["throughput_bps"] if "throughput_bps" in metrics else metrics[:1]
    )
    if records and (wanted or not space.keys):
        metric = (wanted if len(wanted) > 1 else wanted[0]) if wanted else None
        columns, rows = summarized(records, space.keys, metrics, metric, space.keys)
        print(summary_text(columns, rows))
        for note in interval_notes(records, rows, metrics):
            print(note)
    failed = [r for r in records if r["status"] == "failed"]
    if failed:
        print(
            f"{len(failed)} failed run(s); details: wlansim results {out} (first error: "
            f"{failed[0]['error']})",
            file=sys.stderr,
        )
    if records and len(failed) == len(records):
        raise WlansimError(
            f"every run of the sweep failed ({len(failed)}); the first error: {failed[0]['error']}"
        )
    return 1 if report.lost else 0


# ----------------------------------------------------------------------------- results

#: the summary's statistics, in the metric's unit
STATISTICS = ("mean", "std", "half_width")


def summary_text(columns: list[str], rows: list[dict]) -> str:
    """A summary table with each metric's statistics in its unit (Mb/s, ms: see
    `output.UNITS`), the unit in the header or, for several metrics, in a column."""
    if not rows:
        return "(no rows)"
    stats = [c for c in columns if c in STATISTICS or c.startswith("ci")]
    many = "metric" in columns
    shown, headers = [], {}
    for row in rows:
        unit = unit_of(row["metric"]) if many else unit_of(rows[0].get("_metric", ""))
        row = dict(row)
        if unit is not None:
            _, scale, label = unit
            row.update({c: None if row[c] is None else row[c] * scale for c in stats})
            row["unit"] = label
        shown.append(row)
    columns = list(columns)
    if many:
        columns.insert(columns.index("metric") + 1, "unit")
    else:
        unit = unit_of(rows[0].get("_metric", ""))
        if unit is not None:
            headers = {c: f"{c} ({unit[2]})" for c in stats}
    return format_table(shown, columns, headers, scaled=False)


def interval_notes(records: list[dict], rows: list[dict], metrics: list[str]) -> list[str]:
    """A note for each metric that no run gave below 0 but whose t interval reaches below
    0 somewhere: an interval wider than the mean (few replications for a large spread,
    e.g. a ratio of two throughputs), not a value a run can take."""
    notes = []
    only = metrics[0] if len(metrics) == 1 else None

    def metric_of(row: dict) -> str | None:
        return row.get("metric", row.get("_metric", only))

    for metric in dict.fromkeys(metric_of(r) for r in rows):
        values = [r.get(metric) for r in records if r["status"] == "ok"]
        values = [v for v in values if isinstance(v, (int, float)) and v == v]
        if not values or min(values) < 0:
            continue
        low = next((k for k in rows[0] if k.startswith("ci") and k.endswith("_low")), None)
        below = [
            r
            for r in rows
            if metric_of(r) == metric and low is not None and r[low] is not None and r[low] < 0
        ]
        if below:
            notes.append(
                f"note: {metric}: no run gave a value below 0, yet the t interval of "
                f"{len(below)} point(s) reaches below 0: their spread is large for their "
                "number of replications (the interval is mean ± t·s/√n, symmetric); run "
                "more --reps, or see each run with --runs"
            )
    return notes


def summarized(records, params, metrics, metric, by, confidence=0.95) -> tuple[list, list]:
    """`summary_rows`, each row tagged with its metric when there is one (for its unit)."""
    from ..campaign.stats import summary_rows

    columns, rows = summary_rows(records, params, metrics, metric, by, confidence)
    if isinstance(metric, str):
        for row in rows:
            row["_metric"] = metric
    return columns, rows


def _write_csv(path: str, columns: list[str], rows: list[dict]) -> None:
    import csv

    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for row in rows:
            w.writerow("" if _missing(row.get(c)) else row.get(c) for c in columns)


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def cmd_results(args) -> int:
    from ..campaign.space import match_key
    from ..campaign.store import Store

    with Store(args.dir, readonly=True) as store:
        records, params, metrics = store.records()
        bases = store.bases()
    if not records and not args.json:
        print(f"{args.dir}: no runs stored yet")
        return 0
    if args.runs:
        keep = None
        if args.metric:
            keep = {match_key(m, metrics, what="metric") for m in comma_list(args.metric)}
        columns = [
            c for c in (records[0] if records else ()) if c not in ("command", "finished_at")
        ]
        columns = [c for c in columns if c not in metrics or keep is None or c in keep]
        rows = records
        text = format_table(rows, columns)
    else:
        metric = None
        if args.metric:
            metric = [match_key(m, metrics, what="metric") for m in comma_list(args.metric)]
            metric = metric[0] if len(metric) == 1 else metric
        elif not metrics:
            metric = []
        by = [match_key(k, params) for k in comma_list(args.by)] if args.by else params
        columns, rows = summarized(records, params, metrics, metric, by, args.confidence)
        text = "\n".join([summary_text(columns, rows), *interval_notes(records, rows, metrics)])
    n_ok = sum(1 for r in records if r["status"] == "ok")
    failed = [r for r in records if r["status"] != "ok"]
    if args.json:
        document = {
            "store": str(args.dir),
            "counts": {"runs": len(records), "ok": n_ok, "failed": len(failed)},
            "bases": [{k: b[k] for k in BASE_FIELDS} for b in bases],
            "runs" if args.runs else "summary": [{c: row.get(c) for c in columns} for row in rows],
            "failed_runs": [
                {k: row.get(k) for k in (*params, "rep", "seed", "error", "command")}
                for row in failed
            ],
        }
        print(json_dumps(document, indent=2))
    else:
        print(f"{args.dir}: {len(records)} runs ({n_ok} ok, {len(records) - n_ok} failed)")
        if len(bases) > 1:
            print(bases_text(bases))
        print(text)
    if failed and not args.json:
        print(f"\nfailed runs ({len(failed)}):")
        for row in failed[:10]:
            point = ", ".join(f"{k}={row[k]}" for k in params)
            print(f"  [{point}; rep {row['rep']}] {row['error']}\n    reproduce: {row['command']}")
        if len(failed) > 10:
            print(f"  ... and {len(failed) - 10} more (wlansim results {args.dir} --runs)")
    if args.csv:
        _write_csv(args.csv, columns, rows)
        print(f"wrote {args.csv}", file=sys.stderr)
    if args.parquet:
        _to_parquet(columns, rows, args.parquet)
        print(f"wrote {args.parquet}", file=sys.stderr)
    return 0


def _to_parquet(columns: list[str], rows: list[dict], path: str) -> None:
    import pandas as pd

    df = pd.DataFrame(rows, columns=columns)
    for col in df.columns:  # parameter columns may mix numbers and strings
        if df[col].dtype == object:
            types = {type(v) for v in df[col] if v is not None and v == v}
            if len(types) > 1:
                df[col] = df[col].map(lambda v: None if v is None else str(v))
    df.to_parquet(path, index=False)


# ----------------------------------------------------------------------------- plot


def cmd_plot(args) -> int:
    from pathlib import Path

    from ..campaign.space import match_key, parse_assignment, parse_scalar
    from ..campaign.store import load_runs
    from ..plots import plot_campaign

    runs = load_runs(args.dir)
    if runs.empty:
        raise WlansimError(f"{args.dir}: no runs stored yet")
    where = {}
    for item in args.where:
        k, v = parse_assignment(item)
        where[k] = parse_scalar(v)
    x = match_key(args.x, runs.attrs["params"])
    out = args.out
    if out is None:
        slug = f"{args.y}-vs-{x}".replace("/", "_")
        out = str(Path(args.dir) / f"{slug}.png")
    plot_campaign(runs, x, args.y, hue=args.hue, where=where, out=out, title=args.title)
    print(out)
    return 0


# ----------------------------------------------------------------------------- prune


def cmd_prune(args) -> int:
    from ..campaign.store import BASE, Store

    if not (args.failed or args.base is not None or args.param):
        raise WlansimError("say what to remove: --failed, --base N and/or --param KEY")
    with Store(args.dir, readonly=True) as store:
        records, params, _ = store.records()
        bases = {b["id"]: b for b in store.bases()}
        base_of = store.base_of()
    if args.base is not None and args.base not in bases:
        raise WlansimError(
            f"{args.dir} has no base {args.base}; its bases: "
            f"{', '.join(map(str, bases)) or 'none recorded'}"
        )
    for key in args.param:
        if key not in params or key == BASE:
            raise WlansimError(
                f"no run of {args.dir} sets parameter {key!r}; its parameters: "
                f"{', '.join(p for p in params if p != BASE) or 'none'}"
            )
    gone = [
        r
        for r in records
        if (args.failed and r["status"] == "failed")
        or (args.base is not None and base_of.get(r["key"]) == args.base)
        or any(r.get(k) is not None for k in args.param)
    ]
    for r in gone[:10]:
        point = ", ".join(f"{k}={r[k]}" for k in params if r.get(k) is not None)
        print(f"  [{point}; rep {r['rep']}] {r['status']}")
    if len(gone) > 10:
        print(f"  ... and {len(gone) - 10} more")
    if args.dry_run:
        print(f"{args.dir}: would remove {len(gone)} of {len(records)} runs")
        return 0
    with Store(args.dir) as store:
        removed = store.delete(r["key"] for r in gone)
    print(f"{args.dir}: removed {removed} of {len(records)} runs")
    return 0
