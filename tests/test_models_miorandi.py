"""miorandi2004 eqs 1-12 (collision fixed point, TCP throughput bounds) and 13-20 (setup time,
session delay, Engset model, the W* chain)."""

import math

import numpy as np
import pytest

from wlansim.models import bianchi, miorandi

US = 1e-6


def stage_sum_backoff(P, CW_min=32, gamma=5, m=7):
    """T_b from its definition: sum over stages k < m of (1-P) P^k (mean backoff of k)."""
    return sum((1 - P) * P**k * (2 ** min(k, gamma) * CW_min - 1) / 2 for k in range(m))


@pytest.mark.parametrize("P", [0.0, 0.1, 0.37, 0.5, 0.8])
def test_eq1_equals_stage_sum(P):
    assert miorandi.mean_backoff(P) == pytest.approx(stage_sum_backoff(P), rel=1e-12)


def test_single_station_collision_probability():
    # Eq 6 (n_b = 2): the paper gives P_C ~ 0.060.
    P, rate = miorandi.collision_probability(2)
    assert round(P, 3) == 0.060
    assert P == pytest.approx(1 / stage_sum_backoff(P), rel=1e-10)
    assert rate == pytest.approx(P)


@pytest.mark.parametrize("n_b", [1.5, 3, 10, 25, 60])
def test_fixed_point_against_brute_force(n_b):
    """Residual of eqs 1-2 vanishes and no smaller root exists on a fine grid."""
    P = miorandi.collision_probability(n_b)[0]

    def excess(x):
        return x - (1 - (1 - 1 / stage_sum_backoff(x)) ** (n_b - 1))

    assert abs(excess(P)) < 1e-12
    grid = np.linspace(0, P, 5000)[:-1]
    assert all(excess(x) < 0 for x in grid)


def test_monotone_and_vectorised():
    n_b = np.arange(1, 41)
    P, rate = miorandi.collision_probability(n_b)
    assert P.shape == rate.shape == n_b.shape
    assert P[0] == 0.0
    assert np.all(np.diff(P) > 0)
    assert np.all(np.diff(rate) < 0)
    P_drop = P ** miorandi.TABLE1["m"]  # Fig 2
    assert np.all(P_drop < 0.01)


def test_identity_with_bianchi_attempt_probability():
    """With the window doubling gamma times and unlimited retries (m = inf), Bianchi's
    1/tau is exactly 1 + T_b: his count includes the transmission slot."""
    for p in (0.0, 0.05, 0.3, 0.5, 0.7):
        for W, m in ((32, 5), (16, 6), (128, 3)):
            tau = bianchi.attempt_probability(p, W, m)
            T_b = miorandi.mean_backoff(p, CW_min=W, gamma=m, m=math.inf)
            assert 1 / tau == pytest.approx(1 + T_b, rel=1e-12)


def test_agrees_with_bianchi_when_backoff_is_long():
    """Same backoff (gamma = m doublings, no drops): P_C is slightly above Bianchi's p
    because the attempt rate is 1/T_b rather than 1/(1 + T_b); the gap shrinks as T_b grows."""
    gaps = []
    for n in (2, 5, 10, 20, 50):
        P_C = miorandi.collision_probability(n, CW_min=32, gamma=5, m=math.inf)[0]
        p = bianchi.tau_p(n, 32, 5)[1]
        assert P_C > p
        gaps.append((P_C - p) / p)
    assert max(gaps) < 0.06
    assert gaps == sorted(gaps, reverse=True)
    P_C = miorandi.collision_probability(10, CW_min=1024, gamma=0, m=math.inf)[0]
    assert P_C == pytest.approx(bianchi.tau_p(10, 1024, 0)[1], rel=2e-3)


def test_exchange_times_hand_computation():
    T_data, T_ack = miorandi.tcp_exchange_times()
    # DIFS 50 + 4 PLCP 768 + RTS 90 + CTS 56 + 3 SIFS 30 + MAC ACK 56 = 1050 us, plus the
    # frame body at 11 Mb/s: 8592 bits (data) or 592 bits (TCP ACK).
    assert T_data == pytest.approx((1050 + 8592 / 11) * US)
    assert T_ack == pytest.approx((1050 + 592 / 11) * US)


def test_single_station_throughput_hand_computation():
    # P_C = 0.0602549, T_b = 1/P_C slots = 331.92 us, T_tbo = T_b / (2 (1 - P_C)) = 176.60 us,
    # T_coll = 50 + 331.92 + 192 + 90 + 10 = 673.92 us, T_W = T_coll P/(1-P) = 43.21 us:
    # S = 8000 bits / (1831.09 + 1103.82 + 353.20 + 86.42) us.
    assert miorandi.tcp_throughput_single(1) == pytest.approx(8000 / 3374.53e-6, rel=1e-5)
    gains = [miorandi.tcp_throughput_single(d) for d in range(1, 6)]
    assert np.all(np.diff(gains) > 0)


def test_collision_free_hand_computation():
    # Eq 9, n_c = 1: 8000 / (1831.09 + 1103.82 + 31 * 20) us
    assert miorandi.tcp_throughput_collision_free(1) == pytest.approx(8000 / 3554.909e-6, rel=1e-6)
    # Eq 11, n_c = 4, d = 2: 8000 / (4 (1831.09 + 551.91 + 1.5 * 310)) us
    T_data, T_ack = miorandi.tcp_exchange_times()
    expected = 8000 / (4 * (T_data + T_ack / 2 + 1.5 * 310e-6))
    assert miorandi.tcp_throughput_collision_free(4, 2) == pytest.approx(expected)
    n_c = np.arange(1, 11)
    aggregate = n_c * miorandi.tcp_throughput_collision_free(n_c)
    assert aggregate == pytest.approx(np.full(10, aggregate[0]))


def test_collision_model():
    T_data, T_ack = miorandi.tcp_exchange_times()
    # Eq 10 with n_c = 2: n_b = 1 + 2/2 = 2, the single-station contention terms.
    T_tbo, T_W = miorandi.contention_times(2)
    expected = 8000 / (2 * (T_data + T_ack + 2 * T_tbo + 2 * T_W))
    assert miorandi.tcp_throughput_collision(2) == pytest.approx(expected)
    # Eq 12 with d = 2, n_c = 4 again gives n_b = 2.
    expected = 8000 / (4 * (T_data + T_ack / 2 + 1.5 * (T_tbo + T_W)))
    assert miorandi.tcp_throughput_collision(4, 2) == pytest.approx(expected)
    # Section 3.2: for few connections the collision model exceeds the collision-free one.
    n_c = np.arange(1, 6)
    assert np.all(
        miorandi.tcp_throughput_collision(n_c) > miorandi.tcp_throughput_collision_free(n_c)
    )


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"n_b must be a finite number >= 1.0, got 0.5"):
        miorandi.collision_probability(0.5)
    with pytest.raises(ValueError, match="m must be an integer >= 5, got 3"):
        miorandi.collision_probability(3, m=3)
    with pytest.raises(ValueError, match=r"P_C must be a probability in \[0, 1\]"):
        miorandi.mean_backoff(1.2)
    with pytest.raises(ValueError, match="d must be an integer >= 1, got 0"):
        miorandi.tcp_throughput_single(0)


# ----- section 4 and appendix (eqs 13-20) ----------------------------------------------------


def test_setup_time_eq13_by_hand():
    # 2 × [50 + 192 + 31·20/2 + 320/11 + 10 + 192 + 112/2] µs = 2 × 839.0909 µs
    assert miorandi.setup_time() == pytest.approx(
        2 * (50 + 192 + 310 + 320 / 11 + 10 + 192 + 56) * 1e-6
    )


def test_session_delay_eq14_by_hand_and_padding():
    # 30,000 B = 30 full segments: T_data = 1050 + 8592/11 µs, T_ack = 1050 + 592/11 µs.
    rtt = (1050 + 8592 / 11) + (1050 + 592 / 11) + 31 * 20
    expected = miorandi.setup_time() + 30 * rtt * 1e-6
    assert miorandi.session_delay_single(240_000) == pytest.approx(expected)
    assert miorandi.session_delay_single(240_000, padded=True) == pytest.approx(expected)
    # One byte more: a 31st segment, shorter by 7992 bits unless padded.
    one_more = miorandi.session_delay_single(240_008)
    assert one_more == pytest.approx(expected + rtt * 1e-6 - 7992 / 11e6)
    assert miorandi.session_delay_single(240_008, padded=True) == pytest.approx(
        expected + rtt * 1e-6
    )
    # Eq 15 is eq 14 without the rounding.
    assert miorandi.session_delay_affine(240_000) == pytest.approx(expected)
    for f in (miorandi.session_delay_single, miorandi.session_delay_affine):
        with pytest.raises(ValueError, match="W_star must be 1"):
            f(240_000, W_star=1000)


def test_engset_three_stations_by_hand():
    # N = 3 stations, lam = 1/s, mu = (2, 3, 4)/s: unnormalised 1, 3/2, 1, 1/4 (sum 15/4).
    pi = miorandi.engset_distribution(3, 1.0, [2.0, 3.0, 4.0])
    assert pi == pytest.approx([4 / 15, 6 / 15, 4 / 15, 1 / 15])
    # E[Y] = 17/15, starts = 3·4/15 + 2·6/15 + 4/15 = 28/15 (= sum mu_k pi_k): E[T] = 17/28.
    mean_x = 8000.0
    capacity = [2.0 * mean_x, 3.0 * mean_x, 4.0 * mean_x]
    T = miorandi.session_delay_engset(3, mean_x, 1.0, capacity=capacity)
    assert T - miorandi.setup_time() == pytest.approx(17 / 28)
    with pytest.raises(ValueError, match="W_star must be 1"):
        miorandi.session_delay_engset(3, mean_x, 1.0, W_star=2)
    with pytest.raises(ValueError, match="mu"):
        miorandi.engset_distribution(3, 1.0, [2.0, 3.0])


def test_engset_light_load_meets_the_single_station_model():
    # Long think times: sessions rarely overlap, so the delay tends to setup + E[X]/C_1.
    T = miorandi.session_delay_engset(10, 240_000, 1e6)
    assert T == pytest.approx(
        miorandi.setup_time() + 240_000 / miorandi.system_capacity(1.0), rel=1e-4
    )
    # More stations, more sharing: the delay grows.
    delays = [miorandi.session_delay_engset(n, 240_000, 10.0) for n in (1, 10, 20, 40)]
    assert all(a < b for a, b in zip(delays, delays[1:]))


def test_window_chain_and_phi_eq18_to_20():
    for W in (1, 2, 4, 30):
        pi = miorandi.window_chain(W)
        assert sum(pi.values()) == pytest.approx(1.0)
        # Eq 20 is the closed form of the renewal-reward expression (eq 19).
        assert miorandi.tcp_throughput_window(W) == pytest.approx(
            miorandi.tcp_throughput_window_renewal(W)
        )
    assert miorandi.window_chain(4)[(2, 2)] == pytest.approx(0.25)
    assert miorandi.window_chain(4)[(0, 4)] == pytest.approx(0.125)
    # W* = 1: no contention, phi = (CW_min - 1) T_slot, the round trip of eq 14.
    assert miorandi.phi(1) == pytest.approx(31 * 20e-6)
    T_data, T_ack = miorandi.tcp_exchange_times()
    assert miorandi.tcp_throughput_window(1) == pytest.approx(8000 / (T_data + T_ack + 31 * 20e-6))
    # phi's slope has the sign of 2 (T_tbo + T_W) - T_slot (CW_min - 1) (the paper's claim).
    T_tbo, T_W = miorandi.contention_times(2)
    slope = 2 * (T_tbo + T_W) - 20e-6 * 31
    assert np.sign(miorandi.phi(5) - miorandi.phi(4)) == np.sign(slope)
