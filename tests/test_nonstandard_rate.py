"""A data rate the standard does not have (janevski2009's "802.11g at 20 Mb/s"), allowed
only under `phy.nonstandard_rate`, timed by the chosen standard's modulation."""

from __future__ import annotations

import math

import pytest

import wlansim
from wlansim.errors import ScenarioError

PAYLOAD = 1472  # UDP payload; + 8 UDP + 20 IP + 8 LLC/SNAP + 28 MAC header and FCS
MPDU_BITS = 8 * (PAYLOAD + 8 + 20 + 8 + 28)


def lone_station(standard: str, rate: str, **phy) -> dict:
    return {
        "name": "nonstandard",
        "duration": "20 s",
        "phy": {"standard": standard, "data_rate": rate, "nonstandard_rate": True, **phy},
        "stations": [{"name": "s"}],
        "flows": [{"name": "up", "direction": "uplink", "stations": "s",
                   "traffic": "saturated", "packet_size": f"{PAYLOAD} B"}],
    }  # fmt: skip


def cycle_us(difs, slot, cw_min, data_us, sifs, ack_us) -> float:
    """One saturated station: DIFS, a backoff of CWmin/2 slots on average (0..CW), the
    data frame, SIFS and the ACK."""
    return difs + slot * cw_min / 2 + data_us + sifs + ack_us


def test_dsss_and_ofdm_timing_at_20_mbps():
    # 802.11b timing (ns-2's Mac/802_11 at dataRate_ 20Mb): 192 us PLCP, then the PSDU's
    # bits at 20 Mb/s rounded up to 1 us; the ACK at 1 Mb/s.
    dsss = cycle_us(50, 20, 31, 192 + math.ceil(MPDU_BITS / 20), 10, 192 + 112)
    # 802.11g ERP-OFDM: 20 us preamble and SIGNAL, 4 us symbols of 80 data bits
    # (SERVICE + PSDU + tail), 6 us signal extension; the ACK at 6 Mb/s.
    ofdm_data = 20 + 4 * math.ceil((16 + MPDU_BITS + 6) / 80) + 6
    ofdm_ack = 20 + 4 * math.ceil((16 + 112 + 6) / 24) + 6
    ofdm = cycle_us(28, 9, 15, ofdm_data, 10, ofdm_ack)
    for standard, us in (("802.11b", dsss), ("802.11g", ofdm)):
        r = wlansim.run(lone_station(standard, "20 Mb/s"), seed=1)
        expected = PAYLOAD * 8 / us  # Mb/s
        assert r.flows["throughput_bps"].iloc[0] / 1e6 == pytest.approx(expected, rel=0.01)
    # The OFDM reading carries almost twice as much: shorter preamble, slot and ACK.
    assert ofdm < 0.6 * dsss


def test_a_nonstandard_rate_needs_the_switch_and_a_timeable_value():
    base = lone_station("802.11b", "20 Mb/s")
    del base["phy"]["nonstandard_rate"]
    with pytest.raises(ScenarioError, match="phy.data_rate`: 20 Mb/s is not a rate of 802.11b.*"
                       "nonstandard_rate"):  # fmt: skip
        wlansim.run(base)
    with pytest.raises(ScenarioError, match="multiple of 250 kb/s"):
        wlansim.run(lone_station("802.11g", "20.1 Mb/s"))
    with pytest.raises(ScenarioError, match="from 100 kb/s to 1 Gb/s"):
        wlansim.run(lone_station("802.11b", "2 Gb/s"))
    # The switch also admits control and basic rates, and per-group data rates.
    ok = lone_station("802.11b", "20 Mb/s", control_rate="20 Mb/s")
    ok["stations"][0]["data_rate"] = "15 Mb/s"
    assert wlansim.run(dict(ok, duration="1 s")).flows["throughput_bps"].iloc[0] > 0
