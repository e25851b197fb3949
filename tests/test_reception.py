"""SINR reception (`[channel.reception] model = "sinr"`): frames alone, equal-power
collisions, capture against the error curve of `wlansim.models.error_rate`, antenna gain,
and the errors of bad keys. Fixed seeds throughout."""

from __future__ import annotations

import math

import pytest

import wlansim
from wlansim.errors import ScenarioError
from wlansim.evidence.validations.bianchi import saturated_cell
from wlansim.models.error_rate import ppdu_success


def sinr_cell(n: int, access: str, duration: str = "20 s", **reception) -> dict:
    s = saturated_cell(n, access, duration=duration)
    s["phy"]["control_rate"] = "1 Mb/s"
    s["channel"] = {"reception": {"model": "sinr", **reception}}
    return s


def totals(r) -> dict:
    keys = ["attempts", "successes", "collisions", "frame_errors", "control_errors", "captures"]
    return {k: int(r.nodes[k].sum()) for k in keys}


def test_a_frame_alone_above_sensitivity_always_succeeds():
    r = wlansim.run(sinr_cell(1, "basic"), seed=3)
    t = totals(r)
    assert t["attempts"] > 5000
    # every attempt succeeds; the last one may still be in the air when the run ends (an
    # access in progress at the end of the warm-up keeps its attempt: issue 28)
    assert t["attempts"] - t["successes"] in (0, 1)
    # Just above the sensitivity (SNR 12 dB) a 1 Mb/s-headed 11 Mb/s frame still passes;
    # below it nothing is detected and nothing is delivered.
    weak = wlansim.run(sinr_cell(1, "basic", rx_power_dbm=-81.9), seed=3)
    assert totals(weak)["frame_errors"] == 0
    deaf = wlansim.run(sinr_cell(1, "basic", rx_power_dbm=-83.0, duration="2 s"), seed=3)
    assert totals(deaf)["successes"] == 0


def test_equal_power_11_mbps_collisions_capture_nothing_and_match_reception_none():
    none = saturated_cell(10, "basic", duration="20 s")
    none["phy"]["control_rate"] = "1 Mb/s"
    a = wlansim.run(none, seed=5)
    b = wlansim.run(sinr_cell(10, "basic"), seed=5)
    assert totals(b)["captures"] == 0
    assert totals(b)["collisions"] > 1000
    assert totals(a) == totals(b)
    assert a.metrics["throughput_bps"] == b.metrics["throughput_bps"]


@pytest.mark.parametrize(("rate", "q_range"), [(1, (0.9999, 1.0)), (2, (0.9, 0.99))])
def test_an_equal_power_rts_is_captured_as_often_as_the_curve_says(rate, q_range):
    # Two saturated stations, RTS/CTS with every control frame at 1 or 2 Mb/s: every
    # collision is two RTS at equal power. The AP locks onto one; it gets through with
    # probability q = PSR(20-byte RTS, SINR = P / (P + N)). A collision event leaves one
    # capture and one collided attempt, or two collided attempts.
    s = sinr_cell(2, "rts", duration="1000 s")
    s["phy"]["control_rate"] = f"{rate} Mb/s"
    t = totals(wlansim.run(s, seed=7))
    events = t["captures"] + (t["collisions"] - t["captures"]) / 2
    assert events > 10_000
    p, n = 10 ** (-60 / 10), 10 ** (-94 / 10)
    q = float(ppdu_success("dsss", rate * 1e6, 20, p / (p + n)))
    assert q_range[0] < q < q_range[1]
    assert t["captures"] / events == pytest.approx(q, abs=0.02)
    # And the captured exchanges went on to deliver: every attempt ends in a success or a
    # collision (the captured winner's a success), but those in progress when the run ends
    # (at most the two stations').
    assert t["attempts"] - t["collisions"] - 2 <= t["successes"] <= t["attempts"] - t["collisions"]


def test_without_capture_colliding_rts_are_all_lost_as_with_reception_none():
    none = saturated_cell(10, "rts", duration="20 s")
    none["phy"]["control_rate"] = "1 Mb/s"
    a = totals(wlansim.run(none, seed=5))
    b = totals(wlansim.run(sinr_cell(10, "rts", capture=False), seed=5))
    c = totals(wlansim.run(sinr_cell(10, "rts"), seed=5))
    assert b["captures"] == 0 and b == a
    assert c["captures"] > 1000


def test_a_station_20_db_stronger_wins_every_collision():
    s = sinr_cell(1, "basic", duration="30 s")
    strong = {**s["stations"][0], "name": "strong", "antenna_gain_db": 20.0}
    weak = {**s["stations"][0], "name": "weak"}
    s["stations"] = [strong, weak]
    flow = s["flows"][0]
    s["flows"] = [{**flow, "name": "up-strong", "stations": "strong"},
                  {**flow, "name": "up-weak", "stations": "weak"}]  # fmt: skip
    r = wlansim.run(s, seed=2)
    nodes = r.nodes.set_index("name")
    assert nodes.loc["strong-0", "captures"] > 100
    # Every collision of the two: the strong frame captured, the weak one collided.
    assert nodes.loc["strong-0", "collisions"] == 0
    assert nodes.loc["weak-0", "captures"] == 0
    assert nodes.loc["weak-0", "collisions"] == nodes.loc["strong-0", "captures"]


def test_sinr_with_qos_and_txop_keeps_the_accounting():
    # RTS/CTS: RTS collisions are captured, and a captured exchange ends its TXOP.
    s = sinr_cell(6, "rts")
    s["stations"][0]["qos"] = True
    s["qos"] = {"classifier": [{"flow": "up", "ac": "vi"}]}  # TXOP bursts of 6.016 ms
    s["flows"][0]["packet_size"] = 200
    r = wlansim.run(s, seed=1)
    t = totals(r)
    vi = r.access_categories.groupby("ac").sum(numeric_only=True).loc["AC_VI"]
    assert r.metrics["throughput_bps"] > 1e6
    assert vi["burst_exchanges"] > 1000 and vi["captures"] > 100
    # The world's accounting check passed (the run returned an answer).
    assert t["captures"] == vi["captures"]
    assert math.isfinite(r.metrics["collision_probability"])


@pytest.mark.parametrize(
    ("patch", "field", "words"),
    [
        (
            {"channel": {"reception": {"model": "sinr", "noise_floor_dbm": 100.0}}},
            "channel.reception.noise_floor_dbm",
            "dBm",
        ),
        ({"channel": {"reception": {"model": "loud"}}}, "channel.reception.model", "sinr"),
        (
            {"channel": {"reception": {"model": "sinr", "error_model": "awgn"}}},
            "channel.reception.error_model",
            "unknown variant `awgn`, expected `nist` or `table`",
        ),
        (
            {"channel": {"reception": {"error_model": "table"}}},
            "channel.reception.error_model",
            'needs model = "sinr"',
        ),
        (
            {
                "phy": {"standard": "802.11b", "data_rate": "20 Mb/s", "nonstandard_rate": True},
                "channel": {"reception": {"model": "sinr"}},
            },
            "channel.reception.model",
            "standard's rates",
        ),
    ],  # fmt: skip
)
def test_bad_reception_keys_name_the_field(patch, field, words):
    s = saturated_cell(2, "basic", duration="2 s")
    s.update(patch)
    with pytest.raises(ScenarioError) as e:
        wlansim.run(s, seed=1)
    assert field in str(e.value) and words in str(e.value)


@pytest.mark.parametrize("error_model", ["nist", "table"])
def test_an_equal_power_ofdm_rts_is_captured_under_the_tables_only(error_model):
    # Two saturated 802.11a stations, RTS/CTS at 6 Mb/s: every collision is two RTS at
    # equal power (SINR 0 dB). On the NIST curves the AP gets neither; on ns-3's tables
    # (MCS 0, 32 bytes: PER 0.0344 at 0 dB) it gets the one it locked onto with
    # probability q = 0.9656^(3/32) x 0.9656^(22/32) (SIGNAL 24 bits, PSDU 182 bits).
    s = sinr_cell(2, "rts", duration="200 s", error_model=error_model)
    s["phy"] = {"standard": "802.11a", "data_rate": "54 Mb/s", "control_rate": "6 Mb/s"}
    t = totals(wlansim.run(s, seed=7))
    events = t["captures"] + (t["collisions"] - t["captures"]) / 2
    assert events > 5_000
    if error_model == "nist":
        assert t["captures"] == 0
    else:
        q = (1 - 0.0344) ** (25 / 32)
        assert t["captures"] / events == pytest.approx(q, abs=0.01)


def test_an_antenna_gain_out_of_range_is_refused():
    s = sinr_cell(2, "basic", duration="2 s")
    s["stations"][0]["antenna_gain_db"] = 99.0
    with pytest.raises(ScenarioError, match=r"stations.sta.antenna_gain_db`: 99: .*\[-60, 60\]"):
        wlansim.run(s, seed=1)
