"""Claims as data, and the one verdict engine of every study and validation.

A paper's claim (or a validation's check) is a :class:`Claim` record: an id, where the
paper makes it, the claim in our words, the quantity we measure, the kind of comparison
(:class:`Compare`, :class:`Within`, :class:`InRange`, :class:`Trend`, :class:`Best`), the
paper's value where its text gives one, and a ``measure`` function that reads the
quantity's replications out of a study's tables. :meth:`Claim.judge` turns those
replications into a :class:`Verdict`:

- **holds**: the claimed direction with the 95 % confidence interval of the effect on the
  claimed side of the rule's threshold (or, for "about equal" claims, inside the stated
  tolerance);
- **does not hold**: the interval entirely on the other side (the opposite, significantly);
- **undecided**: the interval straddles the threshold; the sentence says about how many
  runs per point would decide it if the mean stayed where it is;
- **not run**: the quantity was not measured (quick mode, a skipped case): ``measure``
  raised :class:`NotRun` with the reason.

The verdict's sentence is composed from the record and the numbers, never fixed text: two
runs that differ in their verdict differ in their sentence. A claim that compares one
model with another is labelled ``model property`` (its inputs are exact numbers); one that
compares a model with our runs ``model vs simulation``; our runs against the paper's
printed value ``simulation vs paper``; the rest ``simulation``.

Replications are the per-seed values of one quantity (:class:`Sample`). Two samples with
the same seeds are paired (the same seeds and workloads at both points): effects are then
computed per pair, which removes what the seeds share. Intervals are Student t; a ratio
of means gets the delta-method (linearised) interval, with the pairs' covariance when
paired; several comparisons inside one claim (:class:`Best`) are Bonferroni-corrected.
"""

from __future__ import annotations

import csv
import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

#: The four verdicts, in the order reports count them.
VERDICTS = ("holds", "does not hold", "undecided", "not run")
#: What a claim compares.
KINDS = ("simulation", "model vs simulation", "simulation vs paper", "model property")
#: Two-sided confidence of every interval.
CONFIDENCE = 0.95


class NotRun(Exception):  # noqa: N818 - a verdict, not an error condition
    """Raised by a claim's ``measure`` when the run that measures it was not made; the
    message says why (e.g. "quick mode runs PER 20 % only")."""


def _t(df: float, confidence: float = CONFIDENCE) -> float:
    from scipy import stats

    return float(stats.t.ppf(0.5 + confidence / 2, df))


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


@dataclasses.dataclass(frozen=True)
class Estimate:
    """An effect with its confidence interval: ``value`` in [``low``, ``high``] from ``n``
    runs (per point); ``note`` says why no interval exists when low/high are NaN."""

    value: float
    low: float
    high: float
    n: int
    note: str = ""

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


# --------------------------------------------------------------------------- formatting


@dataclasses.dataclass(frozen=True)
class Scale:
    """How an effect reads: ``relative`` (a fraction A/B − 1, shown in %, or with
    ``ratio`` as the ratio A/B itself, "12.3×"), or absolute in ``unit`` after multiplying
    by ``factor`` (e.g. seconds shown in ms: factor 1e3)."""

    relative: bool = True
    unit: str = ""
    factor: float = 1.0
    digits: int = 1
    ratio: bool = False

    def fmt(self, x: float, sign: bool = True) -> str:
        if math.isnan(x):
            return "n/a"
        if math.isinf(x):
            return ("+" if x > 0 and sign else "") + ("∞" if x > 0 else "−∞")
        if self.relative and self.ratio:
            return f"{1 + x:.{self.digits}f}×"
        if self.relative:
            return f"{100 * x:+.{self.digits}f} %" if sign else f"{100 * x:.{self.digits}f} %"
        v = x * self.factor
        s = f"{v:+.{self.digits}f}" if sign else f"{v:.{self.digits}f}"
        return f"{s} {self.unit}".rstrip()

    def interval(self, e: Estimate, sign: bool = True) -> str:
        if not e.defined:
            return e.note or "no interval"
        if e.low == e.high:
            return "exact" if e.n == 0 else "the same in every run"
        return f"95 % CI {self.fmt(e.low, sign)} to {self.fmt(e.high, sign)}"


PERCENT = Scale()


def _runs(e: Estimate) -> str:
    return "" if e.n == 0 else f", {e.n} runs"


def _more_runs(e: Estimate, threshold: float) -> str:
    """How many runs per point would put the interval on one side of ``threshold``, if
    the mean stayed where it is (the half-width shrinks as 1/sqrt(n))."""
    if not e.defined or e.n < 2:
        return "more runs are needed"
    gap = abs(e.value - threshold)
    half = (e.high - e.low) / 2
    if gap == 0 or half == 0:
        return "the mean sits on the threshold: more runs would not decide it"
    need = math.ceil(e.n * (half / gap) ** 2)
    return f"about {max(need, e.n + 1)} runs per point would decide it if the mean held"


# --------------------------------------------------------------------------- rules


@dataclasses.dataclass(frozen=True)
class Outcome:
    verdict: str
    estimate: Estimate
    phrase: str  # what was measured, in words (without the verdict)
    #: how far the interval lies inside the rule's region (negative: outside or across
    #: its edge), in the effect's units: which point of several is the weakest
    slack: float = math.nan


class Rule:
    """A decision rule: ``evaluate(inputs)`` gives an :class:`Outcome`; ``describe()``
    the rule in words (the ``rule`` column of claims.csv); ``examples()`` one input that
    holds and one that does not, so every claim's verdict can be seen to flip."""

    scale: Scale = PERCENT
    #: does the estimate read as a signed effect (+3 %) or as a value (7.9)?
    signed: bool = True

    def evaluate(self, inputs: Any, confidence: float = CONFIDENCE) -> Outcome:  # pragma: no cover
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def examples(self) -> tuple[Any, Any]:  # pragma: no cover - abstract
        raise NotImplementedError


def _slack_side(e: Estimate, threshold: float, above: bool) -> float:
    return (e.low - threshold if above else threshold - e.high) if e.defined else math.nan


def _slack_inside(e: Estimate, low: float, high: float) -> float:
    return min(high - e.high, e.low - low) if e.defined else math.nan


def _inside(e: Estimate, low: float, high: float) -> str:
    """holds / does not hold / undecided for "the effect lies inside [low, high]"."""
    if not e.defined:
        return "undecided"
    if low <= e.low and e.high <= high:
        return "holds"
    if e.low > high or e.high < low:
        return "does not hold"
    return "undecided"


def _side(e: Estimate, threshold: float, above: bool) -> str:
    """holds / does not hold / undecided for "the effect lies above (below) threshold"."""
    if not e.defined:
        return "undecided"
    if above:
        if e.low > threshold:
            return "holds"
        if e.high < threshold:
            return "does not hold"
    else:
        if e.high < threshold:
            return "holds"
        if e.low > threshold:
            return "does not hold"
    return "undecided"


def _synthetic(center: float, spread: float, n: int = 8) -> Sample:
    """A sample of ``n`` runs around ``center`` (for :meth:`Rule.examples`)."""
    offsets = [(-1) ** i * spread * (1 + i % 3) / 3 for i in range(n)]
    return Sample.of([center + o for o in offsets], list(range(1, n + 1)))


@dataclasses.dataclass(frozen=True)
class Compare(Rule):
    """A > B (``op=">"``) or A < B (``op="<"``) by more than ``margin``: the effect is
    mean(A)/mean(B) − 1 (``scale.relative``) or mean(A) − mean(B). Inputs: ``(A, B)``."""

    a: str
    b: str
    op: str = ">"
    margin: float = 0.0
    scale: Scale = PERCENT

    def __post_init__(self):
        if self.op not in (">", "<"):
            raise ValueError(f"op must be '>' or '<', got {self.op!r}")

    def evaluate(self, inputs: tuple[Sample, Sample], confidence: float = CONFIDENCE) -> Outcome:
        a, b = inputs
        e = relative(a, b, confidence) if self.scale.relative else difference(a, b, confidence)
        verdict = _side(e, self.margin, above=self.op == ">")
        if self.scale.ratio:
            phrase = f"{self.a} / {self.b} = {self.scale.fmt(e.value)}"
        else:
            where = "above" if e.value >= 0 else "below"
            size = self.scale.fmt(abs(e.value), sign=False) if not math.isnan(e.value) else "n/a"
            phrase = f"{self.a} is {size} {where} {self.b}"
        phrase += f" ({self.scale.interval(e)}{_runs(e)})"
        if verdict == "undecided":
            phrase += f"; the interval includes {self.scale.fmt(self.margin)}: " + _more_runs(
                e, self.margin
            )
        return Outcome(verdict, e, phrase, _slack_side(e, self.margin, self.op == ">"))

    def describe(self) -> str:
        what = ("A/B" if self.scale.ratio else "A/B − 1") if self.scale.relative else "A − B"
        side = "above" if self.op == ">" else "below"
        return (
            f"A = {self.a}, B = {self.b}: holds if the 95 % CI of {what} lies {side} "
            f"{self.scale.fmt(self.margin)}, does not hold if it lies on the other side, "
            "undecided if it includes it"
        )

    def examples(self) -> tuple[Any, Any]:
        base = 100.0
        edge = base * (1 + self.margin) if self.scale.relative else base + self.margin
        step = 30.0 * (1 + abs(self.margin))
        sign = 1 if self.op == ">" else -1
        b = _synthetic(base, 0.5)
        return (_synthetic(edge + sign * step, 0.5), b), (_synthetic(edge - sign * step, 0.5), b)


@dataclasses.dataclass(frozen=True)
class Within(Rule):
    """A ≈ B within ``tol``: the effect (relative or absolute) inside ±tol. Inputs:
    ``(A, B)``; B may be exact (a model, the paper's printed value)."""

    a: str
    b: str
    tol: float
    scale: Scale = PERCENT

    def evaluate(self, inputs: tuple[Sample, Sample], confidence: float = CONFIDENCE) -> Outcome:
        a, b = inputs
        e = relative(a, b, confidence) if self.scale.relative else difference(a, b, confidence)
        verdict = _inside(e, -self.tol, self.tol)
        phrase = (
            f"{self.a} differs from {self.b} by {self.scale.fmt(e.value)} "
            f"({self.scale.interval(e)}{_runs(e)}); tolerance ±"
            f"{self.scale.fmt(self.tol, sign=False)}"
        )
        if verdict == "undecided" and e.defined:
            edge = self.tol if e.value >= 0 else -self.tol
            phrase += f": the interval crosses {self.scale.fmt(edge)}; " + _more_runs(e, edge)
        return Outcome(verdict, e, phrase, _slack_inside(e, -self.tol, self.tol))

    def describe(self) -> str:
        what = "A/B − 1" if self.scale.relative else "A − B"
        return (
            f"A = {self.a}, B = {self.b}: holds if the 95 % CI of {what} lies inside "
            f"±{self.scale.fmt(self.tol, sign=False)}, does not hold if it lies outside, "
            "undecided if it crosses the edge"
        )

    def examples(self) -> tuple[Any, Any]:
        base = 100.0
        far = base * (3 * self.tol + 0.3) if self.scale.relative else 3 * self.tol + 30.0
        b = Sample.exact_value(base)
        return (_synthetic(base, 0.0), b), (_synthetic(base + far, 0.5), b)


@dataclasses.dataclass(frozen=True)
class InRange(Rule):
    """A's mean inside [low, high] (the paper's interval or band). Inputs: ``A``."""

    a: str
    low: float
    high: float
    scale: Scale = dataclasses.field(default_factory=lambda: Scale(relative=False))
    signed = False

    def evaluate(self, inputs: Sample, confidence: float = CONFIDENCE) -> Outcome:
        e = mean_interval(inputs, confidence)
        verdict = _inside(e, self.low, self.high)
        band = f"[{self.scale.fmt(self.low, False)}, {self.scale.fmt(self.high, False)}]"
        phrase = (
            f"{self.a} is {self.scale.fmt(e.value, False)} "
            f"({self.scale.interval(e, False)}{_runs(e)}) against {band}"
        )
        if verdict == "undecided" and e.defined:
            edge = self.low if e.low < self.low else self.high
            phrase += f": the interval crosses {self.scale.fmt(edge, False)}; " + _more_runs(
                e, edge
            )
        return Outcome(verdict, e, phrase, _slack_inside(e, self.low, self.high))

    def describe(self) -> str:
        return (
            f"A = {self.a}: holds if the 95 % CI of its mean lies inside "
            f"[{self.scale.fmt(self.low, False)}, {self.scale.fmt(self.high, False)}], does "
            "not hold if it lies outside, undecided if it crosses an edge"
        )

    def examples(self) -> tuple[Any, Any]:
        mid = (self.low + self.high) / 2
        width = max(self.high - self.low, abs(mid) * 0.1, 1e-9)
        return _synthetic(mid, width / 100), _synthetic(self.high + 2 * width, width / 100)


def _slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


@dataclasses.dataclass(frozen=True)
class Trend(Rule):
    """A quantity against x goes ``up``, ``down`` or stays ``flat``. The effect is the
    least-squares slope times the x range, relative to the mean of every run (the change
    over the range, in %), or absolute with ``scale``. Paired (every x with the same seeds):
    one slope per seed and the t interval of those slopes; otherwise the pooled
    regression's interval. ``up``/``down``: beyond ``margin``; ``flat``: inside ±``tol``.
    Inputs: ``[(x, Sample), ...]`` (at least two x)."""

    quantity: str
    x: str
    direction: str
    margin: float = 0.0
    tol: float = 0.0
    scale: Scale = PERCENT

    def __post_init__(self):
        if self.direction not in ("up", "down", "flat"):
            raise ValueError(f"direction must be up, down or flat, got {self.direction!r}")

    def effect(
        self, points: Sequence[tuple[float, Sample]], confidence: float = CONFIDENCE
    ) -> Estimate:
        pts = [(float(x), s) for x, s in points if s.n > 0]
        if len(pts) < 2:
            return _undefined("fewer than two points measured")
        xs = [x for x, _ in pts]
        span = max(xs) - min(xs)
        everything = [v for _, s in pts for v in s.values]
        level = sum(everything) / len(everything)
        norm = span / abs(level) if self.scale.relative else span
        if self.scale.relative and level == 0:
            return _undefined("the mean is 0: no relative change")
        seeds = [s.seeds for _, s in pts]
        paired = all(not s.exact for _, s in pts) and all(
            q is not None and sorted(q) == sorted(seeds[0]) and len(set(q)) == len(q) for q in seeds
        )
        if all(s.exact for _, s in pts):
            b = _slope(xs, [s.mean for _, s in pts]) * norm
            return Estimate(b, b, b, 0)
        if paired and len(seeds[0]) >= 2:
            per = [s.by_seed() for _, s in pts]
            slopes = [_slope(xs, [p[k] for p in per]) * norm for k in seeds[0]]
            e = mean_interval(Sample.of(slopes), confidence)
            return dataclasses.replace(e, n=len(slopes))
        allx = [x for x, s in pts for _ in s.values]
        if len(allx) < 3:
            return _undefined("too few runs for an interval")
        mx = sum(allx) / len(allx)
        sxx = sum((x - mx) ** 2 for x in allx)
        b = _slope(allx, everything)
        a0 = level - b * mx
        rss = sum((y - a0 - b * x) ** 2 for x, y in zip(allx, everything))
        se = math.sqrt(rss / (len(allx) - 2) / sxx)
        h = _t(len(allx) - 2, confidence) * se
        n = min(s.n for _, s in pts)
        return Estimate(b * norm, (b - h) * norm, (b + h) * norm, n)

    def evaluate(
        self, inputs: Sequence[tuple[float, Sample]], confidence: float = CONFIDENCE
    ) -> Outcome:
        e = self.effect(inputs, confidence)
        xs = [float(x) for x, s in inputs if s.n > 0]
        rng = f"{self.x} = {min(xs):g} to {max(xs):g}" if xs else self.x
        change = "changes"
        if e.defined:
            change = "rises" if e.value > 0 else "falls" if e.value < 0 else "stays"
        size = self.scale.fmt(abs(e.value), sign=False) if e.defined else "n/a"
        phrase = (
            f"{self.quantity} {change} by {size} over {rng} ({self.scale.interval(e)}{_runs(e)})"
        )
        if self.direction == "flat":
            verdict = _inside(e, -self.tol, self.tol)
            edge = self.tol if (e.value if e.defined else 0) >= 0 else -self.tol
            phrase += f"; flat means within ±{self.scale.fmt(self.tol, sign=False)}"
            slack = _slack_inside(e, -self.tol, self.tol)
        else:
            verdict = _side(e, self.margin, above=self.direction == "up")
            edge = self.margin
            slack = _slack_side(e, self.margin, self.direction == "up")
        if verdict == "undecided" and e.defined:
            phrase += f"; the interval includes {self.scale.fmt(edge)}: " + _more_runs(e, edge)
        return Outcome(verdict, e, phrase, slack)

    def describe(self) -> str:
        what = (
            "the least-squares change over the x range relative to the mean"
            if self.scale.relative
            else "the least-squares change over the x range"
        )
        if self.direction == "flat":
            return (
                f"{self.quantity} against {self.x}: holds if the 95 % CI of {what} lies "
                f"inside ±{self.scale.fmt(self.tol, sign=False)}, does not hold if outside, "
                "undecided otherwise"
            )
        side = "above" if self.direction == "up" else "below"
        return (
            f"{self.quantity} against {self.x}: holds if the 95 % CI of {what} lies {side} "
            f"{self.scale.fmt(self.margin)}, does not hold if it lies on the other side, "
            "undecided otherwise"
        )

    def examples(self) -> tuple[Any, Any]:
        def line(change: float) -> list[tuple[float, Sample]]:
            """Points on x = 0..3 whose least-squares change over the range is `change`
            (relative to their mean of 100, or absolute)."""
            per_x = change * (100 if self.scale.relative else 1) / 3
            return [(x, _synthetic(100 + per_x * (x - 1.5), 0.01)) for x in (0.0, 1.0, 2.0, 3.0)]

        if self.direction == "flat":
            return line(0.0), line(3 * self.tol + (0.3 if self.scale.relative else 30.0))
        sign = 1 if self.direction == "up" else -1
        step = 0.5 if self.scale.relative else 30.0 + abs(self.margin)
        return line(self.margin + sign * step), line(self.margin - sign * step)


@dataclasses.dataclass(frozen=True)
class Best(Rule):
    """Option ``claimed`` is the best (``higher`` is better, or lower): it beats every
    other option, each comparison's interval (Bonferroni-corrected over the others)
    excluding 0. Does not hold when some other option is significantly better. The
    estimate is the margin over the closest competitor. Inputs: ``{option: Sample}``."""

    quantity: str
    claimed: str
    higher: bool = True
    scale: Scale = PERCENT

    def evaluate(self, inputs: Mapping[str, Sample], confidence: float = CONFIDENCE) -> Outcome:
        if self.claimed not in inputs:
            raise NotRun(f"option {self.claimed!r} was not run")
        others = {k: v for k, v in inputs.items() if k != self.claimed and v.n > 0}
        if not others:
            raise NotRun("no other option was run")
        level = 1 - (1 - confidence) / len(others)
        c = inputs[self.claimed]
        effects = {}
        for k, s in others.items():
            e = relative(c, s, level) if self.scale.relative else difference(c, s, level)
            if not self.higher:  # positive = the claimed option is better
                e = dataclasses.replace(e, value=-e.value, low=-e.high, high=-e.low)
            effects[k] = e
        closest = min(effects, key=lambda k: effects[k].value)
        e = effects[closest]
        beaten_by = [k for k, x in effects.items() if x.defined and x.high < 0]
        if beaten_by:
            verdict = "does not hold"
        elif all(x.defined and x.low > 0 for x in effects.values()):
            verdict = "holds"
        else:
            verdict = "undecided"
        best_mean = max if self.higher else min
        winner = best_mean(inputs, key=lambda k: inputs[k].mean if inputs[k].n else math.nan)
        word = "higher" if self.higher else "lower"
        phrase = (
            f"{self.quantity}: best mean is {winner}; {self.claimed} against its closest "
            f"competitor {closest}: {self.scale.fmt(e.value)} better "
            f"({self.scale.interval(e)}, Bonferroni over {len(others)}{_runs(e)}; {word} is "
            "better)"
        )
        if beaten_by:
            phrase += f"; significantly beaten by {', '.join(beaten_by)}"
        elif verdict == "undecided" and e.defined:
            phrase += "; " + _more_runs(e, 0.0)
        slack = min((x.low if x.defined else math.nan) for x in effects.values())
        return Outcome(verdict, e, phrase, slack)

    def describe(self) -> str:
        word = "highest" if self.higher else "lowest"
        return (
            f"{self.quantity}: holds if {self.claimed} is {word} with every pairwise 95 % CI "
            "(Bonferroni) excluding 0, does not hold if another option is significantly "
            "better, undecided otherwise"
        )

    def examples(self) -> tuple[Any, Any]:
        sign = 1 if self.higher else -1
        good = {self.claimed: _synthetic(100 + sign * 30, 1), "other": _synthetic(100, 1)}
        bad = {self.claimed: _synthetic(100 - sign * 30, 1), "other": _synthetic(100, 1)}
        return good, bad


@dataclasses.dataclass(frozen=True)
class Every(Rule):
    """The ``inner`` rule at every point of ``over`` (e.g. at every PER above 10 %): holds
    if it holds at each point, does not hold if it does not hold at some point, undecided
    otherwise. Each point's interval is Bonferroni-corrected over the points. The estimate
    is the point that decides (the first that does not hold, else the weakest). Inputs:
    ``{point: inputs of inner}``."""

    inner: Rule
    over: str

    @property
    def scale(self) -> Scale:  # type: ignore[override]
        return self.inner.scale

    def evaluate(self, inputs: Mapping[Any, Any], confidence: float = CONFIDENCE) -> Outcome:
        if not inputs:
            raise NotRun(f"no {self.over} was run")
        level = 1 - (1 - confidence) / len(inputs)
        outs = {k: self.inner.evaluate(v, level) for k, v in inputs.items()}
        failing = [k for k, o in outs.items() if o.verdict == "does not hold"]
        open_ = [k for k, o in outs.items() if o.verdict == "undecided"]
        if failing:
            verdict, key = "does not hold", failing[0]
        elif open_:
            verdict, key = "undecided", open_[0]
        else:
            verdict = "holds"
            key = min(outs, key=lambda k: outs[k].slack)
        held = sum(o.verdict == "holds" for o in outs.values())
        phrase = f"holds at {held} of {len(outs)} {self.over} points (Bonferroni over {len(outs)})"
        if failing:
            phrase += ", not at " + ", ".join(str(k) for k in failing)
        phrase += f"; at {self.over} = {key}: {outs[key].phrase}"
        return Outcome(verdict, outs[key].estimate, phrase, outs[key].slack)

    def describe(self) -> str:
        return f"at every {self.over}: {self.inner.describe()}"

    def examples(self) -> tuple[Any, Any]:
        good, bad = self.inner.examples()
        return {1: good, 2: good}, {1: good, 2: bad}


# --------------------------------------------------------------------------- records


@dataclasses.dataclass(frozen=True)
class Claim:
    """One claim of a paper (or check of a validation), as data.

    ``measure(tables)`` returns the rule's inputs from a study's tables, or raises
    :class:`NotRun`. ``paper``: the paper's value where its text gives one (a number or
    a short text such as "9–12"). ``explain(tables, outcome)`` may return a sentence that
    explains the verdict; it must cite counters the runs measured (not fixed prose)."""

    id: str
    ref: str
    text: str
    rule: Rule
    measure: Callable[[Any], Any]
    kind: str = "simulation"
    paper: str = ""
    explain: Callable[[Any, Outcome], str] | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.id}: kind {self.kind!r} is not one of {KINDS}")

    def judge(self, inputs: Any) -> Outcome:
        """The verdict function: the rule applied to ``inputs``."""
        return self.rule.evaluate(inputs)

    def decide(self, tables: Any) -> Verdict:
        """Measure the claim's quantity in ``tables`` and judge it."""
        try:
            outcome = self.judge(self.measure(tables))
        except NotRun as why:
            return Verdict(self, "not run", _undefined(str(why)), f"not run: {why}")
        label = outcome.verdict
        if self.kind == "model property":
            label += " (a property of the models, not a result of our runs)"
        sentence = f"{label}: {outcome.phrase}."
        if self.explain is not None:
            extra = self.explain(tables, outcome)
            if extra:
                sentence += " " + extra
        return Verdict(self, outcome.verdict, outcome.estimate, sentence)


@dataclasses.dataclass(frozen=True)
class Verdict:
    claim: Claim
    verdict: str
    estimate: Estimate
    sentence: str

    def row(self) -> dict[str, Any]:
        c, e = self.claim, self.estimate
        scale, sign = c.rule.scale, c.rule.signed
        ours = "" if math.isnan(e.value) else scale.fmt(e.value, sign)
        ci = (
            ""
            if not e.defined or e.low == e.high
            else f"{scale.fmt(e.low, sign)} … {scale.fmt(e.high, sign)}"
        )
        return {
            "id": c.id,
            "ref": c.ref,
            "claim": c.text,
            "kind": c.kind,
            "paper": c.paper,
            "ours": ours,
            "ci95": ci,
            "value": e.value,
            "ci_low": e.low,
            "ci_high": e.high,
            "runs": e.n,
            "verdict": self.verdict,
            "rule": c.rule.describe(),
            "sentence": self.sentence,
        }


def decide_all(claims: Sequence[Claim], tables: Any) -> list[Verdict]:
    ids = [c.id for c in claims]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"duplicate claim ids: {', '.join(dup)}")
    return [c.decide(tables) for c in claims]


def counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    return {v: sum(x.verdict == v for x in verdicts) for v in VERDICTS}


# --------------------------------------------------------------------------- outputs

CSV_COLUMNS = (
    "id", "ref", "claim", "kind", "paper", "ours", "ci95", "value", "ci_low", "ci_high",
    "runs", "verdict", "rule", "sentence", "profile", "other_profile", "other_verdict",
    "other_ours", "other_ci95", "other_sentence",
)  # fmt: skip


def write_csv(
    path: str | Path,
    verdicts: Sequence[Verdict],
    profile: str,
    other: Sequence[Verdict] | None = None,
    other_profile: str = "",
) -> Path:
    """claims.csv: one row per claim, the study's own profile first and, beside it, the
    verdict under the other profile ("not run" when it was not run)."""
    path = Path(path)
    by_id = {v.claim.id: v for v in other or ()}
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
        w.writeheader()
        for v in verdicts:
            row = v.row()
            o = by_id.get(v.claim.id)
            row.update(
                profile=profile,
                other_profile=other_profile,
                other_verdict=o.verdict if o else "not run",
                other_ours=o.row()["ours"] if o else "",
                other_ci95=o.row()["ci95"] if o else "",
                other_sentence=o.sentence if o else "",
            )
            w.writerow(row)
    return path


def read_csv(path: str | Path) -> list[dict[str, str]]:
    with Path(path).open(newline="") as f:
        return list(csv.DictReader(f))


def contradicts(a: str, b: str) -> bool:
    """Do two verdicts contradict each other (one holds, the other does not)?"""
    return {a, b} == {"holds", "does not hold"}


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(
    verdicts: Sequence[Verdict],
    other: Sequence[Verdict] | None = None,
    other_profile: str = "",
) -> list[str]:
    """The claims table of a report, then each verdict's sentence."""
    by_id = {v.claim.id: v for v in other or ()}
    head = "| id | paper ref | claim | paper | ours | verdict |"
    sep = "|---|---|---|---|---|---|"
    if other is not None:
        head = head[:-1] + f"| under `{other_profile}` |"
        sep += "---|"
    lines = [head, sep]
    for v in verdicts:
        r = v.row()
        ours = r["ours"] + (f" ({r['ci95']})" if r["ci95"] else "")
        cells = [r["id"], r["ref"], r["claim"], r["paper"], ours, f"**{v.verdict}**"]
        if other is not None:
            o = by_id.get(v.claim.id)
            cells.append(o.verdict if o else "not run")
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines += ["", "Each verdict, as computed from the runs:", ""]
    lines += [f"- **{v.claim.id}** ({v.claim.ref}, {v.claim.kind}): {v.sentence}" for v in verdicts]
    if other is not None:
        lines += ["", f"Under `{other_profile}`:", ""]
        lines += [f"- **{o.claim.id}**: {o.sentence}" for o in other]
    c = counts(verdicts)
    lines += ["", "Counts: " + ", ".join(f"{k} {c[k]}" for k in VERDICTS) + "."]
    return lines
