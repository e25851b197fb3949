"""Confidence intervals for replicated runs (Student t).

For the ``n`` successful replications ``x_1..x_n`` of a point: mean ``m``, sample standard
deviation ``s`` (``ddof=1``) and the two-sided ``confidence`` interval
``m ± t_{(1+confidence)/2, n-1} · s / sqrt(n)``. The replications are independent (distinct
seeds, see :mod:`wlansim.campaign.keys`) and each is a long-run average, so the t interval
is the standard choice. With ``n = 1`` the spread is unknown: ``std``, ``half_width`` and the
bounds are NaN. Failed runs never enter the statistics but are counted in ``failed``, so a
point with failures stays visible instead of silently becoming a smaller sample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st

from ..errors import WlansimError


def t_interval(values: Sequence[float], confidence: float = 0.95) -> dict[str, float]:
    """``{"mean", "std", "n", "half_width", "ci_low", "ci_high"}`` of ``values`` (NaNs
    ignored)."""
    x = np.asarray([v for v in values if v is not None], dtype=float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return dict(mean=math.nan, std=math.nan, n=0, half_width=math.nan,
                    ci_low=math.nan, ci_high=math.nan)  # fmt: skip
    mean = float(x.mean())
    if n == 1:
        return dict(mean=mean, std=math.nan, n=1, half_width=math.nan,
                    ci_low=math.nan, ci_high=math.nan)  # fmt: skip
    std = float(x.std(ddof=1))
    half = float(_st.t.ppf(0.5 + confidence / 2, n - 1) * std / math.sqrt(n))
    return dict(mean=mean, std=std, n=n, half_width=half, ci_low=mean - half, ci_high=mean + half)


def _ci_names(confidence: float) -> tuple[str, str]:
    pct = confidence * 100
    tag = f"{pct:g}".replace(".", "_")
    return f"ci{tag}_low", f"ci{tag}_high"


def summarize(
    runs: pd.DataFrame,
    metric: str | Sequence[str] | None = None,
    by: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Summary table of a runs table (as returned by ``Campaign.results()`` or
    ``load_runs``): one row per point (per combination of ``by``; default: every
    parameter column) and metric, with ``mean, std, n, ci95_low, ci95_high, half_width``
    plus ``failed`` (number of failed runs at that point). With several metrics a
    ``metric`` column tells them apart."""
    params = list(runs.attrs.get("params", []))
    all_metrics = list(runs.attrs.get("metrics", []))
    if by is None:
        by = params
    by = list(by)
    if metric is None:
        metrics = all_metrics
    elif isinstance(metric, str):
        metrics = [metric]
    else:
        metrics = list(metric)
    low_name, high_name = _ci_names(confidence)
    reserved = {"metric", "mean", "std", "n", low_name, high_name, "half_width", "failed"}
    clash = [c for c in by if c in reserved]
    if clash:
        raise WlansimError(f"cannot group by {clash}: the name is used by the summary columns")
    missing = [c for c in by if c not in runs.columns]
    if missing:
        raise WlansimError(
            f"cannot group by {missing}: not a parameter of this campaign "
            f"(parameters: {', '.join(params) or 'none'})"
        )
    ok_runs = runs[runs["status"] == "ok"] if "status" in runs else runs
    for m in metrics:
        if m not in runs.columns and not ok_runs.empty:
            raise WlansimError(
                f"unknown metric {m!r}; available: {', '.join(all_metrics) or 'none'}"
            )
    rows = []
    if by:
        # group on a hashable, order-preserving representation of each point (pandas'
        # groupby would sort, drop NaN keys and choke on unhashable values)
        index: dict[tuple, list[int]] = {}
        for i, row in enumerate(runs[by].itertuples(index=False, name=None)):
            index.setdefault(tuple(_hashable(v) for v in row), []).append(i)
        groups = [(lab, runs.iloc[idx]) for lab, idx in index.items()]
    else:
        groups = [((), runs)]
    for _lab, g in groups:
        failed = int((g["status"] != "ok").sum()) if "status" in g else 0
        good = g[g["status"] == "ok"] if "status" in g else g
        point = dict(zip(by, (g[c].iloc[0] for c in by)))
        for m in metrics:
            vals = good[m].tolist() if m in good else []
            ci = t_interval(vals, confidence)
            row = dict(point)
            if len(metrics) > 1:
                row["metric"] = m
            row.update(
                mean=ci["mean"],
                std=ci["std"],
                n=ci["n"],
                **{low_name: ci["ci_low"], high_name: ci["ci_high"]},
                half_width=ci["half_width"],
                failed=failed,
            )
            rows.append(row)
    cols = by + (["metric"] if len(metrics) > 1 else [])
    cols += ["mean", "std", "n", low_name, high_name, "half_width", "failed"]
    out = pd.DataFrame(rows, columns=cols)
    out["n"] = out["n"].astype(int)
    out["failed"] = out["failed"].astype(int)
    out.attrs["metric"] = metrics[0] if len(metrics) == 1 else None
    out.attrs["by"] = by
    return out


def _hashable(v):
    if isinstance(v, float) and math.isnan(v):
        return ("nan",)
    if isinstance(v, (list, dict)):
        return repr(v)
    return v
