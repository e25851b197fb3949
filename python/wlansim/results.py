"""The results of one run: pandas tables plus scalar metrics for campaigns."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd


class Results:
    """Results of `wlansim.run`.

    - `flows`: one row per flow (offered/delivered packets and bytes, drops by cause,
      throughput_bps, delay_mean_s, delay_p95_s) over the measurement window.
    - `nodes`: one row per node (attempts, successes, collisions, retries, retry_drops,
      queue_drops, internal_collisions, burst_exchanges, frame_errors,
      collision_probability); a QoS node's row sums its access categories.
    - `access_categories`: one row per access category of each QoS node (node, ac and the
      same counters); empty without EDCA.
    - `meta`: events, sim_time_s, warmup_s, measured_s, wall_s, seed, version.
    - `metrics`: scalar summary used by campaigns.
    """

    def __init__(self, data: dict[str, Any], scenario: dict[str, Any] | None = None):
        self._data = data
        self.scenario = scenario
        self.flows = pd.DataFrame(data["flows"])
        self.nodes = pd.DataFrame(data["nodes"])
        self.access_categories = pd.DataFrame(data.get("access_categories", []))
        self.meta: dict[str, Any] = dict(data["meta"])
        self.series: dict[str, dict[str, list]] = dict(data.get("series", {}))
        self._metrics: dict[str, float] | None = None

    @property
    def metrics(self) -> dict[str, float]:
        """Scalar metrics (deterministic for a scenario and seed): total, uplink and
        downlink throughput (b/s), attempt-weighted collision probability, packet-weighted
        mean delay (s), Jain's index over flow throughputs, delivered and dropped packets,
        events. Computed from the raw records (no pandas), once."""
        if self._metrics is None:
            self._metrics = _metrics(self._data)
        return self._metrics

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: flows, nodes, meta, metrics, series."""
        return {
            "flows": self._data["flows"],
            "nodes": self._data["nodes"],
            "access_categories": self._data.get("access_categories", []),
            "meta": self.meta,
            "metrics": self.metrics,
            "series": self.series,
        }

    def __repr__(self) -> str:
        m = self.metrics
        return (
            f"<wlansim.Results {len(self.flows)} flows, {len(self.nodes)} nodes, "
            f"{m.get('throughput_bps', 0) / 1e6:.3f} Mb/s, {self.meta['events']} events>"
        )


def _metrics(data: dict[str, Any]) -> dict[str, float]:
    from wlansim.models.fairness import jain_index

    flows, nodes = data["flows"], data["nodes"]
    out: dict[str, float] = {}
    if flows:
        thr = [f["throughput_bps"] for f in flows]
        out["throughput_bps"] = float(sum(thr))
        for direction in ("uplink", "downlink"):
            out[f"{direction}_throughput_bps"] = float(
                sum(f["throughput_bps"] for f in flows if f["direction"] == direction)
            )
        delivered = sum(f["delivered_packets"] for f in flows)
        delay_sum = sum(
            f["delay_mean_s"] * f["delivered_packets"] for f in flows if f["delivered_packets"]
        )
        out["delay_mean_s"] = delay_sum / delivered if delivered else math.nan
        out["jain_index"] = jain_index(thr) if sum(thr) > 0 else math.nan
        out["delivered_packets"] = float(delivered)
        out["dropped_packets"] = float(sum(f["dropped_queue"] + f["dropped_retry"] for f in flows))
    attempts = sum(n["attempts"] for n in nodes)
    collisions = sum(n["collisions"] for n in nodes)
    out["collision_probability"] = collisions / attempts if attempts else math.nan
    out["events"] = float(data["meta"]["events"])
    return out
