"""Simulator vs Bianchi's saturation model (issue acceptance).

Where they differ systematically, and why:
- Collision time. Bianchi's T_c = H + P + DIFS + δ. The simulator follows 802.11: a station
  that saw a collision defers EIFS (SIFS + ACK at 1 Mb/s + DIFS), the colliding senders
  ACKTimeout + DIFS (9.3.7, 9.3.2.8). The model used here (collision="standard") takes the
  EIFS time, which is what every non-colliding station waits; with Bianchi's original T_c
  the model overestimates throughput by up to ~6 % at n = 50 (shown in `wlansim validate
  bianchi`, column model_bianchi_tc_bps).
- The colliding senders resume about 90 µs (4–5 slots) before the others; with their
  doubled CW this barely matters, but it is one reason the measured p sits up to ~0.016
  below the model's at n = 50, the other being the model's assumption of a constant,
  independent collision probability (known to overestimate p for large n).
Both effects stay inside the issue's tolerances: 3 % on throughput, 0.02 on p.
"""

from __future__ import annotations

import pytest

from wlansim.evidence.validations.bianchi import compare_bianchi

STATIONS = (1, 2, 5, 10, 20, 50)


@pytest.fixture(scope="module")
def runs():
    # 5 seeds of 100 s per point: the standard error of the throughput is under 0.5 %.
    return compare_bianchi(STATIONS, ("basic", "rts"), duration="100 s", seeds=range(11, 16))


@pytest.fixture(scope="module")
def table(runs):
    return runs.groupby(["access", "stations"], sort=False).mean(numeric_only=True).reset_index()


def test_the_checks_hold_as_claims_decided_over_the_seeds(runs):
    from wlansim.evidence import claims as cl
    from wlansim.evidence.validations.bianchi import CLAIMS

    verdicts = cl.decide_all(CLAIMS, {"bianchi": runs})
    assert {v.claim.id: v.verdict for v in verdicts} == {v.claim.id: "holds" for v in verdicts}


@pytest.mark.parametrize("access", ["basic", "rts"])
def test_throughput_within_3_percent(table, access):
    rows = table[table["access"] == access]
    assert len(rows) == len(STATIONS)
    worst = rows["error"].abs().max()
    assert worst < 0.03, rows[["stations", "sim_bps", "model_bps", "error"]]


@pytest.mark.parametrize("access", ["basic", "rts"])
def test_collision_probability_within_002(table, access):
    rows = table[table["access"] == access]
    assert (rows["sim_p"] - rows["model_p"]).abs().max() < 0.02
    assert rows.loc[rows["stations"] == 1, "sim_p"].item() == 0


def test_rts_costs_throughput_at_few_stations_and_scales_better(table):
    basic = table[table["access"] == "basic"].set_index("stations")["sim_bps"]
    rts = table[table["access"] == "rts"].set_index("stations")["sim_bps"]
    assert basic[1] > rts[1]
    assert basic[50] / basic[5] < rts[50] / rts[5]
