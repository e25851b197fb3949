"""Campaign plots: a metric against a parameter, mean ± 95% confidence interval per point.

Uses matplotlib's object API (``matplotlib.figure.Figure``), never ``pyplot``, so it works
headless and does not touch global state.

>>> from wlansim.campaign import load_runs
>>> from wlansim.plots import plot_campaign
>>> fig = plot_campaign(load_runs("out/sat"), x="stations.sta.count",
...                     metric="throughput_bps", out="sat.png")
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .campaign.space import match_key
from .campaign.stats import summarize
from .errors import WlansimError
from .units import unit_of


def _numeric(vals: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals)


def plot_summary(
    summary: pd.DataFrame,
    x: str,
    *,
    hue: str | None = None,
    ax: Any = None,
    ylabel: str | None = None,
    title: str | None = None,
) -> Any:
    """Draw a summary table (``mean`` and ``half_width`` per point) on ``ax`` (a new Figure's
    axes if None): one line with error bars per ``hue`` value. Returns the axes."""
    if ax is None:
        from matplotlib.figure import Figure

        ax = Figure(figsize=(7, 4.5), layout="constrained").add_subplot()
    groups = [(None, summary)] if hue is None else list(_ordered_groups(summary, hue))
    xs_all = summary[x].tolist()
    numeric = _numeric(xs_all)
    cats = list(dict.fromkeys(map(str, xs_all)))
    for label, g in groups:
        if numeric:
            g = g.sort_values(x, kind="stable")
            xs = g[x].astype(float).tolist()
        else:
            xs = [cats.index(str(v)) for v in g[x]]
        yerr = [0.0 if (h != h) else h for h in g["half_width"].astype(float)]
        ax.errorbar(
            xs,
            g["mean"].astype(float).tolist(),
            yerr=yerr,
            marker="o",
            markersize=4,
            capsize=3,
            linewidth=1.2,
            label=None if label is None else f"{hue} = {label}",
        )
    if not numeric:
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels(cats)
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel or summary.attrs.get("metric") or "value")
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if hue is not None:
        ax.legend(fontsize="small")
    return ax


def _ordered_groups(df: pd.DataFrame, col: str):
    seen: dict[str, list[int]] = {}
    for i, v in enumerate(df[col].tolist()):
        seen.setdefault(str(v), []).append(i)
    for label, idx in seen.items():
        yield label, df.iloc[idx]


def plot_campaign(
    runs: pd.DataFrame,
    x: str,
    metric: str,
    *,
    hue: str | None = None,
    where: Mapping[str, Any] | None = None,
    out: str | os.PathLike | None = None,
    confidence: float = 0.95,
    title: str | None = None,
    dpi: int = 120,
) -> Any:
    """Plot ``metric`` (mean ± CI half-width over replications) against parameter ``x`` of a
    runs table (``Campaign.results()`` or ``load_runs(DIR)``), one line per ``hue`` value.
    ``where`` keeps only runs whose parameters equal the given values. Parameters varied
    in the campaign but neither ``x``, ``hue`` nor fixed by ``where`` are folded into the
    line labels, so no two points are ever averaged together. Saves a PNG to ``out`` if
    given; returns the Figure. A metric named after its unit is drawn in the unit of the
    tables (``throughput_bps`` in Mb/s, ``delay_mean_s`` in ms: :data:`wlansim.units.UNITS`)."""
    from matplotlib.figure import Figure

    params = list(runs.attrs.get("params", []))
    metrics = list(runs.attrs.get("metrics", []))
    x = match_key(x, params)
    if hue is not None:
        hue = match_key(hue, params)
    if metric not in runs.columns:
        if runs.empty or not metrics:
            raise WlansimError("no successful runs in this campaign: nothing to plot")
        metric = match_key(metric, metrics, what="metric")
    df = runs
    for k, v in (where or {}).items():
        k = match_key(k, params)
        df = df[[_equal(a, v) for a in df[k]]]
    if df.empty:
        raise WlansimError(f"no runs match {dict(where or {})}")
    df = df.copy()
    df.attrs = dict(runs.attrs)
    fixed = set((where or {}).keys())
    extra = [
        k
        for k in params
        if k not in (x, hue) and k not in fixed and df[k].nunique(dropna=False) > 1
    ]
    line_keys = ([hue] if hue else []) + extra
    hue_col = None
    if line_keys:
        hue_col = hue if not extra else ", ".join(line_keys)
        if extra:
            df[hue_col] = [
                ", ".join(f"{k.split('.')[-1]}={r[k]}" for k in line_keys) for _, r in df.iterrows()
            ]
    by = [x] + ([hue_col] if hue_col else [])
    summary = summarize(df, metric, by=by, confidence=confidence)
    summary = summary[summary["n"] > 0]
    if summary.empty:
        raise WlansimError(f"no successful runs with metric {metric!r}: nothing to plot")
    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    pct = f"{confidence * 100:g}%"
    name, unit = metric, ""
    shown = unit_of(metric)
    if shown is not None:  # in the unit of the tables: Mb/s, ms
        name, scale, label = shown
        summary = summary.copy()
        stats = ["mean", "std", "half_width"] + [c for c in summary if c.startswith("ci")]
        summary[stats] = summary[stats].astype(float) * scale
        unit = f" ({label})"
    plot_summary(
        summary,
        x,
        hue=hue_col,
        ax=ax,
        ylabel=f"{name}{unit}, mean ± {pct} CI",
        title=title,
    )
    if out is not None:
        fig.savefig(out, dpi=dpi)
    return fig


def _equal(a: Any, b: Any) -> bool:
    if a == b:
        return True
    try:
        fa, fb = float(a), float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)
    return math.isclose(fa, fb, rel_tol=1e-12, abs_tol=0.0)
