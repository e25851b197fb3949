"""``wlansim sweep``, ``wlansim results`` and ``wlansim plot``: campaigns from the shell.

    wlansim sweep scenarios/saturated-11b.toml --vary stations.sta.count=1:50:5 \\
        --set duration="20 s" --reps 5 --out out/sat
    wlansim results out/sat --metric throughput_bps
    wlansim plot out/sat --x stations.sta.count --y throughput_bps --out sat.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import WlansimError

EPILOG_SWEEP = """\
value lists:  --vary KEY=v1,v2,...       (values: numbers, true/false or strings like "1000 B")
ranges:       --vary KEY=start:stop:step  (stop included when it lands on the grid)
products:     several --vary options give the Cartesian product
lockstep:     --zip K1=a,b,c K2=x,y,z     (one --zip option = one group varied together;
                                           give FILE before any --zip)
derived:      --derive KEY=EXPR, e.g. --derive tcp.rwnd="floor(ap.queue / count)"
seeds:        replication r of every point uses the same seed (common random numbers);
              replications are independent. Only runs missing from --out are executed.
exit status:  0 when every run is stored (failed runs included: see `wlansim results`;
              a run that crashes its worker process is stored as failed), 1 if some
              runs could not be executed (e.g. the Dask cluster went away), 2 on a usage
              or store error, 130 when interrupted (Ctrl-C; finished runs are kept).
one writer:   a store takes one sweep at a time; a second sweep on the same --out
              stops with an error instead of running the same runs twice.
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
    p.add_argument("--reps", type=int, default=1, metavar="N", help="replications per point")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="base seed (default: the scenario's seed)",
    )
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
    p.add_argument("--retry-failed", action="store_true", help="execute failed runs again")
    p.add_argument(
        "--metric",
        action="append",
        default=None,
        metavar="M",
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
        metavar="M",
        help="metric(s) to summarise (default: all)",
    )
    r.add_argument(
        "--by",
        action="append",
        default=None,
        metavar="KEY",
        help="group by these parameters (default: every varied parameter)",
    )
    r.add_argument("--runs", action="store_true", help="the per-run table instead of the summary")
    out = r.add_mutually_exclusive_group()
    out.add_argument("--csv", default=None, metavar="FILE", help="also write the table as CSV")
    out.add_argument(
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
    from ..campaign import Campaign
    from ..scenario import check_file

    path = check_file(args.file)
    if args.reps < 1:
        raise WlansimError(f"--reps must be >= 1, got {args.reps}")
    if args.jobs is not None and args.jobs < 1:
        raise WlansimError(f"--jobs must be >= 1, got {args.jobs}")
    space = build_space(args.vary, args.zip, args.derive)
    out = Path(args.out) if args.out else Path("out") / f"sweep-{path.stem}"
    campaign = Campaign(path, space, reps=args.reps, store=out, seed=args.seed, overrides=args.set)
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
    )
    print(f"{report}; store: {out}", file=sys.stderr)
    from ..campaign.stats import summarize

    runs = campaign.results()
    metrics = runs.attrs.get("metrics", [])
    wanted = args.metric or (["throughput_bps"] if "throughput_bps" in metrics else metrics[:1])
    if wanted and space.keys:
        table = summarize(runs, wanted if len(wanted) > 1 else wanted[0], by=space.keys)
        print(_format_table(table))
    elif not runs.empty:
        print(_format_table(summarize(runs, wanted or None, by=[])))
    failed = runs[runs["status"] == "failed"] if "status" in runs else runs.iloc[:0]
    if len(failed):
        print(
            f"{len(failed)} failed run(s); details: wlansim results {out} (first error: "
            f"{failed['error'].iloc[0]})",
            file=sys.stderr,
        )
    return 1 if report.lost else 0


# ----------------------------------------------------------------------------- results


def _format_table(df) -> str:
    if df.empty:
        return "(no rows)"

    def fmt(v):
        if isinstance(v, float):
            if v != v:
                return "nan"
            return f"{v:.6g}"
        return str(v)

    return df.to_string(index=False, formatters={c: fmt for c in df.columns})


def cmd_results(args) -> int:
    from ..campaign.stats import summarize
    from ..campaign.store import load_runs
    from ..plots import match_key

    runs = load_runs(args.dir)
    if runs.empty:
        print(f"{args.dir}: no runs stored yet")
        return 0
    params = runs.attrs["params"]
    metrics = runs.attrs["metrics"]
    if args.runs:
        table = runs.drop(columns=["command", "finished_at"])
        if args.metric:
            keep = [match_key(m, metrics, what="metric") for m in args.metric]
            table = table[[c for c in table.columns if c not in metrics or c in keep]]
    else:
        metric = None
        if args.metric:
            metric = [match_key(m, metrics, what="metric") for m in args.metric]
            metric = metric[0] if len(metric) == 1 else metric
        elif not metrics:
            metric = []
        by = [match_key(k, params) for k in args.by] if args.by else params
        table = summarize(runs, metric, by=by, confidence=args.confidence)
    n_ok = int((runs["status"] == "ok").sum())
    print(f"{args.dir}: {len(runs)} runs ({n_ok} ok, {len(runs) - n_ok} failed)")
    print(_format_table(table))
    failed = runs[runs["status"] != "ok"]
    if len(failed):
        print(f"\nfailed runs ({len(failed)}):")
        for _, row in failed.head(10).iterrows():
            point = ", ".join(f"{k}={row[k]}" for k in params)
            print(f"  [{point}; rep {row['rep']}] {row['error']}\n    reproduce: {row['command']}")
        if len(failed) > 10:
            print(f"  ... and {len(failed) - 10} more (wlansim results {args.dir} --runs)")
    if args.csv:
        table.to_csv(args.csv, index=False)
        print(f"wrote {args.csv}", file=sys.stderr)
    if args.parquet:
        _to_parquet(table, args.parquet)
        print(f"wrote {args.parquet}", file=sys.stderr)
    return 0


def _to_parquet(df, path) -> None:
    df = df.copy()
    for col in df.columns:  # parameter columns may mix numbers and strings
        if df[col].dtype == object:
            types = {type(v) for v in df[col] if v is not None and v == v}
            if len(types) > 1:
                df[col] = df[col].map(lambda v: None if v is None else str(v))
    df.attrs = {}
    df.to_parquet(path, index=False)


# ----------------------------------------------------------------------------- plot


def cmd_plot(args) -> int:
    from ..campaign.space import parse_assignment, parse_scalar
    from ..campaign.store import load_runs
    from ..plots import match_key, plot_campaign

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
