"""Argument checks shared by the analytical models.

Every check raises ``ValueError`` naming the argument, the value received and what is
allowed, so that a bad input fails at the model boundary with a readable message.
numpy is imported on first use, so that importing a model (e.g. for its constants) stays
cheap.
"""

from __future__ import annotations

import math


def _describe(value) -> str:
    import numpy as np

    return repr(value.tolist()) if isinstance(value, np.ndarray) else repr(value)


def _plain(value) -> bool:
    """A Python number (not a bool): checked without numpy, which is then not imported."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def integer(name: str, value, *, minimum: int) -> int:
    """Return ``value`` as an int, requiring a whole number >= ``minimum``."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < minimum:
            raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
        return value
    import numpy as np

    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if not (isinstance(value, (float, np.floating)) and float(value).is_integer()):
            raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def real(name: str, value, *, minimum: float = -math.inf, strict: bool = False):
    """Return ``value`` as a float (or float array), requiring finite values above
    ``minimum`` (``> minimum`` if ``strict``, else ``>= minimum``)."""
    bound = f"> {minimum}" if strict else f">= {minimum}"
    if _plain(value):
        x = float(value)
        if not math.isfinite(x) or (x <= minimum if strict else x < minimum):
            raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
        return x
    import numpy as np

    arr = np.asarray(value, dtype=float)
    bad = ~np.isfinite(arr) | ((arr <= minimum) if strict else (arr < minimum))
    if np.any(bad):
        raise ValueError(f"{name} must be a finite number {bound}, got {_describe(value)}")
    return float(arr) if arr.ndim == 0 else arr


def probability(name: str, value, *, open_lower: bool = False, open_upper: bool = False):
    """Return ``value`` as a float (or float array) in [0, 1], excluding 0 if ``open_lower``
    and 1 if ``open_upper``."""
    interval = f"{'(' if open_lower else '['}0, 1{')' if open_upper else ']'}"
    if _plain(value):
        x = float(value)
        lower_ok = x > 0.0 if open_lower else x >= 0.0
        upper_ok = x < 1.0 if open_upper else x <= 1.0
        if not (lower_ok and upper_ok):  # NaN fails both
            raise ValueError(f"{name} must be a probability in {interval}, got {value!r}")
        return x
    import numpy as np

    arr = np.asarray(value, dtype=float)
    lower_ok = (arr > 0.0) if open_lower else (arr >= 0.0)
    upper_ok = (arr < 1.0) if open_upper else (arr <= 1.0)
    if not np.all(np.isfinite(arr) & lower_ok & upper_ok):
        raise ValueError(f"{name} must be a probability in {interval}, got {_describe(value)}")
    return float(arr) if arr.ndim == 0 else arr


def choice(name: str, value, allowed: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value
