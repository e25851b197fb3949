"""pilosof2003 section IV: hand values, the paper's closed form (eq 5) and its stated
qualitative results."""

import cmath
import math

import pytest

from wlansim.models import pilosof, queueing

W = 42  # the paper's rwnd


def eq5(B, w):
    """The paper's closed-form R-bar (eq 5), evaluated with complex cube roots."""
    core = 81 * B**2 * w**4 + 81 * B**3 * w**4 - 4 * w**6
    X = cmath.sqrt(w**8 * (-16 * w**4 + (81 * B**2 + 81 * B**3 - 4 * w**2) ** 2))
    root = (core + X) ** (1 / 3)
    value = (
        -1 / (3 * B)
        + 4 * 2 ** (2 / 3) * w**2 / (root * 12 * B)
        + 2 * 2 ** (1 / 3) * root / (12 * B * w**2)
    )
    return value.real


def test_naive_ratio_hand_values():
    # 4w / (3(B - alpha w))
    assert pilosof.naive_ratio(63, 42) == pytest.approx(168 / 63)
    assert pilosof.naive_ratio(84, 42) == pytest.approx(4 / 3)
    assert pilosof.naive_ratio(30, 10, alpha=2) == pytest.approx(40 / 30)
    with pytest.raises(ValueError, match="B must exceed alpha\\*w = 42"):
        pilosof.naive_ratio(42, 42)


def test_ap_drop_probability():
    # Eq 3: (1 + B R)/(B + 1); eq 8: (1 + n B R)/(B + 1).
    assert pilosof.ap_drop_probability(0.1, 20) == pytest.approx(3 / 21)
    assert pilosof.ap_drop_probability(0.1, 20, n=3) == pytest.approx(7 / 21)
    exact = queueing.blocking_probability(1.3, 20)
    assert pilosof.ap_drop_probability(0.1, 20, n=3, drop="mm1k") == pytest.approx(exact)


@pytest.mark.parametrize("B", [6, 10, 20, 30, 42])
def test_small_buffer_matches_closed_form_eq5(B):
    assert 1 / pilosof.computed_ratio(B, W) == pytest.approx(eq5(B, W), rel=1e-9)


def test_small_buffer_cubic_hand_check():
    # B = 20: 2 w^2 B R^3 + 2 w^2 R^2 - 3 (B + 1) = 0 changes sign between 0.082 and 0.083.
    R = 1 / pilosof.computed_ratio(20, W)
    assert 0.082 < R < 0.083
    assert 2 * W**2 * 20 * R**3 + 2 * W**2 * R**2 == pytest.approx(63)


def test_region_about_one_to_ten():
    """Paper: in 6 < B <= 42 the ratio is roughly constant, about 10 (simulation 9-12),
    approximated by (2 w^2 / 3)^(1/3) = 10.56."""
    ratios = [pilosof.computed_ratio(B, W) for B in range(7, 43)]
    assert all(9 < r < 16 for r in ratios)
    assert ratios == sorted(ratios, reverse=True)
    assert pilosof.computed_ratio(42, W) == pytest.approx((2 * W**2 / 3) ** (1 / 3), rel=0.1)


@pytest.mark.parametrize("B", [84, 85, 100, 200])
def test_no_loss_when_buffer_holds_both_windows(B):
    # B >= (alpha + 1) w: every packet fits, the ratio is one.
    assert pilosof.computed_ratio(B, W) == 1.0


def test_ratio_falls_towards_one_between_w_and_2w():
    ratios = [pilosof.computed_ratio(B, W) for B in range(43, 84)]
    assert ratios == sorted(ratios, reverse=True)
    assert ratios[0] > 8 and 1 < ratios[-1] < 1.5


def test_eq6_hand_value():
    # B = 60: R = (sqrt(1.5/p) + 3*18/4)/42 with p = (1 + 60 R)/61 (eq 3).
    R = 1 / pilosof.computed_ratio(60, W)
    p = (1 + 60 * R) / 61
    assert R == pytest.approx((math.sqrt(1.5 / p) + 13.5) / 42, rel=1e-10)
    assert 0.36 < R < 0.375


def test_mm1k_drop_variant_is_close_in_small_buffer_region():
    for B in (10, 30, 42):
        linear = pilosof.computed_ratio(B, W)
        exact = pilosof.computed_ratio(B, W, drop="mm1k")
        assert exact == pytest.approx(linear, rel=0.12)


def test_eq9_hand_value():
    # n = 2, B = 100, w = 42, p = 0.01:
    # sqrt(3 / (2*2*0.01*1764)) + 3*58/(4*2*42) = 0.206196 + 0.517857
    assert pilosof.n_flow_ratio(2, 100, 42, 0.01) == pytest.approx(1 / 0.724053, rel=1e-5)


def test_eq9_grows_almost_linearly_with_n():
    """Fig 10 (B - alpha w = 58, p = 1/100): the ratio grows with n, almost linearly."""
    ratios = [pilosof.n_flow_ratio(n, 100, 42, 0.01) for n in range(1, 11)]
    steps = [b - a for a, b in zip(ratios, ratios[1:])]
    assert all(s > 0 for s in steps)
    assert max(steps) / min(steps) < 1.6


def test_n_flows_small_buffer_equation():
    # Section IV.C: (1 + n B R)/(B + 1) = 3/(2 w^2 R^2), so more flows, larger ratio.
    n, B = 3, 20
    R = 1 / pilosof.computed_ratio(B, W, n=n)
    assert (1 + n * B * R) / (B + 1) == pytest.approx(3 / (2 * W**2 * R**2), rel=1e-10)
    assert pilosof.computed_ratio(B, W, n=n) > pilosof.computed_ratio(B, W)


def test_bad_inputs():
    with pytest.raises(ValueError, match="B must be an integer >= 1, got 0"):
        pilosof.computed_ratio(0, W)
    with pytest.raises(ValueError, match="w must be an integer >= 1"):
        pilosof.computed_ratio(10, 0)
    with pytest.raises(ValueError, match=r"p must be a probability in \(0, 1\]"):
        pilosof.n_flow_ratio(2, 100, 42, 0.0)
    with pytest.raises(ValueError, match="drop must be one of 'linear', 'mm1k'"):
        pilosof.computed_ratio(10, W, drop="exact")
