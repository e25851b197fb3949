"""TCP Reno steady-state throughput of Padhye, Firoiu, Towsley and Kurose.

J. Padhye et al., "Modeling TCP Throughput: A Simple Model and its Empirical Validation",
ACM SIGCOMM 1998. All functions return the send rate in packets per second and accept
numpy arrays for ``p``.

Symbols: ``p`` loss probability (per packet, independent between rounds), ``RTT`` mean
round-trip time (s), ``T0`` initial retransmission timeout (s), ``b`` packets acknowledged
by one ACK (2 with delayed ACKs), ``Wmax`` receiver window (packets; ``math.inf`` for
none).
"""

from __future__ import annotations

import math

import numpy as np

from . import _checks


def _common(p, RTT, b):
    p = _checks.probability("p", p, open_lower=True, open_upper=True)
    RTT = _checks.real("RTT", RTT, minimum=0.0, strict=True)
    b = _checks.real("b", b, minimum=0.0, strict=True)
    return np.asarray(p, dtype=float), RTT, b


def _window_limit(Wmax):
    return math.inf if Wmax == math.inf else _checks.real("Wmax", Wmax, minimum=1.0)


def _result(x):
    return float(x) if np.ndim(x) == 0 else x


def throughput_sqrt(p, RTT: float, b: float = 1.0):
    """Square-root law (Padhye eq. 20, triple-duplicate losses only, no window limit):
    B = (1/RTT) sqrt(3 / (2 b p))."""
    p, RTT, b = _common(p, RTT, b)
    return _result(np.sqrt(3.0 / (2.0 * b * p)) / RTT)


def throughput_approx(p, RTT: float, T0: float, b: float = 1.0, Wmax: float = math.inf):
    """Padhye's approximate formula (eq. 33), with timeouts and the window limit:

    B = min(Wmax/RTT, 1 / [RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p^2)]).
    """
    p, RTT, b = _common(p, RTT, b)
    T0 = _checks.real("T0", T0, minimum=0.0)
    Wmax = _window_limit(Wmax)
    timeout = T0 * np.minimum(1.0, 3.0 * np.sqrt(3.0 * b * p / 8.0)) * p * (1.0 + 32.0 * p**2)
    return _result(np.minimum(Wmax / RTT, 1.0 / (RTT * np.sqrt(2.0 * b * p / 3.0) + timeout)))


def _timeout_probability(p, w):
    """Q-hat(w) (eq. 24): probability that a loss in a window of w packets is a timeout."""
    q = 1.0 - p
    ratio = (1.0 - q**3) * (1.0 + q**3 * (1.0 - q ** (w - 3.0))) / (1.0 - q**w)
    return np.minimum(1.0, ratio)


def throughput_full(p, RTT: float, T0: float, b: float = 1.0, Wmax: float = math.inf):
    """Padhye's full model (eq. 32): triple-duplicate losses, exponential timeout back-off
    (f(p) = 1 + p + 2p^2 + ... + 32p^6) and the receiver window limit Wmax.

    With E[W] = (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))^2) the unconstrained mean
    window (eq. 13), the rate is

    - if E[W] < Wmax:
      [(1-p)/p + E[W] + Q(E[W])/(1-p)] / [RTT (b E[W]/2 + 1) + Q(E[W]) T0 f(p)/(1-p)]
    - otherwise:
      [(1-p)/p + Wmax + Q(Wmax)/(1-p)]
      / [RTT (b Wmax/8 + (1-p)/(p Wmax) + 2) + Q(Wmax) T0 f(p)/(1-p)].
    """
    p, RTT, b = _common(p, RTT, b)
    T0 = _checks.real("T0", T0, minimum=0.0)
    Wmax = _window_limit(Wmax)
    q = 1.0 - p
    f = 1.0 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
    c = (2.0 + b) / (3.0 * b)
    mean_window = c + np.sqrt(8.0 * q / (3.0 * b * p) + c**2)
    limited = mean_window >= Wmax
    w = np.minimum(mean_window, Wmax)
    Q = _timeout_probability(p, w)
    packets = q / p + w + Q / q
    timeout_time = Q * T0 * f / q
    round_time = np.where(
        limited, RTT * (b * w / 8.0 + q / (p * w) + 2.0), RTT * (b * w / 2.0 + 1.0)
    )
    return _result(packets / (round_time + timeout_time))
