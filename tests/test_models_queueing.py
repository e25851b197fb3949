"""M/M/1/K queue: hand values and the closed forms."""

import numpy as np
import pytest

from wlansim.models import queueing


def test_hand_values_rho_half():
    # K = 2: weights 1, 1/2, 1/4 -> normalise by 7/4.
    assert queueing.occupancy_distribution(0.5, 2) == pytest.approx([4 / 7, 2 / 7, 1 / 7])
    assert queueing.blocking_probability(0.5, 2) == pytest.approx(1 / 7)
    assert queueing.mean_occupancy(0.5, 2) == pytest.approx(4 / 7)


def test_hand_values_rho_two():
    # K = 3: weights 1, 2, 4, 8 over 15.
    assert queueing.occupancy_distribution(2.0, 3) == pytest.approx([1, 2, 4, 8] / np.float64(15))
    assert queueing.mean_occupancy(2.0, 3) == pytest.approx((2 + 8 + 24) / 15)


@pytest.mark.parametrize("K", [1, 5, 42])
def test_rho_one_is_uniform(K):
    assert queueing.occupancy_distribution(1.0, K) == pytest.approx(np.full(K + 1, 1 / (K + 1)))
    assert queueing.blocking_probability(1.0, K) == pytest.approx(1 / (K + 1))
    assert queueing.mean_occupancy(1.0, K) == pytest.approx(K / 2)


@pytest.mark.parametrize("rho", [0.0, 0.3, 0.999999, 1.0, 1.000001, 1.7, 50.0])
@pytest.mark.parametrize("K", [1, 10, 2000])
def test_probabilities_sum_to_one(rho, K):
    dist = queueing.occupancy_distribution(rho, K)
    assert dist.shape == (K + 1,)
    assert np.all(dist >= 0)
    assert dist.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("rho", [0.2, 0.9, 1.1, 3.0])
@pytest.mark.parametrize("K", [1, 6, 40])
def test_closed_forms(rho, K):
    blocking = (1 - rho) * rho**K / (1 - rho ** (K + 1))
    mean = rho / (1 - rho) - (K + 1) * rho ** (K + 1) / (1 - rho ** (K + 1))
    assert queueing.blocking_probability(rho, K) == pytest.approx(blocking, rel=1e-10)
    assert queueing.mean_occupancy(rho, K) == pytest.approx(mean, rel=1e-10)


def test_continuous_through_rho_one():
    near = queueing.mean_occupancy(1 + 1e-9, 20)
    assert near == pytest.approx(10.0, rel=1e-6)


def test_bad_inputs():
    with pytest.raises(ValueError, match="rho must be a finite number >= 0.0, got -0.5"):
        queueing.occupancy_distribution(-0.5, 3)
    with pytest.raises(ValueError, match="K must be an integer >= 1, got 0"):
        queueing.blocking_probability(0.5, 0)
    with pytest.raises(ValueError, match="K must be an integer >= 1, got 2.5"):
        queueing.mean_occupancy(0.5, 2.5)
