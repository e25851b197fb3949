"""`wlansim validate capture --quick`: SINR reception beside Bianchi's model with capture.

The figures asserted (n = 20, 20 s, seed 1): RTS/CTS gains about 9.6 % with SINR
reception at equal powers (two colliding 20-byte RTS at 1 Mb/s and 0 dB nearly always
leave one that decodes), basic access gains nothing (1536-byte CCK frames at 0 dB never
decode). The simulator follows both models within 3 %: the same tolerance as `validate
bianchi`, for the same reasons (tests/test_validation_bianchi.py).
"""

from __future__ import annotations

import pandas as pd
import pytest


@pytest.fixture(scope="module")
def table(quick_validation):
    out, printed = quick_validation("capture")
    assert (out / "capture.csv").exists() and (out / "capture.png").exists()
    assert "- capture.rts-gains: holds" in printed
    from wlansim.evidence import claims as cl

    verdicts = {r["id"]: r["verdict"] for r in cl.read_csv(out / "claims.csv")}
    assert verdicts["capture.rts-gains"] == "holds", verdicts
    assert verdicts["capture.basic-unchanged"] != "does not hold", verdicts
    runs = pd.read_csv(out / "capture.csv")
    assert sorted(set(runs["seed"])) == [1, 2, 3]
    return runs.groupby(["access", "reception", "stations"]).mean(numeric_only=True)


def test_rts_cts_gains_from_capture_and_basic_access_does_not(table):
    rts_gain = (
        table.loc[("rts", "sinr-equal", 20), "sim_bps"] / table.loc[("rts", "none", 20), "sim_bps"]
    )
    basic_change = (
        table.loc[("basic", "sinr-equal", 20), "sim_bps"]
        / table.loc[("basic", "none", 20), "sim_bps"]
    )
    assert rts_gain > 1.05
    assert abs(basic_change - 1) < 0.005
    # The model says the same: capture of a 1 Mb/s RTS pair is certain, of CCK data nil.
    assert table.loc[("rts", "sinr-equal", 20), "model_q2"] > 0.999
    assert table.loc[("basic", "sinr-equal", 20), "model_q2"] < 1e-6


@pytest.mark.parametrize("reception", ["none", "sinr-equal"])
def test_the_simulator_follows_the_model_at_equal_powers(table, reception):
    rows = table.xs(reception, level="reception")
    assert rows["error"].abs().max() < 0.03, rows[["sim_bps", "model_bps", "error"]]
    assert (rows["sim_p"] - rows["model_p"]).abs().max() < 0.02


def test_stations_at_random_distances_capture_data_frames_too(table):
    # Unequal powers: the strongest of two colliding 11 Mb/s frames often decodes.
    row = table.loc[("basic", "sinr-distance", 20)]
    assert row["sim_capture_share"] > 0.1
    assert row["sim_bps"] > table.loc[("basic", "none", 20), "sim_bps"] * 1.05
