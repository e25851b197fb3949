"""The statistics of evidence: replicated values of a quantity (:class:`Sample`), an
effect with its confidence interval (:class:`Estimate`), and the intervals every claim is
decided by: the mean (:func:`mean_interval`), a difference of means (:func:`difference`,
per pair when paired, else Welch) and a ratio of means (:func:`relative`, delta method).
Student's t quantile is the one of :mod:`wlansim.campaign.stats` (written out, no scipy),
so every interval of the project comes from one function.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from wlansim.campaign.stats import t_quantile

#: Two-sided confidence of every interval.
CONFIDENCE = 0.95


def _t(df: float, confidence: float = CONFIDENCE) -> float:
    """The two-sided ``confidence`` quantile of Student's t with ``df`` degrees of freedom
    (Welch's may be fractional)."""
    return t_quantile(0.5 + confidence / 2, df)


# --------------------------------------------------------------------------- evidence


@dataclasses.dataclass(frozen=True)
class Sample:
    """Replicated values of one quantity: one value per run. ``seeds`` (one per value)
    tell which runs of two samples are paired. ``exact`` marks a number known exactly (a
    model's value, a constant): its spread is zero. NaN values (a run that measured
    nothing, e.g. no session finished) are dropped, and counted in ``dropped``."""

    values: tuple[float, ...]
    seeds: tuple[int, ...] | None = None
    exact: bool = False
    dropped: int = 0

    @classmethod
    def of(cls, values: Sequence[float], seeds: Sequence[int] | None = None) -> Sample:
        vals = [float(v) for v in values]
        if seeds is not None and len(seeds) != len(vals):
            raise ValueError(f"{len(vals)} values but {len(seeds)} seeds")
        keep = [i for i, v in enumerate(vals) if not math.isnan(v)]
        return cls(
            tuple(vals[i] for i in keep),
            None if seeds is None else tuple(int(seeds[i]) for i in keep),
            False,
            len(vals) - len(keep),
        )

    @classmethod
    def exact_value(cls, value: float) -> Sample:
        """A number known exactly (a model's prediction, the paper's printed value)."""
        return cls((float(value),), None, True, 0)

    @classmethod
    def from_frame(cls, df: Any, column: str, seed_column: str = "seed") -> Sample:
        """The replications of ``column`` in a runs table (one row per run), paired by
        ``seed_column`` when the table has it."""
        seeds = list(df[seed_column]) if seed_column in getattr(df, "columns", ()) else None
        return cls.of(list(df[column]), seeds)

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else math.nan

    @property
    def var(self) -> float:
        """Sample variance (0 when exact; NaN with fewer than two runs)."""
        if self.exact:
            return 0.0
        if self.n < 2:
            return math.nan
        m = self.mean
        return sum((v - m) ** 2 for v in self.values) / (self.n - 1)

    def paired_with(self, other: Sample) -> bool:
        """Do the two samples come from the same seeds (in any order)?"""
        return (
            not self.exact
            and not other.exact
            and self.seeds is not None
            and other.seeds is not None
            and len(set(self.seeds)) == self.n
            and sorted(self.seeds) == sorted(other.seeds)
        )

    def by_seed(self) -> dict[int, float]:
        return dict(zip(self.seeds or (), self.values))

    @property
    def constant(self) -> bool:
        """Measured (not exact), and the same value in every run."""
        return not self.exact and self.n > 0 and len(set(self.values)) == 1


def identical(a: Sample, b: Sample) -> bool:
    """Did two measured samples give the same value in every run: run by run when they are
    paired, else one constant value on both sides? Then nothing the two cases differ in
    showed in the runs (e.g. two queue sizes with nothing ever queued)."""
    if a.exact or b.exact or a.n == 0 or b.n == 0:
        return False
    if a.paired_with(b):
        bb = b.by_seed()
        return all(v == bb[k] for k, v in a.by_seed().items())
    return a.constant and b.constant and a.values[0] == b.values[0]


@dataclasses.dataclass(frozen=True)
class Estimate:
    """An effect with its confidence interval: ``value`` in [``low``, ``high``] from ``n``
    runs (per point); ``note`` says why no interval exists when low/high are NaN.
    ``identical``: the two things compared gave the same value in every run (run by run
    when paired), so the runs cannot show an effect either way."""

    value: float
    low: float
    high: float
    n: int
    note: str = ""
    identical: bool = False

    @property
    def defined(self) -> bool:
        return not (math.isnan(self.value) or math.isnan(self.low) or math.isnan(self.high))


def _undefined(note: str, n: int = 0, value: float = math.nan) -> Estimate:
    return Estimate(value, math.nan, math.nan, n, note)


def mean_interval(s: Sample, confidence: float = CONFIDENCE) -> Estimate:
    """The mean of ``s`` with its Student t interval."""
    if s.n == 0:
        return _undefined("no run measured it")
    if s.exact:
        return Estimate(s.mean, s.mean, s.mean, 0)
    if s.n < 2:
        return _undefined("one run: no interval", 1, s.mean)
    h = _t(s.n - 1, confidence) * math.sqrt(s.var / s.n)
    return Estimate(s.mean, s.mean - h, s.mean + h, s.n)


def difference(a: Sample, b: Sample, confidence: float = CONFIDENCE) -> Estimate:
    """mean(a) − mean(b): per pair when paired, else Welch's interval."""
    if a.n == 0 or b.n == 0:
        return _undefined("no run measured it")
    if identical(a, b):
        return Estimate(0.0, 0.0, 0.0, max(a.n, b.n), identical=True)
    if a.paired_with(b):
        ab, bb = a.by_seed(), b.by_seed()
        return mean_interval(Sample.of([ab[k] - bb[k] for k in ab]), confidence)
    if a.exact and b.exact:
        d = a.mean - b.mean
        return Estimate(d, d, d, 0)
    va, vb = a.var / a.n, b.var / b.n
    if math.isnan(va) or math.isnan(vb):
        return _undefined("one run: no interval", max(a.n, b.n), a.mean - b.mean)
    se2 = va + vb
    d = a.mean - b.mean
    if se2 == 0:
        return Estimate(d, d, d, max(a.n, b.n))
    df = se2**2 / sum(v**2 / (s.n - 1) for v, s in ((va, a), (vb, b)) if v > 0)
    h = _t(df, confidence) * math.sqrt(se2)
    return Estimate(d, d - h, d + h, max(a.n, b.n))


def relative(a: Sample, b: Sample, confidence: float = CONFIDENCE) -> Estimate:
    """mean(a) / mean(b) − 1 with the delta-method interval (the pairs' covariance when
    paired; Welch–Satterthwaite degrees of freedom otherwise)."""
    if a.n == 0 or b.n == 0:
        return _undefined("no run measured it")
    if identical(a, b):
        return Estimate(0.0, 0.0, 0.0, max(a.n, b.n), identical=True)
    ma, mb = a.mean, b.mean
    if mb == 0:
        return _undefined("the reference's mean is 0: no relative difference", max(a.n, b.n))
    r = ma / mb
    if a.paired_with(b):
        ab, bb = a.by_seed(), b.by_seed()
        d = Sample.of([ab[k] - r * bb[k] for k in ab])
        if d.n < 2:
            return _undefined("one run: no interval", d.n, r - 1)
        h = _t(d.n - 1, confidence) * math.sqrt(d.var / d.n) / abs(mb)
        return Estimate(r - 1, r - 1 - h, r - 1 + h, d.n)
    if a.exact and b.exact:
        return Estimate(r - 1, r - 1, r - 1, 0)
    va, vb = a.var / a.n, (r**2) * b.var / b.n
    if math.isnan(va) or math.isnan(vb):
        return _undefined("one run: no interval", max(a.n, b.n), r - 1)
    se2 = va + vb
    if se2 == 0:
        return Estimate(r - 1, r - 1, r - 1, max(a.n, b.n))
    df = se2**2 / sum(v**2 / (s.n - 1) for v, s in ((va, a), (vb, b)) if v > 0)
    h = _t(df, confidence) * math.sqrt(se2) / abs(mb)
    return Estimate(r - 1, r - 1 - h, r - 1 + h, max(a.n, b.n))


def mean_half_width(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its Student t interval (0 with fewer
    than two values): the cells "mean ± half-width" of the reports' tables."""
    e = mean_interval(Sample.of(list(values)), confidence)
    return e.value, (e.high - e.low) / 2 if e.defined else 0.0


def per_run_effects(a: Sample, b: Sample | None, relative_: bool) -> Sample:
    """One value of the effect per run: A's values (``b`` None), or per pair A/B − 1
    (``relative_``) or A − B. Unpaired samples give no per-run effect (empty)."""
    if b is None:
        return a
    if not a.paired_with(b):
        return Sample.of([])
    bb = b.by_seed()
    keys = [k for k in a.by_seed() if not relative_ or bb[k] != 0]
    ab = a.by_seed()
    vals = [ab[k] / bb[k] - 1 if relative_ else ab[k] - bb[k] for k in keys]
    return Sample.of(vals, keys)


def prediction_half_width(
    effects: Sample, other_runs: int = 1, confidence: float = CONFIDENCE
) -> float:
    """Half the width of the Student t interval in which the mean of ``other_runs`` further
    runs falls (a paper's printed value from its single run, or from the mean of its few
    runs), given our runs' per-run ``effects``: t · s · sqrt(1/other_runs + 1/n). NaN with
    fewer than two runs."""
    if effects.n < 2:
        return math.nan
    return (
        _t(effects.n - 1, confidence)
        * math.sqrt(effects.var)
        * math.sqrt(1 / other_runs + 1 / effects.n)
    )
