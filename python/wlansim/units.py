"""Quantities with units — durations, rates, sizes and powers — read by the scenario's own
parser (the Rust core's ``scenario::units``), so that the command line, the Python API
and scenario files accept the same spellings and refuse the same mistakes with the same
message.

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
