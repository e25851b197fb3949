"""The MSDU lifetime (`mac.msdu_lifetime`, `edca.<ac>.msdu_lifetime`): under overload a
queued packet older than its lifetime is discarded (drop reason `lifetime`), with and
without A-MPDU; the default (unlimited) discards none; a bad value names the key. Fixed
seeds throughout."""

from __future__ import annotations

import pytest

import wlansim

N = {"standard": "802.11n", "channel_width": 20, "mcs": 7}


def overloaded(phy: dict, mac: dict, duration: str = "3 s") -> dict:
    """Three stations whose AP sends each a CBR download of 60 Mb/s (far above what the
    cell carries) through a queue of 1000 packets: they wait for hundreds of ms."""
    return {
        "duration": duration,
        "warmup": "0 s",
        "phy": phy,
        "mac": {"queue": 1000, **mac},
        "ap": {"queue": 1000},
        "stations": [{"name": "sta", "count": 3}],
        "flows": [{"name": "down", "direction": "downlink", "stations": "sta",
                   "traffic": "cbr", "rate": "60 Mb/s", "packet_size": 1472}],
        "output": {"packets": True},
    }  # fmt: skip


CASES = {
    "802.11n A-MPDU": (N, {"ampdu_max_bytes": 65535}),
    "802.11n single MPDUs": (N, {}),
    "802.11b DCF": ({"standard": "802.11b"}, {}),
}


@pytest.mark.parametrize(("phy", "mac"), CASES.values(), ids=CASES.keys())
def test_an_overloaded_queue_drops_packets_older_than_their_lifetime(phy, mac):
    r = wlansim.run(overloaded(phy, {**mac, "msdu_lifetime": "50 ms"}), seed=1)
    dropped = int(r.flows["dropped_lifetime"].sum())
    assert dropped > 0
    assert int(r.nodes["lifetime_drops"].sum()) >= dropped
    assert (r.packets["dropped"] == "lifetime").sum() == dropped
    # What still gets through waited at most about the lifetime (plus its last access).
    assert r.flows["delay_p95_s"].max() < 0.06
    # The default: no lifetime, nothing discarded, and packets wait longer.
    delivered = r.flows["delivered_packets"].sum()
    r = wlansim.run(overloaded(phy, mac), seed=1)
    # The cell carries as much either way (a window moved past a discarded MPDU releases
    # what its recipient held behind it).
    assert delivered == pytest.approx(r.flows["delivered_packets"].sum(), rel=0.1)
    assert int(r.flows["dropped_lifetime"].sum()) == 0
    assert int(r.nodes["lifetime_drops"].sum()) == 0
    assert (r.packets["dropped"] == "lifetime").sum() == 0
    assert r.flows["delay_p95_s"].max() > 0.1


def test_a_saturated_ampdu_cell_with_ns3s_lifetime_keeps_every_station_delivering():
    # 802.11n MCS 7 20 MHz, 10 saturated stations, queues of 100: a station's packets
    # wait about its queue's length over its share, some more than 500 ms.
    s = {
        "duration": "4 s",
        "phy": N,
        "mac": {"ampdu_max_bytes": 65535, "queue": 100, "msdu_lifetime": "500 ms",
                "short_retry_limit": "unlimited", "long_retry_limit": "unlimited"},
        "stations": [{"name": "sta", "count": 10}],
        "flows": [{"name": "up", "direction": "uplink", "stations": "sta",
                   "traffic": "saturated", "packet_size": 1472}],
    }  # fmt: skip
    with_lifetime = wlansim.run(s, seed=1)
    s["mac"]["msdu_lifetime"] = "unlimited"
    without = wlansim.run(s, seed=1)
    assert with_lifetime.flows["delivered_packets"].min() > 0
    assert with_lifetime.metrics["throughput_bps"] == pytest.approx(
        without.metrics["throughput_bps"], rel=0.15
    )


def test_an_access_categorys_lifetime_overrides_the_macs():
    s = overloaded(N, {"msdu_lifetime": "50 ms", "ampdu_max_bytes": 65535})
    s["ap"]["edca"] = {"be": {"msdu_lifetime": "unlimited"}}
    r = wlansim.run(s, seed=1)
    assert int(r.flows["dropped_lifetime"].sum()) == 0


def test_same_seed_same_results():
    s = overloaded(N, {"msdu_lifetime": "50 ms", "ampdu_max_bytes": 65535}, duration="1 s")
    a, b = wlansim.run(s, seed=4), wlansim.run(s, seed=4)
    assert a.flows.equals(b.flows)
    assert a.nodes.equals(b.nodes)


@pytest.mark.parametrize("value", ["fast", "0 s", "-5 ms", 50])
def test_a_bad_lifetime_names_the_key_the_value_and_what_is_allowed(value):
    s = overloaded(N, {"msdu_lifetime": value})
    with pytest.raises(ValueError) as e:
        wlansim.run(s, seed=1)
    message = str(e.value)
    assert "mac.msdu_lifetime" in message
    assert str(value).strip("-") in message
    assert "unlimited" in message
