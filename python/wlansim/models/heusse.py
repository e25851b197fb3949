"""Heusse, Rousseau, Berger-Sabbatel and Duda, "Performance anomaly of 802.11b" (INFOCOM
2003), section III, hosts at one bit rate, and the TCP form miorandi2004 draws in its Fig 4.

Heusse et al. split the channel time each successful frame costs, with N saturated hosts,
into the frame's exchange (t_tr + t_ov: the data and its fixed overhead, DIFS, preambles,
SIFS, MAC ACK), the idle contention slots t_cont(N) and the time lost in collisions:

    P_c(N)    = 1 - (1 - 1/CW_min)^(N-1)              (a host's attempt meets another)
    t_cont(N) = T_slot CW_min/2 (1 + P_c(N)) / N       (the hosts count down together;
                                                        a collision doubles the window)
    T(N)      = t_tr + t_ov + t_cont(N) + P_c(N) t_jam

and each host gets one frame in N: X(N) = L / (N T(N)). This module writes those terms as
we read section III; its text was not available where this was written, so each formula
above is stated here to be checked against it.

miorandi2004 plots the model in its Fig 4 "modified since it already accounts for d = 2"
(Heusse et al. measured TCP with delayed ACKs). The TCP form here keeps d: per data
segment one data exchange and 1/d TCP-ACK exchanges, each frame paying the contention
and collision terms, with every node (the AP and the n_c stations) taken as saturated,
N = n_c + 1; miorandi2004's Fig 4 is d = 1. Exchange times are miorandi2004's section 2
(RTS/CTS on every frame), so a collision costs an RTS (t_jam, eq 3 without the backoff).
Times in seconds, lengths in bits, rates in bit/s.
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .miorandi import TABLE1, tcp_exchange_times


def collision_proportion(N, CW_min=TABLE1["CW_min"]):
    """P_c(N) = 1 - (1 - 1/CW_min)^(N-1): the proportion of a host's attempts that collide
    with one of the N - 1 others (array ok)."""
    N = np.asarray(_checks.real("N", N, minimum=1.0), dtype=float)
    CW_min = _checks.real("CW_min", CW_min, minimum=1.0)
    out = 1.0 - (1.0 - 1.0 / CW_min) ** (N - 1.0)
    return float(out) if out.ndim == 0 else out


def contention_time(N, params=TABLE1):
    """t_cont(N) = T_slot CW_min/2 (1 + P_c(N)) / N (s): idle backoff slots per successful
    frame with N saturated hosts (array ok)."""
    q = params
    N = np.asarray(_checks.real("N", N, minimum=1.0), dtype=float)
    out = q["T_slot"] * q["CW_min"] / 2.0 * (1.0 + collision_proportion(N, q["CW_min"])) / N
    return float(out) if out.ndim == 0 else out


def jam_time(params=TABLE1) -> float:
    """t_jam (s): the channel time of a collision when every frame starts with an RTS
    (miorandi2004 eq 3 without its backoff term): DIFS + PLCP + RTS + SIFS."""
    q = params
    return q["T_DIFS"] + q["T_P"] + q["T_PHY"] + q["L_RTS"] / q["R_control"] + q["T_SIFS"]


def tcp_throughput(n_c, d: int = 1, params=TABLE1):
    """Per-connection TCP throughput (bit/s) of ``n_c`` downloads with an ACK every ``d``
    segments (array ok):

    L_TCP / (n_c [T_TCP_data + T_TCP_ack/d + (1 + 1/d)(t_cont(N) + P_c(N) t_jam)]),
    N = n_c + 1."""
    d = _checks.integer("d", d, minimum=1)
    q = params
    n_c = np.asarray(_checks.real("n_c", n_c, minimum=1.0), dtype=float)
    N = n_c + 1.0
    T_data, T_ack = tcp_exchange_times(q)
    per_frame = contention_time(N, q) + collision_proportion(N, q["CW_min"]) * jam_time(q)
    out = q["L_TCP"] / (n_c * (T_data + T_ack / d + (1.0 + 1.0 / d) * per_frame))
    return float(out) if out.ndim == 0 else out
