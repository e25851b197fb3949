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
"""

from .bianchi import (
    attempt_probability,
    backoff_parameters,
    exchange_times,
    saturation,
    saturation_throughput,
    tau_p,
)
from .fairness import jain_index, up_down_ratio
from .miorandi import (
    TABLE1,
    collision_probability,
    contention_times,
    mean_backoff,
    tcp_exchange_times,
    tcp_throughput_collision,
    tcp_throughput_collision_free,
    tcp_throughput_single,
)
from .padhye import throughput_approx, throughput_full, throughput_sqrt
from .pilosof import ap_drop_probability, computed_ratio, n_flow_ratio, naive_ratio
from .queueing import blocking_probability, mean_occupancy, occupancy_distribution

__all__ = [
    "TABLE1",
    "ap_drop_probability",
    "attempt_probability",
    "backoff_parameters",
    "blocking_probability",
    "collision_probability",
    "computed_ratio",
    "contention_times",
    "exchange_times",
    "jain_index",
    "mean_backoff",
    "mean_occupancy",
    "n_flow_ratio",
    "naive_ratio",
    "occupancy_distribution",
    "saturation",
    "saturation_throughput",
    "tau_p",
    "tcp_exchange_times",
    "tcp_throughput_collision",
    "tcp_throughput_collision_free",
    "tcp_throughput_single",
    "throughput_approx",
    "throughput_full",
    "throughput_sqrt",
    "up_down_ratio",
]
