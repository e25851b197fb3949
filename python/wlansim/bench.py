"""The benchmark suite behind `wlansim bench`: fixed scenarios, timed event loops.

Each case reports wall time of the simulator's event loop (best of `repeat` runs), events
processed, events per second and simulated seconds per wall-clock second. Numbers are
reported, never asserted.
"""

from __future__ import annotations

from wlansim.api import run
from wlansim.reproduce.ng2005_tcp import scenario as ng2005_scenario
from wlansim.reproduce.pilosof2003 import scenario as pilosof_scenario
from wlansim.validation import saturated_cell


def cases() -> dict[str, dict]:
    """Benchmark name → scenario."""
    return {
        "dcf-saturated-20sta-100s": saturated_cell(20, "basic", duration="100 s"),
        "dcf-saturated-50sta-100s": saturated_cell(50, "basic", duration="100 s"),
        # Contention cost per event does not grow with the number of stations.
        "dcf-saturated-500sta-100s": saturated_cell(500, "basic", duration="100 s"),
        "dcf-rts-20sta-100s": saturated_cell(20, "rts", duration="100 s"),
        "edca-udp-20sta-100s": edca_udp_cell(20, duration="100 s"),
        # pilosof2003's settings (ns-2 TCP profile, 1024-byte segments, rwnd 42), B = 100.
        "tcp-12up-12down-100s": pilosof_scenario(12, 12, 100, "100 s"),
        # ng2005 Fig 8: 12 TCP uploads with the Table 2 EDCA preset (per-packet classifier).
        "edca-tcp-12up-table2-100s": _without_series(ng2005_scenario("fig8", "100 s")),
    }


def _without_series(scenario: dict) -> dict:
    scenario.pop("output", None)
    return scenario


def edca_udp_cell(n: int, *, duration: str) -> dict:
    """`n` QoS stations, each with a saturated 1472-byte upload (AC_BE) and a 64 kb/s
    160-byte voice flow (AC_VO by size): default EDCA parameters (Table 8-105), so AIFS
    differentiation, internal collisions and AC_VO TXOP bursts all occur."""
    cell = saturated_cell(n, "basic", duration=duration)
    cell["name"] = f"edca-udp-{n}"
    cell["stations"][0]["qos"] = True
    cell["qos"] = {"classifier": [{"ac": "vo", "max_size": "200 B"}]}
    cell["flows"].append(
        {
            "name": "voice",
            "direction": "uplink",
            "stations": "sta",
            "traffic": "cbr",
            "rate": "64 kb/s",
            "packet_size": 160,
        }
    )
    return cell


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
