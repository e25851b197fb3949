"""Beacons (`[[aps]] beacon_interval`): one per TBTT at the lowest basic rate, by the
AP's DCF rules, never retried; their airtime in the BSS table. Fixed seeds."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import wlansim
from wlansim.errors import ScenarioError
from wlansim.evidence.validations.bianchi import saturated_cell

BEACON_S = (192 + 59 * 8) * 1e-6  # 59-byte Beacon (SSID "ap") at 1 Mb/s, long preamble


def cell(n: int, interval: str | None, **ap) -> dict:
    s = saturated_cell(n, "basic", duration="50 s")
    s["ap"] = {**ap, **({"beacon_interval": interval} if interval else {})}
    return s


def test_one_beacon_per_interval_at_the_lowest_basic_rate():
    r = wlansim.run(cell(10, "102.4 ms"), seed=4)
    bss = r.bss.iloc[0]
    measured = 49.0  # 50 s minus the 1 s warm-up
    assert abs(bss["beacons"] - measured / 0.1024) <= 1
    assert bss["beacon_airtime_share"] == pytest.approx(bss["beacons"] * BEACON_S / measured)
    # They contend like any DCF frame: some collide, none is retried.
    assert 0 < bss["beacon_collisions"] < bss["beacons"]
    # With basic rates {2, 5.5, 11} the beacon goes at 2 Mb/s: shorter on the air.
    fast = wlansim.run(cell(10, "102.4 ms", basic_rates=["2 Mb/s", "5.5 Mb/s", "11 Mb/s"]), seed=4)
    share = fast.bss.iloc[0]["beacon_airtime_share"] / fast.bss.iloc[0]["beacons"]
    assert share == pytest.approx((192 + 59 * 4) * 1e-6 / measured)


def test_beacons_cost_the_stations_about_their_airtime():
    off = wlansim.run(cell(10, None), seed=4)
    on = wlansim.run(cell(10, "102.4 ms"), seed=4)
    assert "beacons" not in off.bss.columns or off.bss["beacons"].isna().all()
    loss = 1 - on.metrics["throughput_bps"] / off.metrics["throughput_bps"]
    share = on.bss.iloc[0]["beacon_airtime_share"]
    # The beacon's airtime plus its DIFS/backoff and the collisions it causes: between
    # half and three times its own share (0.65 %).
    assert share / 2 < loss < 3 * share
    # The accounting check passed and no packet was lost to the beacons' queue.
    assert on.nodes["queue_drops"].sum() == off.nodes["queue_drops"].sum() == 0


def test_a_qos_ap_sends_its_beacons_with_ac_vo_parameters():
    s = cell(4, "20 ms")
    s["ap"]["qos"] = True
    s["stations"][0]["qos"] = True
    r = wlansim.run(s, seed=2)
    assert r.bss.iloc[0]["beacons"] == pytest.approx(49.0 / 0.02, abs=1)


def test_a_beacon_interval_below_one_tu_is_refused():
    with pytest.raises(ScenarioError, match=r"beacon_interval.*1 TU"):
        wlansim.run(cell(2, "1 ms"), seed=1)


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark is not installed")
def test_beacons_are_in_the_ap_capture_as_tshark_reads_them(tmp_path):
    s = cell(5, "102.4 ms", ssid="lab")
    s["duration"], s["warmup"] = "5 s", "0 s"
    s["output"] = {"pcap": str(tmp_path)}
    bss = wlansim.run(s, seed=1).bss.iloc[0]
    out = subprocess.run(
        ["tshark", "-r", str(tmp_path / "ap.pcap"), "-Y", "wlan.fc.type_subtype == 0x0008",
         "-T", "fields", "-e", "wlan.ssid", "-e", "wlan.fixed.beacon",
         "-e", "radiotap.flags.badfcs", "-e", "wlan.supported_rates", "-e", "_ws.malformed"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    rows = [line.split("\t") for line in out.stdout.splitlines()]
    assert len(rows) == bss["beacons"] > 40
    # SSID "lab" (hex), 100 TU, the basic rate (1 Mb/s) flagged; collided ones: bad FCS.
    assert {(r[0], r[1], r[3]) for r in rows} == {("6c6162", "100", "0x82,0x04,0x0b,0x16")}
    assert sum(r[2] == "1" for r in rows) == bss["beacon_collisions"]
    assert all(r[4] == "" for r in rows)
