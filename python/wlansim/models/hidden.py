"""Saturated stations hidden from each other that all send to one AP: Bianchi's fixed
point with a vulnerable period.

n saturated stations each hear the AP (and so its ACK and CTS frames) but none of the
others: a station's frame is lost when another station starts a frame while it is on the
air, or before it began and still on the air. The model combines two published pieces:
the attempt probability of Bianchi's fixed point (Bianchi 2000, eq. 7, with the retry
limit) and the vulnerable period of a hidden sender (Tobagi & Kleinrock, "Packet
switching in radio channels: Part II - the hidden terminal problem in carrier sense
multiple-access and the busy-tone solution", IEEE Trans. Commun. 23(12), 1975): a hidden
station's attempts fall anywhere in a window around the frame rather than in the same
slot. The combination, and the freezing term below, are written here; they are not one
paper's equations. Tsertou and Laurenson ("Revisiting the hidden terminal problem in a
CSMA/CA wireless network", IEEE Trans. Mobile Computing 7(7), 2008) examine this
two-station topology and show what the independence assumption leaves out: the stations
are resynchronised by every ACK of the AP, and after a collision they time out and restart
nearly together, so their successive attempts are not independent. `wlansim validate
hidden` shows how far the independent model gets (basic access: far below the simulators,
which agree with each other; RTS/CTS: within about 20 %).

Equations (times in seconds, sigma the slot):

- tau(p): Bianchi's eq. 7 with the retry limit (:func:`wlansim.models.bianchi
  .attempt_probability`): the mean attempts per frame over the mean slots per frame;
- vulnerable period, in slots of the other stations' backoff, during which one of their
  attempts destroys a frame: basic access V = (T_F + T_F) / sigma, the data frame's own
  length and the other's (which may have started before); RTS/CTS V = (2 T_RTS + SIFS +
  delta) / sigma, the RTS exchange until the AP's CTS (which the hidden station hears and
  defers to, NAV included) starts;
- p = 1 - (1 - tau)^((n - 1) V): no other station starts a frame in any of its V slots;
- per station, the mean time of one attempt E = b sigma + F + (1 - p) T_s + p T_f, with
  b = (1 - tau) / tau backoff slots per attempt (Bianchi's convention: the attempt is one
  slot), T_s the successful exchange and DIFS, T_f the frame, the ACK (CTS) timeout and
  DIFS, and F the time its backoff is frozen by the AP's answers to the others'
  successes: while counting it hears (n - 1) mu T_h of them per second of counting,
  mu = (1 - p) / E a station's success rate, T_h what it hears of each (basic: ACK +
  DIFS; RTS/CTS: CTS, the data frame under its NAV, ACK, 3 SIFS, DIFS), so
  F = b sigma x / (1 - x) with x = (n - 1) mu T_h;
- throughput n (1 - p) E[P] / E.
"""

from __future__ import annotations

import math

from . import _checks
from .bianchi import ACCESS_MODES, attempt_probability, backoff_parameters


def saturation(
    n: int,
    timing: dict,
    *,
    access: str = "basic",
    attempts: int | None = 7,
) -> dict:
    """The model for ``n`` stations hidden from each other on the PHY ``timing``
    (``wlansim.phy.timing``; times in seconds) with ``access`` "basic" or "rts" and
    ``attempts`` per frame (None: unlimited).

    Returns ``tau``, ``p``, ``vulnerable_slots`` (V), ``attempt_s`` (E), ``S`` (the
    fraction of time carrying payload) and ``throughput_bps``.
    """
    n = _checks.integer("n", n, minimum=1)
    _checks.choice("access", access, ACCESS_MODES)
    W, m = backoff_parameters(timing["cw_min"], timing["cw_max"])
    slot, sifs, difs = timing["slot_s"], timing["sifs_s"], timing["difs_s"]
    delta = timing["propagation_delay_s"]
    data, ack = timing["data_frame_s"], timing["ack_s"]
    if access == "basic":
        first, timeout = data, timing["ack_timeout_s"]
        vulnerable = 2 * data / slot
        success = data + sifs + delta + ack + delta + difs
        heard = ack + difs
    else:
        rts, cts = timing["rts_s"], timing["cts_s"]
        first, timeout = rts, timing["cts_timeout_s"]
        vulnerable = (2 * rts + sifs + delta) / slot
        handshake = rts + sifs + delta + cts + delta + sifs
        success = handshake + data + sifs + delta + ack + delta + difs
        heard = cts + sifs + data + sifs + ack + difs
    failure = first + timeout + difs

    def tau_of(p: float) -> float:
        return attempt_probability(p, W, m, attempts)

    def excess(p: float) -> float:
        return p - (1.0 - (1.0 - tau_of(p)) ** ((n - 1) * vulnerable))

    if n == 1:
        p = 0.0
    else:
        from scipy.optimize import brentq

        p = brentq(excess, 0.0, 1.0, xtol=1e-14)
    tau = tau_of(p)
    backoff = (1.0 - tau) / tau * slot
    # E solves E = backoff / (1 - x) + own with x = (n - 1) (1 - p) T_h / E.
    own = (1.0 - p) * success + p * failure
    k = (n - 1) * (1.0 - p) * heard
    # E (1 - k / E) = backoff + own (1 - k / E)  =>  E^2 - (backoff + own + k) E + own k = 0.
    b_ = backoff + own + k
    attempt = (b_ + math.sqrt(b_ * b_ - 4.0 * own * k)) / 2.0
    payload = timing["payload_bits"] / timing["data_rate_bps"]
    S = n * (1.0 - p) * payload / attempt
    return {
        "tau": tau,
        "p": p,
        "vulnerable_slots": vulnerable,
        "attempt_s": attempt,
        "S": S,
        "throughput_bps": S * timing["data_rate_bps"],
    }
