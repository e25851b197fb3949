"""The public entry point: `wlansim.run`."""

from __future__ import annotations

from wlansim.errors import ScenarioError
from wlansim.results import Results
from wlansim.scenario import Overrides, ScenarioLike, apply_overrides, call_core, load


def run(scenario: ScenarioLike, *, seed: int | None = None, overrides: Overrides = None) -> Results:
    """Simulate `scenario` (path, TOML text or dict) and return its `Results`.

    `overrides` sets key paths before the run (``{"stations.sta.count": 10}`` or
    ``["ap.queue=20"]``); `seed` replaces the scenario's seed. Same scenario and seed give
    identical results (except `meta["wall_s"]`).
    """
    from wlansim import _core

    data = apply_overrides(load(scenario), overrides)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise ScenarioError(f"seed {seed!r}: a non-negative integer is required")
    return Results(call_core(_core.run, data, seed), data)
