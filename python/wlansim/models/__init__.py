"""Analytical models of 802.11 DCF and TCP used to validate the simulator.

Each function documents the paper and equations it implements and the units of its inputs
and outputs; bad inputs raise ``ValueError`` naming the argument. This package does not need
the compiled simulator extension.

- :mod:`.bianchi` -- Bianchi (2000) saturation throughput, basic and RTS/CTS access.
- :mod:`.miorandi` -- miorandi2004 collision fixed point (eqs 1-2) and TCP bounds (3-12).
- :mod:`.padhye` -- Padhye et al. (1998) TCP throughput.
- :mod:`.queueing` -- the M/M/1/K queue.
- :mod:`.fairness` -- Jain's index and the up/down throughput ratio.
- :mod:`.pilosof` -- pilosof2003 up/down TCP ratio through the AP buffer (eqs 3-9).
- :mod:`.edca` -- per-class EDCA saturation model (AIFS zones, CWmin, TXOP).
- :mod:`.error_rate` -- frame success of the DSSS/CCK and OFDM rates at a given SINR.
- :mod:`.capture` -- Bianchi's model with capture at the AP (equal or unequal powers).
- :mod:`.heusse` -- Heusse et al. (2003) throughput of N saturated hosts, and its TCP form
  (miorandi2004 Fig 4).

The names below are imported from their module on first use (numpy and scipy are not
loaded by ``import wlansim.models``).
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

_WHERE = {
    "bianchi": (
        "attempt_probability",
        "backoff_parameters",
        "exchange_times",
        "saturation",
        "saturation_throughput",
        "tau_p",
    ),
    "fairness": ("jain_index", "up_down_ratio"),
    "miorandi": (
        "TABLE1",
        "collision_probability",
        "contention_times",
        "mean_backoff",
        "tcp_exchange_times",
        "tcp_throughput_collision",
        "tcp_throughput_collision_free",
        "tcp_throughput_single",
    ),
    "padhye": ("throughput_approx", "throughput_full", "throughput_sqrt"),
    "pilosof": ("ap_drop_probability", "computed_ratio", "n_flow_ratio", "naive_ratio"),
    "queueing": ("blocking_probability", "mean_occupancy", "occupancy_distribution"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}
_SUBMODULES = (*_WHERE, "edca", "error_rate", "capture", "heusse")

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    if name in _MODULE_OF:
        value = getattr(importlib.import_module(f".{_MODULE_OF[name]}", __name__), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_SUBMODULES))
