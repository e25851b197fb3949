"""Capture: saturated 802.11b cells with reception ``none`` and ``sinr`` beside Bianchi's
model and Bianchi's model with capture (`wlansim validate capture`).

Three receptions per (access, n):

- ``none``: any overlap destroys every frame in it (Bianchi's assumption);
- ``sinr-equal``: SINR reception, every link at the same power (-60 dBm, noise -94 dBm):
  of k colliding frames the AP locks onto one at random and gets it when it decodes at
  SINR = P / ((k - 1) P + N);
- ``sinr-distance``: SINR reception, the stations at random distances from the AP
  (uniform over a disc of ``RADIUS_M``, at least ``MIN_DISTANCE_M``; log-distance path
  loss with exponent 3 from Friis at 1 m, 2.4 GHz, 20 dBm, no shadowing): the strongest
  of colliding frames is locked.

Models: Bianchi (`models.bianchi`) for ``none``; Bianchi with a capture probability
(`models.capture`: q_k, the probability that one of k colliding first frames gets
through) for the two SINR cases, with the same powers as the simulated cell. Basic access
collides 1536-byte frames at 11 Mb/s, which no equal-power SINR decodes; RTS/CTS collides
20-byte RTS at 1 Mb/s, which nearly always decode: capture matters there.

As a validation (:mod:`wlansim.evidence.validation`): :data:`CLAIMS` decided on the table
``capture`` of :func:`run`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from wlansim.api import run as run_scenario
from wlansim.evidence.claims import Claim, Compare, Every, NotRun, Sample, Within
from wlansim.evidence.validation import at_least, in_seconds, seconds_text
from wlansim.evidence.validations.bianchi import check_times, in_mbps, saturated_cell
from wlansim.models import bianchi, capture
from wlansim.models.shadowing import Shadowing
from wlansim.phy import UDP_PAYLOAD_BYTES, timing

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

TITLE = "SINR reception and capture beside Bianchi's model with a capture probability"
PROFILE = "standard"
NO_NS2 = "this validation sets wlansim beside Bianchi's model with capture, not beside ns-2.35"
JSON_TABLE = "capture"

RECEPTIONS = ("none", "sinr-equal", "sinr-distance")
RX_POWER_DBM = -60.0
NOISE_DBM = -94.0
RADIUS_M = 60.0
MIN_DISTANCE_M = 2.0
#: Friis at 1 m, 2.4 GHz, 20 dBm; exponent 3 (indoor); no shadowing draw.
PROPAGATION = {
    "model": "shadowing",
    "tx_power_w": 0.1,
    "frequency_mhz": 2400.0,
    "path_loss_exponent": 3.0,
    "sigma_db": 0.0,
    "rx_threshold_w": 1e-18,
    "cs_threshold_w": 1e-18,
    "control_frames": False,
}


def distances(n: int, seed: int) -> np.ndarray:
    """`n` distances (m) uniform over the disc of RADIUS_M, none nearer than
    MIN_DISTANCE_M."""
    rng = np.random.default_rng(seed)
    r = RADIUS_M * np.sqrt(rng.uniform(size=n))
    return np.maximum(r, MIN_DISTANCE_M)


def powers_dbm(d: np.ndarray) -> np.ndarray:
    """Received power (dBm) at the AP of a station `d` metres away."""
    model = Shadowing(
        tx_power_w=PROPAGATION["tx_power_w"],
        frequency_mhz=PROPAGATION["frequency_mhz"],
        path_loss_exponent=PROPAGATION["path_loss_exponent"],
        sigma_db=0.0,
    )
    return model.mean_power_db(d) + 30.0


def cell(n: int, access: str, reception: str, *, duration: str, seed: int) -> dict:
    """A saturated cell of `n` stations with `reception` (one of RECEPTIONS); stations at
    random distances stand in groups of one."""
    s = saturated_cell(n, access, duration=duration)
    s["phy"]["control_rate"] = "1 Mb/s"
    if reception == "none":
        return s
    s["channel"] = {"reception": {"model": "sinr", "rx_power_dbm": RX_POWER_DBM,
                                  "noise_floor_dbm": NOISE_DBM}}  # fmt: skip
    if reception == "sinr-distance":
        s["ap"] = {"position": [0.0, 0.0]}
        group = s["stations"][0]
        s["stations"] = [
            {**group, "name": f"sta{i}", "count": 1, "position": [float(r), 0.0]}
            for i, r in enumerate(distances(n, seed))
        ]
        s["flows"] = [{**s["flows"][0], "name": f"up{i}", "stations": f"sta{i}"} for i in range(n)]
        s["channel"]["propagation"] = PROPAGATION
    return s


def model_row(n: int, access: str, reception: str, t: dict, seed: int) -> dict:
    if reception == "none":
        return bianchi.saturation(n, t, access=access)
    powers = RX_POWER_DBM if reception == "sinr-equal" else list(powers_dbm(distances(n, seed)))
    return capture.saturation(n, t, access=access, powers_dbm=powers, noise_dbm=NOISE_DBM)


def compare_capture(
    stations: Iterable[int],
    accesses: Iterable[str] = ("basic", "rts"),
    receptions: Iterable[str] = RECEPTIONS,
    *,
    duration: str = "100 s",
    seeds: Sequence[int] = (1,),
) -> pd.DataFrame:
    """One row per (access, reception, n, seed): simulated and modelled throughput,
    collision probability and the share of collisions that ended in a capture (the seed
    also draws the stations' places in ``sinr-distance``)."""
    import pandas as pd

    t = timing("802.11b", UDP_PAYLOAD_BYTES)
    rows = []
    for access, reception, n, seed in itertools.product(accesses, receptions, stations, seeds):
        r = run_scenario(cell(n, access, reception, duration=duration, seed=seed), seed=seed)
        m = r.metrics
        nodes = r.nodes
        captures = int(nodes["captures"].sum())
        collided = int(nodes["collisions"].sum())
        model = model_row(n, access, reception, t, seed)
        rows.append(
            {
                "access": access,
                "reception": reception,
                "stations": n,
                "seed": seed,
                "sim_bps": m["throughput_bps"],
                "model_bps": model["throughput_bps"],
                "error": m["throughput_bps"] / model["throughput_bps"] - 1,
                "sim_p": m["collision_probability"],
                "model_p": model["p"],
                "captures": captures,
                # Of the attempts that overlapped another, the share received.
                "sim_capture_share": captures / max(captures + collided, 1),
                "model_q2": model.get("q2", 0.0),
                "wall_s": r.meta["wall_s"],
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- the validation


#: --quick: n = 5 and 20 (the claims' point), 20 s per run, 3 seeds
QUICK = {"stations": (5, 20), "duration": 20.0, "reps": 3}


@dataclasses.dataclass(frozen=True)
class Plan:
    """The options of ``wlansim validate capture`` (the seed also draws the placements)."""

    quick: bool
    stations: tuple[int, ...]
    duration: float = in_seconds()
    seed: int
    reps: int

    @classmethod
    def of(cls, quick: bool, stations: Sequence[int], duration: float, seed: int,
           reps: int) -> Plan:  # fmt: skip
        """The plan of the command's options; --quick replaces the stations, duration and
        reps with :data:`QUICK`'s; --duration in seconds."""
        if quick:
            stations, duration, reps = QUICK["stations"], QUICK["duration"], QUICK["reps"]
        check_times(duration, 1.0)
        at_least("--reps", reps)
        return cls(quick, tuple(stations), duration, seed, reps)

    def skips(self) -> list[str]:
        if not self.quick:
            return []
        n = " and ".join(map(str, self.stations))
        return [
            f"quick: n = {n} only, {seconds_text(self.duration)} per run, {self.reps} seeds "
            "per point"
        ]


def run(plan: Plan) -> dict[str, pd.DataFrame]:
    """The table ``capture``: one row per (access, reception, n, seed),
    :func:`compare_capture`."""
    seeds = range(plan.seed, plan.seed + plan.reps)
    duration = seconds_text(plan.duration)
    return {"capture": compare_capture(plan.stations, duration=duration, seeds=seeds)}


def show(tables: dict[str, pd.DataFrame], plan: Plan) -> list[str]:
    """The means per (access, reception, n) beside the models."""
    columns = ["access", "reception", "stations", "sim_mbps", "model_mbps", "error_pct",
               "sim_p", "model_p", "sim_capture_share", "model_q2"]  # fmt: skip
    means = tables["capture"].groupby(["access", "reception", "stations"], sort=False)
    shown = in_mbps(means.mean(numeric_only=True).reset_index())[columns]
    return [
        f"Saturated 802.11b cells (11 Mb/s data, 1 Mb/s control, 1500-byte IP packets, "
        f"unlimited retries), {seconds_text(plan.duration)} per run, means of {plan.reps} runs. "
        "reception "
        "none: any overlap destroys every frame; sinr-equal: every link at -60 dBm, noise "
        "-94 dBm; sinr-distance: stations at random distances (exponent 3). "
        "sim_capture_share: attempts received out of those that overlapped another; "
        "model_q2: probability that one of two colliding first frames gets through.",
        shown.to_string(index=False, float_format=lambda v: f"{v:.4f}"),
    ]


def plot(tables: dict[str, pd.DataFrame], out: Path, plan: Plan) -> list[Path]:
    """capture.png: throughput vs stations per access, simulation markers, model lines,
    one colour per reception."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = tables["capture"]
    accesses = list(dict.fromkeys(table["access"]))
    table = (
        table.groupby(["access", "reception", "stations"], sort=False)
        .mean(numeric_only=True)
        .reset_index()
    )
    fig, axes = plt.subplots(1, len(accesses), figsize=(6 * len(accesses), 4), squeeze=False)
    for ax, access in zip(axes[0], accesses, strict=True):
        for reception, colour in zip(RECEPTIONS, ("black", "tab:blue", "tab:orange"), strict=True):
            rows = table[(table["access"] == access) & (table["reception"] == reception)]
            if rows.empty:
                continue
            ax.plot(
                rows["stations"], rows["model_bps"] / 1e6, color=colour, label=f"model, {reception}"
            )
            sim = rows["sim_bps"] / 1e6
            ax.plot(rows["stations"], sim, "o", color=colour, label=f"wlansim, {reception}")
        ax.set_title(f"802.11b 11 Mb/s, {'RTS/CTS' if access == 'rts' else 'basic access'}")
        ax.set_xlabel("saturated stations")
        ax.set_ylabel("throughput (Mb/s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    path = Path(out) / "capture.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return [path]


# --------------------------------------------------------------------------- claims


def _rows(runs: pd.DataFrame, access: str, reception: str, n: int | None = None):
    sel = (runs["access"] == access) & (runs["reception"] == reception)
    if n is not None:
        sel &= runs["stations"] == n
    if not sel.any():
        raise NotRun(f"{access}, {reception}" + (f", n = {n}" if n else "") + " was not run")
    return runs[sel]


def _at20(runs, access: str, reception: str):
    return Sample.from_frame(_rows(runs, access, reception, 20), "sim_bps")


def _model_fit(runs, access: str, reception: str):
    rows = _rows(runs, access, reception)
    return {
        int(n): (Sample.from_frame(g, "sim_bps"), Sample.exact_value(float(g["model_bps"].mean())))
        for n, g in rows.groupby("stations")
    }


def _claims() -> list[Claim]:
    """The checks of `wlansim validate capture`, as claim records."""
    fits = [
        Claim(
            f"capture.model-{access}-{reception}", "Bianchi 2000 with capture (q_k)",
            f"{access}, reception {reception}: the simulator follows the model within 3 %",
            Every(Within("simulated throughput", "the model", tol=0.03), "n"),
            lambda t, a=access, r=reception: _model_fit(t["capture"], a, r),
            kind="model vs simulation",
        )
        for access in ("basic", "rts")
        for reception in ("none", "sinr-equal")
    ]  # fmt: skip
    return [
        Claim(
            "capture.rts-gains", "capture of colliding RTS",
            "RTS/CTS at equal powers, n = 20: SINR reception with capture gains more than 5 %",
            Compare("throughput with capture", "without (reception none)", margin=0.05),
            lambda t: (_at20(t["capture"], "rts", "sinr-equal"),
                       _at20(t["capture"], "rts", "none")),
        ),
        Claim(
            "capture.basic-unchanged", "no capture of colliding CCK data",
            "basic access at equal powers, n = 20: SINR reception changes less than 0.5 %",
            Within("throughput with SINR reception", "reception none", tol=0.005),
            lambda t: (_at20(t["capture"], "basic", "sinr-equal"),
                       _at20(t["capture"], "basic", "none")),
        ),
        Claim(
            "capture.distance-data", "capture of the strongest frame",
            "basic access, stations at random distances, n = 20: the strongest colliding data "
            "frame is often received, more than 5 % above reception none",
            Compare("throughput at random distances", "reception none", margin=0.05),
            lambda t: (_at20(t["capture"], "basic", "sinr-distance"),
                       _at20(t["capture"], "basic", "none")),
        ),
        *fits,
    ]  # fmt: skip


CLAIMS = _claims()
