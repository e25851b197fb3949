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

import functools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import WlansimError
from .store import BASE

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# numpy, pandas and scipy are not imported here: `wlansim results` and `wlansim run` of an
# on/off scenario (its session delay CI) start in a fraction of a second, where importing
# scipy.stats alone takes a second or more. The t quantile below is therefore written out
# (and checked against scipy.stats.t.ppf in tests/test_campaign.py).


def _incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (modified Lentz; Numerical Recipes 3rd ed. 6.4), on the side where it converges."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - _incomplete_beta(1.0 - x, b, a)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * f / a


def _t_cdf(t: float, df: float) -> float:
    """P(T <= t) of Student's t with `df` degrees of freedom (t >= 0)."""
    return 1.0 - 0.5 * _incomplete_beta(df / (df + t * t), df / 2.0, 0.5)


@functools.lru_cache(maxsize=1024)
def t_quantile(p: float, df: float) -> float:
    """The `p` quantile (0.5 < p < 1) of Student's t with `df` >= 1 degrees of freedom
    (fractional for Welch's interval): the project's one Student t. The root of the CDF,
    by bisection (the CDF increases; 200 halvings reach the float resolution)."""
    if not (0.5 < p < 1.0) or df < 1:
        raise ValueError(f"t_quantile: p = {p} must be in (0.5, 1) and df = {df} >= 1")
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        low, high = high, 2.0 * high
    for _ in range(200):
        mid = 0.5 * (low + high)
        if mid in (low, high):
            break
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def t_interval(values: Sequence[float], confidence: float = 0.95) -> dict[str, float]:
    """``{"mean", "std", "n", "half_width", "ci_low", "ci_high"}`` of ``values`` (None and
    NaN ignored)."""
    x = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    n = len(x)
    nan = math.nan
    if n == 0:
        return dict(mean=nan, std=nan, n=0, half_width=nan, ci_low=nan, ci_high=nan)
    mean = math.fsum(x) / n
    if n == 1:
        return dict(mean=mean, std=nan, n=1, half_width=nan, ci_low=nan, ci_high=nan)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in x) / (n - 1))
    half = t_quantile(0.5 + confidence / 2, n - 1) * std / math.sqrt(n)
    return dict(mean=mean, std=std, n=n, half_width=half, ci_low=mean - half, ci_high=mean + half)


def _ci_names(confidence: float) -> tuple[str, str]:
    pct = confidence * 100
    tag = f"{pct:g}".replace(".", "_")
    return f"ci{tag}_low", f"ci{tag}_high"


def summary_rows(
    runs: Sequence[Mapping[str, Any]],
    params: Sequence[str],
    all_metrics: Sequence[str],
    metric: str | Sequence[str] | None = None,
    by: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> tuple[list[str], list[dict[str, Any]]]:
    """The summary of runs given as records (dicts with the parameters, ``status`` and
    the metrics): ``(columns, rows)``, one row per point (per combination of ``by``;
    default: every parameter) and metric, with ``mean, std, n, ci95_low, ci95_high,
    half_width`` and ``failed`` (failed runs at that point), in the order the points
    first appear. With several metrics a ``metric`` column tells them apart. Runs of
    several base scenarios (parameter ``base``) are grouped by base whatever ``by``
    says."""
    by = list(params if by is None else by)
    if BASE in params and BASE not in by:  # the runs of two base scenarios are never pooled
        by = [BASE, *by]
    if metric is None:
        metrics = list(all_metrics)
    elif isinstance(metric, str):
        metrics = [metric]
    else:
        metrics = list(metric)
    low_name, high_name = _ci_names(confidence)
    reserved = {"metric", "mean", "std", "n", low_name, high_name, "half_width", "failed"}
    clash = [c for c in by if c in reserved]
    if clash:
        raise WlansimError(f"cannot group by {clash}: the name is used by the summary columns")
    present = set(params).union(*(r.keys() for r in runs))
    missing = [c for c in by if c not in present]
    if missing:
        raise WlansimError(
            f"cannot group by {missing}: not a parameter of this campaign "
            f"(parameters: {', '.join(params) or 'none'})"
        )
    ok_runs = [r for r in runs if r.get("status", "ok") == "ok"]
    for m in metrics:
        if m not in present and ok_runs:
            raise WlansimError(
                f"unknown metric {m!r}; available: {', '.join(all_metrics) or 'none'}"
            )
    # group on a hashable, order-preserving representation of each point
    groups: dict[tuple, list[Mapping[str, Any]]] = {}
    for r in runs:
        groups.setdefault(tuple(_hashable(r.get(c)) for c in by), []).append(r)
    rows = []
    for members in groups.values():
        failed = sum(1 for r in members if r.get("status", "ok") != "ok")
        good = [r for r in members if r.get("status", "ok") == "ok"]
        point = {c: members[0].get(c) for c in by}
        for m in metrics:
            ci = t_interval([r.get(m) for r in good], confidence)
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
    columns = by + (["metric"] if len(metrics) > 1 else [])
    columns += ["mean", "std", "n", low_name, high_name, "half_width", "failed"]
    return columns, rows


def summarize(
    runs: pd.DataFrame,
    metric: str | Sequence[str] | None = None,
    by: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """:func:`summary_rows` of a runs table (as returned by ``Campaign.results()`` or
    ``load_runs``, whose ``attrs`` list its parameters and metrics) as a DataFrame."""
    import pandas as pd

    params = list(runs.attrs.get("params", []))
    all_metrics = list(runs.attrs.get("metrics", []))
    columns, rows = summary_rows(
        runs.to_dict("records"), params, all_metrics, metric, by, confidence
    )
    out = pd.DataFrame(rows, columns=columns)
    out["n"] = out["n"].astype(int)
    out["failed"] = out["failed"].astype(int)
    metrics = [metric] if isinstance(metric, str) else list(metric or all_metrics)
    out.attrs["metric"] = metrics[0] if len(metrics) == 1 else None
    out.attrs["by"] = list(params if by is None else by)
    return out


def _hashable(v):
    if isinstance(v, float) and math.isnan(v):
        return ("nan",)
    if isinstance(v, (list, dict)):
        return repr(v)
    return v
