"""Jain's index and the up/down ratio (vectors from docs/reference/model-vectors.md)."""

import math

import pytest

from wlansim.models import fairness


def test_reference_vectors():
    assert round(fairness.jain_index([1, 2, 3, 4]), 4) == 0.8333
    assert round(fairness.jain_index([10, 20, 30, 40, 50, 60]), 4) == 0.8077


@pytest.mark.parametrize(("k", "n"), [(1, 1), (1, 4), (3, 7), (10, 10)])
def test_k_of_n_equal(k, n):
    assert fairness.jain_index([5.0] * k + [0.0] * (n - k)) == pytest.approx(k / n)


def test_scale_invariant():
    assert fairness.jain_index([2, 4, 6, 8]) == pytest.approx(fairness.jain_index([1, 2, 3, 4]))


@pytest.mark.parametrize(("values", "message"), [([], "empty"), ([0, 0, 0], "all zero")])
def test_undefined_index_raises(values, message):
    with pytest.raises(ValueError, match=message):
        fairness.jain_index(values)


def test_negative_throughput_raises():
    with pytest.raises(ValueError, match="throughputs must be finite and >= 0"):
        fairness.jain_index([1, -1])


def test_up_down_ratio():
    assert fairness.up_down_ratio([3.0], [1.0, 2.0]) == pytest.approx(2.0)
    assert fairness.up_down_ratio([4.0, 2.0], [3.0]) == pytest.approx(1.0)
    assert fairness.up_down_ratio([1.0], [0.0, 0.0]) == math.inf
    with pytest.raises(ValueError, match="ratio undefined"):
        fairness.up_down_ratio([0.0], [0.0])
    with pytest.raises(ValueError, match="downstream must contain at least one"):
        fairness.up_down_ratio([1.0], [])
