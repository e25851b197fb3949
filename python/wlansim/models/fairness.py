"""Fairness measures for per-flow or per-station throughputs (any consistent unit)."""

from __future__ import annotations

import math


def _throughputs(name: str, values) -> list[float]:
    """``values`` (a sequence, or an array of any shape) as a flat list of floats. Plain
    Python (no numpy), since every run's metrics use it."""
    try:
        x = [float(v) for v in values]
    except TypeError:  # nested: an array of several dimensions
        import numpy as np

        x = np.asarray(values, dtype=float).ravel().tolist()
    if not x:
        raise ValueError(f"{name} must contain at least one throughput, got an empty sequence")
    if not all(math.isfinite(v) and v >= 0.0 for v in x):
        raise ValueError(f"{name} must be finite and >= 0, got {x!r}")
    return x


def jain_index(throughputs) -> float:
    """Jain's fairness index J = (sum x)^2 / (n sum x^2), in [1/n, 1].

    R. Jain, D. Chiu, W. Hawe, "A Quantitative Measure of Fairness and Discrimination for
    Resource Allocation in Shared Computer Systems", DEC TR-301, 1984. J = 1 when all n
    values are equal and k/n when k are equal and the rest zero. Raises ValueError for an
    empty input or one whose values are all zero (J is undefined).
    """
    x = _throughputs("throughputs", throughputs)
    total_sq = math.fsum(v * v for v in x)
    if total_sq == 0.0:
        raise ValueError("throughputs are all zero: Jain's index is undefined")
    return math.fsum(x) ** 2 / (len(x) * total_sq)


def up_down_ratio(upstream, downstream) -> float:
    """Ratio R_u / R_d of the mean upstream to the mean downstream per-flow throughput
    (pilosof2003 Table I and Figs 2, 6, 7).

    Returns ``math.inf`` when every downstream flow is starved but some upstream flow is
    not; raises ValueError if either side is empty or both are all zero.
    """
    up = _mean(_throughputs("upstream", upstream))
    down = _mean(_throughputs("downstream", downstream))
    if down == 0.0:
        if up == 0.0:
            raise ValueError("upstream and downstream throughputs are all zero: ratio undefined")
        return float("inf")
    return float(up / down)


def _mean(x: list[float]) -> float:
    return math.fsum(x) / len(x)
