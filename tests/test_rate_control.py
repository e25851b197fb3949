"""Rate adaptation (`mac.rate_control`) from Python: the example cell's links settle at
rates that follow their SNR, the outputs reach the results, and bad keys are refused
with the key named."""

from __future__ import annotations

from pathlib import Path

import pytest

import wlansim
from wlansim.errors import ScenarioError

EXAMPLE = Path(__file__).resolve().parents[1] / "scenarios" / "rate-adaptation-11g.toml"


def rates(algorithm: str) -> dict[str, float]:
    r = wlansim.run(EXAMPLE, seed=1, overrides={"duration": "4 s", "mac.rate_control": algorithm})
    nodes = r.nodes.set_index("name")
    series = r.series["data_rate"]
    assert len(series["t_s"]) == len(series["near-0"])
    return {n: float(nodes.loc[f"{n}-0", "mean_data_rate_bps"]) for n in ("near", "mid", "far")}


def test_ideal_settles_each_link_at_the_rate_its_snr_allows():
    # SNR 29, 20 and 14 dB: 54, 36 and 18 Mb/s (BER 1e-6 thresholds 23.3, 17.3, 10.5 dB;
    # 24 Mb/s needs 14.14 dB).
    assert rates("ideal") == {"near": 54e6, "mid": 36e6, "far": 18e6}


@pytest.mark.parametrize("algorithm", ["minstrel", "arf", "aarf"])
def test_adaptive_controllers_give_the_stronger_links_the_higher_rates(algorithm):
    r = rates(algorithm)
    assert r["near"] > r["mid"] > r["far"], r


def test_rate_control_needs_the_sinr_reception_model():
    with pytest.raises(ScenarioError, match=r"mac\.rate_control.*sinr"):
        wlansim.run(EXAMPLE, overrides={"channel.reception.model": "none"})
