"""Saturation model of 802.11e EDCA for classes differing in AIFS, CWmin/CWmax and TXOP.

A Bianchi-style per-class fixed point with the AIFS "zones" (protected slots) of
J. W. Robinson and T. S. Randhawa, "Saturation throughput analysis of IEEE 802.11e
Enhanced Distributed Coordination Function", IEEE JSAC 22(5), 2004 (their AIFS
"contention zones"; the same construction as the "protected slots" of G. Bianchi,
I. Tinnirello, L. Scalia, "Understanding 802.11e contention-based prioritization
mechanisms and their coexistence with legacy 802.11 stations", IEEE Network 19(4):28-34,
2005). Equations are cited by content, not number: R&R's numbering could not be checked
against the paper here. In our notation:

- Class c has ``n_c`` saturated stations, window ``W_c = CWmin_c + 1`` doubling ``m_c``
  times, ``d_c = AIFSN_c - min AIFSN`` extra AIFS slots and ``F_c`` frames per TXOP.
- Zone state ``k = 0 .. D`` (``D = max d_c``) counts the idle slot boundaries since the
  medium last turned idle (AIFS of the highest class), capped at D. Class c contends in
  state k iff ``d_c <= k``. With ``q_k = prod_{c active in k} (1 - tau_c)^{n_c}`` (all
  active stations silent), the zone chain (R&R's contention-zone Markov chain) is::

      pi_{k+1} = pi_k q_k  (k < D - 1),   pi_D = pi_{D-1} q_{D-1} / (1 - q_D),  sum pi = 1

- Per class, Bianchi's (JSAC 2000) attempt probability in a slot where it contends,
  ``tau_c = tau(p_c, W_c, m_c)``, with the collision probability seen in those slots
  (averaged over the zones the class contends in, after R&R)::

      p_c = 1 - sum_{k >= d_c} pi_k q_k / (1 - tau_c) / sum_{k >= d_c} pi_k

- Throughput of class c (Bianchi's throughput ratio applied per zone and weighted by
  pi_k, as in R&R)::

      P_s,c(k) = n_c tau_c q_k / (1 - tau_c)       (c active in k; computed without the
                                                     division, so tau_c = 1 is fine)
      E[T]     = sum_k pi_k [q_k sigma + sum_c P_s,c(k) Ts_c + (1 - q_k - sum_c P_s,c(k)) Tc]
      S_c      = sum_k pi_k P_s,c(k) F_c L / E[T]

  with ``Ts_c = F_c (DATA + SIFS + ACK + 2 delta) + (F_c - 1) SIFS + AIFS_min`` (a TXOP of
  F_c SIFS-separated exchanges) and ``Tc = DATA + delta + EIFS - DIFS + AIFS_min`` (the
  802.11 collision time the simulator follows, as in :mod:`wlansim.models.bianchi`).

Counting the AIFS boundary as a contention slot is exactly the 802.11e slot-boundary rule
(IEEE 802.11-2012 9.19.2.3) that the simulator implements for EDCA: it matches Bianchi's
chain, in which the counter moves at every slot, busy ones included. With equal
parameters (D = 0, one zone) the model is Bianchi's. Retries are unlimited (Bianchi's
assumption) unless a class sets ``retry_limit``.

Times are in seconds; throughputs in bit/s of UDP payload.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from . import _checks
from .bianchi import attempt_probability, backoff_parameters, exchange_times


@dataclass(frozen=True)
class EdcaClass:
    """One class of identical saturated stations."""

    n: int
    cw_min: int = 31
    cw_max: int = 1023
    aifsn: int = 2
    #: frames per TXOP (1 = TXOP limit 0); see :func:`frames_per_txop`.
    txop_frames: int = 1
    #: transmissions per frame before it is dropped (dot11ShortRetryLimit semantics);
    #: None = unlimited, Bianchi's assumption
    retry_limit: int | None = None


def exchange_time(timing: dict) -> float:
    """One basic-access exchange, first bit of DATA to the end of the ACK's reception."""
    delta = timing["propagation_delay_s"]
    return timing["data_frame_s"] + timing["sifs_s"] + timing["ack_s"] + 2 * delta


#: What a TXOP limit bounds (:func:`frames_per_txop`): the whole exchanges (the
#: standard's rule) or the DATA frames' airtime alone.
TXOP_COUNTS = ("exchange", "data")


def frames_per_txop(txop_limit_s: float, timing: dict, counts: str = "exchange") -> int:
    """Frames that fit in a TXOP limit; the first always goes (TXOP 0 = one exchange).

    ``counts="exchange"``, the standard's rule (802.11-2012 9.19.2.4): each further
    exchange, SIFS after the previous ACK, only if it ends within the limit:
    ``F = max(1, floor((TXOP + SIFS) / (E + SIFS)))``, steps E + SIFS apart.

    ``counts="data"``: a burst whose limit bounds the DATA frames' airtime alone,
    ``F = max(1, floor(TXOP / DATA))``, steps one DATA frame apart (the rule a test-bed's
    driver would follow if its TXOP steps were one packet's transmission time, as ng2005
    reports for MadWiFi; not the standard's)."""
    txop_limit_s = _checks.real("txop_limit_s", txop_limit_s, minimum=0.0)
    span, gap = _txop_unit(timing, counts)
    # A tiny tolerance so that a limit equal to k frames (in ns) admits k.
    return max(1, math.floor((txop_limit_s + gap) / (span + gap) + 1e-9))


def txop_for_frames(frames: int, timing: dict, counts: str = "exchange") -> float:
    """The smallest TXOP limit (s) that holds ``frames`` frames under rule ``counts``
    (:func:`frames_per_txop`): ``frames·span + (frames − 1)·gap``, where a step is
    ``span + gap`` (E + SIFS, or one DATA frame)."""
    frames = _checks.integer("frames", frames, minimum=1)
    span, gap = _txop_unit(timing, counts)
    return frames * span + (frames - 1) * gap


def _txop_unit(timing: dict, counts: str) -> tuple[float, float]:
    """(span, gap) of one further frame of a TXOP under rule ``counts``: the exchange and
    the SIFS before it, or the DATA frame alone."""
    if counts not in TXOP_COUNTS:
        raise ValueError(f"counts {counts!r}: one of {', '.join(TXOP_COUNTS)}")
    if counts == "data":
        return timing["data_frame_s"], 0.0
    return exchange_time(timing), timing["sifs_s"]


def _silent(tau, classes, d, k: int, skip: int | None = None) -> float:
    """Probability that every station contending in zone k stays silent, except one
    station of class ``skip`` (the one whose collision probability is computed)."""
    prod = 1.0
    for i, (t, c, dc) in enumerate(zip(tau, classes, d)):
        if dc <= k:
            prod *= (1.0 - t) ** (c.n - (i == skip))
    return prod


def _zones(tau: list[float], classes: Sequence[EdcaClass], d: list[int], D: int):
    q = [_silent(tau, classes, d, k) for k in range(D + 1)]
    pi = [1.0]
    for k in range(D):
        if k + 1 < D:
            pi.append(pi[k] * q[k])
        else:
            pi.append(pi[k] * q[k] / (1.0 - q[D]))
    total = sum(pi)
    return [p / total for p in pi], q


def solve(classes: Sequence[EdcaClass], timing: dict, *, tol: float = 1e-12) -> dict:
    """Solve the model for ``classes`` on the PHY ``timing`` (``wlansim.phy.timing``).

    Returns ``{"tau", "p", "throughput_bps" (per class), "per_station_bps",
    "share" (fraction of the total), "pi" (zone probabilities)}``, lists in class order.
    """
    if not classes:
        raise ValueError("at least one class is required")
    for i, c in enumerate(classes):
        _checks.integer(f"classes[{i}].n", c.n, minimum=1)
        _checks.integer(f"classes[{i}].aifsn", c.aifsn, minimum=1)
        _checks.integer(f"classes[{i}].txop_frames", c.txop_frames, minimum=1)
    wm = [backoff_parameters(c.cw_min, c.cw_max) for c in classes]
    amin = min(c.aifsn for c in classes)
    d = [c.aifsn - amin for c in classes]
    D = max(d)
    tau = [2.0 / (W + 1.0) for W, _ in wm]
    p = [0.0] * len(classes)
    for _ in range(10_000):
        pi, q = _zones(tau, classes, d, D)
        new_p = []
        for i, dc in enumerate(d):
            weight = sum(pi[k] for k in range(dc, D + 1))
            silent = sum(pi[k] * _silent(tau, classes, d, k, i) for k in range(dc, D + 1))
            # a class whose zone is never reached never transmits: its p is moot
            new_p.append(min(1.0, max(0.0, 1.0 - silent / weight)) if weight > 0 else 0.0)
        new_tau = [
            attempt_probability(pc, W, m, c.retry_limit)
            for pc, (W, m), c in zip(new_p, wm, classes)
        ]
        step = max(abs(a - b) for a, b in zip(new_tau, tau))
        tau = [0.5 * a + 0.5 * b for a, b in zip(new_tau, tau)]
        p = new_p
        if step < tol:
            break
    pi, q = _zones(tau, classes, d, D)

    sifs, slot = timing["sifs_s"], timing["slot_s"]
    aifs_min = sifs + amin * slot
    Ts_b, Tc_b = exchange_times(timing, access="basic")
    difs = timing["difs_s"]
    Tc = Tc_b - difs + aifs_min
    E = exchange_time(timing)
    Ts = [c.txop_frames * E + (c.txop_frames - 1) * sifs + aifs_min for c in classes]
    payload = timing["payload_bits"]

    success = [0.0] * len(classes)
    mean_slot = 0.0
    for k in range(D + 1):
        ps = [
            c.n * t * _silent(tau, classes, d, k, i) if dc <= k else 0.0
            for i, (t, c, dc) in enumerate(zip(tau, classes, d))
        ]
        coll = 1.0 - q[k] - sum(ps)
        mean_slot += pi[k] * (
            q[k] * slot + sum(x * ts for x, ts in zip(ps, Ts)) + max(coll, 0.0) * Tc
        )
        for i, x in enumerate(ps):
            success[i] += pi[k] * x
    thr = [s * c.txop_frames * payload / mean_slot for s, c in zip(success, classes)]
    total = sum(thr)
    return {
        "tau": tau,
        "p": p,
        "throughput_bps": thr,
        "per_station_bps": [t / c.n for t, c in zip(thr, classes)],
        "share": [t / total for t in thr],
        "pi": pi,
    }


def relative_throughput(reference: EdcaClass, other: EdcaClass, timing: dict) -> float:
    """Per-station throughput of ``other`` over that of ``reference`` (ng2005 Figs 3-5)."""
    r = solve([reference, other], timing)
    return r["per_station_bps"][1] / r["per_station_bps"][0]
