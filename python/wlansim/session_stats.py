"""Mean session delay of the on/off (HTTP-like) workload, with its confidence interval.

Method: batch means. The finished sessions of one run, in order of their start, are cut
into ``batches`` (10) equal batches; the interval is the Student t interval over the batch
means (:func:`wlansim.campaign.stats.t_interval`). Sessions of one station are correlated
(they share the channel and the queue state), and batches of consecutive sessions absorb
most of that correlation, where a t interval over single sessions would be too narrow.
With fewer than ``2 · batches`` sessions the half-width is NaN. Across seeds, use a
campaign (independent replications) instead.

Mean delay by size class: *mice* are files below ``mice_bytes`` (default 100 kB; the
paper names mice and elephants without a threshold), *elephants* the rest.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence
    from typing import Any

MICE_BYTES = 100_000
BATCHES = 10


def session_delay_summary(
    sessions: Sequence[dict[str, Any]],
    unfinished: Sequence[tuple[str, int]] = (),
    mice_bytes: int = MICE_BYTES,
    batches: int = BATCHES,
) -> dict[str, float]:
    """``session_delay_mean_s``, ``session_delay_ci95_s`` (half-width, batch means),
    ``session_setup_mean_s``, ``session_delay_mice_s``, ``session_delay_elephants_s``,
    ``sessions`` (finished) and ``sessions_unfinished`` (still running or never started
    when the run ended: counted, never dropped)."""
    from wlansim.campaign.stats import t_interval

    rows = sorted(sessions, key=lambda s: s["start_s"])
    delays = [s["delay_s"] for s in rows]
    out: dict[str, float] = {
        "sessions": float(len(rows)),
        "sessions_unfinished": float(sum(n for _, n in unfinished)),
    }
    if not rows:
        return out
    out["session_delay_mean_s"] = sum(delays) / len(delays)
    size = len(delays) // batches
    if size >= 2:
        means = [sum(delays[k * size : (k + 1) * size]) / size for k in range(batches)]
        out["session_delay_ci95_s"] = t_interval(means)["half_width"]
    else:
        out["session_delay_ci95_s"] = math.nan
    out["session_setup_mean_s"] = sum(s["setup_s"] for s in rows) / len(rows)
    for name, members in (
        ("mice", [s["delay_s"] for s in rows if s["bytes"] < mice_bytes]),
        ("elephants", [s["delay_s"] for s in rows if s["bytes"] >= mice_bytes]),
    ):
        out[f"session_delay_{name}_s"] = sum(members) / len(members) if members else math.nan
    return out
