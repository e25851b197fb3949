"""UDP applications beyond CBR: trace-driven video (frames cut into packets) and game
traffic (sizes and intervals fixed or drawn), with per-flow delay, jitter and counts."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import wlansim
from wlansim.errors import ScenarioError

TRACES = Path(__file__).resolve().parents[1] / "scenarios" / "traces"
SAMPLE = TRACES / "sample-100-frames.txt"


def sample_frames() -> list[tuple[float, int]]:
    """(time in s, size in bytes) of the shipped sample trace, read independently."""
    rows = []
    for line in SAMPLE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            _, t_ms, _, size = line.split()[:4]
            rows.append((float(t_ms) / 1e3, int(size)))
    return rows


def cell(flow: dict, duration: str = "5 s") -> dict:
    """A server behind the AP and one station; per-packet records on."""
    return {
        "name": "apps",
        "duration": duration,
        "warmup": "0 s",
        "phy": {"standard": "802.11b", "data_rate": "11 Mb/s"},
        "stations": [{"name": "n"}],
        "servers": [{"name": "srv", "rate": "100 Mb/s", "delay": "10 ms"}],
        "flows": [{"name": "f", "stations": "n", "server": "srv", **flow}],
        "output": {"packets": True},
    }


def test_trace_frames_are_sent_at_their_times_cut_into_packets():
    frames = sample_frames()
    assert len(frames) == 100
    flow = {"direction": "downlink", "traffic": "trace", "packet_size": "1000 B",
            "start": "1 s", "trace": {"file": str(SAMPLE)}}  # fmt: skip
    r = wlansim.run(cell(flow), seed=1)
    p = r.packets.sort_values("seq")
    # Frame k is sent at start + 40 ms * k as ceil(size / 1000) packets, all full but
    # the last; 4 s of a 4 s trace: every frame once.
    by_time = p.groupby("created_s")["payload_bytes"].apply(list)
    assert len(by_time) == 100
    for (t, size), (created, payloads) in zip(frames, by_time.items()):
        assert created == pytest.approx(1.0 + t, abs=1e-9)
        assert len(payloads) == math.ceil(size / 1000)
        assert sum(payloads) == size and all(x == 1000 for x in payloads[:-1])
    f = r.flows.iloc[0]
    assert f["offered_bytes"] == sum(size for _, size in frames)
    assert f["delivered_packets"] == len(p) and f["jitter_s"] > 0


def test_trace_loops_and_can_start_at_a_random_frame():
    flow = {"direction": "downlink", "traffic": "trace", "packet_size": "1000 B",
            "trace": {"file": str(SAMPLE), "start": "random"}}  # fmt: skip
    r = wlansim.run(cell(flow, duration="8.02 s"), seed=3)
    sizes = [s for _, s in sample_frames()]
    per_frame = r.packets.groupby("created_s")["payload_bytes"].sum().tolist()
    assert len(per_frame) == 201  # two loops and one frame
    first = sizes.index(per_frame[0])
    assert first > 0, "seed 3 starts past the first frame"
    assert per_frame == [sizes[(first + k) % 100] for k in range(201)]
    other = wlansim.run(cell(flow, duration="1 s"), seed=4)
    assert other.packets.groupby("created_s")["payload_bytes"].sum().iloc[0] != per_frame[0]


def test_ns2_binary_and_terse_traces(tmp_path):
    binary = tmp_path / "t.bin"
    records = [(40_000, 1500), (40_000, 200)]
    binary.write_bytes(b"".join(us.to_bytes(4, "big") + b.to_bytes(4, "big") for us, b in records))
    flow = {"direction": "downlink", "traffic": "trace", "packet_size": "1000 B",
            "trace": {"file": str(binary), "format": "ns2"}}  # fmt: skip
    r = wlansim.run(cell(flow, duration="0.1 s"), seed=1)
    assert r.packets.sort_values("seq")["payload_bytes"].tolist() == [1000, 500, 200, 1000, 500]
    terse = tmp_path / "sizes.txt"
    terse.write_text("size\n300\n700\n")
    flow["trace"] = {"file": str(terse), "format": "sizes", "frame_rate": 10}
    r = wlansim.run(cell(flow, duration="0.35 s"), seed=1)
    created = r.packets.sort_values("seq")["created_s"].tolist()
    assert created == pytest.approx([0.0, 0.1, 0.2, 0.3])


def test_trace_errors_name_the_key(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0 0 I 10\n1 x P 20\n")
    for trace, message in (
        ({"file": str(tmp_path / "missing.txt")}, "flows.f.trace.file"),
        ({"file": str(bad)}, "line 2"),
        ({"file": str(SAMPLE), "format": "sizes"}, "flows.f.trace.frame_rate`: missing"),
        ({"file": str(SAMPLE), "frame_rate": 25}, 'only for format = "sizes"'),
    ):
        flow = {"direction": "downlink", "traffic": "trace", "trace": trace}
        with pytest.raises(ScenarioError, match=message):
            wlansim.run(cell(flow))
    with pytest.raises(ScenarioError, match="flows.f.trace`: missing"):
        wlansim.run(cell({"direction": "downlink", "traffic": "trace"}))
    with pytest.raises(ScenarioError, match="sets its own pace"):
        wlansim.run(cell({"direction": "downlink", "traffic": "trace", "rate": "1 Mb/s",
                          "trace": {"file": str(SAMPLE)}}))  # fmt: skip


def test_game_defaults_and_drawn_sizes():
    up = wlansim.run(cell({"direction": "uplink", "traffic": "game"}, duration="6 s"), seed=1)
    p = up.packets.sort_values("seq")
    assert set(p["payload_bytes"]) == {42}
    gaps = p["created_s"].diff().dropna()
    assert gaps.to_numpy() == pytest.approx(0.060, abs=1e-9)
    down = wlansim.run(cell({"direction": "downlink", "traffic": "game"}, duration="6 s"), seed=1)
    f = down.flows.iloc[0]
    assert f["delivered_packets"] == 120 and f["delivered_bytes"] == 120 * 200
    # A lone flow on an idle cell: the wired path (10 ms) plus one radio access (the
    # 192 us PLCP header and the frame at 11 Mb/s, then perhaps DIFS and a backoff of at
    # most 31 slots of 20 us): 10.2 to 11.1 ms, varying only with the backoff.
    assert 0.0102 < f["delay_mean_s"] < 0.0111 and f["jitter_s"] < 0.00062
    game = {"size": {"distribution": "exponential", "mean": "200 B"},
            "interval": {"distribution": "exponential", "mean": "20 ms"}}  # fmt: skip
    drawn = wlansim.run(cell({"direction": "downlink", "traffic": "game", "game": game},
                             duration="60 s"), seed=2)  # fmt: skip
    q = drawn.packets
    assert q["payload_bytes"].mean() == pytest.approx(200, rel=0.05)
    assert q["created_s"].diff().mean() == pytest.approx(0.020, rel=0.05)
    with pytest.raises(ScenarioError, match="flows.f.game.interval.value`: 0 s"):
        fixed_zero = {"interval": {"distribution": "fixed", "value": 0}}
        wlansim.run(cell({"direction": "uplink", "traffic": "game", "game": fixed_zero}))
    with pytest.raises(ScenarioError, match="flows.f.game`: only with traffic"):
        wlansim.run(cell({"direction": "uplink", "traffic": "cbr", "rate": "1 Mb/s",
                          "game": {}}))  # fmt: skip
