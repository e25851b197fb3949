"""Closed-form error rates of 802.11 DSSS/HR-DSSS (802.11b) and OFDM (802.11a/g) PPDUs
in additive white Gaussian noise, with interference counted as noise (SINR).

These are the reference the simulator's ``reception = "sinr"`` model is tested against,
and the per-frame success probability of :mod:`wlansim.models.capture`. ``sinr`` is a
linear power ratio (not dB) throughout; a chunk of ``nbits`` bits sent at one rate
succeeds with probability ``(1 - BER)^nbits`` (bit errors independent), or per symbol for
CCK.

DSSS (clause 16/17, chip rate 11 Mchip/s in a 22 MHz channel; Eb/N0 = SINR times the
processing gain 22 MHz / bit rate, the convention of ns-3's ``DsssErrorRateModel``):

- 1 Mb/s DBPSK: ``BER = exp(-Eb/N0) / 2``, ``Eb/N0 = 22 sinr`` (differentially coherent
  binary PSK: J. G. Proakis, *Digital Communications*, eq. 5.2-69).
- 2 Mb/s DQPSK: with ``x = 22 sinr / 2`` (two bits per symbol),
  ``BER = (sqrt2 + 1) / sqrt(8 pi sqrt2) x^(-1/2) exp(-(2 - sqrt2) x)``, at most 1/2
  (G. Ferrari and G. E. Corazza, "Tight bound on the error probability of differentially
  encoded QPSK", Electronics Letters 40(20), 2004, eq. 8).
- CCK: the biorthogonal symbol error probability of M. B. Pursley and T. C. Royster,
  "Properties and performance of the IEEE 802.11b complementary-code-key signal sets",
  IEEE Trans. Commun. 57(2), 2009: with ``beta = sqrt(2 e)`` and Phi, phi the standard
  normal cdf and pdf, ::

      SEP16(e) = 1 - integral_{-beta}^{inf} (2 Phi(x + beta) - 1)^7 phi(x) dx

  (the correct one of 8 correlators, of mean beta, must be positive and exceed the
  magnitude of the 7 others). 5.5 Mb/s (4 bits per symbol):
  ``Eb/N0 = sinr 22 / 1.375 / 4``, ``sep = SEP16(4 Eb/N0 / 2)``, success of n bits
  ``(1 - sep)^(n / 4)``. 11 Mb/s (8 bits per symbol): ``Eb/N0 = sinr 22 / 1.375 / 8``,
  ``sep = 1 - (1 - SEP16(8 Eb/N0 / 4))^2``, success ``(1 - sep)^(n / 8)``.

OFDM (clause 18; the "NIST" model of G. Pei and T. R. Henderson, "Validation of OFDM
error rate model in ns-3", Boeing Research & Technology, 2010). Uncoded bit error rates
at ``sinr`` per subcarrier symbol:

- BPSK ``erfc(sqrt(sinr)) / 2``; QPSK ``erfc(sqrt(sinr / 2)) / 2``;
- M-QAM (M = 16, 64), ``k = sqrt(M)``:
  ``(k - 1) / (k log2 k) erfc(sqrt(sinr / (2 (M - 1) / 3)))``.

The convolutional code (K = 7, punctured to rate 1/2, 2/3, 3/4) turns the uncoded BER p
into the union bound on the first-event error probability with hard decisions,
``D = sqrt(4 p (1 - p))``, ``pe = min(1, 1 / (2 b) sum_d c_d D^d)``, with b = 1, 2, 3 and
the distance spectra c_d of :data:`CODE_SPECTRA`; n bits succeed with ``(1 - pe)^n``.

HT and VHT (802.11n/ac) MCS 0-9 per spatial stream (:data:`HT_MCS`) use the same model
as ns-3's ``NistErrorRateModel`` extends it: 256-QAM's uncoded BER by the M-QAM formula
(k = 16), and the rate 5/6 code by its distance spectrum (d_free 4; Haccoun & Begin 1989,
as ns-3 takes it) with b = 5. Each stream sees the frame's SINR (as many receive antennas
as streams, no diversity gain or loss); ``sinr`` is over the frame's width (its noise is
the 20 MHz noise floor times width / 20).

A PPDU succeeds when its PLCP header and its payload both do:

- DSSS: the 48-bit PLCP header at 1 Mb/s DBPSK (long preamble) or 2 Mb/s DQPSK (short
  preamble; 1 Mb/s cannot be sent with it), then ``8 psdu_bytes`` bits at the rate.
- OFDM: the 24-bit SIGNAL field at 6 Mb/s (BPSK 1/2), then ``16 + 8 psdu_bytes + 6`` bits
  (SERVICE, PSDU, tail) at the rate.
- HT/VHT: L-SIG and HT-SIG (or VHT-SIG-A), 24 + 48 bits at BPSK 1/2, then
  ``16 + 8 psdu_bytes + 6 N_ES`` bits at the MCS, N_ES the BCC encoders of the mode
  (:func:`ht_encoders`).

The preambles themselves are assumed acquired (no synchronisation error is modelled).
"""

from __future__ import annotations

import functools
import math
import numbers

import numpy as np

from . import _checks

MODULATIONS = ("dsss", "ofdm")

#: DSSS/HR-DSSS rates of 802.11b (bit/s)
DSSS_RATES = (1_000_000, 2_000_000, 5_500_000, 11_000_000)

#: OFDM rate (bit/s) -> (constellation size M, code rate)
OFDM_MODES = {
    6_000_000: (2, "1/2"),
    9_000_000: (2, "3/4"),
    12_000_000: (4, "1/2"),
    18_000_000: (4, "3/4"),
    24_000_000: (16, "1/2"),
    36_000_000: (16, "3/4"),
    48_000_000: (64, "2/3"),
    54_000_000: (64, "3/4"),
}

#: code rate -> (b, free distance d_free, step of d, spectrum c_d from d_free on) of the
#: 802.11 K = 7 convolutional code and its punctured forms (Pei & Henderson 2010)
CODE_SPECTRA = {
    "1/2": (1, 10, 2, (36, 211, 1404, 11633, 77433, 502690, 3322763, 21292910, 134365911)),
    "2/3": (
        2,
        6,
        1,
        (3, 70, 285, 1276, 6160, 27128, 117019, 498860, 2103891, 8784123),
    ),
    "3/4": (
        3,
        5,
        1,
        (42, 201, 1492, 10469, 62935, 379644, 2253373, 13073811, 75152755, 428005675),
    ),
    "5/6": (
        5,
        4,
        1,
        (
            92,
            528,
            8694,
            79453,
            792114,
            7375573,
            67884974,
            610875423,
            5427275376,
            47664215639,
        ),
    ),
}

#: HT/VHT MCS per stream -> (constellation size M, code rate)
HT_MCS = {
    0: (2, "1/2"),
    1: (4, "1/2"),
    2: (4, "3/4"),
    3: (16, "1/2"),
    4: (16, "3/4"),
    5: (64, "2/3"),
    6: (64, "3/4"),
    7: (64, "5/6"),
    8: (256, "3/4"),
    9: (256, "5/6"),
}
#: data subcarriers of each HT/VHT channel width (MHz)
HT_DATA_SUBCARRIERS = {20: 52, 40: 108, 80: 234, 160: 468}
#: bits of L-SIG plus HT-SIG or VHT-SIG-A
HT_SIGNAL_BITS = 24 + 48

#: bits of the DSSS PLCP header, of the OFDM SIGNAL field, and the OFDM SERVICE and tail
DSSS_HEADER_BITS = 48
OFDM_SIGNAL_BITS = 24
OFDM_SERVICE_BITS = 16
OFDM_TAIL_BITS = 6

#: processing gain of the DSSS channel: 22 MHz over the bit rate (Hz)
_DSSS_BANDWIDTH_HZ = 22e6
#: CCK symbol rate (symbols/s)
_CCK_SYMBOL_RATE = 1.375e6


def _rate(modulation: str, rate_bps) -> int:
    """Check ``modulation`` and ``rate_bps`` and return the rate as an int (bit/s)."""
    _checks.choice("modulation", modulation, MODULATIONS)
    allowed = DSSS_RATES if modulation == "dsss" else tuple(OFDM_MODES)
    text = ", ".join(f"{r:g}" for r in allowed)
    number = isinstance(rate_bps, numbers.Real) and not isinstance(rate_bps, (bool, np.bool_))
    if not number or float(rate_bps) not in allowed:
        raise ValueError(
            f"rate_bps must be one of the {modulation} rates {text} (bit/s), got {rate_bps!r}"
        )
    return int(rate_bps)


def _out(value):
    """A 0-d result as a float, an array as an array."""
    value = np.asarray(value, dtype=float)
    return float(value) if value.ndim == 0 else value


def _chunk_success(per_unit_error, units):
    """(1 - per_unit_error)^units, accurate for tiny errors; 1 when units = 0."""
    if units == 0:
        return np.ones_like(per_unit_error)
    with np.errstate(divide="ignore"):
        return np.exp(units * np.log1p(-per_unit_error))


# --- DSSS -------------------------------------------------------------------------------


def dbpsk_ber(sinr):
    """BER of 1 Mb/s DBPSK at linear ``sinr``: exp(-22 sinr) / 2."""
    sinr = _checks.real("sinr", sinr, minimum=0.0)
    ebn0 = np.asarray(sinr) * _DSSS_BANDWIDTH_HZ / 1e6
    return _out(0.5 * np.exp(-ebn0))


def dqpsk_ber(sinr):
    """BER of 2 Mb/s DQPSK at linear ``sinr`` (Ferrari & Corazza's bound, at most 1/2)."""
    sinr = _checks.real("sinr", sinr, minimum=0.0)
    x = np.asarray(sinr) * _DSSS_BANDWIDTH_HZ / 1e6 / 2.0
    root2 = math.sqrt(2.0)
    scale = (root2 + 1.0) / math.sqrt(8.0 * math.pi * root2)
    with np.errstate(divide="ignore"):
        ber = scale / np.sqrt(x) * np.exp(-(2.0 - root2) * x)
    return _out(np.minimum(ber, 0.5))


@functools.lru_cache(maxsize=1)
def _sep16_nodes() -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes u on [0, 12] (12 panels of 12) and weights times
    1 - (2 Phi(u) - 1)^7 = 1 - erf(u / sqrt2)^7 (beyond u = 12 this is below 1e-31)."""
    from scipy.special import erfc

    x, w = np.polynomial.legendre.leggauss(12)
    edges = np.linspace(0.0, 12.0, 13)
    half = (edges[1] - edges[0]) / 2.0
    u = np.concatenate([lo + half * (x + 1.0) for lo in edges[:-1]])
    weights = np.tile(w * half, len(edges) - 1)
    miss = -np.expm1(7.0 * np.log1p(-erfc(u / math.sqrt(2.0))))
    return u, weights * miss


def sep16(e):
    """Pursley & Royster's symbol error probability SEP16(e) of a CCK symbol (8
    biorthogonal correlators), for ``e`` >= 0 (a float or an array).

    Computed as 1 - P(correct) = Q(beta) + integral_0^inf [1 - (2 Phi(u) - 1)^7]
    phi(u - beta) du (u = x + beta), which keeps its relative accuracy when the error is
    small, by a fixed 144-node Gauss-Legendre rule on [0, 12]: relative error about 1e-12
    for e <= 100 (where SEP16 is 1e-22), absolute error below 1e-30 beyond. The tests
    check it against adaptive quadrature and a Monte Carlo of the correlators.
    SEP16(0) = 15/16.
    """
    from scipy.special import ndtr

    e = _checks.real("e", e, minimum=0.0)
    beta = np.sqrt(2.0 * np.asarray(e, dtype=float).ravel())
    u, coef = _sep16_nodes()
    out = np.empty_like(beta)
    step = 2048
    for start in range(0, beta.size, step):
        b = beta[start : start + step, None]
        density = np.exp(-0.5 * (u[None, :] - b) ** 2) / math.sqrt(2.0 * math.pi)
        out[start : start + step] = ndtr(-b[:, 0]) + density @ coef
    out = np.clip(out, 0.0, 1.0)
    return _out(out.reshape(np.shape(e)))


def _dsss_success(rate: int, sinr, nbits: int):
    sinr = np.asarray(sinr, dtype=float)
    if rate == 1_000_000:
        return _chunk_success(np.asarray(dbpsk_ber(sinr)), nbits)
    if rate == 2_000_000:
        return _chunk_success(np.asarray(dqpsk_ber(sinr)), nbits)
    if rate == 5_500_000:
        ebn0 = sinr * (_DSSS_BANDWIDTH_HZ / _CCK_SYMBOL_RATE) / 4.0
        sep = np.asarray(sep16(4.0 * ebn0 / 2.0))
        return _chunk_success(sep, nbits / 4.0)
    # 11 Mb/s: sep = 1 - (1 - SEP16)^2, so (1 - sep)^(n/8) = (1 - SEP16)^(n/4)
    ebn0 = sinr * (_DSSS_BANDWIDTH_HZ / _CCK_SYMBOL_RATE) / 8.0
    sep_half = np.asarray(sep16(8.0 * ebn0 / 2.0 / 2.0))
    return _chunk_success(sep_half, 2.0 * nbits / 8.0)


# --- OFDM -------------------------------------------------------------------------------


def uncoded_ber(constellation: int, sinr):
    """Uncoded BER of BPSK (``constellation`` 2), QPSK (4) or M-QAM (16, 64, 256) at
    ``sinr``."""
    from scipy.special import erfc

    if constellation not in (2, 4, 16, 64, 256):
        raise ValueError(f"constellation must be one of 2, 4, 16, 64, 256, got {constellation!r}")
    sinr = np.asarray(_checks.real("sinr", sinr, minimum=0.0))
    if constellation == 2:
        return _out(0.5 * erfc(np.sqrt(sinr)))
    if constellation == 4:
        return _out(0.5 * erfc(np.sqrt(sinr / 2.0)))
    k = math.sqrt(constellation)
    z = np.sqrt(sinr / (2.0 * (constellation - 1) / 3.0))
    return _out((k - 1.0) / (k * math.log2(k)) * erfc(z))


def coded_error(code_rate: str, ber):
    """Pei & Henderson's coded bit error bound pe (at most 1) for uncoded ``ber`` and a
    ``code_rate`` of "1/2", "2/3", "3/4" or "5/6"."""
    _checks.choice("code_rate", code_rate, tuple(CODE_SPECTRA))
    p = np.asarray(_checks.probability("ber", ber))
    b, d_free, step, spectrum = CODE_SPECTRA[code_rate]
    D = np.sqrt(4.0 * p * (1.0 - p))
    total = sum(c * D ** (d_free + i * step) for i, c in enumerate(spectrum))
    return _out(np.minimum(total / (2.0 * b), 1.0))


def _ofdm_success(rate: int, sinr, nbits: int):
    constellation, code_rate = OFDM_MODES[rate]
    pe = np.asarray(coded_error(code_rate, uncoded_ber(constellation, sinr)))
    return _chunk_success(pe, nbits)


def ht_encoders(mcs: int, streams: int = 1, width_mhz: int = 20, vht: bool = False) -> int:
    """BCC encoders N_ES of an HT/VHT mode, as the standard's MCS tables give them
    (802.11-2020 19.5, 21.5): one per 1200 (HT) or 2160 (VHT) data bits of a 4 us symbol,
    and 6 for VHT 160 MHz, 4 streams, MCS 7."""
    constellation, code_rate = HT_MCS[mcs]
    num, den = (int(x) for x in code_rate.split("/"))
    bits = HT_DATA_SUBCARRIERS[width_mhz] * int(math.log2(constellation)) * streams * num // den
    if vht and (width_mhz, streams, mcs) == (160, 4, 7):
        return 6
    return math.ceil(bits / (2160 if vht else 1200))


def ht_ppdu_success(
    mcs: int, psdu_bytes: int, sinr, *, streams: int = 1, width_mhz: int = 20, vht: bool = False
):
    """Probability that an HT (``vht=False``) or VHT PPDU of ``psdu_bytes`` at ``mcs`` (per
    stream, 0-7 HT, 0-9 VHT) is received at linear ``sinr`` over its width: the 72 signal
    bits at BPSK 1/2 times the SERVICE, PSDU and tail bits at the MCS."""
    top = 9 if vht else 7
    mcs = _checks.integer("mcs", mcs, minimum=0)
    if mcs > top:
        raise ValueError(f"mcs must be 0 to {top} for {'VHT' if vht else 'HT'}, got {mcs}")
    _checks.choice("width_mhz", width_mhz, (20, 40, 80, 160) if vht else (20, 40))
    streams = _checks.integer("streams", streams, minimum=1)
    psdu_bytes = _checks.integer("psdu_bytes", psdu_bytes, minimum=1)
    sinr = np.asarray(_checks.real("sinr", sinr, minimum=0.0), dtype=float)
    header = _ofdm_success(6_000_000, sinr, HT_SIGNAL_BITS)
    constellation, code_rate = HT_MCS[mcs]
    bits = 16 + 8 * psdu_bytes + 6 * ht_encoders(mcs, streams, width_mhz, vht)
    pe = np.asarray(coded_error(code_rate, uncoded_ber(constellation, sinr)))
    return _out(header * _chunk_success(pe, bits))


# --- public API -------------------------------------------------------------------------


def bit_success(modulation: str, rate_bps: float, sinr, nbits: int):
    """Probability that ``nbits`` bits sent at ``rate_bps`` with ``modulation`` ("dsss" or
    "ofdm") are all received at linear ``sinr`` (a float, or an array giving an array).
    """
    rate = _rate(modulation, rate_bps)
    sinr = _checks.real("sinr", sinr, minimum=0.0)
    nbits = _checks.integer("nbits", nbits, minimum=0)
    if modulation == "dsss":
        return _out(_dsss_success(rate, sinr, nbits))
    return _out(_ofdm_success(rate, sinr, nbits))


def ppdu_success(
    modulation: str, rate_bps: float, psdu_bytes: int, sinr, short_preamble: bool = False
):
    """Probability that a PPDU carrying ``psdu_bytes`` at ``rate_bps`` is received at
    linear ``sinr``: header success times payload success (see the module docstring).

    ``short_preamble`` selects the DSSS short PLCP (header at 2 Mb/s); it cannot carry
    1 Mb/s. OFDM has a single preamble and ignores it.
    """
    rate = _rate(modulation, rate_bps)
    psdu_bytes = _checks.integer("psdu_bytes", psdu_bytes, minimum=1)
    sinr = _checks.real("sinr", sinr, minimum=0.0)
    if not isinstance(short_preamble, (bool, np.bool_)):
        raise ValueError(f"short_preamble must be True or False, got {short_preamble!r}")
    if modulation == "dsss":
        if short_preamble and rate == 1_000_000:
            raise ValueError(
                "rate_bps 1e6 cannot be sent with short_preamble=True (the short PLCP "
                "carries 2, 5.5 and 11 Mb/s)"
            )
        header = _dsss_success(2_000_000 if short_preamble else 1_000_000, sinr, DSSS_HEADER_BITS)
        payload = _dsss_success(rate, sinr, 8 * psdu_bytes)
    else:
        header = _ofdm_success(6_000_000, sinr, OFDM_SIGNAL_BITS)
        bits = OFDM_SERVICE_BITS + 8 * psdu_bytes + OFDM_TAIL_BITS
        payload = _ofdm_success(rate, sinr, bits)
    return _out(header * payload)


def sinr_db_for(
    modulation: str,
    rate_bps: float,
    psdu_bytes: int,
    target: float = 0.9,
    short_preamble: bool = False,
) -> float:
    """SINR (dB) at which :func:`ppdu_success` reaches ``target`` (in (0, 1)), by Brent's
    method on [-40, 60] dB (the success rises with the SINR)."""
    from scipy.optimize import brentq

    _rate(modulation, rate_bps)
    target = _checks.probability("target", target, open_lower=True, open_upper=True)

    def gap(db: float) -> float:
        sinr = 10.0 ** (db / 10.0)
        return ppdu_success(modulation, rate_bps, psdu_bytes, sinr, short_preamble) - target

    lo, hi = -40.0, 60.0
    if gap(lo) >= 0.0 or gap(hi) <= 0.0:
        raise ValueError(
            f"target {target} is not reached between {lo} and {hi} dB for a {psdu_bytes}-byte "
            f"PSDU at {rate_bps:g} bit/s"
        )
    return float(brentq(gap, lo, hi, xtol=1e-10))


def table(
    modulation: str,
    psdu_bytes: int,
    sinr_db=None,
    *,
    rates=None,
    short_preamble: bool = False,
):
    """PPDU success probability of a ``psdu_bytes`` frame against SINR, one column per
    rate, as a pandas DataFrame.

    The index ``sinr_db`` is ``sinr_db`` (dB; default -10 to 40 dB in 1 dB steps); the
    columns are the rates in Mb/s (``rates`` in bit/s, default every rate of
    ``modulation``; with ``short_preamble`` the default leaves out 1 Mb/s).
    """
    import pandas as pd

    _checks.choice("modulation", modulation, MODULATIONS)
    if sinr_db is None:
        sinr_db = np.arange(-10.0, 40.5, 1.0)
    sinr_db = np.atleast_1d(_checks.real("sinr_db", sinr_db))
    if rates is None:
        rates = DSSS_RATES if modulation == "dsss" else tuple(OFDM_MODES)
        if modulation == "dsss" and short_preamble:
            rates = rates[1:]
    sinr = 10.0 ** (sinr_db / 10.0)
    columns = {}
    for rate in rates:
        rate = _rate(modulation, rate)
        columns[rate / 1e6] = ppdu_success(modulation, rate, psdu_bytes, sinr, short_preamble)
    frame = pd.DataFrame(columns, index=pd.Index(sinr_db, name="sinr_db"))
    frame.columns.name = "rate_mbps"
    return frame
