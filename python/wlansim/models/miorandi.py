"""Collision probability, TCP throughput bounds and session delay of miorandi2004.

D. Miorandi, A. A. Kherani, E. Altman, "A Queueing Model for HTTP Traffic over IEEE 802.11
WLANs" (2004), section 2 (Table 1, T_TCP_data, T_TCP_ack), section 3 (eqs 1-12), section 4
(eqs 13-17: setup time, affine session delay, Engset / processor-sharing model) and the
appendix (eqs 18-20: the maximum window W*).

Backoff: at stage k the mean backoff is (2^k CW_min - 1)/2 slots up to stage gamma, and
(2^gamma CW_min - 1)/2 from gamma to the retry limit m; the collision probability P_C is
taken independent of the stage (Tay-Chua style fixed point). All functions take the
802.11b parameters of their Table 1 (:data:`TABLE1`) by default; times are in seconds,
lengths in bits, rates in bit/s.

Readings of the paper made here:

- T_b of eq 1 is in slots; where it is added to times (eqs 3 and 5) it is multiplied by
  T_slot. Eq 8's last term (d-1)/d (CW_min-1)/2 is likewise taken in slots (times T_slot,
  as in eqs 9 and 11).
- T_ibo in eq 12 is read as T_tbo (eq 5).
- eq 2 uses the attempt rate 1/T_b per slot (capped at 1). Bianchi's fixed point counts the
  transmission slot too (tau = 1/(1 + T_b) with unlimited retries), so P_C is slightly
  above Bianchi's p for the same CW_min and doublings; the two agree when T_b >> 1.
- the fixed point (1)-(2) neglects drops (the stage weights (1-P_C) P_C^k for k < m sum to
  1 - P_C^m) and so also has a spurious root as P_C -> 1, where T_b -> 0; the smallest
  root, the physical one, is returned.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from . import _checks

TABLE1 = {
    "T_slot": 20e-6,
    "T_SIFS": 10e-6,
    "T_DIFS": 50e-6,
    "T_P": 144e-6,  # long PLCP preamble
    "T_PHY": 48e-6,  # PLCP header
    "CW_min": 32,
    "CW_max": 1024,
    "m": 7,  # retry limit
    "gamma": 5,  # CW_max = 2^gamma CW_min
    "R_data": 11e6,
    "R_control": 2e6,
    "L_TCP": 8000,
    "L_IPH": 320,
    "L_RTS": 180,
    "L_CTS": 112,
    "L_ACK": 112,
    "L_MAC": 272,
}
"""802.11b parameters of miorandi2004 Table 1 and section 2 (long PLCP preamble)."""


def _backoff_parameters(CW_min, gamma, m):
    CW_min = _checks.real("CW_min", CW_min, minimum=1.0)
    gamma = _checks.integer("gamma", gamma, minimum=0)
    if m != math.inf:
        m = _checks.integer("m", m, minimum=gamma)
    return CW_min, gamma, m


def mean_backoff(P_C, *, CW_min=TABLE1["CW_min"], gamma=TABLE1["gamma"], m=TABLE1["m"]):
    """Eq 1: average backoff T_b, in slots, for collision probability ``P_C`` (array ok).

    T_b = (1-P_C) CW_min/2 (1-(2P_C)^gamma)/(1-2P_C) - (1-P_C^gamma)/2
          + (2^gamma CW_min - 1)/2 (P_C^gamma - P_C^m),

    i.e. sum_{k<m} (1-P_C) P_C^k b_k with b_k the mean backoff of stage k. ``m`` is the
    retry limit (``math.inf`` for unlimited retries); the 0/0 at P_C = 1/2 is removed by
    writing (1-x^gamma)/(1-x) as sum_{i<gamma} x^i.
    """
    CW_min, gamma, m = _backoff_parameters(CW_min, gamma, m)
    P = np.asarray(_checks.probability("P_C", P_C), dtype=float)
    doubling = sum((2.0 * P) ** i for i in range(gamma))
    T_b = (
        (1.0 - P) * CW_min / 2.0 * doubling
        - (1.0 - P**gamma) / 2.0
        + (2.0**gamma * CW_min - 1.0) / 2.0 * (P**gamma - P**m)
    )
    return float(T_b) if T_b.ndim == 0 else T_b


def _attempt_rate(P, CW_min, gamma, m):
    """Per-slot attempt probability 1/T_b of eq 2, capped at 1 (T_b < 1 slot)."""
    with np.errstate(divide="ignore"):
        return np.minimum(1.0, 1.0 / np.asarray(mean_backoff(P, CW_min=CW_min, gamma=gamma, m=m)))


def _solve_one(n_b: float, CW_min, gamma, m) -> float:
    if n_b == 1.0:
        return 0.0

    def excess(P):
        return P - (1.0 - (1.0 - _attempt_rate(P, CW_min, gamma, m)) ** (n_b - 1.0))

    grid = np.linspace(0.0, 1.0, 1001)[:-1]
    values = excess(grid)
    crossing = int(np.argmax(values >= 0.0))
    if values[crossing] < 0.0:  # no crossing before 1: every slot is a collision
        return 1.0
    if values[crossing] == 0.0:
        return float(grid[crossing])
    return brentq(excess, grid[crossing - 1], grid[crossing], xtol=1e-15)


def collision_probability(n_b, *, CW_min=TABLE1["CW_min"], gamma=TABLE1["gamma"], m=TABLE1["m"]):
    """Solve eqs 1-2 for ``n_b`` backlogged nodes (>= 1, may be fractional; array ok).

    Returns ``(P_C, attempt_rate)`` where ``attempt_rate`` = 1/T_b is the per-slot attempt
    probability of a backlogged node (eq 2: P_C = 1 - (1 - 1/T_b)^(n_b - 1)). For n_b = 1,
    P_C = 0. The packet drop probability (their Fig 2) is P_C**m.
    """
    CW_min, gamma, m = _backoff_parameters(CW_min, gamma, m)
    n = np.asarray(_checks.real("n_b", n_b, minimum=1.0), dtype=float)
    P = np.vectorize(lambda x: _solve_one(float(x), CW_min, gamma, m), otypes=[float])(n)
    rate = _attempt_rate(P, CW_min, gamma, m)
    if P.ndim == 0:
        return float(P), float(rate)
    return P, rate


def tcp_exchange_times(params=TABLE1) -> tuple[float, float]:
    """Section 2: ``(T_TCP_data, T_TCP_ack)``, the channel time of an RTS/CTS/DATA/ACK
    exchange carrying a TCP data packet (L_MAC + L_IPH + L_TCP bits at R_data) or a TCP ACK
    (L_MAC + L_IPH bits), DIFS included, backoff excluded. Seconds."""
    q = params
    plcp = q["T_P"] + q["T_PHY"]
    control = (q["L_RTS"] + q["L_CTS"] + q["L_ACK"]) / q["R_control"]
    overhead = q["T_DIFS"] + 4 * plcp + control + 3 * q["T_SIFS"]
    T_data = overhead + (q["L_MAC"] + q["L_IPH"] + q["L_TCP"]) / q["R_data"]
    T_ack = overhead + (q["L_MAC"] + q["L_IPH"]) / q["R_data"]
    return T_data, T_ack


def contention_times(n_b, params=TABLE1):
    """Eqs 3-5 for ``n_b`` backlogged nodes: ``(T_tbo, T_W)`` in seconds, the mean total
    backoff time and the mean time lost in collisions per successful transmission.

    T_coll = T_DIFS + T_b + T_P + T_PHY + L_RTS/R_control + T_SIFS (eq 3),
    T_W = T_coll P_C/(1-P_C) (eq 4), T_tbo = T_b / (n_b (1-P_C)) (eq 5), T_b in seconds.
    """
    q = params
    P, rate = collision_probability(n_b, CW_min=q["CW_min"], gamma=q["gamma"], m=q["m"])
    T_b = q["T_slot"] / rate
    T_coll = q["T_DIFS"] + T_b + q["T_P"] + q["T_PHY"] + q["L_RTS"] / q["R_control"] + q["T_SIFS"]
    T_W = T_coll * P / (1.0 - P)
    T_tbo = T_b / (np.asarray(n_b, dtype=float) * (1.0 - P))
    return T_tbo, T_W


def _delack(d) -> int:
    return _checks.integer("d", d, minimum=1)


def tcp_throughput_single(d: int = 1, params=TABLE1) -> float:
    """Eqs 7-8: throughput (bit/s) of one TCP download between the AP and one station
    (n_b = 2) with delayed-ACK parameter ``d`` (an ACK every d packets)."""
    d = _delack(d)
    q = params
    T_data, T_ack = tcp_exchange_times(q)
    T_tbo, T_W = contention_times(2, q)
    idle = (d - 1) / d * (q["CW_min"] - 1) / 2.0 * q["T_slot"]
    return q["L_TCP"] / (T_data + (T_ack + 2 * T_tbo + 2 * T_W) / d + idle)


def tcp_throughput_collision_free(n_c, d: int = 1, params=TABLE1):
    """Eqs 9 and 11: per-connection TCP throughput (bit/s) with ``n_c`` connections served
    round-robin without collisions (array ok):
    L_TCP / (n_c [T_TCP_data + T_TCP_ack/d + (d+1)/d (CW_min-1) T_slot / 2])."""
    d = _delack(d)
    q = params
    n_c = _checks.real("n_c", n_c, minimum=1.0)
    T_data, T_ack = tcp_exchange_times(q)
    backoff = (d + 1) / d * (q["CW_min"] - 1) * q["T_slot"] / 2.0
    return q["L_TCP"] / (n_c * (T_data + T_ack / d + backoff))


def tcp_throughput_collision(n_c, d: int = 1, params=TABLE1):
    """Eqs 10 and 12: per-connection TCP throughput (bit/s) with ``n_c`` connections and
    contention among n_b = 1 + n_c/(2d) backlogged nodes (array ok):
    L_TCP / (n_c [T_TCP_data + T_TCP_ack/d + (d+1)/d (T_tbo + T_W)])."""
    d = _delack(d)
    q = params
    n_c = _checks.real("n_c", n_c, minimum=1.0)
    T_data, T_ack = tcp_exchange_times(q)
    T_tbo, T_W = contention_times(1.0 + np.asarray(n_c) / (2 * d), q)
    return q["L_TCP"] / (n_c * (T_data + T_ack / d + (d + 1) / d * (T_tbo + T_W)))


# ----- Section 4: session delay of short-lived flows (eqs 13-17) ----------------------------


def _only_w_star_1(W_star) -> None:
    if W_star != 1:
        raise ValueError(
            f"W_star must be 1: miorandi2004 states this model only for W* = 1 "
            f"(contention-free alternation of data and ACK), got {W_star!r}"
        )


def setup_time(params=TABLE1) -> float:
    """Eq 13: mean connection setup time E[T_setup] (s), two frame exchanges (SYN and
    SYN-ACK; the third segment rides on the first data frame), propagation neglected:

    2 [T_DIFS + T_P + T_PHY + (CW_min-1) T_slot/2 + L_IPH/R_data + T_SIFS + T_P + T_PHY
       + L_ACK/R_control].

    As printed: the SYN frames carry no MAC header and no RTS/CTS, unlike the data
    exchanges of section 2, so the simulator's setup (with RTS/CTS and the MAC header)
    is longer; the reproduction reports both."""
    q = params
    plcp = q["T_P"] + q["T_PHY"]
    return 2.0 * (
        q["T_DIFS"]
        + plcp
        + (q["CW_min"] - 1) * q["T_slot"] / 2.0
        + q["L_IPH"] / q["R_data"]
        + q["T_SIFS"]
        + plcp
        + q["L_ACK"] / q["R_control"]
    )


def _round_trip(params) -> float:
    """T_TCP_data + T_TCP_ack + (CW_min-1) T_slot: one data packet and its ACK without
    contention (section 4.1, W* = 1)."""
    T_data, T_ack = tcp_exchange_times(params)
    return T_data + T_ack + (params["CW_min"] - 1) * params["T_slot"]


def session_delay_single(X, *, padded: bool = False, W_star: int = 1, params=TABLE1):
    """Eq 14: mean session delay (s) of one station downloading a file of ``X`` bits
    (array ok) with W* = 1 (the only case the paper states; other values are refused):

    E[T_setup] + ceil(X/L) RTT - (ceil(X/L) - floor(X/L)) (L - X mod L)/R_data,

    RTT = T_TCP_data + T_TCP_ack + (CW_min-1) T_slot. The last term removes the padding
    of the last segment; ``padded=True`` keeps it (ns-2 pads every segment to L_TCP,
    footnote 1)."""
    _only_w_star_1(W_star)
    q = params
    X = np.asarray(_checks.real("X", X, minimum=0.0, strict=True), dtype=float)
    L = q["L_TCP"]
    packets = np.ceil(X / L)
    T = setup_time(q) + packets * _round_trip(q)
    if not padded:
        T = T - (packets - np.floor(X / L)) * (L - np.mod(X, L)) / q["R_data"]
    return float(T) if T.ndim == 0 else T


def session_delay_affine(mean_X, *, W_star: int = 1, params=TABLE1):
    """Eq 15: E[T_setup] + E[X]/L_TCP RTT, the affine approximation of eq 14 in the mean
    file size (bits, array ok); W* = 1 only. It depends on the size distribution only
    through its mean (insensitivity)."""
    _only_w_star_1(W_star)
    mean_X = _checks.real("mean_X", mean_X, minimum=0.0, strict=True)
    return setup_time(params) + np.asarray(mean_X) / params["L_TCP"] * _round_trip(params)


def system_capacity(k, params=TABLE1):
    """C_k = k S_coll(k, 1) (bit/s): aggregate TCP rate with k active connections, from the
    collision model (eq 10 with d = 1), as section 4.2 takes it."""
    k = _checks.real("k", k, minimum=1.0)
    return np.asarray(k) * tcp_throughput_collision(k, 1, params)


def engset_distribution(n_stations: int, lam: float, mu) -> np.ndarray:
    """Eq 16: stationary distribution pi_0..pi_N of the number of active sessions, N =
    ``n_stations`` (the paper's n - 1), each idle station starting a session at rate
    ``lam``, and sessions ending at total rate ``mu[k-1]`` = mu_k in state k:

    pi_k = lam^k N (N-1) ... (N-k+1) / (mu_1 ... mu_k) / (1 + sum_i of the same terms).

    (As printed, eq 16 multiplies by the normalising sum instead of dividing by it.)"""
    N = _checks.integer("n_stations", n_stations, minimum=1)
    lam = _checks.real("lam", lam, minimum=0.0, strict=True)
    mu = np.asarray(mu, dtype=float)
    if mu.shape != (N,) or not np.all(mu > 0):
        raise ValueError(f"mu must hold {N} positive rates mu_1..mu_N, got {mu!r}")
    terms = [1.0]
    for k in range(1, N + 1):
        terms.append(terms[-1] * lam * (N - k + 1) / mu[k - 1])
    p = np.asarray(terms)
    return p / p.sum()


def session_delay_engset(
    n_stations: int, mean_X, think_mean, *, capacity=None, W_star: int = 1, params=TABLE1
):
    """Eqs 16-17: mean session delay (s) with ``n_stations`` stations (the paper's n - 1)
    downloading files of mean ``mean_X`` bits with exponential think times of mean
    ``think_mean`` s, served as a processor-sharing queue of capacity C_k
    (:func:`system_capacity` unless ``capacity[k-1]`` gives it, bit/s). Little's law:

    E[T] = E[T_setup] + E[Y] / lambda_bar, E[Y] = sum k pi_k,
    lambda_bar = lam sum_k (N - k) pi_k (the rate of session starts).

    The paper prints lambda_bar = lam sum_{k<=n-2} (k+1) pi_k, which is the same sum only
    if pi is indexed by idle stations; the rate of starts in state k is (N - k) lam. The
    model assumes W* = 1 (round-robin service of the active sessions); other values are
    refused."""
    _only_w_star_1(W_star)
    N = _checks.integer("n_stations", n_stations, minimum=1)
    mean_X = _checks.real("mean_X", mean_X, minimum=0.0, strict=True)
    think_mean = _checks.real("think_mean", think_mean, minimum=0.0, strict=True)
    if capacity is None:
        capacity = system_capacity(np.arange(1, N + 1, dtype=float), params)
    mu = np.asarray(capacity, dtype=float) / mean_X
    lam = 1.0 / think_mean
    pi = engset_distribution(N, lam, mu)
    k = np.arange(N + 1)
    mean_active = float((k * pi).sum())
    starts = lam * float(((N - k) * pi).sum())
    return setup_time(params) + mean_active / starts


# ----- Appendix: the maximum window W* (eqs 18-20) ------------------------------------------


def window_chain(W_star: int) -> dict[tuple[int, int], float]:
    """Eq 18: stationary distribution of (X_S, X_D), the packets queued at the sender and
    the receiver of one connection whose window is W*: 1/W* for the interior states
    (a, W*-a), a = 1..W*-1, and 1/(2W*) for (0, W*) and (W*, 0)."""
    W = _checks.integer("W_star", W_star, minimum=1)
    pi = {(a, W - a): 1.0 / W for a in range(1, W)}
    pi[(0, W)] = pi[(W, 0)] = 1.0 / (2 * W)
    return pi


def phi(W_star, params=TABLE1):
    """Eq 20's phi(W*) = [2 (W*-1)(T_tbo + T_W) + T_slot (CW_min - 1)] / W* (s), the mean
    time spent in collision resolution per packet, T_tbo and T_W of eqs 4-5 for the two
    contending nodes (n_b = 2). Array ok."""
    q = params
    W = np.asarray(_checks.real("W_star", W_star, minimum=1.0), dtype=float)
    T_tbo, T_W = contention_times(2, q)
    out = (2.0 * (W - 1.0) * (T_tbo + T_W) + q["T_slot"] * (q["CW_min"] - 1)) / W
    return float(out) if out.ndim == 0 else out


def tcp_throughput_window(W_star, params=TABLE1):
    """Eq 20: single-connection throughput (bit/s) with maximum window W* (d = 1):
    L_TCP / (T_TCP_data + T_TCP_ack + phi(W*))."""
    T_data, T_ack = tcp_exchange_times(params)
    return params["L_TCP"] / (T_data + T_ack + phi(W_star, params))


def tcp_throughput_window_renewal(W_star: int, params=TABLE1) -> float:
    """Eq 19: the same throughput by the Markov renewal-reward theorem over the chain of
    eq 18 (packets acknowledged per step over the mean step time): 1/2 per interior step
    of mean time (T_P + T_A)/2 + T_tbo + T_W, 1 in (0, W*) after T_A + T_slot (CW_min-1)/2,
    and the step from (W*, 0) taking T_P + T_slot (CW_min-1)/2; eq 20 is its closed form."""
    q = params
    T_P, T_A = tcp_exchange_times(q)
    T_tbo, T_W = contention_times(2, q)
    W = _checks.integer("W_star", W_star, minimum=1)
    pi = window_chain(W)
    idle = q["T_slot"] * (q["CW_min"] - 1) / 2.0
    reward, time = 0.0, 0.0
    for (s, r), p in pi.items():
        if s == 0:
            reward, time = reward + p, time + p * (T_A + idle)
        elif r == 0:
            time += p * (T_P + idle)
        else:
            reward += p / 2.0
            time += p * ((T_P + T_A) / 2.0 + T_tbo + T_W)
    return q["L_TCP"] * reward / time
