"""Simulator against analytical models, in the regime where the models' assumptions hold.

`compare_bianchi` runs saturated 802.11b cells (every station always has a packet, ideal
channel, unlimited retries: Bianchi's assumptions) and sets each beside Bianchi's model
evaluated on the same PHY timing. The model's collision time is the 802.11 one the
simulator follows (a station that did not transmit waits EIFS after a collision); Bianchi's
original T_c = H + P + DIFS is shown too (column `model_bianchi_tc_bps`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from wlansim.api import run
from wlansim.models import bianchi
from wlansim.phy import UDP_PAYLOAD_BYTES, timing

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

RTS_THRESHOLD = {"basic": "off", "rts": 0}


def saturated_cell(
    n: int,
    access: str,
    *,
    phy: str = "802.11b",
    payload_bytes: int = UDP_PAYLOAD_BYTES,
    duration: str,
    warmup: str = "1 s",
) -> dict:
    """A cell of `n` saturated uplink UDP stations under Bianchi's assumptions."""
    return {
        "name": f"saturated-{phy}-{access}-{n}",
        "duration": duration,
        "warmup": warmup,
        "phy": {"standard": phy},
        "mac": {
            "rts_threshold": RTS_THRESHOLD[access],
            "short_retry_limit": "unlimited",
            "long_retry_limit": "unlimited",
        },
        "stations": [{"name": "sta", "count": n}],
        "flows": [
            {
                "name": "up",
                "direction": "uplink",
                "stations": "sta",
                "traffic": "saturated",
                "packet_size": payload_bytes,
            }
        ],
    }


def compare_bianchi(
    stations: Iterable[int],
    accesses: Iterable[str] = ("basic", "rts"),
    *,
    phy: str = "802.11b",
    payload_bytes: int = UDP_PAYLOAD_BYTES,
    duration: str = "100 s",
    seed: int = 1,
    warmup: str = "1 s",
) -> pd.DataFrame:
    """One row per (access, n): simulated and modelled throughput and collision
    probability, relative throughput error, wall time of the run."""
    t = timing(phy, payload_bytes)
    rows = []
    for access in accesses:
        for n in stations:
            r = run(
                saturated_cell(
                    n,
                    access,
                    phy=phy,
                    payload_bytes=payload_bytes,
                    duration=duration,
                    warmup=warmup,
                ),
                seed=seed,
            )
            m = r.metrics
            model = bianchi.saturation(n, t, access=access)
            original = bianchi.saturation(n, t, access=access, collision="bianchi")
            rows.append(
                {
                    "access": access,
                    "stations": n,
                    "sim_bps": m["throughput_bps"],
                    "model_bps": model["throughput_bps"],
                    "error": m["throughput_bps"] / model["throughput_bps"] - 1,
                    "model_bianchi_tc_bps": original["throughput_bps"],
                    "sim_p": m["collision_probability"],
                    "model_p": model["p"],
                    "wall_s": r.meta["wall_s"],
                }
            )
    import pandas as pd

    return pd.DataFrame(rows)


def plot_bianchi(table: pd.DataFrame, path: Path) -> Path:
    """Throughput and collision probability vs stations: simulation markers, model lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_s, ax_p) = plt.subplots(1, 2, figsize=(11, 4.2))
    for access, group in table.groupby("access", sort=False):
        g = group.sort_values("stations")
        (line,) = ax_s.plot(g["stations"], g["model_bps"] / 1e6, label=f"model, {access}")
        ax_s.plot(
            g["stations"],
            g["sim_bps"] / 1e6,
            "o",
            color=line.get_color(),
            label=f"simulation, {access}",
        )
        ax_s.plot(
            g["stations"],
            g["model_bianchi_tc_bps"] / 1e6,
            ":",
            color=line.get_color(),
            label=f"model with Bianchi's T_c, {access}",
        )
        ax_p.plot(g["stations"], g["model_p"], color=line.get_color(), label=f"model, {access}")
        ax_p.plot(
            g["stations"], g["sim_p"], "o", color=line.get_color(), label=f"simulation, {access}"
        )
    ax_s.set(
        xlabel="saturated stations n",
        ylabel="UDP payload throughput (Mb/s)",
        title="Saturation throughput, 802.11b 11 Mb/s",
    )
    ax_p.set(
        xlabel="saturated stations n",
        ylabel="collision probability p",
        title="Conditional collision probability",
    )
    for ax in (ax_s, ax_p):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
