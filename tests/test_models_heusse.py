"""Heusse et al. (2003) in the TCP form miorandi2004's Fig 4 draws: against a hand
computation with Table 1's numbers."""

import pytest

from wlansim.models import heusse


def test_one_connection_d1_by_hand():
    """n_c = 1, d = 1: N = 2 hosts. In microseconds: the exchange overhead is DIFS 50 +
    4 PLCP of 192 + RTS, CTS and MAC ACK at 2 Mb/s (404 bits: 202) + 3 SIFS of 10 = 1050;
    the data frame adds 8592 bits at 11 Mb/s (781.09), the TCP ACK 592 bits (53.82).
    P_c(2) = 1/32; t_cont = 20 * 32/2 * (1 + 1/32) / 2 = 165; t_jam = 50 + 192 + 90 + 10 =
    342; per frame 165 + 342/32 = 175.6875; one segment costs 1831.09 + 1103.82 + 2 *
    175.6875 = 3286.28, so 8000 bits / 3286.28 us = 2.4344 Mb/s."""
    assert heusse.collision_proportion(2) == pytest.approx(1 / 32)
    assert heusse.contention_time(2) == pytest.approx(165e-6)
    assert heusse.jam_time() == pytest.approx(342e-6)
    segment_us = (1050 + 8592 / 11) + (1050 + 592 / 11) + 2 * 175.6875
    assert heusse.tcp_throughput(1, 1) == pytest.approx(8000 / (segment_us * 1e-6), rel=1e-12)
    assert heusse.tcp_throughput(1, 1) == pytest.approx(2.4344e6, rel=1e-4)


def test_delayed_ack_and_many_connections():
    """n_c = 4, d = 2: N = 5, P_c = 1 - (31/32)^4, half an ACK exchange per segment and
    1.5 frames' contention and collisions; vectorised over n_c."""
    p = 1 - (31 / 32) ** 4
    per_frame = 20e-6 * 16 * (1 + p) / 5 + p * 342e-6
    segment = (1050 + 8592 / 11) * 1e-6 + (1050 + 592 / 11) * 1e-6 / 2 + 1.5 * per_frame
    assert heusse.tcp_throughput(4, 2) == pytest.approx(8000 / (4 * segment), rel=1e-12)
    many = heusse.tcp_throughput([1, 4], 2)
    assert many[1] == pytest.approx(heusse.tcp_throughput(4, 2))
    assert many[0] == pytest.approx(heusse.tcp_throughput(1, 2))


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="n_c"):
        heusse.tcp_throughput(0)
    with pytest.raises(ValueError, match="d must be an integer"):
        heusse.tcp_throughput(2, 0)
