"""Moving stations: where the model puts them over time, and their losses as they walk
away from their AP under ns-2's shadowing."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import wlansim
import wlansim.scenario
from wlansim.errors import ScenarioError
from wlansim.models.shadowing import Shadowing

WALKER = Path(__file__).resolve().parents[1] / "scenarios" / "moving-station.toml"


def walker_x(t: float) -> float:
    """The example's station: at 50 m until 5 s, then 4 m/s away to 150 m."""
    return min(150.0, 50.0 + 4.0 * max(0.0, t - 5.0))


def test_a_moving_station_is_where_the_model_says_and_loses_more_as_it_leaves():
    r = wlansim.run(WALKER, seed=2)
    pos = r.series["position"]
    t = np.array(pos["t_s"])
    assert list(t) == list(range(2, 40))
    assert pos["walker-0.x"] == pytest.approx([walker_x(x) for x in t], abs=1e-9)
    assert pos["walker-0.y"] == pytest.approx([0.0] * len(t))
    assert set(pos["ap.x"]) == {0.0}
    # Each second's share of failed attempts (the data frame or its ACK lost: 1 - p^2)
    # against the closed form averaged over the distances the station went through in
    # that second: within 4 binomial standard errors (about 140 attempts a second) + 0.01.
    model = Shadowing(path_loss_exponent=2.7)
    fer = np.array(r.series["frame_error_ratio"]["walker-0"])
    for end, measured in zip(t, fer):
        d = [walker_x(end - 1 + k / 20) for k in range(21)]
        expected = float(np.mean(1 - model.reception_probability(d) ** 2))
        se = (expected * (1 - expected) / 140) ** 0.5
        assert abs(measured - expected) < 4 * se + 0.01, (end, measured, expected)
    assert fer[:4].mean() < 0.02 and fer[-5:].mean() > 0.8
    # The AP's frames towards the station are MAC ACKs only: it sends no data frames.
    assert set(r.series["frame_error_ratio"]["ap"]) == {None}  # NaN: null in JSON


def test_mobility_errors_name_the_key():
    base = wlansim.scenario.load(WALKER)
    for change, key in (
        ({"waypoints": []}, "stations.walker.mobility.waypoints`: []: at least one"),
        ({"speed": "0 m/s"}, 'mobility.speed`: "0 m/s" is out of range'),
        ({"speed": 4}, "mobility.speed`: 4 has no unit"),
        ({"waypoints": [[1, float("inf")]]}, "mobility.waypoints[0][1]`: Infinity"),
    ):
        group = base["stations"][0]
        moved = {**group, "mobility": {**group["mobility"], **change}}
        bad = {**base, "stations": [moved]}
        with pytest.raises(ScenarioError, match=re.escape(key)):
            wlansim.run(bad)
    unplaced = {**base, "channel": {}, "stations": [dict(base["stations"][0])]}
    del unplaced["stations"][0]["position"]
    with pytest.raises(ScenarioError, match="stations.walker.position`: missing"):
        wlansim.run(unplaced)
