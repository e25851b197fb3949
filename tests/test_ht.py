"""802.11n (HT) and 802.11ac (VHT) cells: the timing the models read, one saturated
station against its exchange written out, Bianchi's model against a saturated 802.11ac
cell (issue 40: within 3 %), SINR reception against the error curves of
`wlansim.models.error_rate`, and captures tshark reads. Fixed seeds throughout."""

from __future__ import annotations

import math
import shutil
import subprocess

import pytest

import wlansim
from wlansim.errors import ScenarioError
from wlansim.models import bianchi
from wlansim.models.error_rate import ht_encoders, ht_ppdu_success
from wlansim.phy import timing

US = 1e-6


def cell(n: int, phy: dict, access: str = "basic", duration: str = "20 s", **extra) -> dict:
    """`n` saturated uplink stations under Bianchi's assumptions (no retry limit)."""
    return {
        "duration": duration,
        "warmup": "1 s",
        "phy": phy,
        "mac": {
            "rts_threshold": 0 if access == "rts" else "off",
            "short_retry_limit": "unlimited",
            "long_retry_limit": "unlimited",
        },
        "stations": [{"name": "sta", "count": n}],
        "flows": [{"name": "up", "direction": "uplink", "stations": "sta",
                   "traffic": "saturated", "packet_size": 1472}],
        **extra,
    }  # fmt: skip


def test_timing_of_ht_and_vht_frames():
    t = timing({"standard": "802.11ac", "channel_width": 40})
    # 1542 bytes (QoS header, LLC/SNAP, the S-MPDU's delimiter) at 180 Mb/s: 40 µs of
    # preamble + ceil(12358 / 720) = 18 symbols; the ACK at 24 Mb/s.
    assert t["data_frame_s"] == pytest.approx((40 + 72) * US)
    assert t["ack_s"] == pytest.approx(28 * US)
    assert t["data_rate_bps"] == 180e6
    t = timing({"standard": "802.11n", "band": "2.4 GHz", "channel_width": 40,
                "guard_interval": "short"})  # fmt: skip
    # 150 Mb/s, 540 bits per 3.6 µs symbol: 23 symbols = 82.8 µs, counted as 84; + 6 µs
    # signal extension; ACK 28 + 6.
    assert t["data_frame_s"] == pytest.approx((36 + 84 + 6) * US)
    assert t["ack_s"] == pytest.approx(34 * US)
    assert t["data_rate_bps"] == pytest.approx(150e6)


def test_the_ns3_profile_times_vht_frames_4_us_shorter():
    # ns-3.37 leaves VHT-SIG-B out of a VHT SU PPDU: profile "ns3" (or `[mac] profile`
    # alone) takes 4 µs off every 802.11ac data frame and nothing off the ACK; 802.11n's
    # long-GI frames have no SIG-B and stay.
    phy = {"standard": "802.11ac", "channel_width": 40}
    std, ns3 = timing(phy), timing(phy, mac={"profile": "ns3"})
    assert std["data_frame_s"] - ns3["data_frame_s"] == pytest.approx(4 * US)
    assert ns3["ack_s"] == std["ack_s"]
    assert timing("802.11n", mac={"profile": "ns3"}) == timing("802.11n")
    # 400 ns GI: 23 symbols of 3.6 µs = 82.8 µs, not rounded to 84 (above).
    sgi = {"standard": "802.11n", "band": "2.4 GHz", "channel_width": 40,
           "guard_interval": "short"}  # fmt: skip
    assert timing(sgi, mac={"profile": "ns3"})["data_frame_s"] == pytest.approx(
        (36 + 82.8 + 6) * US
    )
    # A lone saturated 802.11ac station: the medium is busy for each exchange (data,
    # SIFS, ACK, propagation) 4 µs less under the profile, and it carries more.
    busy = {}
    for profile in ("standard", "ns3"):
        r = wlansim.run(cell(1, {"standard": "802.11ac"}, duration="3 s", profile=profile),
                        seed=1)  # fmt: skip
        ap = r.nodes[r.nodes["role"] == "ap"].iloc[0]
        sta = r.nodes[r.nodes["role"] != "ap"].iloc[0]
        busy[profile] = (ap["cs_busy_s"] / sta["attempts"], r.metrics["throughput_bps"])
    assert busy["standard"][0] - busy["ns3"][0] == pytest.approx(4 * US, abs=0.1 * US)
    assert busy["ns3"][1] > busy["standard"][1]


@pytest.mark.parametrize("key", ["profile", "mac.profile"])
def test_an_unknown_profile_is_refused_with_the_three_named(key):
    scenario = cell(1, {"standard": "802.11ac"})
    if key == "profile":
        scenario["profile"] = "ns-3"
    else:
        scenario["mac"]["profile"] = "ns-3"
    with pytest.raises(ScenarioError, match=f"`{key}`.*`standard`, `ns2`, `ns3`"):
        wlansim.run(scenario, seed=1)


@pytest.mark.parametrize("phy", [{"standard": "802.11n"}, {"standard": "802.11ac"}])
def test_one_station_sends_an_exchange_per_aifs_backoff_data_sifs_ack(phy):
    # A QoS station in AC_BE: AIFS = SIFS + 3 slots, then on average CWmin / 2 = 7.5 slots.
    t = timing(phy)
    exchange = (t["sifs_s"] + 3 * t["slot_s"] + 7.5 * t["slot_s"] + t["data_frame_s"]
                + t["sifs_s"] + t["ack_s"] + 2 * t["propagation_delay_s"])  # fmt: skip
    r = wlansim.run(cell(1, phy), seed=3)
    assert r.metrics["throughput_bps"] == pytest.approx(1472 * 8 / exchange, rel=0.005)


@pytest.mark.parametrize("access", ["basic", "rts"])
@pytest.mark.parametrize("n", [1, 5, 10, 20])
def test_a_saturated_80211ac_cell_within_3_percent_of_bianchi(n, access):
    # 802.11ac MCS 9, 80 MHz, no aggregation; the stations are QoS STAs in AC_BE, so the
    # model takes AIFS[BE] for DIFS (whose boundary counts as a slot under EDCA).
    phy = {"standard": "802.11ac", "channel_width": 80, "mcs": 9}
    t = timing(phy)
    model = bianchi.saturation(n, t, access=access, aifs=t["sifs_s"] + 3 * t["slot_s"])
    r = wlansim.run(cell(n, phy, access), seed=11)
    assert r.metrics["throughput_bps"] == pytest.approx(model["throughput_bps"], rel=0.03)


def test_without_the_aifs_the_model_misses_the_cell():
    # The check above can fail: with DCF's DIFS the model is off by more than 3 % at n = 1.
    phy = {"standard": "802.11ac"}
    t = timing(phy)
    r = wlansim.run(cell(1, phy), seed=11)
    wrong = bianchi.saturation(1, t)["throughput_bps"]
    assert abs(r.metrics["throughput_bps"] / wrong - 1) > 0.03


def test_the_python_curves_match_the_simulators_reception():
    # One station, SINR reception: every data frame is decoded with the probability of the
    # MCS's curve at the SINR of its width (the 20 MHz noise floor + 6 dB at 80 MHz).
    phy = {"standard": "802.11ac", "channel_width": 80, "mcs": 4}
    noise_dbm, rx_dbm = -94.0, -72.0
    s = cell(1, phy, duration="10 s", channel={"reception": {
        "model": "sinr", "noise_floor_dbm": noise_dbm, "rx_power_dbm": rx_dbm}})  # fmt: skip
    r = wlansim.run(s, seed=5)
    sinr = 10 ** ((rx_dbm - noise_dbm - 10 * math.log10(4)) / 10)
    p = ht_ppdu_success(4, 1542, sinr, width_mhz=80, vht=True)
    assert 0.2 < p < 0.8  # where the curve is steep
    attempts = int(r.nodes["attempts"].sum())
    errors = int(r.nodes["frame_errors"].sum())
    half = 3 * math.sqrt(p * (1 - p) / attempts)
    assert errors / attempts == pytest.approx(1 - p, abs=half)


def test_encoders_of_the_standards_tables():
    assert ht_encoders(7, 1, 20) == 1
    assert ht_encoders(5, 3, 40) == 2  # HT MCS 21, 324 Mb/s
    assert ht_encoders(9, 1, 160, vht=True) == 2
    assert ht_encoders(7, 4, 160, vht=True) == 6


@pytest.mark.parametrize(
    ("phy", "key"),
    [
        ({"standard": "802.11ac", "channel_width": 20, "mcs": 9}, "phy.mcs"),
        ({"standard": "802.11n", "channel_width": 160}, "phy.channel_width"),
        ({"standard": "802.11n", "data_rate": "54 Mb/s"}, "phy.data_rate"),
        ({"standard": "802.11g", "mcs": 3}, "phy.mcs"),
    ],
)
def test_combinations_that_do_not_exist_are_refused(phy, key):
    with pytest.raises(ScenarioError, match=key.replace(".", r"\.")):
        wlansim.run(cell(1, phy, duration="2 s"), seed=1)


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark is not installed")
@pytest.mark.parametrize(
    ("phy", "fields"),
    [
        ({"standard": "802.11n", "channel_width": 40, "guard_interval": "short"},
         ("radiotap.mcs.index", "7", "radiotap.mcs.bw", "1")),
        ({"standard": "802.11ac", "channel_width": 80},
         ("radiotap.vht.mcs.0", "9", "radiotap.vht.bw", "4")),
    ],
)  # fmt: skip
def test_captures_show_qos_data_at_the_mcs_and_ht_beacons(tmp_path, phy, fields):
    # A snaplen above the default 128: an HT/VHT beacon takes up to 169 bytes.
    s = cell(3, phy, duration="1 s", ap={"beacon_interval": "102.4 ms"},
             output={"pcap": str(tmp_path), "pcap_snaplen": 256})  # fmt: skip
    s["warmup"] = "0 s"
    wlansim.run(s, seed=1)
    pcap = str(tmp_path / "sta-0.pcap")
    out = subprocess.run(
        ["tshark", "-r", pcap, "-T", "fields", "-e", "wlan.fc.type_subtype",
         "-e", fields[0], "-e", fields[2], "-e", "_ws.malformed"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    rows = [line.split("\t") for line in out.stdout.splitlines()]
    assert len(rows) > 20
    assert {tuple(r[:3]) for r in rows} == {("0x0028", fields[1], fields[3])}
    assert all(r[3] == "" for r in rows)
    beacons = subprocess.run(
        ["tshark", "-r", str(tmp_path / "ap.pcap"), "-Y", "wlan.fc.type_subtype == 0x0008",
         "-T", "fields", "-e", "wlan.ht.capabilities", "-e", "wlan.vht.op.channelwidth",
         "-e", "_ws.malformed"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    rows = [line.split("\t") for line in beacons.stdout.splitlines()]
    assert len(rows) >= 9
    vht = phy["standard"] == "802.11ac"
    assert all(r[0] != "" and (r[1] == "1") == vht and r[2] == "" for r in rows)
