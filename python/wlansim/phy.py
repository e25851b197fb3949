"""PHY timing as the simulator computes it, for the analytical models.

`timing()` asks the Rust core, so models and simulator share one definition of every
interframe space and frame duration.
"""

from __future__ import annotations

from wlansim.errors import ScenarioError
from wlansim.scenario import call_core

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Mapping
    from typing import Any, Union

    PhyLike = Union[str, Mapping[str, Any], None]

#: the default UDP payload of models and validations (bytes): the largest in one
#: 1500-byte IP packet, the simulator's default `packet_size`
UDP_PAYLOAD_BYTES = 1472


def timing(
    phy: PhyLike = "802.11b", payload_bytes: int = UDP_PAYLOAD_BYTES, mac: dict | None = None
) -> dict:
    """Timing of a PHY preset name ("802.11b", "802.11a", "802.11g", "802.11n",
    "802.11ac") or a `[phy]` table (e.g. ``{"standard": "802.11ac", "channel_width": 40}``).

    Returns times in seconds (slot_s, sifs_s, difs_s, eifs_s, ack_timeout_s,
    cts_timeout_s, propagation_delay_s, data_frame_s for one UDP packet of `payload_bytes`,
    ack_s, rts_s, cts_s), cw_min, cw_max, data_rate_bps (of an 802.11n/ac MCS: its exact
    rate), control_rate_bps (the RTS's), payload_bits. The frames are those of a station
    of a BSS with the default rate keys: control frames at `control_rate` (802.11a/b/g),
    or by the standard's response rule with the mandatory basic rates 6, 12 and 24 Mb/s
    (802.11n/ac: e.g. the ACK of an MCS 7 frame at 24 Mb/s).

    `mac`: a `[mac]` table; with `ampdu_max_bytes` (and `ba_window`) or `amsdu_max_bytes`
    the result also holds the saturated A-MPDU of such packets (no TXOP limit):
    ampdu_mpdus (1 with A-MSDU alone), ampdu_frame_s (its PPDU) and block_ack_s (the
    compressed BlockAck; the ACK of an MPDU sent alone); with `amsdu_max_bytes`,
    amsdu_msdus (the packets in each of its MPDUs).
    """
    from wlansim import _core

    table = {"standard": phy} if isinstance(phy, str) else dict(phy or {"standard": "802.11b"})
    if not isinstance(payload_bytes, int) or payload_bytes < 1:
        raise ScenarioError(f"payload_bytes {payload_bytes!r}: a positive integer is required")
    wrapper = {"duration": "1 s", "phy": table, "stations": [{"name": "sta"}]}
    if mac is not None:
        wrapper["mac"] = dict(mac)
    return call_core(_core.phy_timing, wrapper, payload_bytes)
