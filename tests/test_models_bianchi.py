"""Bianchi (2000) saturation model against docs/reference/model-vectors.md."""

import math

import pytest

from wlansim.models import bianchi

US = 1e-6
# FHSS timing of Bianchi's paper (model-vectors.md): 1 Mb/s, so 1 bit = 1 us.
SLOT, SIFS, DIFS, DELTA = 50 * US, 28 * US, 128 * US, 1 * US
HEADER, PAYLOAD = (128 + 272) * US, 8184 * US
ACK, RTS, CTS = (112 + 128) * US, (160 + 128) * US, (112 + 128) * US

# Bianchi eqs 14-16, written out by hand.
TS_BASIC = HEADER + PAYLOAD + SIFS + DELTA + ACK + DIFS + DELTA
TC_BASIC = HEADER + PAYLOAD + DIFS + DELTA
TS_RTS = RTS + SIFS + DELTA + CTS + SIFS + DELTA + HEADER + PAYLOAD + SIFS + DELTA + ACK
TS_RTS += DIFS + DELTA
TC_RTS = RTS + DIFS + DELTA

# n: (p, tau, S basic, S RTS/CTS) for W = 32, m = 5
TABLE = {
    5: (0.1781, 0.04785, 0.8102, 0.8342),
    10: (0.2898, 0.03731, 0.7579, 0.8370),
    20: (0.3988, 0.02642, 0.6975, 0.8362),
    50: (0.5324, 0.01539, 0.6109, 0.8317),
}
OTHER_WINDOWS = {
    (32, 3): (0.8097, 0.7532, 0.6788, 0.5529),
    (128, 3): (0.8250, 0.8263, 0.7981, 0.7252),
}


def basic(n, W=32, m=5):
    return bianchi.saturation_throughput(
        n, W, m, slot=SLOT, Ts=TS_BASIC, Tc=TC_BASIC, payload_time=PAYLOAD
    )


@pytest.mark.parametrize("n", sorted(TABLE))
def test_fixed_point_matches_table(n):
    p, tau, _, _ = TABLE[n]
    tau_got, p_got = bianchi.tau_p(n, 32, 5)
    assert round(p_got, 4) == p
    assert round(tau_got, 5) == tau


@pytest.mark.parametrize("n", sorted(TABLE))
def test_throughput_matches_table(n):
    _, _, s_basic, s_rts = TABLE[n]
    assert round(basic(n), 4) == s_basic
    s = bianchi.saturation_throughput(
        n, 32, 5, slot=SLOT, Ts=TS_RTS, Tc=TC_RTS, payload_time=PAYLOAD
    )
    assert round(s, 4) == s_rts


@pytest.mark.parametrize("window", sorted(OTHER_WINDOWS))
def test_other_windows(window):
    W, m = window
    got = tuple(round(basic(n, W, m), 4) for n in (5, 10, 20, 50))
    assert got == OTHER_WINDOWS[window]


def test_fixed_point_is_consistent():
    for n, W, m in [(2, 8, 0), (7, 16, 6), (30, 1024, 0), (100, 32, 5)]:
        tau, p = bianchi.tau_p(n, W, m)
        assert p == pytest.approx(1 - (1 - tau) ** (n - 1), abs=1e-12)
        # Eq. 7 in Bianchi's own form (away from its 0/0 at p = 1/2).
        eq7 = 2 * (1 - 2 * p) / ((1 - 2 * p) * (W + 1) + p * W * (1 - (2 * p) ** m))
        assert tau == pytest.approx(eq7, rel=1e-9)


def test_removable_singularity_at_half():
    W, m = 32, 5
    limit = 2 / (W + 1 + W * m / 2)  # eq. 7 as p -> 1/2
    assert bianchi.attempt_probability(0.5, W, m) == pytest.approx(limit, rel=1e-12)
    near = bianchi.attempt_probability(0.5 + 1e-7, W, m)
    assert near == pytest.approx(limit, rel=1e-5)


def test_single_station_closed_form():
    for W in (1, 8, 32, 1024):
        assert bianchi.tau_p(1, W, 5) == (2 / (W + 1), 0.0)
    # One station never collides: S = E[P] / (mean backoff + Ts), mean backoff (W-1)/2 slots.
    W = 32
    expected = PAYLOAD / ((W - 1) / 2 * SLOT + TS_BASIC)
    assert basic(1) == pytest.approx(expected, rel=1e-12)


def test_tay_chua_invariant():
    """p depends on W and n essentially through W/(n+1): close for the same ratio, closer
    as n grows, and far apart for different ratios."""
    pairs = [((10, 64), (21, 128)), ((20, 64), (41, 128)), ((50, 128), (101, 256))]
    gaps = []
    for (n1, W1), (n2, W2) in pairs:
        p1, p2 = bianchi.tau_p(n1, W1, 3)[1], bianchi.tau_p(n2, W2, 3)[1]
        gaps.append(abs(p1 - p2) / p1)
    assert max(gaps) < 0.08
    assert gaps == sorted(gaps, reverse=True)
    assert bianchi.tau_p(20, 64, 3)[1] > 1.5 * bianchi.tau_p(20, 256, 3)[1]


def test_degenerate_window_always_collides():
    assert bianchi.tau_p(3, 1, 0) == (1.0, 1.0)


@pytest.mark.parametrize(
    ("args", "name"),
    [((0, 32, 5), "n"), ((2.5, 32, 5), "n"), ((5, 0.5, 5), "W"), ((5, 32, -1), "m")],
)
def test_bad_inputs_name_the_argument(args, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        bianchi.tau_p(*args)


def test_bad_probability():
    with pytest.raises(ValueError, match=r"p must be a probability in \[0, 1\], got 1.5"):
        bianchi.attempt_probability(1.5, 32, 5)


def fhss_timing(eifs):
    """A PHY timing dict (wlansim.phy.timing's keys) holding the FHSS values."""
    return {
        "slot_s": SLOT, "sifs_s": SIFS, "difs_s": DIFS, "eifs_s": eifs,
        "propagation_delay_s": DELTA, "data_frame_s": HEADER + PAYLOAD,
        "ack_s": ACK, "rts_s": RTS, "cts_s": CTS, "cw_min": 31, "cw_max": 1023,
        "data_rate_bps": 1e6, "control_rate_bps": 1e6, "payload_bits": 8184,
    }  # fmt: skip


@pytest.mark.parametrize("n", sorted(TABLE))
def test_timing_form_bianchi_collision_matches_table(n):
    p, tau, s_basic, s_rts = TABLE[n]
    timing = fhss_timing(eifs=SIFS + ACK + DIFS)
    got = bianchi.saturation(n, timing, access="basic", collision="bianchi")
    assert (round(got["p"], 4), round(got["tau"], 5), round(got["S"], 4)) == (p, tau, s_basic)
    assert (got["Ts"], got["Tc"]) == pytest.approx((TS_BASIC, TC_BASIC))
    assert got["throughput_bps"] == pytest.approx(got["S"] * 1e6)
    rts = bianchi.saturation(n, timing, access="rts", collision="bianchi")
    assert round(rts["S"], 4) == s_rts


def test_timing_form_standard_collision_uses_eifs():
    eifs = SIFS + ACK + DIFS
    timing = fhss_timing(eifs)
    assert bianchi.exchange_times(timing, access="basic")[1] == pytest.approx(
        HEADER + PAYLOAD + DELTA + eifs
    )
    assert bianchi.exchange_times(timing, access="rts")[1] == pytest.approx(RTS + DELTA + eifs)
    # EIFS > DIFS makes collisions longer, so throughput is lower than Bianchi's Tc.
    standard = bianchi.saturation(20, timing)["S"]
    assert standard < bianchi.saturation(20, timing, collision="bianchi")["S"]


def test_backoff_parameters():
    assert bianchi.backoff_parameters(31, 1023) == (32, 5)
    assert bianchi.backoff_parameters(15, 1023) == (16, 6)
    with pytest.raises(ValueError, match="power of two"):
        bianchi.backoff_parameters(31, 1000)


def test_bad_access_mode():
    with pytest.raises(ValueError, match=r"access must be one of 'basic', 'rts', got 'cts'"):
        bianchi.exchange_times(fhss_timing(1e-4), access="cts")


def test_simulator_timing_80211b():
    pytest.importorskip("wlansim._core")
    from wlansim import phy

    timing = phy.timing("802.11b", 1500)
    assert bianchi.backoff_parameters(timing["cw_min"], timing["cw_max"]) == (32, 5)
    result = bianchi.saturation(10, timing, access="rts")
    assert result["p"] == pytest.approx(bianchi.tau_p(10, 32, 5)[1])
    assert 0 < result["throughput_bps"] < timing["data_rate_bps"]
    one = bianchi.saturation(1, timing)
    expected = (1500 * 8 / timing["data_rate_bps"]) / (15.5 * timing["slot_s"] + one["Ts"])
    assert one["S"] == pytest.approx(expected)
    assert math.isclose(one["throughput_bps"], one["S"] * timing["data_rate_bps"])


def test_attempt_probability_with_a_retry_limit():
    W, m = 32, 5
    for p in (0.0, 0.3, 0.5, 0.9):
        unlimited = bianchi.attempt_probability(p, W, m)
        assert bianchi.attempt_probability(p, W, m, attempts=400) == pytest.approx(unlimited)
        # one attempt per frame: every frame starts at stage 0, whatever p
        assert bianchi.attempt_probability(p, W, m, attempts=1) == pytest.approx(2 / (W + 1))
    # a frame dropped after 7 attempts restarts at CWmin: more attempts than unlimited
    assert bianchi.attempt_probability(0.8, W, m, attempts=7) > bianchi.attempt_probability(
        0.8, W, m
    )
