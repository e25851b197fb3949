"""Log-distance shadowing (ns-2's `Propagation/Shadowing`): the closed form, the
`wlansim model shadowing` command, and the simulator's draws against the closed form."""

from __future__ import annotations

import json

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
    """A lone station (no collisions): the share of its data frame attempts that fail is
    the model's loss probability, within 2 % absolute over about 5000 attempts (the
    binomial standard error is below 0.6 %)."""
    r = wlansim.run(cell(distance, path_loss_exponent=2.7), seed=3)
    sta = r.nodes[r.nodes["role"] == "station"].iloc[0]
    lost = 1 - sta["successes"] / sta["attempts"]
    expected = 1 - float(Shadowing(path_loss_exponent=2.7).reception_probability(distance))
    assert sta["attempts"] > 4000
    assert lost == pytest.approx(expected, abs=0.02)


def test_propagation_needs_positions_and_valid_parameters():
    s = cell(50.0)
    del s["stations"][0]["position"]
    with pytest.raises(wlansim.ScenarioError, match=r"stations\.sta\.position"):
        wlansim.run(s)
    with pytest.raises(wlansim.ScenarioError, match="sigma_db"):
        wlansim.run(cell(50.0, sigma_db=-1))
    with pytest.raises(wlansim.ScenarioError, match="frequency_mhz"):
        wlansim.run(cell(50.0, frequency_mhz=0))
