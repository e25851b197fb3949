"""The benchmark suite behind `wlansim bench`: fixed scenarios, timed event loops.

Each case reports wall time of the simulator's event loop (best of `repeat` runs), events
processed, events per second and simulated seconds per wall-clock second. Numbers are
reported, never asserted.
"""

from __future__ import annotations

from wlansim.api import run
from wlansim.validation import saturated_cell


def tcp_up_down(n: int, duration: str) -> dict:
    """`n` TCP uploads and `n` TCP downloads through an 802.11b AP (B = 100) to one wired
    server, pilosof2003's TCP settings (ns-2 profile, 1024-byte segments, rwnd 42)."""
    flow = {"protocol": "tcp", "server": "srv"}
    return {
        "name": f"tcp-{n}up-{n}down",
        "duration": duration,
        "warmup": "1 s",
        "phy": {"standard": "802.11b"},
        "ap": {"queue": 100},
        "tcp": {"profile": "ns2-compat", "mss": 1024, "rwnd": 42, "delayed_ack": 1},
        "stations": [{"name": "up", "count": n}, {"name": "down", "count": n}],
        "servers": [{"name": "srv"}],
        "flows": [
            {"name": "upload", "direction": "uplink", "stations": "up", **flow},
            {"name": "download", "direction": "downlink", "stations": "down", **flow},
        ],
    }


def cases() -> dict[str, dict]:
    """Benchmark name → scenario."""
    return {
        "dcf-saturated-20sta-100s": saturated_cell(20, "basic", duration="100 s"),
        "dcf-saturated-50sta-100s": saturated_cell(50, "basic", duration="100 s"),
        "dcf-rts-20sta-100s": saturated_cell(20, "rts", duration="100 s"),
        "tcp-12up-12down-100s": tcp_up_down(12, "100 s"),
    }


def run_benchmarks(repeat: int = 3, only: str | None = None) -> list[dict]:
    results = []
    for name, scenario in cases().items():
        if only and only not in name:
            continue
        best = None
        for _ in range(repeat):
            r = run(scenario, seed=1)
            if best is None or r.meta["wall_s"] < best.meta["wall_s"]:
                best = r
        wall, events, sim_s = best.meta["wall_s"], best.meta["events"], best.meta["sim_time_s"]
        results.append(
            {
                "name": name,
                "wall_s": wall,
                "events": events,
                "events_per_s": events / wall,
                "sim_s_per_wall_s": sim_s / wall,
                "sim_s": sim_s,
            }
        )
    return results
