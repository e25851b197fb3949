"""The public entry point: `wlansim.run`."""

from __future__ import annotations

import sys
import time

from wlansim.errors import ScenarioError
from wlansim.results import Results
from wlansim.scenario import apply_overrides, call_core, load

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Union

    from wlansim.scenario import Overrides, ScenarioLike

    Progress = Union[bool, Callable[[float], object], None]


def __getattr__(name: str) -> object:
    """The type alias `Progress`, built on first use (PEP 562), as `wlansim.scenario`
    builds its aliases."""
    if name != "Progress":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from collections.abc import Callable
    from typing import Union

    globals()["Progress"] = alias = Union[bool, Callable[[float], object], None]
    return alias


class StderrBar:
    """A one-line progress bar on stderr, drawn only once the run is expected to last more
    than `after_s` seconds (short runs print nothing)."""

    def __init__(self, after_s: float = 3.0, stream=None, width: int = 30) -> None:
        self.after_s, self.width = after_s, width
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.shown = False
        self.last_draw = 0.0

    def __call__(self, fraction: float) -> None:
        now = time.monotonic()
        elapsed = now - self.start
        if not self.shown:
            if fraction <= 0 or elapsed / fraction < self.after_s:
                return
            self.shown = True
        elif now - self.last_draw < 0.2:
            return
        self.last_draw = now
        done = round(fraction * self.width)
        left = elapsed / fraction - elapsed if fraction > 0 else 0.0
        self.stream.write(
            f"\r[{'#' * done}{'.' * (self.width - done)}] {fraction * 100:5.1f}% "
            f"{elapsed:6.0f} s elapsed, ~{left:.0f} s left "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def run(
    scenario: ScenarioLike,
    *,
    seed: int | None = None,
    overrides: Overrides = None,
    progress: Progress = None,
) -> Results:
    """Simulate `scenario` (path, TOML text or dict) and return its `Results`.

    `overrides` sets key paths before the run (``{"stations.sta.count": 10}`` or
    ``["ap.queue=20"]``); `seed` replaces the scenario's seed. Same scenario and seed give
    identical results (except `meta["wall_s"]`). `progress=True` draws a bar on stderr when
    the run is expected to take more than a few seconds; a callable gets the fraction of
    simulated time done, every few milliseconds. Ctrl-C stops a run (KeyboardInterrupt).
    """
    from wlansim import _core

    data = apply_overrides(load(scenario), overrides)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise ScenarioError(f"seed {seed!r}: a non-negative integer is required")
    bar = StderrBar() if progress is True else None
    callback = bar if bar is not None else (progress or None)
    try:
        return Results(call_core(_core.run, data, seed, callback), data)
    finally:
        if bar is not None:
            bar.close()
