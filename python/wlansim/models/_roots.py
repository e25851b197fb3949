"""The root of a continuous function on a bracket, by bisection.

Written out rather than taken from ``scipy.optimize.brentq`` because importing
scipy.optimize takes 0.5-1.5 s and `wlansim model bianchi` must start in a fraction of a
second; bisection needs no derivative, cannot leave the bracket, and 60 halvings reach
the float resolution of [0, 1], so it costs microseconds for the models' fixed points.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Callable


def bisect(f: Callable[[float], float], low: float, high: float, xtol: float = 1e-15) -> float:
    """A root of `f` in [`low`, `high`], where f(low) and f(high) have opposite signs (or
    one is 0), to within `xtol`."""
    f_low, f_high = f(low), f(high)
    if f_low == 0.0:
        return low
    if f_high == 0.0:
        return high
    if (f_low > 0) == (f_high > 0):
        raise ValueError(f"bisect: f({low}) = {f_low} and f({high}) = {f_high} have one sign")
    while high - low > xtol:
        mid = 0.5 * (low + high)
        if mid in (low, high):  # the float resolution
            break
        f_mid = f(mid)
        if f_mid == 0.0:
            return mid
        if (f_mid > 0) == (f_low > 0):
            low, f_low = mid, f_mid
        else:
            high = mid
    return 0.5 * (low + high)
