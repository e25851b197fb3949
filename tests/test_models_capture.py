"""Bianchi's saturation model with capture at the AP: reduction to Bianchi, the capture
probabilities against brute-force enumeration, and the effect of capture on RTS/CTS."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from wlansim.models import bianchi, capture
from wlansim.models import error_rate as er

# wlansim.phy.timing("802.11b") (long preamble, 1472-byte UDP payload) and with
# preamble = "short"; test_timing_matches_the_core checks them against the core.
TIMING_11B = {
    "slot_s": 2e-05,
    "sifs_s": 1e-05,
    "difs_s": 5e-05,
    "eifs_s": 0.000364,
    "ack_timeout_s": 0.000222,
    "cts_timeout_s": 0.000222,
    "propagation_delay_s": 1e-06,
    "data_frame_s": 0.00131,
    "ack_s": 0.000304,
    "rts_s": 0.000352,
    "cts_s": 0.000304,
    "cw_min": 31,
    "cw_max": 1023,
    "data_rate_bps": 11e6,
    "control_rate_bps": 1e6,
    "payload_bits": 11776.0,
}
TIMING_11B_SHORT = {
    **TIMING_11B,
    "eifs_s": 0.000212,
    "ack_timeout_s": 0.000126,
    "cts_timeout_s": 0.000126,
    "data_frame_s": 0.001214,
    "ack_s": 0.000152,
    "rts_s": 0.000176,
    "cts_s": 0.000152,
    "control_rate_bps": 2e6,
}
RTS_1M = {"modulation": "dsss", "rate_bps": 1e6, "psdu_bytes": 20}
RTS_2M = {"modulation": "dsss", "rate_bps": 2e6, "psdu_bytes": 20}
DATA_11M = {"modulation": "dsss", "rate_bps": 11e6, "psdu_bytes": 1536}


def psr(frame, sinr):
    return er.ppdu_success(
        frame["modulation"],
        frame["rate_bps"],
        frame["psdu_bytes"],
        sinr,
        frame.get("short_preamble", False),
    )


def mw(dbm):
    return 10 ** (np.asarray(dbm, dtype=float) / 10)


def test_timing_matches_the_core():
    pytest.importorskip("wlansim._core")
    from wlansim.phy import timing

    for preamble, expected in (("long", TIMING_11B), ("short", TIMING_11B_SHORT)):
        got = timing({"standard": "802.11b", "preamble": preamble})
        assert {key: got[key] for key in expected} == pytest.approx(expected)


@pytest.mark.parametrize("collision", ["standard", "bianchi"])
@pytest.mark.parametrize("access", ["basic", "rts"])
@pytest.mark.parametrize("n", [1, 2, 5, 20, 50])
def test_without_capture_it_is_bianchi_exactly(n, access, collision):
    q = np.zeros(n + 1)
    q[1] = 1.0
    got = capture.saturation(n, TIMING_11B, access=access, collision=collision, q=q)
    want = bianchi.saturation(n, TIMING_11B, access=access, collision=collision)
    for key in ("tau", "p", "S", "throughput_bps", "Ts", "Tc"):
        assert got[key] == want[key], key


def test_equal_powers():
    n, power, noise = 8, -70.0, -80.0
    q, s = capture.capture_probabilities(n, RTS_2M, power, noise)
    k = np.arange(1, n + 1)
    sinr = mw(power) / ((k - 1) * mw(power) + mw(noise))
    assert q[0] == 0.0
    assert q[1:] == pytest.approx(psr(RTS_2M, sinr), rel=1e-12)
    assert s == pytest.approx(q[1:] / k, rel=1e-12)
    assert np.all(np.diff(q[1:]) < 0)
    # a list of equal powers is the same cell
    q_list, s_list = capture.capture_probabilities(n, RTS_2M, [power] * n, noise)
    assert q_list == pytest.approx(q, rel=1e-12)
    assert s_list == pytest.approx(s, rel=1e-12)


def test_unequal_powers_against_brute_force():
    """q_k by enumerating the k-subsets; s_j by enumerating the tagged station and the
    j-subsets of the others, with ties at the top shared uniformly."""
    powers = [-60.0, -60.0, -62.0, -66.0, -70.0, -75.0]
    noise, n = -78.0, 6
    q, s = capture.capture_probabilities(n, RTS_2M, powers, noise)
    p, N = mw(powers), mw(noise)

    def received(subset):  # probability that the locked frame of ``subset`` is received
        top = max(p[i] for i in subset)
        return psr(RTS_2M, top / (sum(p[i] for i in subset) - top + N))

    for k in range(1, n + 1):
        subsets = list(itertools.combinations(range(n), k))
        assert q[k] == pytest.approx(np.mean([received(c) for c in subsets]), rel=1e-12)
    for j in range(n):
        cases = []
        for tagged in range(n):
            others = [i for i in range(n) if i != tagged]
            for c in itertools.combinations(others, j):
                group = (tagged, *c)
                top = max(p[i] for i in group)
                ties = sum(p[i] == top for i in group)
                cases.append(received(group) / ties if p[tagged] == top else 0.0)
        assert s[j] == pytest.approx(np.mean(cases), rel=1e-12)
    assert 0 < q[2] < 1 and 0 < q[4] < 1  # capture matters in this cell


def test_sampled_subsets():
    """n = 18: C(18, k) > 20000 for 7 <= k <= 11, where q_k is a mean over 20000 draws."""
    n, noise = 18, -80.0
    powers = list(np.linspace(-62.0, -75.0, n))
    q, _ = capture.capture_probabilities(n, RTS_2M, powers, noise)
    again, _ = capture.capture_probabilities(n, RTS_2M, powers, noise, seed=1)
    other, _ = capture.capture_probabilities(n, RTS_2M, powers, noise, seed=2)
    assert np.array_equal(q, again)
    p, N = mw(powers), mw(noise)
    k = 8
    subsets = p[np.array(list(itertools.combinations(range(n), k)))]
    top = subsets.max(axis=1)
    exact = np.mean(psr(RTS_2M, top / (subsets.sum(axis=1) - top + N)))
    assert 0.05 < exact < 0.95
    assert q[k] != other[k]
    sigma = math.sqrt(exact * (1 - exact) / capture.MAX_SUBSETS)  # at most: PSR is in [0, 1]
    assert q[k] == pytest.approx(exact, abs=5 * sigma)
    assert other[k] == pytest.approx(exact, abs=5 * sigma)
    # enumerated exactly below the limit: k = 3 (816 subsets) matches itself for any seed
    assert q[3] == other[3]


def test_default_first_frame():
    assert capture.default_first_frame(TIMING_11B, "rts") == {**RTS_1M, "short_preamble": False}
    assert capture.default_first_frame(TIMING_11B, "basic") == {
        **DATA_11M,
        "short_preamble": False,
    }
    assert capture.default_first_frame(TIMING_11B_SHORT, "rts") == {
        **RTS_2M,
        "short_preamble": True,
    }
    ofdm = {**TIMING_11B, "data_rate_bps": 54e6, "control_rate_bps": 6e6, "rts_s": 52e-6}
    assert capture.default_first_frame(ofdm, "basic")["modulation"] == "ofdm"
    assert capture.default_first_frame(ofdm, "rts")["short_preamble"] is False


def test_pinned_capture_probabilities():
    """Two equal-power RTS at -60 dBm over -94 dBm of noise (SINR just under 0 dB)."""
    q, _ = capture.capture_probabilities(20, RTS_1M, -60.0, -94.0)
    assert q[2] == pytest.approx(0.99999997, abs=1e-8)
    assert q[3] == pytest.approx(0.998261, abs=1e-6)
    assert q[5] == pytest.approx(0.653317, abs=1e-6)
    q, _ = capture.capture_probabilities(20, RTS_2M, -60.0, -94.0)
    assert q[2] == pytest.approx(0.969319, abs=1e-6)
    q, _ = capture.capture_probabilities(20, {**RTS_2M, "short_preamble": True}, -60.0, -94.0)
    assert q[2] == pytest.approx(0.960299, abs=1e-6)
    q, _ = capture.capture_probabilities(20, DATA_11M, -60.0, -94.0)
    assert q[1] == 1.0 and q[2] < 1e-200


def test_capture_helps_rts_cts_and_not_basic_access_at_11_mbps():
    n = 20
    rts = capture.saturation(n, TIMING_11B, access="rts", powers_dbm=-60.0, noise_dbm=-94.0)
    rts_plain = bianchi.saturation(n, TIMING_11B, access="rts")
    assert rts["S"] > rts_plain["S"]
    assert rts["p"] < rts_plain["p"]
    assert rts["q2"] == pytest.approx(0.99999997, abs=1e-8)
    basic = capture.saturation(n, TIMING_11B, access="basic", powers_dbm=-60.0, noise_dbm=-94.0)
    basic_plain = bianchi.saturation(n, TIMING_11B, access="basic")
    assert abs(basic["S"] / basic_plain["S"] - 1) < 0.005
    # pinned: S without capture (Bianchi) and with it
    assert basic_plain["S"] == pytest.approx(0.481381, abs=1e-6)
    assert basic["S"] == pytest.approx(0.481381, abs=1e-6)
    assert rts_plain["S"] == pytest.approx(0.410232, abs=1e-6)
    assert rts["S"] == pytest.approx(0.451256, abs=1e-6)
    assert rts["throughput_bps"] == pytest.approx(rts["S"] * 11e6)
    # the fixed point holds
    q, s = capture.capture_probabilities(n, RTS_1M, -60.0, -94.0)
    tau = rts["tau"]
    through = sum(math.comb(n - 1, j) * tau**j * (1 - tau) ** (n - 1 - j) * s[j] for j in range(n))
    assert rts["p"] == pytest.approx(1 - through, abs=1e-12)


def test_random_distances_rts():
    """Stations at random distances: capture between unequal RTS frames."""
    rng = np.random.default_rng(5)
    powers = list(rng.uniform(-85.0, -55.0, 12))
    got = capture.saturation(12, TIMING_11B, access="rts", powers_dbm=powers)
    plain = bianchi.saturation(12, TIMING_11B, access="rts")
    assert got["S"] > plain["S"]
    assert got["q1"] == 1.0 and 0.9 < got["q2"] <= 1.0


def test_one_station():
    got = capture.saturation(1, TIMING_11B, powers_dbm=-60.0)
    want = bianchi.saturation(1, TIMING_11B)
    assert got["S"] == want["S"] and math.isnan(got["q2"])
    # a station the AP cannot hear always fails
    lost = capture.saturation(1, TIMING_11B, powers_dbm=-100.0)
    assert lost["p"] == 1.0 and lost["S"] == 0.0


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: capture.capture_probabilities(0, RTS_1M, -60.0, -94.0), "n"),
        (lambda: capture.capture_probabilities(3, RTS_1M, [-60.0, -61.0], -94.0), "powers_dbm"),
        (lambda: capture.capture_probabilities(2, RTS_1M, "loud", -94.0), "powers_dbm"),
        (lambda: capture.capture_probabilities(2, RTS_1M, [-60.0, math.inf], -94.0), "powers_dbm"),
        (lambda: capture.capture_probabilities(2, RTS_1M, -60.0, math.nan), "noise_dbm"),
        (lambda: capture.capture_probabilities(2, {"rate_bps": 1e6}, -60.0, -94.0), "first_frame"),
        (lambda: capture.capture_probabilities(2, "rts", -60.0, -94.0), "first_frame"),
        (
            lambda: capture.capture_probabilities(2, {**RTS_1M, "rate_bps": 3e6}, -60.0, -94.0),
            "first_frame: rate_bps",
        ),
        (
            lambda: capture.capture_probabilities(2, {**RTS_1M, "power": 1}, -60.0, -94.0),
            "first_frame",
        ),
        (lambda: capture.capture_probabilities(2, RTS_1M, -60.0, -94.0, seed=-1), "seed"),
        (lambda: capture.saturation(5, TIMING_11B, access="dcf"), "access"),
        (lambda: capture.saturation(5, TIMING_11B, collision="x"), "collision"),
        (lambda: capture.saturation(5, TIMING_11B, q=[0, 1, 0]), "q"),
        (lambda: capture.saturation(2, TIMING_11B, q=[0, 1.5, 0]), "q"),
        (lambda: capture.saturation(5, {"slot_s": 2e-5}), "timing"),
        (lambda: capture.fixed_point(3, 32, 5, [1.0, 0.5]), "s"),
    ],
)
def test_bad_arguments_name_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()
