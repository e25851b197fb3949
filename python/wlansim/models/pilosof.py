"""Upstream/downstream TCP unfairness through an access point (pilosof2003, section IV).

S. Pilosof, R. Ramjee, D. Raz, Y. Shavitt, P. Sinha, "Understanding TCP Fairness over
Wireless LAN", IEEE INFOCOM 2003.

Setting: one upstream TCP flow and n downstream flows through an AP whose buffer holds
``B`` packets shared by downstream data and upstream ACKs; every receiver advertises a
window ``w`` (rwnd, packets); ``alpha`` is the number of ACKs per data packet (1 without
delayed ACKs). The upstream flow runs at its full window w (ACK losses do not shrink it), so
R_u = w / RTT; the downstream flows see the AP losses. The paper's symbol R-bar is
R_d / R_u (per downstream flow); the functions here return the up/down ratio
R_u / R_d = 1 / R-bar, the quantity of its Figs 2, 6, 8 and 10. As in the paper the
up and down RTTs are taken equal.

Loss regions (section IV.A), with R-bar solved numerically instead of via the closed form
eq 5:

- B >= (n + alpha) w: every window fits in the buffer, no loss, ratio 1. (The paper states
  this for n = 1, B >= (alpha + 1) w; it is read here as n downstream windows plus alpha w
  ACKs.)
- B <= alpha w: the AP drop probability p of the M/M/1/K queue with rho = 1 + n R-bar (eqs
  2, 7), linearised as p = (1 + n B R-bar)/(B + 1) (eqs 3, 8), and Padhye's no-timeout
  rate R-bar = sqrt(3 alpha / (2 w^2 p)) (eq 4).
- alpha w < B < (n + alpha) w: the downstream window has a loss-free part 3(B - alpha w)/4
  on top of the Padhye part: R-bar = sqrt(3 alpha / (2 n p w^2)) + 3(B - alpha w)/(4 n w)
  (eq 9; eq 6 is n = 1, read with the square root over the 3 alpha/(2p) term only, as eq 9
  has it), with p again from eq 3/8.

``drop="mm1k"`` replaces the linearisation of eqs 3/8 by the exact M/M/1/K blocking
probability p_B of eq 1 with K = B (see :mod:`wlansim.models.queueing`).
"""

from __future__ import annotations

import math

from scipy.optimize import brentq

from . import _checks
from .queueing import blocking_probability

DROP_MODELS = ("linear", "mm1k")


def naive_ratio(B: int, w: int, alpha: float = 1.0) -> float:
    """Section IV.A's naive up/down ratio 4w / (3(B - alpha w)): the AP buffer always
    holds alpha w ACKs, so the downstream window oscillates between (B - alpha w)/2 and
    B - alpha w (mean 3(B - alpha w)/4) while the upstream one stays at w. Requires
    B > alpha w."""
    B, w, alpha = _buffer_window(B, w, alpha)
    free = B - alpha * w
    if free <= 0.0:
        raise ValueError(f"B must exceed alpha*w = {alpha * w:g} for the naive ratio, got B={B}")
    return 4.0 * w / (3.0 * free)


def ap_drop_probability(R_bar: float, B: int, n: int = 1, drop: str = "linear") -> float:
    """AP drop probability for down/up rate ratio ``R_bar`` (per downstream flow) and ``n``
    downstream flows: eqs 3/8, p = (1 + n B R_bar)/(B + 1) (``drop="linear"``), or the
    M/M/1/K blocking probability with rho = 1 + n R_bar and K = B (``drop="mm1k"``)."""
    _checks.choice("drop", drop, DROP_MODELS)
    R_bar = _checks.real("R_bar", R_bar, minimum=0.0)
    B = _checks.integer("B", B, minimum=1)
    n = _checks.integer("n", n, minimum=1)
    if drop == "linear":
        return (1.0 + n * B * R_bar) / (B + 1.0)
    return blocking_probability(1.0 + n * R_bar, B)


def n_flow_ratio(n: int, B: int, w: int, p: float, alpha: float = 1.0) -> float:
    """Eq 9: up/down ratio 1 / R-bar_n between the upstream flow and each of ``n``
    downstream flows for a given AP drop probability ``p`` (0 < p <= 1) and a buffer with
    B > alpha w, where R-bar_n = sqrt(3 alpha/(2 n p w^2)) + 3(B - alpha w)/(4 n w).

    The paper's Fig 10 uses B - alpha w = 58 (B = 100, w = 42) and p = 1/100 and plots the
    growth of this ratio with n.
    """
    n = _checks.integer("n", n, minimum=1)
    B, w, alpha = _buffer_window(B, w, alpha)
    p = _checks.probability("p", p, open_lower=True)
    if B <= alpha * w:
        raise ValueError(f"B must exceed alpha*w = {alpha * w:g} for eq 9, got B={B}")
    return 1.0 / _down_up(n, B, w, alpha, p)


def computed_ratio(B: int, w: int, alpha: float = 1.0, n: int = 1, drop: str = "linear"):
    """Up/down throughput ratio 1/R-bar of section IV (eqs 3-6 for one downstream flow,
    7-9 for ``n``), solving the drop probability and R-bar jointly (see the module
    docstring for the three buffer regions). ``B`` is the AP buffer and ``w`` the receiver
    window, both in packets. For n = 1 and B <= alpha w this is the root of eq 5's cubic
    (1 + B R)/(B + 1) = 3/(2 w^2 R^2) (alpha = 1).
    """
    B, w, alpha = _buffer_window(B, w, alpha)
    n = _checks.integer("n", n, minimum=1)
    _checks.choice("drop", drop, DROP_MODELS)
    if B >= (n + alpha) * w:
        return 1.0
    # Eq 4 (small buffer) has no flow count; eq 9 divides by n.
    padhye_n = 1 if B <= alpha * w else n

    def excess(R_bar: float) -> float:
        return R_bar - _down_up(padhye_n, B, w, alpha, ap_drop_probability(R_bar, B, n, drop))

    upper = _down_up(padhye_n, B, w, alpha, 1.0 / (B + 1.0))
    R_bar = brentq(excess, 0.0, upper, xtol=1e-14)
    return 1.0 / R_bar


def _down_up(n: int, B: float, w: float, alpha: float, p: float) -> float:
    """R-bar_n of eq 9, with the loss-free window part only when B > alpha w (eqs 4, 6)."""
    loss_free = max(B - alpha * w, 0.0)
    return math.sqrt(3.0 * alpha / (2.0 * n * p * w**2)) + 3.0 * loss_free / (4.0 * n * w)


def _buffer_window(B, w, alpha):
    return (
        _checks.integer("B", B, minimum=1),
        _checks.integer("w", w, minimum=1),
        _checks.real("alpha", alpha, minimum=0.0, strict=True),
    )
