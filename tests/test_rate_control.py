"""Rate adaptation (`mac.rate_control`) from Python: the example cell's links settle at
rates that follow their SNR, the outputs reach the results, the captures carry each
frame's rate, and bad keys are refused with the key named."""

from __future__ import annotations

import shutil
import subprocess
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


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark is not installed")
@pytest.mark.parametrize(
    ("standard", "algorithm", "field"),
    [
        ("802.11g", "ideal", "radiotap.datarate"),
        ("802.11g", "minstrel", "radiotap.datarate"),
        ("802.11n", "minstrel_ht", "radiotap.mcs.index"),
        ("802.11ac", "minstrel_ht", "radiotap.vht.mcs.0"),
    ],
)
def test_captures_carry_the_rate_each_frame_was_sent_at(tmp_path, standard, algorithm, field):
    # No warm-up: the nodes' mean rate is over every attempt, as the capture holds them.
    r = wlansim.run(EXAMPLE, seed=1, overrides={
        "duration": "2 s", "warmup": "0 s", "phy.standard": standard,
        "mac.rate_control": algorithm, "output.pcap": str(tmp_path)})  # fmt: skip
    nodes = r.nodes.set_index("name")
    for name in ("near-0", "mid-0", "far-0"):
        out = subprocess.run(
            ["tshark", "-r", str(tmp_path / f"{name}.pcap"), "-Y", "wlan.fc.type == 2",
             "-T", "fields", "-e", "wlan_radio.data_rate", "-e", field, "-e", "_ws.malformed"],
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        rows = [line.split("\t") for line in out.stdout.splitlines()]
        assert len(rows) > 500
        assert all(row[1] != "" and row[2] == "" for row in rows), rows[:3]
        captured = sum(float(row[0]) for row in rows) / len(rows) * 1e6
        assert captured == pytest.approx(nodes.loc[name, "mean_data_rate_bps"], rel=2e-3)
        # One rate for `ideal`; the adaptive controllers try several.
        assert (len({row[1] for row in rows}) == 1) == (algorithm == "ideal")


def test_ns3s_first_reports_are_refused_where_they_were_not_traced():
    # 802.11g, no A-MPDU: ns-3.37's start was traced on 802.11n/ac with A-MPDUs only.
    with pytest.raises(ScenarioError, match=r"mac\.rate_first_reports.*802\.11n/ac.*needs A-MPDUs"):
        wlansim.run(EXAMPLE, overrides={"mac.rate_first_reports": "ns3"})
    with pytest.raises(ScenarioError, match=r"rate_first_reports.*`ns3`"):
        wlansim.run(EXAMPLE, overrides={"mac.rate_first_reports": "ns-3"})
    # "none" is accepted anywhere, and changes nothing there.
    minstrel = {"duration": "3 s", "mac.rate_control": "minstrel"}
    none = wlansim.run(EXAMPLE, seed=1, overrides={**minstrel, "mac.rate_first_reports": "none"})
    plain = wlansim.run(EXAMPLE, seed=1, overrides=minstrel)
    assert none.metrics["throughput_bps"] == plain.metrics["throughput_bps"]
