"""Log-distance shadowing (ns-2's `Propagation/Shadowing`): the closed form, the
`wlansim model shadowing` command, and the simulator's draws against the closed form."""

from __future__ import annotations

import json
import math

import pytest

import wlansim
from wlansim.cli import main
from wlansim.models.shadowing import Shadowing


def test_closed_form_gives_the_losses_the_janevski_notes_state():
    """janevski2009's notes: with ns-2's radio defaults and beta = 2.7, sigma = 4 dB, about
    0.2 % of frames are lost at 50 m and 21 % at 100 m (914 MHz); 23 % and 90 % at 2.4 GHz."""
    at914 = 1 - Shadowing(path_loss_exponent=2.7).reception_probability([50, 100])
    at2400 = 1 - Shadowing(path_loss_exponent=2.7, frequency_mhz=2400).reception_probability(
        [50, 100]
    )
    assert at914 == pytest.approx([0.0023, 0.211], abs=0.001)
    assert at2400 == pytest.approx([0.230, 0.902], abs=0.002)
    # sigma = 0: a step at the distance where the mean power meets the threshold
    flat = Shadowing(path_loss_exponent=2.7, sigma_db=0)
    assert list(flat.reception_probability([100, 300])) == [1.0, 0.0]


def test_model_command_prints_the_table_and_rejects_bad_values(capsys):
    assert main(["model", "shadowing", "--path-loss-exponent", "2.7", "--distances",
                 "50,100", "--json"]) == 0  # fmt: skip
    doc = json.loads(capsys.readouterr().out)
    p = [r["reception_probability"] for r in doc["results"]]
    assert p == pytest.approx([0.9977, 0.789], abs=0.001)
    assert main(["model", "shadowing", "--distances", "-5"]) != 0
    assert "--distances" in capsys.readouterr().err
    assert main(["model", "shadowing", "--sigma-db", "-1"]) != 0
    assert "--sigma-db" in capsys.readouterr().err


def cell(distance: float, **propagation) -> dict:
    """One saturated UDP uplink from `distance` metres, RTS/CTS off."""
    return {
        "name": "shadowed",
        "duration": "10 s",
        "phy": {"standard": "802.11b", "data_rate": "11 Mb/s"},
        "ap": {"position": [0, 0]},
        "stations": [{"name": "sta", "position": [distance, 0]}],
        "channel": {"propagation": {"model": "shadowing", **propagation}},
        "flows": [{"name": "up", "direction": "uplink", "stations": "sta",
                   "traffic": "saturated", "packet_size": "1000 B"}],
    }  # fmt: skip


@pytest.mark.parametrize("distance", [75.0, 100.0, 120.0])
def test_simulated_data_frame_losses_follow_the_closed_form(distance):
    """A lone station (no collisions), data frames only shadowed: the share of its
    attempts that fail is the model's loss probability, within 2 % absolute over about
    5000 attempts (the binomial standard error is below 0.6 %)."""
    r = wlansim.run(cell(distance, path_loss_exponent=2.7, control_frames=False), seed=3)
    sta = r.nodes[r.nodes["role"] == "station"].iloc[0]
    lost = 1 - sta["successes"] / sta["attempts"]
    expected = 1 - float(Shadowing(path_loss_exponent=2.7).reception_probability(distance))
    assert sta["attempts"] > 4000 and sta["control_errors"] == 0
    assert lost == pytest.approx(expected, abs=0.02)


@pytest.mark.parametrize("rts", [False, True])
def test_control_frames_are_shadowed_too(rts):
    """With control frames shadowed (the default, as ns-2 draws for every frame), an
    attempt at 100 m succeeds only if each of its frames arrives: DATA and ACK (p²), and
    with RTS/CTS also RTS and CTS (p⁴); the data frame is lost with 1 − p when it is sent
    (after a CTS), and an ACK lost after a received data frame delivers the packet once."""
    s = cell(100.0, path_loss_exponent=2.7)
    if rts:
        s["mac"] = {"rts_threshold": 0}
    r = wlansim.run(s, seed=3)
    p = float(Shadowing(path_loss_exponent=2.7).reception_probability(100.0))
    sta = r.nodes[r.nodes["role"] == "station"].iloc[0]
    frames = 4 if rts else 2
    assert 1 - sta["successes"] / sta["attempts"] == pytest.approx(1 - p**frames, abs=0.02)
    data_sent = sta["attempts"] * (p**2 if rts else 1)
    assert sta["frame_errors"] / data_sent == pytest.approx(1 - p, abs=0.02)
    # A packet is delivered once: when it was acknowledged, or when its data frame
    # arrived but every ACK was lost until the retry limit, which the MAC counts as a
    # retry drop and the flow does not (the receiver has it). Up to the few packets that
    # straddle the end of the warm-up.
    f = r.flows.iloc[0]
    delivered_unacked = sta["retry_drops"] - f["dropped_retry"]
    assert delivered_unacked > 0
    assert abs(f["delivered_packets"] - (sta["successes"] + delivered_unacked)) <= 3


def test_propagation_needs_positions_and_valid_parameters():
    s = cell(50.0)
    del s["stations"][0]["position"]
    with pytest.raises(wlansim.ScenarioError, match=r"stations\.sta\.position"):
        wlansim.run(s)
    with pytest.raises(wlansim.ScenarioError, match="sigma_db"):
        wlansim.run(cell(50.0, sigma_db=-1))
    with pytest.raises(wlansim.ScenarioError, match="frequency_mhz"):
        wlansim.run(cell(50.0, frequency_mhz=0))


def test_reception_at_ten_distances_and_the_sharp_edge_without_shadowing():
    """Issue acceptance: at 10 distances the measured reception ratio of data frames is
    within 2 % (absolute) of Q((Pr(d) - RXThresh)/sigma) over about 10^4 attempts each;
    with sigma = 0 the range ends sharply where the mean power meets the threshold."""
    model = Shadowing(path_loss_exponent=2.7)
    for d in range(60, 160, 10):
        s = cell(float(d), path_loss_exponent=2.7, control_frames=False)
        s["duration"] = "40 s"
        sta = wlansim.run(s, seed=5).nodes.set_index("name").loc["sta-0"]
        assert sta["attempts"] > 10_000
        received = sta["successes"] / sta["attempts"]
        assert received == pytest.approx(float(model.reception_probability(d)), abs=0.02), d
    flat = Shadowing(path_loss_exponent=2.7, sigma_db=0)
    edge = flat.reference_distance_m * 10 ** (
        (flat.mean_power_db(flat.reference_distance_m) - 10 * math.log10(flat.rx_threshold_w))
        / (10 * 2.7)
    )
    assert edge == pytest.approx(131.5, abs=0.5)  # the notes' median receive range
    for d, delivered in ((0.98 * edge, True), (1.02 * edge, False)):
        r = wlansim.run(cell(d, path_loss_exponent=2.7, sigma_db=0), seed=1)
        sta = r.nodes.set_index("name").loc["sta-0"]
        assert (sta["successes"] == sta["attempts"]) if delivered else (sta["successes"] == 0)


def test_nodes_beyond_carrier_sense_range_run_on_the_spatial_medium():
    """Two nodes farther apart than the distance at which the mean power reaches CSThresh
    (423 m with beta = 2.7) do not sense each other: the run uses the spatial medium
    (carrier sense per node); within it, and on the way there, the shared one. A
    carrier-sense threshold above the receive threshold is refused."""

    def medium(s: dict) -> str:
        return wlansim.run(dict(s, duration="1 s"), seed=1).meta["medium"]

    assert medium(cell(500.0, path_loss_exponent=2.7)) == "spatial"
    assert medium(cell(400.0, path_loss_exponent=2.7)) == "shared"
    walker = cell(100.0, path_loss_exponent=2.7)
    walker["stations"][0]["mobility"] = {"speed": "4 m/s", "waypoints": [[450, 0]]}
    assert medium(walker) == "spatial"
    with pytest.raises(wlansim.ScenarioError, match="cs_threshold_w"):
        wlansim.run(cell(50.0, cs_threshold_w=1e-9))
