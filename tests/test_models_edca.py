"""The EDCA saturation model: limit cases and hand computations."""

import math

import pytest

from wlansim.models import bianchi, edca
from wlansim.phy import timing

C = edca.EdcaClass


@pytest.fixture(scope="module")
def t():
    return timing("802.11b", 1400)


@pytest.mark.parametrize("split", [(1, 1), (2, 3), (4, 1, 5)])
def test_equal_parameters_give_equal_shares_and_bianchi(t, split):
    r = edca.solve([C(n) for n in split], t)
    n = sum(split)
    per_station = r["per_station_bps"]
    assert max(per_station) == pytest.approx(min(per_station), rel=1e-9)
    assert sum(r["throughput_bps"]) == pytest.approx(
        bianchi.saturation(n, t)["throughput_bps"], rel=1e-9
    )
    assert r["tau"][0] == pytest.approx(bianchi.tau_p(n, 32, 5)[0], rel=1e-9)


def test_txop_frames_multiply_throughput_share(t):
    # Same access probability, F frames per access: exactly F times the payload.
    for frames in (2, 3, 5):
        assert edca.relative_throughput(C(1), C(1, txop_frames=frames), t) == pytest.approx(
            frames, rel=1e-9
        )


def test_frames_per_txop_counts_whole_exchanges(t):
    e, sifs = edca.exchange_time(t), t["sifs_s"]
    assert edca.frames_per_txop(0.0, t) == 1
    assert edca.frames_per_txop(e / 2, t) == 1, "the first exchange always goes"
    assert edca.frames_per_txop(2 * e + sifs, t) == 2
    assert edca.frames_per_txop(2 * e + sifs - 1e-6, t) == 1
    assert edca.frames_per_txop(3 * e + 2 * sifs, t) == 3


def test_frames_per_txop_of_a_burst_bounding_the_data_airtime_only(t):
    data = t["data_frame_s"]
    assert edca.frames_per_txop(0.0, t, "data") == 1
    assert edca.frames_per_txop(2 * data, t, "data") == 2
    assert edca.frames_per_txop(2 * data - 1e-6, t, "data") == 1
    for counts in edca.TXOP_COUNTS:
        for k in (1, 2, 5):
            limit = edca.txop_for_frames(k, t, counts)
            assert edca.frames_per_txop(limit, t, counts) == k
            assert edca.frames_per_txop(limit - 1e-6, t, counts) == max(1, k - 1)
    with pytest.raises(ValueError, match="counts 'airtime': one of exchange, data"):
        edca.frames_per_txop(1e-3, t, "airtime")


def test_aifs_and_cwmin_differentiation_are_monotone(t):
    aifs = [edca.relative_throughput(C(1), C(1, aifsn=2 + k), t) for k in range(0, 10)]
    assert aifs[0] == pytest.approx(1.0)
    assert all(b < a for a, b in zip(aifs, aifs[1:]))
    cw = [edca.relative_throughput(C(1), C(1, cw_min=2**k - 1), t) for k in range(2, 10)]
    assert all(b < a for a, b in zip(cw, cw[1:]))
    # roughly inversely proportional to CWmin + 1 at low collision probability
    assert edca.relative_throughput(C(1), C(1, cw_min=63), t) == pytest.approx(0.5, abs=0.05)


def test_a_station_that_always_transmits_starves_the_longer_aifs(t):
    # CW = 0: tau = 1, so the AIFS zone of class 2 is never reached (hand computation:
    # pi = [1, 0]); class 1 sends one frame per E + AIFS_min, alone on the medium.
    r = edca.solve([C(1, cw_min=0, cw_max=0), C(1, aifsn=3)], t)
    assert r["pi"] == pytest.approx([1.0, 0.0])
    assert r["throughput_bps"][1] == 0.0
    aifs = t["sifs_s"] + 2 * t["slot_s"]
    expected = t["payload_bits"] / (edca.exchange_time(t) + aifs)
    assert r["throughput_bps"][0] == pytest.approx(expected, rel=1e-9)
    assert math.isclose(r["share"][0], 1.0)


def slotted_edca(extra_aifs: list[int], cw_min: int, slots: int, seed: int) -> list[int]:
    """Successes per station of the exact slot-level EDCA process (no Markov approximation):
    at each slot boundary z idle slots after the last busy one, a station whose extra AIFS
    slots are <= z transmits if its counter is 0 and decrements it otherwise; CW doubles on
    a collision up to 1023, and a frame is dropped after 7 attempts."""
    import random

    rng = random.Random(seed)
    n = len(extra_aifs)
    cw, tries, succ = [cw_min] * n, [0] * n, [0] * n
    counter = [rng.randint(0, cw_min) for _ in range(n)]
    z = 0
    for _ in range(slots):
        tx = []
        for i in range(n):
            if extra_aifs[i] <= z:
                if counter[i] == 0:
                    tx.append(i)
                else:
                    counter[i] -= 1
        if not tx:
            z += 1
            continue
        z = 0
        for i in tx:
            tries[i] += 1
            if len(tx) == 1:
                succ[i] += 1
            if len(tx) == 1 or tries[i] == 7:
                cw[i], tries[i] = cw_min, 0
            else:
                cw[i] = min(2 * cw[i] + 1, 1023)
            counter[i] = rng.randint(0, cw[i])
    return succ


def test_large_aifs_gap_is_the_models_approximation_not_the_simulator():
    """ng2005 Fig 4 at 13 extra AIFS slots: the simulator agrees with the exact slot-level
    process of the same rules, the zone model (a constant attempt probability per slot)
    overestimates the deprioritised station, as the paper says of Battiti-Li."""
    import wlansim
    from wlansim.evidence.studies import ng2005

    succ = slotted_edca([0, 13], 31, 3_000_000, seed=1)
    exact = succ[1] / succ[0]
    s = ng2005.base_scenario("60 s")
    s["stations"][1]["edca"]["be"]["aifsn"] = 15
    ratios = []
    for seed in (1, 2):
        thr = wlansim.run(s, seed=seed).flows.set_index("name")["throughput_bps"]
        ratios.append(thr["up2-0"] / thr["up1-0"])
    assert sum(ratios) / 2 == pytest.approx(exact, rel=0.03)
    assert ng2005._model_ratio("fig4", 13) / exact - 1 > 0.08


def test_readme_edca_snippet_runs_as_written():
    """The README's EDCA example is complete: its `timing` comes from wlansim.phy."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    (code,) = [b for b in blocks if "from wlansim.models.edca import" in b]
    scope: dict = {}
    exec(code, scope)
    shown = [float(x) for x in re.findall(r"\[([\d.e+]+), ([\d.e+]+)\]", code)[0]]
    assert scope["r"]["throughput_bps"] == pytest.approx(shown, rel=0.01)
