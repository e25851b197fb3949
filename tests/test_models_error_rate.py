"""Closed-form PPDU error rates (DSSS/CCK and the NIST OFDM model) against their
definitions, a second quadrature and a Monte Carlo of the CCK correlators."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate
from scipy.special import erfc
from scipy.stats import norm

from wlansim.models import error_rate as er

DSSS, OFDM = er.DSSS_RATES, tuple(er.OFDM_MODES)


def sep16_by_definition(e: float) -> float:
    """1 - integral_{-beta}^inf (2 Phi(x + beta) - 1)^7 phi(x) dx, adaptively."""
    beta = math.sqrt(2 * e)
    inside, _ = integrate.quad(
        lambda x: (2 * norm.cdf(x + beta) - 1) ** 7 * norm.pdf(x),
        -beta,
        np.inf,
        epsabs=1e-14,
        epsrel=1e-12,
        limit=200,
    )
    return 1 - inside


def sep16_complement(e: float) -> float:
    """Q(beta) + integral_0^inf [1 - (2 Phi(u) - 1)^7] phi(u - beta) du, adaptively (keeps
    its relative accuracy for small errors, unlike the definition's 1 - integral)."""
    beta = math.sqrt(2 * e)
    tail, _ = integrate.quad(
        lambda u: -math.expm1(7 * math.log1p(-erfc(u / math.sqrt(2)))) * norm.pdf(u - beta),
        0,
        beta + 15,
        epsabs=0,
        epsrel=1e-10,
        limit=500,
        points=[beta / 2],  # where the integrand peaks for large beta
    )
    return norm.sf(beta) + tail


def test_dbpsk_and_dqpsk_bit_error_rates():
    assert er.dbpsk_ber(0.1) == pytest.approx(0.5 * math.exp(-2.2), rel=1e-15)
    # 20 bits at 1 Mb/s: (1 - BER)^20
    assert er.bit_success("dsss", 1e6, 0.1, 20) == pytest.approx((1 - 0.5 * math.exp(-2.2)) ** 20)
    x = 0.3 * 22 / 2
    bound = (math.sqrt(2) + 1) / math.sqrt(8 * math.pi * math.sqrt(2)) / math.sqrt(x)
    assert er.dqpsk_ber(0.3) == pytest.approx(bound * math.exp(-(2 - math.sqrt(2)) * x))
    # the bound exceeds 1/2 at low SINR: clamped
    assert er.dqpsk_ber(0.0) == 0.5
    assert er.dqpsk_ber(0.005) == 0.5
    assert er.bit_success("dsss", 2e6, 0.0, 10) == pytest.approx(0.5**10)


@pytest.mark.parametrize("e", [0.0, 0.05, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 60.0])
def test_sep16_against_adaptive_quadrature(e):
    got = er.sep16(e)
    assert got == pytest.approx(sep16_by_definition(e), abs=1e-12)
    assert got == pytest.approx(sep16_complement(e), rel=1e-8)


def test_sep16_limits_and_arrays():
    # no signal: one of 16 symbols guessed right
    assert er.sep16(0.0) == pytest.approx(15 / 16, rel=1e-13)
    e = np.array([[0.0, 1.0], [4.0, 200.0]])
    got = er.sep16(e)
    assert got.shape == (2, 2)
    assert got[0, 1] == er.sep16(1.0)
    assert 0.0 < got[1, 1] < 1e-40
    assert np.all(np.diff(er.sep16(np.linspace(0, 50, 201))) < 0)


@pytest.mark.parametrize("e", [0.5, 2.0, 4.0])
def test_sep16_against_a_monte_carlo_of_the_correlators(e):
    """8 unit-variance correlators, the sent one of mean beta: the symbol is right when it
    is positive and larger than the magnitude of the 7 others."""
    rng = np.random.default_rng(17)
    trials = 200_000
    beta = math.sqrt(2 * e)
    sent = rng.standard_normal(trials) + beta
    others = np.abs(rng.standard_normal((trials, 7))).max(axis=1)
    error = 1 - np.mean((sent > 0) & (sent > others))
    sigma = math.sqrt(error * (1 - error) / trials)
    assert er.sep16(e) == pytest.approx(error, abs=5 * sigma)


def test_cck_success_follows_the_definitions():
    sinr, nbits = np.array([0.5, 1.0, 2.0, 3.0]), 8 * 100
    ebn0 = sinr * 22 / 1.375 / 4
    sep = er.sep16(4 * ebn0 / 2)
    assert er.bit_success("dsss", 5.5e6, sinr, nbits) == pytest.approx((1 - sep) ** (nbits / 4))
    ebn0 = sinr * 22 / 1.375 / 8
    sep = 1 - (1 - er.sep16(8 * ebn0 / 2 / 2)) ** 2
    assert er.bit_success("dsss", 11e6, sinr, nbits) == pytest.approx((1 - sep) ** (nbits / 8))


def test_ofdm_uncoded_and_coded_rates():
    snr = 3.7
    assert er.uncoded_ber(2, snr) == pytest.approx(0.5 * erfc(math.sqrt(snr)))
    assert er.uncoded_ber(4, snr) == pytest.approx(0.5 * erfc(math.sqrt(snr / 2)))
    assert er.uncoded_ber(16, snr) == pytest.approx(3 / 8 * erfc(math.sqrt(snr / 10)))
    assert er.uncoded_ber(64, snr) == pytest.approx(7 / 24 * erfc(math.sqrt(snr / 42)))
    p = 0.01
    D = math.sqrt(4 * p * (1 - p))
    half = 0.5 * (
        36 * D**10 + 211 * D**12 + 1404 * D**14 + 11633 * D**16 + 77433 * D**18
        + 502690 * D**20 + 3322763 * D**22 + 21292910 * D**24 + 134365911 * D**26
    )  # fmt: skip
    assert er.coded_error("1/2", p) == pytest.approx(half, rel=1e-12)
    p = 1e-3
    D = math.sqrt(4 * p * (1 - p))
    spectrum = (3, 70, 285, 1276, 6160, 27128, 117019, 498860, 2103891, 8784123)
    two_thirds = sum(c * D ** (6 + i) for i, c in enumerate(spectrum)) / 4
    assert er.coded_error("2/3", p) == pytest.approx(two_thirds, rel=1e-12)
    spectrum = (42, 201, 1492, 10469, 62935, 379644, 2253373, 13073811, 75152755, 428005675)
    three_quarters = sum(c * D ** (5 + i) for i, c in enumerate(spectrum)) / 6
    assert er.coded_error("3/4", p) == pytest.approx(three_quarters, rel=1e-12)
    assert er.coded_error("3/4", 0.2) == 1.0  # the union bound saturates
    # 54 Mb/s = 64-QAM 3/4 on 16 + 8 L + 6 bits, behind a 24-bit BPSK 1/2 SIGNAL field
    snr = 10 ** (21 / 10)
    pe = er.coded_error("3/4", er.uncoded_ber(64, snr))
    assert er.bit_success("ofdm", 54e6, snr, 100) == pytest.approx((1 - pe) ** 100)


@pytest.mark.parametrize("short", [False, True])
@pytest.mark.parametrize("rate", DSSS)
def test_dsss_ppdu_is_header_times_payload(rate, short):
    if short and rate == 1e6:
        return
    sinr = np.array([0.3, 0.8, 1.5])
    header = er.bit_success("dsss", 2e6 if short else 1e6, sinr, 48)
    payload = er.bit_success("dsss", rate, sinr, 8 * 200)
    got = er.ppdu_success("dsss", rate, 200, sinr, short_preamble=short)
    assert got == pytest.approx(header * payload, rel=1e-12)


@pytest.mark.parametrize("rate", OFDM)
def test_ofdm_ppdu_is_signal_times_payload(rate):
    sinr = 10 ** (np.array([5.0, 12.0, 20.0, 24.0]) / 10)
    header = er.bit_success("ofdm", 6e6, sinr, 24)
    payload = er.bit_success("ofdm", rate, sinr, 16 + 8 * 300 + 6)
    got = er.ppdu_success("ofdm", rate, 300, sinr)
    assert got == pytest.approx(header * payload, rel=1e-12)
    assert er.ppdu_success("ofdm", rate, 300, sinr, short_preamble=True) == pytest.approx(got)


def test_known_values():
    # two equal-power 11 Mb/s frames of 1500 bytes: lost
    assert er.ppdu_success("dsss", 11e6, 1500, 1.0) < 1e-200
    # a 20-byte RTS at 1 Mb/s survives an equal-power interferer
    assert er.ppdu_success("dsss", 1e6, 20, 1.0) > 0.99
    assert er.ppdu_success("dsss", 1e6, 20, 1.0) == pytest.approx(0.99999997, abs=1e-8)
    assert er.ppdu_success("dsss", 2e6, 20, 1.0) == pytest.approx(0.96940, abs=1e-5)
    assert er.ppdu_success("ofdm", 54e6, 1500, 1000.0) == pytest.approx(1.0, abs=1e-12)
    assert er.ppdu_success("ofdm", 54e6, 1500, 1.0) < 1e-12
    assert er.ppdu_success("ofdm", 6e6, 1500, 1.0) < 1e-12


@pytest.mark.parametrize(
    "modulation, rate, short",
    [("dsss", r, False) for r in DSSS]
    + [("dsss", r, True) for r in DSSS[1:]]
    + [("ofdm", r, False) for r in OFDM],
)
def test_success_rises_with_sinr(modulation, rate, short):
    sinr = 10 ** (np.arange(-15.0, 45.0, 0.25) / 10)
    for psdu in (14, 1536):
        got = er.ppdu_success(modulation, rate, psdu, sinr, short_preamble=short)
        assert np.all(np.diff(got) >= 0)
        assert got[0] < 1e-3
        assert got[-1] == pytest.approx(1.0, abs=1e-12)


def test_thresholds_rise_with_the_rate_and_hit_the_target():
    for modulation, rates in (("dsss", DSSS), ("ofdm", OFDM)):
        thresholds = [er.sinr_db_for(modulation, r, 1536) for r in rates]
        assert thresholds == sorted(thresholds)
        for rate, db in zip(rates, thresholds):
            reached = er.ppdu_success(modulation, rate, 1536, 10 ** (db / 10))
            assert reached == pytest.approx(0.9, abs=1e-8)
    db = er.sinr_db_for("dsss", 11e6, 1536, target=0.5)
    assert er.ppdu_success("dsss", 11e6, 1536, 10 ** (db / 10)) == pytest.approx(0.5, abs=1e-8)


def test_table():
    frame = er.table("dsss", 1536, [0.0, 5.0, 10.0])
    assert list(frame.columns) == [1.0, 2.0, 5.5, 11.0]
    assert frame.index.name == "sinr_db"
    assert list(frame.index) == [0.0, 5.0, 10.0]
    assert frame.loc[5.0, 5.5] == er.ppdu_success("dsss", 5.5e6, 1536, 10**0.5)
    assert list(er.table("dsss", 100, [3.0], short_preamble=True).columns) == [2.0, 5.5, 11.0]
    ofdm = er.table("ofdm", 100, rates=[6e6, 54e6])
    assert list(ofdm.columns) == [6.0, 54.0]
    assert len(ofdm) == 51


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: er.bit_success("cck", 11e6, 1.0, 8), "modulation"),
        (lambda: er.bit_success("dsss", 3e6, 1.0, 8), "rate_bps"),
        (lambda: er.bit_success("ofdm", 11e6, 1.0, 8), "rate_bps"),
        (lambda: er.bit_success("dsss", "11e6", 1.0, 8), "rate_bps"),
        (lambda: er.bit_success("dsss", 11e6, -1.0, 8), "sinr"),
        (lambda: er.bit_success("dsss", 11e6, [1.0, math.nan], 8), "sinr"),
        (lambda: er.bit_success("dsss", 11e6, 1.0, -8), "nbits"),
        (lambda: er.bit_success("dsss", 11e6, 1.0, 1.5), "nbits"),
        (lambda: er.ppdu_success("dsss", 11e6, 0, 1.0), "psdu_bytes"),
        (lambda: er.ppdu_success("dsss", 1e6, 20, 1.0, short_preamble=True), "short_preamble"),
        (lambda: er.ppdu_success("dsss", 2e6, 20, 1.0, short_preamble="yes"), "short_preamble"),
        (lambda: er.sinr_db_for("dsss", 11e6, 1500, target=1.0), "target"),
        (lambda: er.coded_error("7/8", 0.1), "code_rate"),
        (lambda: er.uncoded_ber(8, 1.0), "constellation"),
        (lambda: er.sep16(-1.0), "e"),
        (lambda: er.table("ofdm", 100, rates=[11e6]), "rate_bps"),
    ],
)
def test_bad_arguments_name_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_ht_mcs_curves_order_by_mcs_and_use_the_rate_5_6_spectrum():
    # At one SINR a higher MCS never succeeds more often (same bits, denser constellation
    # or weaker code), and the 5/6 code's union bound is its spectrum written out.
    sinr = 10 ** (22 / 10)
    p = [er.ht_ppdu_success(m, 1542, sinr, width_mhz=80, vht=True) for m in range(10)]
    assert all(a >= b for a, b in zip(p, p[1:])) and p[0] > 0.999 and p[9] < 0.01
    ber = 1e-3
    D = math.sqrt(4 * ber * (1 - ber))
    spectrum = (92, 528, 8694, 79453, 792114, 7375573, 67884974, 610875423, 5427275376,
                47664215639)  # fmt: skip
    bound = sum(c * D ** (4 + i) for i, c in enumerate(spectrum)) / 10
    assert er.coded_error("5/6", ber) == pytest.approx(min(bound, 1.0))
    # 256-QAM: (k - 1) / (k log2 k) erfc(sqrt(sinr / 170)), k = 16
    assert er.uncoded_ber(256, 100.0) == pytest.approx(15 / 64 * erfc(math.sqrt(100 / 170)))
    # an HT frame: the 72 signal bits at BPSK 1/2 times the data bits at the MCS
    header = er.bit_success("ofdm", 6e6, sinr, 72)
    bits = 16 + 8 * 1538 + 6
    data = (1 - er.coded_error("5/6", er.uncoded_ber(64, sinr))) ** bits
    assert er.ht_ppdu_success(7, 1538, sinr) == pytest.approx(header * data)
    with pytest.raises(ValueError, match="mcs must be 0 to 7 for HT"):
        er.ht_ppdu_success(8, 100, 1.0)
