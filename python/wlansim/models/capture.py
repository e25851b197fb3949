"""Bianchi's saturation model with capture at the access point.

n saturated stations send to one AP (G. Bianchi, IEEE JSAC 18(3), 2000; see
:mod:`wlansim.models.bianchi` for the notation). When k stations transmit in the same
slot their first frames -- the RTS under RTS/CTS access, the data frame under basic
access -- start together. The AP locks onto the strongest of them (ties broken uniformly
at random) and receives it with its PPDU success probability (:mod:`.error_rate`) at

    SINR = P_locked / (sum of the other k - 1 powers + N),

treating the other frames as noise for the whole frame. If it is received, that
station's exchange completes and the slot lasts Ts (a successful exchange); otherwise it
lasts Tc. Let q_k be the probability that one of k simultaneous frames gets through and
s_j the probability that a tagged station's frame gets through when j others transmit
with it (s_0 = q_1 is reception without interference).

- Equal received powers P: q_k = PSR(P / ((k - 1) P + N)) and, by symmetry,
  s_j = q_{j+1} / (j + 1).
- Unequal powers (stations at random distances), a list of the n received powers: a
  mean-field approximation that keeps Bianchi's symmetric fixed point (one tau and one p
  shared by all stations, although a near station in fact collides less than a far one).
  q_k is the mean, over the k-subsets of the n stations (each equally likely), of the
  PSR of the strongest member at its SINR; the mean is exact over all subsets when
  C(n, k) <= 20000 and otherwise taken over 20000 subsets drawn with
  ``numpy.random.default_rng(seed)`` (the first k of a random permutation of the
  stations). s_j is the tagged station's success averaged over the tagged station and
  the j-subsets of the others; choosing the tagged station uniformly and j others
  uniformly is choosing a (j + 1)-subset uniformly and one of its members uniformly, and
  at most one member succeeds, so this average is again s_j = q_{j+1} / (j + 1).

The fixed point and the throughput generalise Bianchi's eqs. 7, 9 and 13:

    tau = attempt_probability(p, W, m)                        (eq. 7, unlimited retries)
    p   = 1 - sum_{j=0}^{n-1} C(n-1, j) tau^j (1-tau)^(n-1-j) s_j
    Ptr = 1 - (1 - tau)^n
    Psucc = sum_{k=1}^{n} C(n, k) tau^k (1-tau)^(n-k) q_k
    S   = Psucc E[P] / ((1 - Ptr) sigma + Psucc Ts + (Ptr - Psucc) Tc)

With q_1 = 1 and q_k = 0 for k >= 2 these are Bianchi's equations and give exactly his
result. p is found by Brent's method on [0, 1], where the gap p - (right-hand side) goes
from <= 0 to >= 0.

Known simplifications: a frame that was not locked onto does not make the AP answer, but
its sender's timeout and the other senders' deferral are not modelled beyond Ts/Tc;
the capture decision is taken once for the whole frame (no re-locking onto a later,
stronger frame, since all start in the same slot); ACK and CTS are received without
error; powers are fixed per station (no fading). Powers are in dBm, times in seconds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np

from . import _checks, _roots, error_rate
from .bianchi import (
    attempt_probability,
    backoff_parameters,
    exchange_times,
    result,
    slot_throughput,
)

ACCESS_MODES = ("basic", "rts")

#: most k-subsets averaged exactly; above this q_k is averaged over this many draws
MAX_SUBSETS = 20_000

#: bytes a data MPDU adds to the UDP payload: MAC header + FCS (28), LLC/SNAP (8),
#: IP (20), UDP (8) -- the framing wlansim's airtime counts (README, "[phy]")
DATA_OVERHEAD_BYTES = 28 + 8 + 20 + 8
RTS_BYTES = 20

_FRAME_KEYS = ("modulation", "rate_bps", "psdu_bytes", "short_preamble")
_TIMING_KEYS = (
    "slot_s",
    "sifs_s",
    "difs_s",
    "eifs_s",
    "propagation_delay_s",
    "data_frame_s",
    "ack_s",
    "rts_s",
    "cts_s",
    "cw_min",
    "cw_max",
    "data_rate_bps",
    "control_rate_bps",
    "payload_bits",
)


def _frame(first_frame) -> dict:
    """Check a first-frame description and return it with ``short_preamble`` filled in."""
    if not isinstance(first_frame, Mapping):
        raise ValueError(
            f"first_frame must be a dict with keys {', '.join(_FRAME_KEYS)}, got {first_frame!r}"
        )
    unknown = sorted(set(first_frame) - set(_FRAME_KEYS))
    missing = [key for key in _FRAME_KEYS[:3] if key not in first_frame]
    if unknown or missing:
        raise ValueError(
            f"first_frame must have the keys modulation, rate_bps, psdu_bytes (and "
            f"optionally short_preamble); missing {missing}, unknown {unknown}"
        )
    frame = {"short_preamble": False, **first_frame}
    try:  # checks every field, naming it
        error_rate.ppdu_success(
            frame["modulation"],
            frame["rate_bps"],
            frame["psdu_bytes"],
            1.0,
            frame["short_preamble"],
        )
    except ValueError as err:
        raise ValueError(f"first_frame: {err}") from None
    return frame


def _modulation_of(rate_bps: float) -> str:
    return "dsss" if rate_bps in error_rate.DSSS_RATES else "ofdm"


def default_first_frame(timing: Mapping, access: str = "basic") -> dict:
    """The first frame of an exchange on the PHY ``timing`` (``wlansim.phy.timing``).

    rts: a 20-byte RTS at the control rate; basic: the data MPDU, the UDP payload
    (``payload_bits / 8``) plus :data:`DATA_OVERHEAD_BYTES`, at the data rate. The
    modulation follows from the rate (1, 2, 5.5, 11 Mb/s are DSSS, the others OFDM). For
    a DSSS control rate the preamble is read off the RTS time: a PLCP of 96 us
    (rts_s - 160 bits / control rate, rounded up to whole us) is the short one. The data
    framing is the standard MAC's (the ns-2 MAC profile frames 34 bytes + IP: pass
    ``first_frame`` for it).
    """
    _checks.choice("access", access, ACCESS_MODES)
    _check_timing(timing)
    control = float(timing["control_rate_bps"])
    short = False
    if control in error_rate.DSSS_RATES:
        plcp_us = timing["rts_s"] * 1e6 - math.ceil(8 * RTS_BYTES * 1e6 / control - 1e-9)
        short = abs(plcp_us - 96.0) < 0.5
    if access == "rts":
        rate, size = control, RTS_BYTES
    else:
        rate = float(timing["data_rate_bps"])
        size = int(round(timing["payload_bits"] / 8)) + DATA_OVERHEAD_BYTES
    modulation = _modulation_of(rate)
    return {
        "modulation": modulation,
        "rate_bps": rate,
        "psdu_bytes": size,
        "short_preamble": short and modulation == "dsss",
    }


def _check_timing(timing) -> None:
    if not isinstance(timing, Mapping):
        raise ValueError(f"timing must be the dict of wlansim.phy.timing, got {timing!r}")
    missing = [key for key in _TIMING_KEYS if key not in timing]
    if missing:
        raise ValueError(f"timing is missing {', '.join(missing)} (see wlansim.phy.timing)")


def _powers_mw(powers_dbm, n: int):
    """A float (equal powers) or an array of n powers, in mW."""
    if isinstance(powers_dbm, (str, bytes)):
        raise ValueError(f"powers_dbm must be a number or a list of n numbers, got {powers_dbm!r}")
    if np.ndim(powers_dbm) == 0:
        return 10.0 ** (_checks.real("powers_dbm", powers_dbm) / 10.0)
    if not isinstance(powers_dbm, (Sequence, np.ndarray)) or np.ndim(powers_dbm) != 1:
        raise ValueError(f"powers_dbm must be a number or a list of n numbers, got {powers_dbm!r}")
    values = np.asarray(_checks.real("powers_dbm", powers_dbm), dtype=float)
    if values.size != n:
        raise ValueError(
            f"powers_dbm must hold one power per station (n = {n}), got {values.size} values"
        )
    return 10.0 ** (values / 10.0)


def capture_probabilities(
    n: int, first_frame: Mapping, powers_dbm, noise_dbm: float, seed: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Capture probabilities ``(q, s)`` for ``n`` stations (see the module docstring).

    ``first_frame`` is a dict with ``modulation`` ("dsss"/"ofdm"), ``rate_bps``,
    ``psdu_bytes`` and optionally ``short_preamble`` (False); ``powers_dbm`` is the power
    received at the AP from every station (one number) or from each (a list of n);
    ``noise_dbm`` the noise power at the AP. ``q[k]`` (k = 0..n, q[0] = 0) is the
    probability that one of k simultaneous frames is received; ``s[j]`` (j = 0..n-1) that
    a tagged station's frame is received when j others transmit with it. ``seed`` seeds
    the subset draws when C(n, k) > :data:`MAX_SUBSETS`.
    """
    n = _checks.integer("n", n, minimum=1)
    frame = _frame(first_frame)
    noise_mw = 10.0 ** (_checks.real("noise_dbm", noise_dbm) / 10.0)
    powers = _powers_mw(powers_dbm, n)
    seed = _checks.integer("seed", seed, minimum=0)

    def psr(sinr):
        return np.asarray(
            error_rate.ppdu_success(
                frame["modulation"],
                frame["rate_bps"],
                frame["psdu_bytes"],
                sinr,
                frame["short_preamble"],
            )
        )

    q = np.zeros(n + 1)
    k = np.arange(1, n + 1)
    if np.ndim(powers) == 0:
        q[1:] = psr(powers / ((k - 1) * powers + noise_mw))
    else:
        drawn = None  # running sums and maxima over random permutations, drawn once
        for size in range(1, n + 1):
            if math.comb(n, size) <= MAX_SUBSETS:
                chosen = np.sort(powers[np.array(list(itertools.combinations(range(n), size)))])
                strongest, others = chosen[:, -1], chosen[:, :-1].sum(axis=1)
            else:
                if drawn is None:
                    rng = np.random.default_rng(seed)
                    order = powers[rng.random((MAX_SUBSETS, n)).argsort(axis=1)]
                    drawn = (np.cumsum(order, axis=1), np.maximum.accumulate(order, axis=1))
                strongest = drawn[1][:, size - 1]
                others = np.maximum(drawn[0][:, size - 1] - strongest, 0.0)
            q[size] = psr(strongest / (others + noise_mw)).mean()
    s = q[1:] / k
    return q, s


def _binomial(count: int, tau: float) -> list[float]:
    """C(count, j) tau^j (1 - tau)^(count - j) for j = 0..count, written as Bianchi's
    terms are (so that the j = 0 and j = 1 terms equal his float for float)."""
    if count > 1000:  # C(count, j) would overflow a float
        from scipy.stats import binom

        return list(binom.pmf(np.arange(count + 1), count, tau))
    return [math.comb(count, j) * tau**j * (1.0 - tau) ** (count - j) for j in range(count + 1)]


def fixed_point(n: int, W: float, m: int, s) -> tuple[float, float]:
    """Solve tau = attempt_probability(p, W, m), p = 1 - sum_j C(n-1, j) tau^j
    (1-tau)^(n-1-j) s_j for the tagged station's success probabilities ``s`` (length n).
    Returns ``(tau, p)``."""

    n = _checks.integer("n", n, minimum=1)
    s = np.atleast_1d(_checks.probability("s", s))
    if s.shape != (n,):
        raise ValueError(f"s must hold n = {n} probabilities s_0..s_(n-1), got {s.size}")
    s = [float(x) for x in s]

    def gap(p: float) -> float:
        tau = attempt_probability(p, W, m)
        through = sum(w * sj for w, sj in zip(_binomial(n - 1, tau), s))
        return p - (1.0 - through)

    if gap(0.0) >= 0.0:  # nothing is ever lost
        p = 0.0
    elif gap(1.0) <= 0.0:
        p = 1.0
    else:
        p = _roots.bisect(gap, 0.0, 1.0, xtol=1e-15)  # as bianchi.tau_p
    return attempt_probability(p, W, m), p


def _throughput(n: int, tau: float, q, slot: float, Ts: float, Tc: float, payload_time: float):
    p_busy = 1.0 - (1.0 - tau) ** n  # Ptr
    weights = _binomial(n, tau)
    p_success = sum(weights[k] * float(q[k]) for k in range(1, n + 1))  # Psucc
    S = slot_throughput(p_busy, p_success, slot, Ts, Tc, payload_time)
    return S, p_success, p_busy


def saturation(
    n: int,
    timing: Mapping,
    *,
    access: str = "basic",
    collision: str = "standard",
    first_frame: Mapping | None = None,
    powers_dbm=-60.0,
    noise_dbm: float = -94.0,
    seed: int = 1,
    q=None,
) -> dict:
    """Saturation throughput with capture at the AP for ``n`` stations on the PHY
    ``timing`` (``wlansim.phy.timing``), ``access`` "basic" or "rts".

    ``first_frame`` defaults to :func:`default_first_frame` (the data MPDU or the RTS);
    ``powers_dbm`` (one number, or one per station) and ``noise_dbm`` are the received
    powers at the AP (see :func:`capture_probabilities`). ``q`` (length n + 1, q[0] not
    used) replaces the computed capture probabilities: ``[0, 1, 0, ..., 0]`` is Bianchi's
    model. ``collision`` chooses Tc as in :func:`wlansim.models.bianchi.exchange_times`.

    Returns the keys of :func:`wlansim.models.bianchi.saturation` (``tau``, ``p``, ``S``,
    ``throughput_bps``, ``Ts``, ``Tc``) and ``q1`` (reception without interference),
    ``q2`` (one of two simultaneous first frames received; NaN for n = 1),
    ``p_success`` (Psucc) and ``p_busy`` (Ptr), per slot.
    """
    n = _checks.integer("n", n, minimum=1)
    _checks.choice("access", access, ACCESS_MODES)
    _check_timing(timing)
    W, m = backoff_parameters(timing["cw_min"], timing["cw_max"])
    Ts, Tc = exchange_times(timing, access=access, collision=collision)
    payload_time = timing["payload_bits"] / timing["data_rate_bps"]
    if q is None:
        frame = default_first_frame(timing, access) if first_frame is None else first_frame
        q, s = capture_probabilities(n, frame, powers_dbm, noise_dbm, seed=seed)
    else:
        q = np.atleast_1d(_checks.probability("q", q))
        if q.shape != (n + 1,):
            raise ValueError(f"q must hold n + 1 = {n + 1} probabilities q_0..q_n, got {q.size}")
        s = q[1:] / np.arange(1, n + 1)
    tau, p = fixed_point(n, W, m, s)
    S, p_success, p_busy = _throughput(n, tau, q, timing["slot_s"], Ts, Tc, payload_time)
    return {
        **result(tau, p, S, timing, Ts, Tc),
        "q1": float(q[1]),
        "q2": float(q[2]) if n >= 2 else math.nan,
        "p_success": p_success,
        "p_busy": p_busy,
    }
