"""Log-distance path loss with log-normal shadowing, in the form of ns-2's
``Propagation/Shadowing`` (ns-2.35 ``mobile/shadowing.cc`` ``Shadowing::Pr``; Rappaport,
*Wireless Communications*, 2nd ed., eqs 4.68-4.69), which the simulator's
``[channel] propagation = { model = "shadowing" }`` draws from:

    P̄r(d) [dB] = Pr_Friis(d0) [dB] − 10 β log10(d / d0)     (d > d0; P̄r(d0) for d ≤ d0)
    Pr_Friis(d0) = Pt Gt Gr λ² / ((4π d0)² L),  λ = c / f
    Pr(d) [dB] = P̄r(d) + X,  X ~ N(0, σ²) in dB, drawn per frame and receiver

A frame is received when Pr(d) ≥ RXThresh, so the probability of receiving it is

    P(d) = Q((RXThresh − P̄r(d)) / σ) = 1 − Q((P̄r(d) − RXThresh) / σ)

(Q the standard normal tail). Defaults are ns-2.35's (``tcl/lib/ns-default.tcl``:
``Phy/WirelessPhy`` Pt_ 0.28183815 W, freq_ 914 MHz, L_ 1, RXThresh_ 3.652e-10 W,
CSThresh_ 1.559e-11 W; ``Antenna/OmniAntenna`` Gt_ = Gr_ = 1; ``Propagation/Shadowing``
pathlossExp_ 2, std_db_ 4, dist0_ 1 m).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: speed of light (m/s), as ns-2's ``SPEED_OF_LIGHT``
SPEED_OF_LIGHT = 299_792_458.0


@dataclass(frozen=True)
class Shadowing:
    """The parameters, named as the scenario's `[channel.propagation]` keys (W, MHz, m, dB)."""

    tx_power_w: float = 0.28183815
    frequency_mhz: float = 914.0
    reference_distance_m: float = 1.0
    path_loss_exponent: float = 2.0
    sigma_db: float = 4.0
    rx_threshold_w: float = 3.652e-10
    cs_threshold_w: float = 1.559e-11
    system_loss: float = 1.0
    gains: float = 1.0  # Gt · Gr

    def friis_w(self, d: float) -> float:
        """Friis free-space received power at `d` metres (W)."""
        lam = SPEED_OF_LIGHT / (self.frequency_mhz * 1e6)
        return self.tx_power_w * self.gains * lam**2 / ((4 * math.pi * d) ** 2 * self.system_loss)

    def mean_power_db(self, d) -> np.ndarray:
        """P̄r(d) in dBW (the median received power at `d` metres)."""
        d = np.asarray(d, dtype=float)
        d0 = self.reference_distance_m
        pr0 = 10 * math.log10(self.friis_w(d0))
        return pr0 - 10 * self.path_loss_exponent * np.log10(np.maximum(d, d0) / d0)

    def reception_probability(self, d, threshold_w: float | None = None) -> np.ndarray:
        """P(Pr(d) ≥ threshold) (the receive threshold by default) at `d` metres."""
        from scipy.stats import norm

        thr = self.rx_threshold_w if threshold_w is None else threshold_w
        margin = self.mean_power_db(d) - 10 * math.log10(thr)
        if self.sigma_db == 0:
            return (margin >= 0).astype(float)
        return norm.cdf(margin / self.sigma_db)

    def carrier_sense_probability(self, d) -> np.ndarray:
        """P(Pr(d) ≥ the carrier-sense threshold): how often a frame sent `d` metres away
        is sensed (the channel is then busy for the listener)."""
        return self.reception_probability(d, self.cs_threshold_w)
