"""Padhye et al. (1998) TCP throughput against docs/reference/model-vectors.md."""

import math

import numpy as np
import pytest

from wlansim.models import padhye

RTT, T0 = 0.1, 1.0
# (p, b, Wmax): (square-root law, approximate formula, full model), packets/s
TABLE = {
    (0.01, 1, math.inf): (122.47, 99.92, 98.83),
    (0.01, 2, math.inf): (86.60, 70.65, 69.52),
    (0.05, 2, math.inf): (38.73, 17.49, 18.60),
    (0.001, 2, 20): (273.86, 200.0, 174.24),
}


@pytest.mark.parametrize("case", sorted(TABLE))
def test_table(case):
    p, b, Wmax = case
    sqrt_law, approx, full = TABLE[case]
    assert round(padhye.throughput_sqrt(p, RTT, b), 2) == sqrt_law
    assert round(padhye.throughput_approx(p, RTT, T0, b, Wmax), 2) == approx
    assert round(padhye.throughput_full(p, RTT, T0, b, Wmax), 2) == full


def test_hand_computation_square_root_law():
    # sqrt(3 / (2 * 2 * 0.02)) / 0.2 = sqrt(37.5) / 0.2
    assert padhye.throughput_sqrt(0.02, 0.2, 2) == pytest.approx(math.sqrt(37.5) / 0.2)


def test_vectorised_over_p():
    p = np.array([0.01, 0.05])
    full = padhye.throughput_full(p, RTT, T0, 2)
    assert isinstance(full, np.ndarray)
    assert full == pytest.approx([69.52, 18.60], abs=0.005)


def test_window_limit_caps_rate():
    for p in (1e-5, 1e-4):
        assert padhye.throughput_approx(p, RTT, T0, 1, 10) == pytest.approx(10 / RTT)
        assert padhye.throughput_full(p, RTT, T0, 1, 10) <= 10 / RTT


def test_timeouts_lower_the_rate():
    p = np.geomspace(1e-3, 0.3, 20)
    assert np.all(padhye.throughput_full(p, RTT, T0) < padhye.throughput_sqrt(p, RTT))
    assert np.all(np.diff(padhye.throughput_full(p, RTT, T0)) < 0)


@pytest.mark.parametrize("p", [0.0, 1.0, -0.1, float("nan")])
def test_bad_loss_probability(p):
    with pytest.raises(ValueError, match=r"p must be a probability in \(0, 1\)"):
        padhye.throughput_full(p, RTT, T0)


def test_bad_rtt_and_window():
    with pytest.raises(ValueError, match="RTT must be a finite number > 0.0, got 0"):
        padhye.throughput_sqrt(0.01, 0)
    with pytest.raises(ValueError, match="Wmax must be a finite number >= 1.0"):
        padhye.throughput_approx(0.01, RTT, T0, 1, 0.5)
