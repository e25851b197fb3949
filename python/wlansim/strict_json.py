"""Strict JSON (RFC 8259), the one rule for every JSON wlansim writes.

A value that is undefined (NaN, e.g. a confidence interval of one sample) or infinite is
written as ``null``, never as the ``NaN``/``Infinity`` tokens Python's `json` writes by
default: strict parsers (jq, JavaScript, Go, SQLite's ``json_extract``) read the result.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any


def strict(value: Any) -> Any:
    """`value` with every non-finite float (at any depth) replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """Strict JSON text of `value` (undefined numbers as null); `kwargs` as `json.dumps`."""
    return json.dumps(strict(value), allow_nan=False, **kwargs)
