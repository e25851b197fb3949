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

from wlansim.evidence.stats import (
    CONFIDENCE,
    Estimate,
    Sample,
    _t,
    _undefined,
    difference,
    identical,
    mean_interval,
    per_run_effects,
    prediction_half_width,
    relative,
)

#: The verdicts, in the order reports count them. "cannot show": the runs cannot show the
#: effect either way (the two cases compared gave the same value in every run, or the
#: claim's own check of its setup says why, e.g. nothing was ever lost).
VERDICTS = ("holds", "does not hold", "undecided", "cannot show", "not run")
#: What a claim compares. The last two are not reproductions of the paper's results and
#: are counted apart: a property of the models (exact numbers), and the paper's numbers
#: against each other.
KINDS = (
    "simulation", "model vs simulation", "simulation vs paper", "model property",
    "paper consistency",
)  # fmt: skip
#: Kinds that are not a reproduction of the paper's results (not counted as one).
NOT_REPRODUCTION = ("model property", "paper consistency")


class NotRun(Exception):  # noqa: N818 - a verdict, not an error condition
    """Raised by a claim's ``measure`` when the run that measures it was not made; the
    message says why (e.g. "quick mode runs PER 20 % only")."""


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


#: What a phrase adds when the two cases compared gave the same value in every run.
SAME_IN_EVERY_RUN = "both cases gave the same value in every run: these runs cannot show the effect"


def _inside(e: Estimate, low: float, high: float) -> str:
    """holds / does not hold / undecided for "the effect lies inside [low, high]"
    (cannot show when the two cases were identical in every run)."""
    if e.identical:
        return "cannot show"
    if not e.defined:
        return "undecided"
    if low <= e.low and e.high <= high:
        return "holds"
    if e.low > high or e.high < low:
        return "does not hold"
    return "undecided"


def _side(e: Estimate, threshold: float, above: bool) -> str:
    """holds / does not hold / undecided for "the effect lies above (below) threshold"
    (cannot show when the two cases were identical in every run)."""
    if e.identical:
        return "cannot show"
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
        if verdict == "cannot show":
            phrase += f"; {SAME_IN_EVERY_RUN}"
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
        if verdict == "cannot show":
            phrase += f"; {SAME_IN_EVERY_RUN}"
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


@dataclasses.dataclass(frozen=True)
class Trend(Rule):
    """A quantity against x goes ``up``, ``down`` or stays ``flat``, as a paper's words
    describe it ("falls from ... to ...", "grows with n"): the effect is the change from the
    first x to the last, relative to the first (mean at the last x / mean at the first − 1,
    in %; a fall is never below −100 %) or absolute with ``scale``, paired by seed where
    both ends have the same seeds. ``up``/``down``: beyond ``margin``; ``flat``: inside
    ±``tol``. Inputs: ``[(x, Sample), ...]`` (at least two x; the ends are the smallest
    and largest x measured)."""

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
        pts = sorted(((float(x), s) for x, s in points if s.n > 0), key=lambda p: p[0])
        if len(pts) < 2:
            return _undefined("fewer than two points measured")
        first, last = pts[0][1], pts[-1][1]
        e = (
            relative(last, first, confidence)
            if self.scale.relative
            else difference(last, first, confidence)
        )
        if e.identical and not all(identical(s, first) for _, s in pts[1:-1]):
            # the ends agree run by run but the points between them do not: a real zero
            e = dataclasses.replace(e, identical=False)
        return e

    def evaluate(
        self, inputs: Sequence[tuple[float, Sample]], confidence: float = CONFIDENCE
    ) -> Outcome:
        e = self.effect(inputs, confidence)
        xs = [float(x) for x, s in inputs if s.n > 0]
        rng = f"from {self.x} = {min(xs):g} to {max(xs):g}" if xs else f"over {self.x}"
        change = "changes"
        if e.defined:
            change = "rises" if e.value > 0 else "falls" if e.value < 0 else "stays"
        size = self.scale.fmt(abs(e.value), sign=False) if e.defined else "n/a"
        phrase = f"{self.quantity} {change} by {size} {rng} ({self.scale.interval(e)}{_runs(e)})"
        if self.direction == "flat":
            verdict = _inside(e, -self.tol, self.tol)
            edge = self.tol if (e.value if e.defined else 0) >= 0 else -self.tol
            phrase += f"; flat means within ±{self.scale.fmt(self.tol, sign=False)}"
            slack = _slack_inside(e, -self.tol, self.tol)
        else:
            verdict = _side(e, self.margin, above=self.direction == "up")
            edge = self.margin
            slack = _slack_side(e, self.margin, self.direction == "up")
        if verdict == "cannot show":
            phrase += "; every x gave the same value in every run: these runs cannot show a trend"
        if verdict == "undecided" and e.defined:
            phrase += f"; the interval includes {self.scale.fmt(edge)}: " + _more_runs(e, edge)
        return Outcome(verdict, e, phrase, slack)

    def describe(self) -> str:
        what = (
            "the change from the first x to the last, relative to the first"
            if self.scale.relative
            else "the change from the first x to the last"
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
            """Points on x = 0..3 whose change from the first to the last is `change`
            (relative to the first, of 100; or absolute); a spread of its own at each."""
            step = change * (100 if self.scale.relative else 1) / 3
            return [(x, _synthetic(100 + step * x, 0.01 * (1 + x))) for x in (0.0, 1.0, 2.0, 3.0)]

        if self.direction == "flat":
            return line(0.0), line(3 * self.tol + (0.3 if self.scale.relative else 30.0))
        sign = 1 if self.direction == "up" else -1
        step = 0.5 if self.scale.relative else 30.0 + abs(self.margin)
        if self.scale.relative and sign < 0:  # a fall stays above -100 %
            step = min(step, (1 + self.margin) / 2)
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
        elif e.identical:
            verdict = "cannot show"
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
        elif verdict == "cannot show":
            phrase += f"; {self.claimed} and {closest}: {SAME_IN_EVERY_RUN}"
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
    otherwise; a point whose runs cannot show anything (both cases the same in every run)
    is set aside, and with every point so, the claim cannot show. Each point's interval is
    Bonferroni-corrected over the points. The estimate is the point that decides (the
    first that does not hold, else the weakest). Inputs: ``{point: inputs of inner}``."""

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
        blind = [k for k, o in outs.items() if o.verdict == "cannot show"]
        if failing:
            verdict, key = "does not hold", failing[0]
        elif open_:
            verdict, key = "undecided", open_[0]
        elif len(blind) == len(outs):
            verdict, key = "cannot show", blind[0]
        else:  # points whose runs cannot show anything are set aside
            verdict = "holds"
            key = min((k for k in outs if k not in blind), key=lambda k: outs[k].slack)
        held = sum(o.verdict == "holds" for o in outs.values())
        phrase = f"holds at {held} of {len(outs)} {self.over} points (Bonferroni over {len(outs)})"
        if failing:
            phrase += ", not at " + ", ".join(str(k) for k in failing)
        if blind:
            phrase += (
                ", set aside at "
                + ", ".join(str(k) for k in blind)
                + " (the same value in both cases in every run)"
            )
        phrase += f"; at {self.over} = {key}: {outs[key].phrase}"
        return Outcome(verdict, outs[key].estimate, phrase, outs[key].slack)

    def describe(self) -> str:
        return f"at every {self.over}: {self.inner.describe()}"

    def examples(self) -> tuple[Any, Any]:
        good, bad = self.inner.examples()
        return {1: good, 2: good}, {1: good, 2: bad}


@dataclasses.dataclass(frozen=True)
class PaperValue(Rule):
    """Our runs against a value the paper printed from one run of its simulator (or the
    mean of ``paper_runs`` runs): does the paper's value lie where a run of ours could
    have fallen? The effect is A's mean, or A/B − 1 (``scale.relative``) or A − B against
    B; its run-to-run spread (per seed when paired) gives the Student t interval in which
    the mean of ``paper_runs`` further runs falls (:func:`prediction_half_width`), widened
    by ``tol`` (the precision the paper's value can be read with, e.g. off a figure).
    Holds if the paper's value lies inside, does not hold if outside; undecided with
    fewer than two runs. Inputs: ``A`` or ``(A, B)``."""

    a: str
    paper: float
    b: str = ""
    tol: float = 0.0
    paper_runs: int = 1
    scale: Scale = PERCENT

    @property
    def signed(self) -> bool:  # type: ignore[override]
        """An effect (A/B − 1, A − B) reads signed; a value of A alone does not."""
        return bool(self.b) or self.scale.relative

    def evaluate(self, inputs: Any, confidence: float = CONFIDENCE) -> Outcome:
        a, b = inputs if isinstance(inputs, tuple) else (inputs, None)
        rel = self.scale.relative and b is not None
        if b is None:
            e = mean_interval(a, confidence)
        else:
            e = relative(a, b, confidence) if rel else difference(a, b, confidence)
        sign = self.signed

        def f(x: float) -> str:
            return self.scale.fmt(x, sign)

        what = f"{self.a} against {self.b}" if b is not None else self.a
        paper = f"the paper's {f(self.paper)}"
        if e.identical:
            phrase = f"{what}: {f(e.value)} ({self.scale.interval(e, sign)}{_runs(e)})"
            phrase += f"; {SAME_IN_EVERY_RUN}"
            return Outcome("cannot show", e, phrase)
        per_run = per_run_effects(a, b, rel)
        if per_run.n >= 2:
            h = prediction_half_width(per_run, self.paper_runs, confidence)
        elif b is not None and a.n >= 2 and b.n >= 2 and b.mean != 0:
            # unpaired: the spread of one run's effect by the delta method
            ma, mb = a.mean, b.mean
            var = a.var / mb**2 + ma**2 * b.var / mb**4 if rel else a.var + b.var
            n = min(a.n, b.n)
            h = _t(n - 1, confidence) * math.sqrt(var * (1 / self.paper_runs + 1 / n))
        else:
            h = math.nan
        if math.isnan(h) or math.isnan(e.value):
            phrase = f"{what}: {f(e.value)}{_runs(e)}; too few runs to know where one run falls"
            return Outcome("undecided", e, phrase)
        lo, hi = e.value - h - self.tol, e.value + h + self.tol
        inside = lo <= self.paper <= hi
        runs = "a run" if self.paper_runs == 1 else f"the mean of {self.paper_runs} runs"
        phrase = (
            f"{what}: {f(e.value)} ({self.scale.interval(e, sign)}{_runs(e)}); {runs} of ours "
            f"falls in {f(e.value - h)} to {f(e.value + h)} (95 %, from our runs' spread"
            + (f", ± {self.scale.fmt(self.tol, sign=False)} reading" if self.tol else "")
            + f"), which {'includes' if inside else 'excludes'} {paper}"
        )
        slack = min(self.paper - lo, hi - self.paper)
        return Outcome("holds" if inside else "does not hold", e, phrase, slack)

    def describe(self) -> str:
        what = (
            f"A/B − 1 (A = {self.a}, B = {self.b})" if self.b and self.scale.relative
            else f"A − B (A = {self.a}, B = {self.b})" if self.b else f"the mean of {self.a}"
        )  # fmt: skip
        runs = "one run" if self.paper_runs == 1 else f"the mean of {self.paper_runs} runs"
        return (
            f"{what}: holds if the paper's {self.scale.fmt(self.paper, self.signed)} lies inside "
            f"the 95 % interval in which {runs} of ours falls (our run-to-run spread"
            + (f" ± {self.scale.fmt(self.tol, sign=False)}" if self.tol else "")
            + "), does not hold if outside"
        )

    def examples(self) -> tuple[Any, Any]:
        far = 3 * abs(self.tol) + (0.5 if self.scale.relative else 30.0) + abs(self.paper)
        if self.b:
            base = _synthetic(100.0, 0.5)
            at = (lambda v: 100.0 * (1 + v)) if self.scale.relative else (lambda v: 100.0 + v)
            return (_synthetic(at(self.paper), 0.5), base), (
                _synthetic(at(self.paper + far), 0.5),
                base,
            )
        return _synthetic(self.paper, 0.5), _synthetic(self.paper + far, 0.5)


# --------------------------------------------------------------------------- records


@dataclasses.dataclass(frozen=True)
class Test:
    """A further test of a claim's statement, decided on the same tables: the paper's
    printed value beside the direction the text states (``label`` "value"), or what the
    statement presupposes (a claim's ``premise``)."""

    __test__ = False  # not a pytest test class

    label: str
    rule: Rule
    measure: Callable[[Any], Any]
    kind: str = "simulation vs paper"
    paper: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"test {self.label}: kind {self.kind!r} is not one of {KINDS}")


@dataclasses.dataclass(frozen=True)
class TestResult:
    """A test's verdict and what it measured (``estimate``, in its rule's ``scale``)."""

    label: str
    verdict: str
    phrase: str
    estimate: Estimate
    scale: Scale


#: How several tests of one statement combine: the first of these verdicts that any
#: test has decides; the statement holds only when every test that ran holds.
_COMBINE = ("does not hold", "undecided", "cannot show")


@dataclasses.dataclass(frozen=True)
class Claim:
    """One statement of a paper (or check of a validation), as data: one row of a report.

    ``measure(tables)`` returns the rule's inputs from a study's tables, or raises
    :class:`NotRun`. ``paper``: the paper's value where its text gives one (a number or
    a short text such as "9–12"). ``explain(tables, outcome)`` may return a sentence that
    explains the verdict; it must cite counters the runs measured (not fixed prose).

    A statement may carry further tests (``also``: e.g. the paper's printed value beside
    the direction its text states): it holds when every test holds. ``premise``: what the
    statement presupposes ("the larger gain" presupposes gains); when it does not hold,
    neither does the statement. ``setup(tables)`` returns why the runs cannot show the
    effect at all ("" when they can: e.g. nothing was lost in any run, so no loss
    recovery can differ); two cases that gave the same value in every run are found
    without it. ``ns2``: what stock ns-2.35 lacks to run the statement's cases ("" when
    it can); ``rests_on``: ids of statements that ns-2.35 can decide and whose cases this
    one is measured against (the baselines of a mechanism ns-2.35 does not have)."""

    id: str
    ref: str
    text: str
    rule: Rule
    measure: Callable[[Any], Any]
    kind: str = "simulation"
    paper: str = ""
    explain: Callable[[Any, Outcome], str] | None = None
    also: tuple[Test, ...] = ()
    premise: Test | None = None
    setup: Callable[[Any], str] | None = None
    ns2: str = ""
    rests_on: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.id}: kind {self.kind!r} is not one of {KINDS}")

    def judge(self, inputs: Any) -> Outcome:
        """The verdict function: the rule applied to ``inputs``."""
        return self.rule.evaluate(inputs)

    def _test(self, t: Test, tables: Any) -> TestResult:
        try:
            o = t.rule.evaluate(t.measure(tables))
        except NotRun as why:
            e = _undefined(str(why))
            return TestResult(t.label, "not run", f"not run: {why}", e, t.rule.scale)
        return TestResult(t.label, o.verdict, o.phrase, o.estimate, t.rule.scale)

    def decide(self, tables: Any) -> Verdict:
        """Measure the statement's quantities in ``tables`` and judge them."""
        try:
            blind = self.setup(tables) if self.setup is not None else ""
            if blind:
                return Verdict(self, "cannot show", _undefined(blind), f"cannot show: {blind}.")
            if self.premise is not None:
                pre = self._test(self.premise, tables)
                if pre.verdict != "holds":
                    verdict = "not run" if pre.verdict == "not run" else pre.verdict
                    state = "does not hold" if verdict == "does not hold" else f"is {verdict}"
                    sentence = (
                        f"{verdict}: what it presupposes ({self.premise.label}) {state}: "
                        f"{pre.phrase}."
                    )
                    return Verdict(self, verdict, pre.estimate, sentence, (pre,))
            outcome = self.judge(self.measure(tables))
        except NotRun as why:
            return Verdict(self, "not run", _undefined(str(why)), f"not run: {why}")
        main = TestResult("", outcome.verdict, outcome.phrase, outcome.estimate, self.rule.scale)
        others = tuple(self._test(t, tables) for t in self.also)
        decided = [r.verdict for r in (main, *others) if r.verdict != "not run"]
        verdict = next((v for v in _COMBINE if v in decided), "holds")
        label = verdict
        if self.kind == "model property":
            label += " (a property of the models, not a result of our runs)"
        sentence = f"{label}: {outcome.phrase}."
        for r in others:
            sentence += f" {r.label.capitalize()}: {r.verdict}: {r.phrase}."
        if self.explain is not None:
            extra = self.explain(tables, outcome)
            if extra:
                sentence += " " + extra
        return Verdict(self, verdict, outcome.estimate, sentence, others)

    def cannot_run_ns2(self) -> Verdict:
        """The verdict under ns-2.35 of a statement it cannot run (``ns2`` says why)."""
        why = f"ns-2.35 cannot run this: {self.ns2}"
        return Verdict(self, "not run", _undefined(why), why + ".")


@dataclasses.dataclass(frozen=True)
class Verdict:
    claim: Claim
    verdict: str
    estimate: Estimate
    sentence: str
    #: the statement's further tests (or the premise that decided it), each with its verdict
    tests: tuple[TestResult, ...] = ()

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
            "tests": "; ".join(f"{t.label}: {t.verdict}" for t in self.tests),
            "rule": c.rule.describe()
            + "".join(f"; {t.label}: {t.rule.describe()}" for t in c.also),
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


# --------------------------------------------------------------------------- reading


def read_csv(path: str | Path) -> list[dict[str, str]]:
    """The rows of a claims.csv (:func:`wlansim.evidence.report.write_claims_csv`)."""
    with Path(path).open(newline="") as f:
        return list(csv.DictReader(f))


def contradicts(a: str, b: str) -> bool:
    """Do two verdicts contradict each other (one holds, the other does not)?"""
    return {a, b} == {"holds", "does not hold"}
