"""The results of one run: pandas tables plus scalar metrics for campaigns."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd


class Results:
    """Results of `wlansim.run`.

    - `flows`: one row per flow (protocol, direction, src, dst, offered/delivered packets
      and bytes, drops by cause, throughput_bps, delay_mean_s, delay_p95_s) over the
      measurement window; TCP flows add goodput_bps, rtt_mean_s, retransmissions,
      fast_retransmits, timeouts, spurious_timeouts, acks_sent, cwnd_bytes (NaN for UDP).
    - `nodes`: one row per wireless node (attempts, successes, collisions, retries,
      retry_drops, queue_drops, frames_data/frames_ack delivered by kind,
      queue_drops_data/queue_drops_ack, collision_probability).
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
    def rates(self) -> pd.Series:
        """Per-flow useful rate (b/s): goodput for TCP flows, throughput for UDP ones."""
        f = self.flows
        if "goodput_bps" not in f:
            return f["throughput_bps"]
        return f["goodput_bps"].where(f["protocol"] == "tcp", f["throughput_bps"])

    @property
    def metrics(self) -> dict[str, float]:
        """Scalar metrics: total, uplink and downlink throughput (b/s), attempt-weighted
        collision probability, packet-weighted mean delay (s), delivered and dropped
        packets, events, wall time; over the per-flow `rates` (goodput for TCP): Jain's
        index, the up/down ratio of mean per-flow rates (pilosof2003) and, with TCP flows,
        goodput_bps, timeouts, retransmissions and per-direction goodput and mean RTT; frames
        delivered and queue drops by kind (data/ACK) of the AP and of the stations."""
        from wlansim.models.fairness import jain_index, up_down_ratio

        f, n = self.flows, self.nodes
        out: dict[str, float] = {}
        if len(f):
            thr = f["throughput_bps"]
            rates = self.rates
            out["throughput_bps"] = float(thr.sum())
            for direction in ("uplink", "downlink"):
                out[f"{direction}_throughput_bps"] = float(thr[f["direction"] == direction].sum())
            up, down = rates[f["direction"] == "uplink"], rates[f["direction"] == "downlink"]
            if len(up) and len(down) and (up.sum() > 0 or down.sum() > 0):
                out["up_down_ratio"] = up_down_ratio(up, down)
            if "goodput_bps" in f:
                tcp = f[f["protocol"] == "tcp"]
                out["goodput_bps"] = float(tcp["goodput_bps"].sum())
                for key in ("timeouts", "retransmissions"):
                    out[key] = float(tcp[key].sum())
                for direction in ("uplink", "downlink"):
                    d = tcp[tcp["direction"] == direction]
                    out[f"{direction}_goodput_bps"] = float(d["goodput_bps"].sum())
                    out[f"{direction}_rtt_mean_s"] = float(d["rtt_mean_s"].astype(float).mean())
            delivered = f["delivered_packets"]
            delays = f["delay_mean_s"].astype(float)
            ok = delivered > 0
            out["delay_mean_s"] = (
                float(np.average(delays[ok], weights=delivered[ok])) if ok.any() else float("nan")
            )
            out["jain_index"] = jain_index(rates) if rates.sum() > 0 else float("nan")
            out["delivered_packets"] = float(delivered.sum())
            out["dropped_packets"] = float((f["dropped_queue"] + f["dropped_retry"]).sum())
        for role, nodes in (("ap", n[n["role"] == "ap"]), ("stations", n[n["role"] != "ap"])):
            for key in ("frames_data", "frames_ack", "queue_drops_data", "queue_drops_ack"):
                out[f"{role}_{key}"] = float(nodes[key].sum())
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
