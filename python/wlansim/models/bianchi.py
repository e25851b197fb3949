"""Bianchi's saturation model of the IEEE 802.11 DCF.

G. Bianchi, "Performance Analysis of the IEEE 802.11 Distributed Coordination Function",
IEEE JSAC 18(3), 2000. n stations always have a frame to send; each attempts in a
(backoff) slot with probability tau and collides with constant probability p. The contention
window starts at W and doubles on each collision up to 2^m W; retries are unlimited.

- eq. 7:  tau = 2(1-2p) / [(1-2p)(W+1) + p W (1-(2p)^m)]
- eq. 9:  p = 1 - (1-tau)^(n-1)
- eq. 13: S = Ps Ptr E[P] / [(1-Ptr) sigma + Ptr Ps Ts + Ptr (1-Ps) Tc]
- eqs. 14-15 (basic access) and 16 (RTS/CTS) for Ts and Tc.

With ``aggregate=True`` each transmission is an A-MPDU of k MPDUs acknowledged by one
compressed BlockAck (a ``timing`` of a scenario with ``mac.ampdu_max_bytes``): Ts and Tc
take the A-MPDU's PPDU and the BlockAck for DATA and ACK, and a success carries k
payloads; with ``mac.amsdu_max_bytes`` too, each MPDU is an A-MSDU of j packets and a
success carries k j (an A-MSDU without A-MPDU: k = 1, acknowledged by an ACK). A sender
that missed a BlockAck sends a BlockAckReq in its next access (the timing's
``block_ack_req_s``), which collides as any attempt does: an attempt is a BlockAckReq
when the one before failed, with probability p, so a success is the A-MPDU's with
probability 1 - p (k j payloads, Ts of the A-MPDU) and the BlockAckReq's with
probability p (no payload; BlockAckReq, SIFS, BlockAck), and a collision lasts as the
BlockAckReq's only when every colliding frame is one (each with probability p).

Times are in seconds throughout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from . import _checks, _roots

ACCESS_MODES = ("basic", "rts")
COLLISION_MODELS = ("standard", "bianchi")


def attempt_probability(p: float, W: float, m: int, attempts: int | None = None) -> float:
    """Bianchi eq. 7: probability tau that a saturated station transmits in a random slot,
    given its conditional collision probability ``p`` (contention window W, m doublings).

    Written as tau = 2 / [W + 1 + p W sum_{i<m} (2p)^i], which equals eq. 7 and has no
    0/0 at p = 1/2. With a retry limit of ``attempts`` transmissions per frame (the frame
    is dropped and the window reset after the last one fails; None = unlimited, Bianchi's
    assumption), tau is the mean number of attempts per frame over the mean number of
    slots per frame, stage j lasting (W_j + 1) / 2 slots with W_j = 2^min(j, m) W:
    tau = sum_{j<K} p^j / sum_{j<K} p^j (W_j + 1) / 2 (the finite-retry chain of Wu et
    al., INFOCOM 2002, and Chatzimisios et al., 2002).
    """
    p = _checks.probability("p", p)
    W = _checks.real("W", W, minimum=1.0)
    m = _checks.integer("m", m, minimum=0)
    if attempts is None:
        backoff_growth = sum((2.0 * p) ** i for i in range(m))
        return 2.0 / (W + 1.0 + p * W * backoff_growth)
    attempts = _checks.integer("attempts", attempts, minimum=1)
    stages = [p**j for j in range(attempts)]
    slots = sum(s * (2 ** min(j, m) * W + 1.0) / 2.0 for j, s in enumerate(stages))
    return sum(stages) / slots


def tau_p(n: int, W: float, m: int) -> tuple[float, float]:
    """Solve Bianchi's fixed point (eqs. 7 and 9) for ``n`` saturated stations.

    Returns ``(tau, p)``: the per-slot transmission probability and the conditional
    collision probability. ``W`` is the minimum contention window in slots (CWmin + 1),
    ``m`` the number of window doublings (CWmax + 1 = 2^m W). For n = 1, p = 0 and
    tau = 2 / (W + 1). The root is unique (the right-hand side of eq. 9 decreases in p) and
    is bracketed in [0, 1].
    """
    n = _checks.integer("n", n, minimum=1)
    W = _checks.real("W", W, minimum=1.0)
    m = _checks.integer("m", m, minimum=0)
    if n == 1:
        return 2.0 / (W + 1.0), 0.0

    def excess(p: float) -> float:
        return p - (1.0 - (1.0 - attempt_probability(p, W, m)) ** (n - 1))

    if excess(1.0) <= 0.0:  # tau(1) = 1: every station transmits in every slot
        p = 1.0
    else:
        p = _roots.bisect(excess, 0.0, 1.0, xtol=1e-15)
    return attempt_probability(p, W, m), p


def saturation_throughput(
    n: int, W: float, m: int, *, slot: float, Ts: float, Tc: float, payload_time: float
) -> float:
    """Bianchi eq. 13: normalised saturation throughput S (fraction of channel time that
    carries payload) for ``n`` stations, window ``W`` and ``m`` doublings.

    ``slot`` is the empty slot time sigma, ``Ts`` the mean time the channel is busy for a
    successful transmission, ``Tc`` the time it is busy for a collision and
    ``payload_time`` the time to send one payload E[P] -- all in seconds.
    """
    slot = _checks.real("slot", slot, minimum=0.0, strict=True)
    Ts = _checks.real("Ts", Ts, minimum=0.0, strict=True)
    Tc = _checks.real("Tc", Tc, minimum=0.0, strict=True)
    payload_time = _checks.real("payload_time", payload_time, minimum=0.0)
    tau, _ = tau_p(n, W, m)
    return _throughput(int(n), tau, slot, Ts, Tc, payload_time)


def _throughput(n: int, tau: float, slot: float, Ts: float, Tc: float, payload_time: float):
    p_busy = 1.0 - (1.0 - tau) ** n  # Ptr
    p_success = n * tau * (1.0 - tau) ** (n - 1)  # Ptr * Ps
    return slot_throughput(p_busy, p_success, slot, Ts, Tc, payload_time)


def slot_throughput(
    p_busy: float, p_success: float, slot: float, Ts: float, Tc: float, payload_time: float
) -> float:
    """Eq. 13 from the per-slot probabilities: a slot is busy with ``p_busy`` (Ptr) and
    carries a success with ``p_success`` (Ptr Ps)."""
    mean_slot = (1.0 - p_busy) * slot + p_success * Ts + (p_busy - p_success) * Tc
    return p_success * payload_time / mean_slot


def _frames(timing: Mapping, aggregate: bool) -> tuple[float, float, int]:
    """(data PPDU, its acknowledgement, payloads per success) of ``timing``: one MPDU
    and its ACK, or (``aggregate``) the saturated A-MPDU and its BlockAck."""
    if not aggregate:
        return timing["data_frame_s"], timing["ack_s"], 1
    if "ampdu_mpdus" not in timing:
        raise ValueError(
            "aggregate=True needs the timing of a scenario with mac.ampdu_max_bytes or "
            "mac.amsdu_max_bytes > 0 "
            "(wlansim.phy.timing of a scenario's [phy] and [mac]); this timing has no A-MPDU"
        )
    payloads = timing["ampdu_mpdus"] * timing.get("amsdu_msdus", 1)
    return timing["ampdu_frame_s"], timing["block_ack_s"], payloads


def exchange_times(
    timing: dict,
    *,
    access: str = "basic",
    collision: str = "standard",
    aifs: float | None = None,
    aggregate: bool = False,
) -> tuple[float, float]:
    """Return ``(Ts, Tc)`` in seconds for a PHY ``timing`` dict (``wlansim.phy.timing``).

    With delta the propagation delay (DIFS below is ``aifs`` when given: the AIFS of the
    EDCA access category the stations use, e.g. AC_BE's SIFS + 3 slots in an 802.11n/ac
    cell, whose stations are QoS STAs; EIFS is then followed by AIFS - DIFS more, 9.19.2.3):

    - basic: Ts = DATA + SIFS + delta + ACK + DIFS + delta (Bianchi eq. 14);
    - rts: Ts = RTS + SIFS + delta + CTS + SIFS + delta + DATA + SIFS + delta + ACK + DIFS
      + delta (eq. 16).

    The collided frame F is DATA (basic) or RTS (rts). ``collision="bianchi"`` uses
    Bianchi's Tc = F + DIFS + delta; ``collision="standard"`` (default) uses
    Tc = F + delta + EIFS, which is what a station that did not transmit waits under
    802.11 (an errored frame is followed by EIFS) and hence what the simulator does.
    ``aggregate``: DATA is the A-MPDU and ACK the BlockAck (see the module).
    """
    _checks.choice("access", access, ACCESS_MODES)
    _checks.choice("collision", collision, COLLISION_MODELS)
    delta = timing["propagation_delay_s"]
    sifs = timing["sifs_s"]
    difs = timing["difs_s"] if aifs is None else _checks.real("aifs", aifs, minimum=0.0)
    data, ack, _ = _frames(timing, aggregate)
    tail = data + sifs + delta + ack + difs + delta
    if access == "basic":
        Ts, collided = tail, data
    else:
        handshake = timing["rts_s"] + sifs + delta + timing["cts_s"] + sifs + delta
        Ts, collided = handshake + tail, timing["rts_s"]
    if collision == "bianchi":
        Tc = collided + difs + delta
    else:
        Tc = collided + delta + timing["eifs_s"] - timing["difs_s"] + difs
    return Ts, Tc


def backoff_parameters(cw_min: int, cw_max: int) -> tuple[int, int]:
    """Return Bianchi's ``(W, m)`` for an 802.11 PHY: W = CWmin + 1 and
    m = log2((CWmax + 1) / (CWmin + 1)), which must be a whole number (5 for 802.11b)."""
    cw_min = _checks.integer("cw_min", cw_min, minimum=0)
    cw_max = _checks.integer("cw_max", cw_max, minimum=cw_min)
    W = cw_min + 1
    m = math.log2((cw_max + 1) / W)
    if not m.is_integer():
        raise ValueError(
            f"(cw_max + 1) / (cw_min + 1) must be a power of two, got cw_min={cw_min}, "
            f"cw_max={cw_max}"
        )
    return W, int(m)


def saturation(
    n: int,
    timing: dict,
    *,
    access: str = "basic",
    collision: str = "standard",
    aifs: float | None = None,
    aggregate: bool = False,
) -> dict:
    """Bianchi saturation model for ``n`` stations on the PHY described by ``timing``
    (the dict returned by ``wlansim.phy.timing``; times in seconds), with DIFS or an
    EDCA ``aifs`` (:func:`exchange_times`; under EDCA's slot rule the AIFS boundary
    counts as a slot, as in Bianchi's chain: :mod:`wlansim.models.edca`).

    Returns a dict with ``tau``, ``p``, ``S`` (normalised throughput: fraction of time
    carrying the UDP payload), ``throughput_bps`` (S times the data rate, in bit/s), and the
    ``Ts``, ``Tc`` used (seconds, see :func:`exchange_times`). ``aggregate``: A-MPDUs
    with BlockAck (the module's last paragraph).
    """
    W, m = backoff_parameters(timing["cw_min"], timing["cw_max"])
    Ts, Tc = exchange_times(
        timing, access=access, collision=collision, aifs=aifs, aggregate=aggregate
    )
    payload_time = _frames(timing, aggregate)[2] * timing["payload_bits"] / timing["data_rate_bps"]
    tau, p = tau_p(n, W, m)
    if aggregate and timing.get("block_ack_req_s") is not None:
        Ts, Tc, payload_time = _with_block_ack_reqs(
            int(n), tau, p, timing, (Ts, Tc, payload_time), collision=collision, aifs=aifs
        )
    S = _throughput(int(n), tau, timing["slot_s"], Ts, Tc, payload_time)
    return result(tau, p, S, timing, Ts, Tc)


def _with_block_ack_reqs(
    n: int, tau: float, p: float, timing: Mapping, ampdu: tuple, *, collision: str, aifs
) -> tuple[float, float, float]:
    """The mean Ts, Tc and payload time per success when an attempt is a BlockAckReq
    with probability p (the module's last paragraph); ``ampdu``: the A-MPDU's."""
    Ts, Tc, payload_time = ampdu
    bar = {**timing, "ampdu_frame_s": timing["block_ack_req_s"]}
    Ts_bar, Tc_bar = exchange_times(bar, collision=collision, aifs=aifs, aggregate=True)
    # A collision of i >= 2 attempts is of BlockAckReqs alone with probability p^i.
    weights = [math.comb(n, i) * tau**i * (1.0 - tau) ** (n - i) for i in range(2, n + 1)]
    only_bars = (
        sum(w * p**i for i, w in enumerate(weights, start=2)) / sum(weights) if weights else 0.0
    )
    return (
        (1.0 - p) * Ts + p * Ts_bar,
        (1.0 - only_bars) * Tc + only_bars * Tc_bar,
        (1.0 - p) * payload_time,
    )


def result(tau: float, p: float, S: float, timing: Mapping, Ts: float, Tc: float) -> dict:
    """The keys every saturation model here returns: ``tau``, ``p``, ``S``,
    ``throughput_bps`` (S times the data rate) and the ``Ts``, ``Tc`` used."""
    return {
        "tau": tau,
        "p": p,
        "S": S,
        "throughput_bps": S * timing["data_rate_bps"],
        "Ts": Ts,
        "Tc": Tc,
    }
