"""Units, one rule each way. In: quantities — durations, rates, sizes and powers — read
by the scenario's own parser (the Rust core's ``scenario::units``), so that the command
line, the Python API and scenario files accept the same spellings and refuse the same
mistakes with the same message. Out: a result column named after its unit
(``throughput_bps``, ``delay_mean_s``) is shown in one unit by tables and plots alike
(:data:`UNITS`).

    >>> units.parse("duration", "10 ms")      # seconds
    0.01
    >>> units.parse("rate", "11 Mb/s")        # b/s
    11000000.0
    >>> units.parse("size", "1.5 kB")         # bytes
    1500
    >>> units.parse("power", "-82 dBm")       # watts ("dBm", "mW" or "W")
    6.309573444801943e-12
"""

from __future__ import annotations

import math

from wlansim.errors import ScenarioError

#: the kinds of quantity and the unit each is returned in
KINDS = {"duration": "s", "rate": "b/s", "size": "B", "power": "W"}


def parse(kind: str, text: str | float) -> float:
    """``text`` read as a ``kind`` quantity (see :data:`KINDS`), in the unit of
    :data:`KINDS`; a size is an ``int``. A bad value is a :class:`ScenarioError` that says
    what is allowed."""
    from wlansim import _core

    if kind not in KINDS:
        raise ValueError(f"unknown kind of quantity {kind!r}: {', '.join(KINDS)}")
    try:
        value = _core.parse_quantity(kind, str(text).strip())
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    return int(value) if kind == "size" else value


def dbm(watts: float) -> float:
    """A power in dBm."""
    return 10.0 * math.log10(watts) + 30.0


#: how a result column named after its unit is shown (tables, plots): column suffix ->
#: (scale, unit), e.g. ``throughput_bps`` in Mb/s, ``delay_mean_s`` in ms
UNITS = {
    "_bps": (1e-6, "Mb/s"),
    "_s": (1e3, "ms"),
    "_bytes": (1.0, "B"),
    "_dbm": (1.0, "dBm"),
    "_m": (1.0, "m"),
}


def unit_of(column: str) -> tuple[str, float, str] | None:
    """``(name without the suffix, scale, unit)`` of a column named after its unit."""
    for suffix, (scale, unit) in UNITS.items():
        if column.endswith(suffix) and len(column) > len(suffix):
            return column[: -len(suffix)], scale, unit
    return None
