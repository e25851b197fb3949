"""What the command line prints: strict JSON documents and human-readable tables.

JSON: ``--json`` prints RFC 8259 JSON, which strict parsers (jq, JavaScript, Go) read: a
value that is undefined (NaN, e.g. a confidence interval of too few samples) or infinite
is ``null``, never the ``NaN``/``Infinity`` tokens Python's `json` writes by default.

Tables: a column named after its unit is shown in the unit a reader expects, with the
unit in the header: ``throughput_bps`` as ``throughput (Mb/s)``, ``delay_mean_s`` as
``delay_mean (ms)``; other numbers with at most six significant digits and no exponent
below 10^15 (``6100000`` rather than ``6.1e+06``). Missing values print as ``-``.
pandas is not needed (so that `wlansim run` and `wlansim results` start fast).
"""

from __future__ import annotations

import math

from wlansim.strict_json import dumps as json_dumps
from wlansim.strict_json import strict
from wlansim.units import UNITS, unit_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Mapping, Sequence
    from typing import Any

__all__ = ["UNITS", "format_table", "json_dumps", "number", "strict", "unit_of"]


def number(value: Any, digits: int = 6) -> str:
    """A number for a table: integers as they are, other values with at most `digits`
    significant digits in positional notation (an exponent only beyond 10^15 or below
    10^-4), missing values as ``-``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= 15 or magnitude < -4:
        return f"{value:.{digits - 1}e}"
    decimals = max(0, digits - 1 - magnitude)
    text = f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_table(
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str],
    headers: Mapping[str, str] | None = None,
    scaled: bool = True,
) -> str:
    """Rows as a right-aligned text table: a numeric column named after its unit in that
    unit (see `UNITS`; not with ``scaled=False``), with the unit in its header; ``headers``
    renames columns. Text columns are left-aligned."""
    headers = dict(headers or {})
    cells: list[list[str]] = []
    names: list[str] = []
    numeric: list[bool] = []
    for c in columns:
        values = [row.get(c) for row in rows]
        is_number = all(
            v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values
        ) and any(v is not None for v in values)
        unit = unit_of(c) if scaled and is_number else None
        if unit is not None:
            name, scale, label = unit
            values = [None if v is None else v * scale for v in values]
            names.append(headers.get(c, f"{name} ({label})"))
        else:
            names.append(headers.get(c, c))
        cells.append([number(v) for v in values])
        numeric.append(is_number)
    widths = [max([len(n)] + [len(v) for v in col]) for n, col in zip(names, cells)]

    def line(items: Sequence[str]) -> str:
        parts = [x.rjust(w) if num else x.ljust(w) for x, w, num in zip(items, widths, numeric)]
        return "  ".join(parts).rstrip()

    out = [line(names)]
    out.extend(line([col[i] for col in cells]) for i in range(len(rows)))
    return "\n".join(out)
