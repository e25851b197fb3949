"""The results of one run: pandas tables plus scalar metrics for campaigns.

pandas is imported when a table is first read (not by ``import wlansim``), so that the
command line and campaign workers start fast.
"""

from __future__ import annotations

import math

from wlansim.session_stats import MICE_BYTES, session_delay_summary

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    import pandas as pd


class Results:
    """Results of `wlansim.run`.

    - `flows`: one row per flow (protocol, direction, src, dst, offered/delivered packets
      and bytes, drops by cause, throughput_bps, delay_mean_s, delay_p95_s, jitter_s) over the
      measurement window; TCP flows add goodput_bps, rtt_mean_s, retransmissions,
      fast_retransmits, timeouts, spurious_timeouts, acks_sent, cwnd_bytes (NaN for UDP).
      A TCP flow's packet counters count its data segments, sent by `src`; its ACKs travel
      the other way and are not in `offered`/`delivered`, but an ACK the AP's queue drops
      is counted in the flow's `dropped_queue` (an upload's `dropped_queue` is then mostly
      ACKs dropped at the AP, see `nodes.queue_drops_ack`). `delivered_packets` counts
      segments that reached the receiver, retransmitted copies included, so it can exceed
      `offered_packets`.
    - `nodes`: one row per wireless node (attempts, successes, collisions, retries,
      retry_drops, queue_drops, lifetime_drops (frames discarded when their
      `mac.msdu_lifetime` passed), frames_data/frames_ack delivered by kind,
      queue_drops_data/queue_drops_ack, internal_collisions, burst_exchanges, frame_errors,
      control_errors (RTS, CTS or ACK lost to shadowing), captures (exchanges received
      out of a collision under SINR reception), hidden_collisions (collisions with a
      frame of another slot, arriving more than the propagation delay apart: a hidden
      terminal), addba_sent (A-MPDU runs: ADDBA Requests and Responses sent, each
      attempt, setting the Block Ack agreements up), bars_sent (BlockAckReqs after a
      missed BlockAck, each attempt), mpdus_sent (MPDUs of the data frames sent under
      aggregation, each attempt),
      collision_probability, channel, cs_busy_s (time its carrier sense was busy, own
      transmissions included), nav_deferrals (frames whose NAV made it defer beyond what
      it sensed), mean_data_rate_bps (with `mac.rate_control`: the mean rate of the
      attempts it sent on its adapted links; absent or NaN elsewhere)); a QoS node's row
      sums its access categories.
    - `access_categories`: one row per access category of each QoS node (node, ac and the
      same counters); empty without EDCA.
    - `packets`, `packet_hops`: on request (`[output] packets = true` or a list of flow
      names), one row per packet whose fate fell in the measurement window (flow,
      direction, seq, sizes, created_s, delivered_s, delay_s, dropped and dropped_at, hops,
      attempts) and one row per hop (node, enqueued_s, tx_start_s of the last attempt,
      attempts, received_s at the next node); `jitter()` summarises them per flow.
    - `sessions`: one row per finished file of the flows that send `files` (station,
      flow, file, bytes, start_s, end_s, delay_s: request to last byte acknowledged,
      setup included; new_connection, setup_s, timeouts); `unfinished_sessions`: per such
      flow, the files not finished when the run ended. `session_summary()` gives the mean
      session delay with its 95 % CI (batch means, :mod:`wlansim.session_stats`).
    - `bss`: one row per BSS (ap, ssid, stations, uplink_bps and downlink_bps: the useful
      rate of the flows leaving / reaching its stations, and its nodes' MAC counters).
    - `meta`: events, sim_time_s, warmup_s, measured_s, wall_s, seed, version, build (the
      core's build: 16 hex digits of a digest of its sources, ``wlansim._core.BUILD``),
      medium ("shared": one collision domain; "spatial": carrier sense, NAV and reception
      per node).
    - `metrics`: scalar summary used by campaigns.

    The tables are built on first access (pandas is imported then).
    """

    def __init__(self, data: dict[str, Any], scenario: dict[str, Any] | None = None):
        self._data = data
        self.scenario = scenario
        self.meta: dict[str, Any] = dict(data["meta"])
        self.series: dict[str, dict[str, list]] = dict(data.get("series", {}))
        self._metrics: dict[str, float] | None = None
        self._tables: dict[str, pd.DataFrame] = {}

    def _table(self, name: str) -> pd.DataFrame:
        if name not in self._tables:
            import pandas as pd

            self._tables[name] = pd.DataFrame(self._data.get(name, []))
        return self._tables[name]

    @property
    def flows(self) -> pd.DataFrame:
        """One row per flow (see the class docstring)."""
        return self._table("flows")

    @property
    def nodes(self) -> pd.DataFrame:
        """One row per wireless node (see the class docstring)."""
        return self._table("nodes")

    @property
    def access_categories(self) -> pd.DataFrame:
        """One row per access category of each QoS node; empty without EDCA."""
        return self._table("access_categories")

    @property
    def bss(self) -> pd.DataFrame:
        """One row per BSS (see the class docstring)."""
        return self._table("bss")

    @property
    def packets(self) -> pd.DataFrame:
        """Per-packet records, on request (see the class docstring)."""
        return self._table("packets")

    @property
    def packet_hops(self) -> pd.DataFrame:
        """One row per hop of each recorded packet."""
        return self._table("packet_hops")

    @property
    def sessions(self) -> pd.DataFrame:
        """One row per finished file of the flows that send files."""
        return self._table("sessions")

    @property
    def unfinished_sessions(self) -> dict[str, int]:
        """Per flow that sends files: the files not finished when the run ended."""
        return dict(self._data.get("unfinished_sessions", []))

    def session_summary(self, mice_bytes: int = MICE_BYTES) -> dict[str, float]:
        """Mean session delay with its 95 % CI (batch means), mean setup time, mean delay
        of mice (< `mice_bytes`) and elephants, finished and unfinished sessions (see
        :mod:`wlansim.session_stats`)."""
        return session_delay_summary(
            self._data.get("sessions", []),
            self._data.get("unfinished_sessions", []),
            mice_bytes=mice_bytes,
        )

    def jitter(self) -> pd.DataFrame:
        """Per flow and direction, from the per-packet records: delivered packets, mean
        delay, the spread of delays (standard deviation, p95 − p5) and the RFC 3550
        interarrival jitter (§6.4.1: J += (|D| − J)/16 over successive packets in order of
        arrival, D the difference of their transit times), all in seconds."""
        if self.packets.empty:
            raise ValueError("no per-packet records: run with [output] packets = true")
        rows = []
        delivered = self.packets.dropna(subset=["delay_s"]).sort_values("delivered_s")
        for (flow, direction), g in delivered.groupby(["flow", "direction"], sort=False):
            transit = g["delay_s"].to_numpy()
            j = 0.0
            for d in abs(transit[1:] - transit[:-1]):
                j += (d - j) / 16
            rows.append(
                {
                    "flow": flow,
                    "direction": direction,
                    "packets": len(g),
                    "delay_mean_s": transit.mean(),
                    "delay_std_s": transit.std(),
                    "delay_p95_minus_p5_s": g["delay_s"].quantile(0.95)
                    - g["delay_s"].quantile(0.05),
                    "rfc3550_jitter_s": j,
                }
            )
        import pandas as pd

        return pd.DataFrame(rows)

    @property
    def rates(self) -> pd.Series:
        """Per-flow useful rate (b/s): goodput for TCP flows, throughput for UDP ones."""
        f = self.flows
        if "goodput_bps" not in f:
            return f["throughput_bps"]
        return f["goodput_bps"].where(f["protocol"] == "tcp", f["throughput_bps"])

    @property
    def metrics(self) -> dict[str, float]:
        """Scalar metrics (deterministic for a scenario and seed): total, uplink and
        downlink throughput (b/s), attempt-weighted collision probability, packet-weighted
        mean delay (s), Jain's index over flow throughputs, delivered and dropped packets,
        events; with files, the session metrics of `session_summary()`. Computed from the
        raw records (no pandas), once."""
        if self._metrics is None:
            self._metrics = _metrics(self._data)
        return self._metrics

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: flows, nodes, meta, metrics, series."""
        return {
            "flows": self._data["flows"],
            "nodes": self._data["nodes"],
            "access_categories": self._data.get("access_categories", []),
            "bss": self._data.get("bss", []),
            "packets": self._data.get("packets", []),
            "sessions": self._data.get("sessions", []),
            "unfinished_sessions": self._data.get("unfinished_sessions", []),
            "packet_hops": self._data.get("packet_hops", []),
            "meta": self.meta,
            "metrics": self.metrics,
            "series": self.series,
        }

    def __repr__(self) -> str:
        m = self.metrics
        return (
            f"<wlansim.Results {len(self._data['flows'])} flows, "
            f"{len(self._data['nodes'])} nodes, "
            f"{m.get('throughput_bps', 0) / 1e6:.3f} Mb/s, {self.meta['events']} events>"
        )


def useful_rate(flow: dict[str, Any]) -> float:
    """A flow's useful rate (b/s): goodput for TCP, throughput for UDP (and for the real
    TCP flows of an emulation, whose endpoints' state wlansim does not see)."""
    return flow.get("goodput_bps", flow["throughput_bps"])


def _metrics(data: dict[str, Any]) -> dict[str, float]:
    from wlansim.models.fairness import jain_index, up_down_ratio

    flows, nodes = data["flows"], data["nodes"]
    out: dict[str, float] = {}
    if flows:
        out["throughput_bps"] = float(sum(f["throughput_bps"] for f in flows))
        for direction in ("uplink", "downlink"):
            out[f"{direction}_throughput_bps"] = float(
                sum(f["throughput_bps"] for f in flows if f["direction"] == direction)
            )
        rates = [useful_rate(f) for f in flows]
        up = [useful_rate(f) for f in flows if f["direction"] == "uplink"]
        down = [useful_rate(f) for f in flows if f["direction"] == "downlink"]
        if up and down and (sum(up) > 0 or sum(down) > 0):
            out["up_down_ratio"] = up_down_ratio(up, down)
        tcp = [f for f in flows if "goodput_bps" in f]
        if tcp:
            out["goodput_bps"] = float(sum(f["goodput_bps"] for f in tcp))
            for key in ("timeouts", "retransmissions", "fast_retransmits", "spurious_timeouts"):
                out[key] = float(sum(f[key] for f in tcp))
            for direction in ("uplink", "downlink"):
                d = [f for f in tcp if f["direction"] == direction]
                out[f"{direction}_goodput_bps"] = float(sum(f["goodput_bps"] for f in d))
                rtts = [f["rtt_mean_s"] for f in d if f["rtt_mean_s"] is not None]
                out[f"{direction}_rtt_mean_s"] = sum(rtts) / len(rtts) if rtts else math.nan
        delivered = sum(f["delivered_packets"] for f in flows)
        delay_sum = sum(
            f["delay_mean_s"] * f["delivered_packets"]
            for f in flows
            if f["delivered_packets"] and f["delay_mean_s"] is not None
        )
        out["delay_mean_s"] = delay_sum / delivered if delivered else math.nan
        out["jain_index"] = jain_index(rates) if sum(rates) > 0 else math.nan
        out["delivered_packets"] = float(delivered)
        out["dropped_packets"] = float(
            sum(
                f["dropped_queue"]
                + f["dropped_retry"]
                + f.get("dropped_scripted", 0)
                + f.get("dropped_lifetime", 0)
                for f in flows
            )
        )
    for role, members in (
        ("ap", [n for n in nodes if n["role"] == "ap"]),
        ("stations", [n for n in nodes if n["role"] != "ap"]),
    ):
        for key in ("frames_data", "frames_ack", "queue_drops_data", "queue_drops_ack"):
            out[f"{role}_{key}"] = float(sum(n[key] for n in members))
    # fotiadis2005 delay injection, at the APs that have it (any mix of APs)
    delaying = [b for b in data.get("bss", []) if "acks_delayed" in b]
    if delaying:
        for key in ("acks_delayed", "injected_delay_s", "delay_spikes"):
            out[key] = float(sum(b[key] for b in delaying))
    attempts = sum(n["attempts"] for n in nodes)
    collisions = sum(n["collisions"] for n in nodes)
    out["collision_probability"] = collisions / attempts if attempts else math.nan
    out["events"] = float(data["meta"]["events"])
    if data.get("sessions") or data.get("unfinished_sessions"):
        out.update(
            session_delay_summary(data.get("sessions", []), data.get("unfinished_sessions", []))
        )
    return out
