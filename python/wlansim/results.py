"""The results of one run: pandas tables plus scalar metrics for campaigns."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd


class Results:
    """Results of `wlansim.run`.

    - `flows`: one row per flow (offered/delivered packets and bytes, drops by cause,
      throughput_bps, delay_mean_s, delay_p95_s) over the measurement window.
    - `nodes`: one row per node (attempts, successes, collisions, retries, retry_drops,
      queue_drops, collision_probability).
    - `meta`: events, sim_time_s, warmup_s, measured_s, wall_s, seed, version.
    - `metrics`: scalar summary used by campaigns.
    """

    def __init__(self, data: dict[str, Any], scenario: dict[str, Any] | None = None):
        self._data = data
        self.scenario = scenario
        self.flows = pd.DataFrame(data["flows"])
        self.nodes = pd.DataFrame(data["nodes"])
        self.meta: dict[str, Any] = dict(data["meta"])
        self.series: dict[str, dict[str, list]] = dict(data.get("series", {}))

    @classmethod
    def from_json(cls, text: str, scenario: dict[str, Any] | None = None) -> Results:
        return cls(json.loads(text), scenario)

    @property
    def metrics(self) -> dict[str, float]:
        """Scalar metrics: total, uplink and downlink throughput (b/s), attempt-weighted
        collision probability, packet-weighted mean delay (s), Jain's index over flow
        throughputs, delivered and dropped packets, events, wall time."""
        from wlansim.models.fairness import jain_index

        f, n = self.flows, self.nodes
        out: dict[str, float] = {}
        if len(f):
            thr = f["throughput_bps"]
            out["throughput_bps"] = float(thr.sum())
            for direction in ("uplink", "downlink"):
                out[f"{direction}_throughput_bps"] = float(thr[f["direction"] == direction].sum())
            delivered = f["delivered_packets"]
            delays = f["delay_mean_s"].astype(float)
            ok = delivered > 0
            out["delay_mean_s"] = (
                float(np.average(delays[ok], weights=delivered[ok])) if ok.any() else float("nan")
            )
            out["jain_index"] = jain_index(thr) if thr.sum() > 0 else float("nan")
            out["delivered_packets"] = float(delivered.sum())
            out["dropped_packets"] = float((f["dropped_queue"] + f["dropped_retry"]).sum())
        attempts = n["attempts"].sum()
        out["collision_probability"] = (
            float(n["collisions"].sum() / attempts) if attempts else float("nan")
        )
        out["events"] = float(self.meta["events"])
        out["wall_s"] = float(self.meta["wall_s"])
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: flows, nodes, meta, metrics, series."""
        return {
            "flows": self._data["flows"],
            "nodes": self._data["nodes"],
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
