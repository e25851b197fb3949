"""Simulator against analytical models, in the regime where the models' assumptions hold
(``wlansim validate bianchi``).

`compare_bianchi` runs saturated 802.11b cells (every station always has a packet, ideal
channel, unlimited retries: Bianchi's assumptions) and sets each beside Bianchi's model
evaluated on the same PHY timing. The model's collision time is the 802.11 one the
simulator follows (a station that did not transmit waits EIFS after a collision); Bianchi's
original T_c = H + P + DIFS is shown too (column `model_bianchi_tc_bps`).

As a validation (:mod:`wlansim.evidence.validation`): :data:`CLAIMS` decided on the table
``bianchi`` of :func:`run`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from wlansim.api import run as run_scenario
from wlansim.evidence.claims import Claim, Compare, Every, NotRun, Sample, Scale, Within
from wlansim.evidence.validation import at_least, in_seconds, seconds_text
from wlansim.models import bianchi
from wlansim.phy import UDP_PAYLOAD_BYTES, timing

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

TITLE = "saturated 802.11b cells beside Bianchi's model (Bianchi 2000)"
PROFILE = "standard"
NO_NS2 = "this validation sets wlansim beside Bianchi's model, not beside ns-2.35"
JSON_TABLE = "bianchi"

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
    seeds: Sequence[int] = (1,),
    warmup: str = "1 s",
) -> pd.DataFrame:
    """One row per (access, n, seed): simulated and modelled throughput and collision
    probability, relative throughput error, wall time of the run."""
    t = timing(phy, payload_bytes)
    rows = []
    for access, n, seed in itertools.product(accesses, stations, seeds):
        r = run_scenario(
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
                "seed": seed,
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


# --------------------------------------------------------------------------- the validation


#: --quick: the stations the claims need (1 for RTS/CTS's cost, 5 and 50 for its scaling)
#: and one between, 20 s per run, 3 seeds
QUICK = {"stations": (1, 5, 20, 50), "duration": 20.0, "reps": 3}
ACCESSES = ("basic", "rts")


@dataclasses.dataclass(frozen=True)
class Plan:
    """The options of ``wlansim validate bianchi``."""

    quick: bool
    stations: tuple[int, ...]
    access: tuple[str, ...]
    duration: float = in_seconds()
    warmup: float = in_seconds()
    payload: int
    seed: int
    reps: int

    @classmethod
    def of(cls, quick: bool, stations: Sequence[int], access: Sequence[str],
           duration: float, warmup: float, payload: int, seed: int,
           reps: int) -> Plan:  # fmt: skip
        """The plan of the command's options (``access``: basic, rts or both; --quick
        replaces the stations, duration and reps with :data:`QUICK`'s; --duration and
        --warmup in seconds)."""
        from wlansim.errors import ScenarioError

        if quick:
            stations, duration, reps = QUICK["stations"], QUICK["duration"], QUICK["reps"]
        modes: list[str] = []
        for a in access:
            if a not in (*ACCESSES, "both"):
                raise ScenarioError(f"--access {a!r}: allowed values are basic, rts, both")
            modes += [m for m in (ACCESSES if a == "both" else (a,)) if m not in modes]
        at_least("--reps", reps)
        check_times(duration, warmup)
        return cls(quick, tuple(stations), tuple(modes), duration, warmup, int(payload), seed, reps)

    def skips(self) -> list[str]:
        if not self.quick:
            return []
        n = ", ".join(map(str, self.stations))
        return [
            f"quick: n = {n} only, {seconds_text(self.duration)} per run, {self.reps} seeds "
            "per point"
        ]


def check_times(duration_s: float, warmup_s: float) -> None:
    """Check --duration and --warmup (seconds) before running, in the words of the
    command line (the scenario keys behind them are not the user's)."""
    from wlansim.errors import ScenarioError
    from wlansim.scenario import resolve

    duration, warmup = seconds_text(duration_s), seconds_text(warmup_s)
    try:
        resolve(saturated_cell(1, "basic", duration=duration, warmup=warmup))
    except ScenarioError as exc:
        text = str(exc)
        if "`warmup`" in text and "duration" in text:
            raise ScenarioError(
                f"--duration {duration!r} must be longer than the warm-up (--warmup "
                f"{warmup!r}; default 1 s)"
            ) from None
        text = text.replace("scenario key `duration`", "--duration")
        raise ScenarioError(text.replace("scenario key `warmup`", "--warmup")) from None


def run(plan: Plan) -> dict[str, pd.DataFrame]:
    """The table ``bianchi``: one row per (access, n, seed), :func:`compare_bianchi`."""
    table = compare_bianchi(
        plan.stations,
        plan.access,
        duration=seconds_text(plan.duration),
        payload_bytes=plan.payload,
        seeds=range(plan.seed, plan.seed + plan.reps),
        warmup=seconds_text(plan.warmup),
    )
    return {"bianchi": table}


def in_mbps(table: pd.DataFrame) -> pd.DataFrame:
    """A simulator-vs-model table with its throughputs in Mb/s and the error in %."""
    return table.assign(
        sim_mbps=table["sim_bps"] / 1e6,
        model_mbps=table["model_bps"] / 1e6,
        error_pct=table["error"] * 100,
    )


def show(tables: dict[str, pd.DataFrame], plan: Plan) -> list[str]:
    """The means per (access, n) beside the model, and the runs' cost."""
    table = tables["bianchi"]
    means = table.groupby(["access", "stations"], sort=False).mean(numeric_only=True)
    means = means.reset_index()
    shown = in_mbps(means).assign(p_diff=means["sim_p"] - means["model_p"])[
        ["access", "stations", "sim_mbps", "model_mbps", "error_pct", "sim_p", "model_p", "p_diff"]
    ]
    return [
        f"Saturated 802.11b cell (11 Mb/s data, 1 Mb/s control, long preamble, "
        f"{plan.payload}-byte UDP payload, unlimited retries), {seconds_text(plan.duration)} per "
        f"run, means of {plan.reps} runs per point:",
        shown.to_string(index=False, float_format=lambda v: f"{v:.4f}"),
        "",
        f"simulated {len(table)} runs in {table['wall_s'].sum():.2f} s of event loop",
    ]


def plot(tables: dict[str, pd.DataFrame], out: Path, plan: Plan) -> list[Path]:
    """bianchi.png: throughput and collision probability vs stations, simulation markers,
    model lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_s, ax_p) = plt.subplots(1, 2, figsize=(11, 4.2))
    means = tables["bianchi"].groupby(["access", "stations"], sort=False).mean(numeric_only=True)
    for access, group in means.reset_index().groupby("access", sort=False):
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
    path = Path(out) / "bianchi.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return [path]


# --------------------------------------------------------------------------- claims


def _per_n(runs: pd.DataFrame, access: str, sim: str, model: str, skip_one: bool = False):
    """{n: (simulated values per seed, the model's exact value)} for one access mode."""
    rows = runs[runs["access"] == access]
    if rows.empty:
        raise NotRun(f"{access} access was not run")
    return {
        int(n): (Sample.from_frame(g, sim), Sample.exact_value(float(g[model].iloc[0])))
        for n, g in rows.groupby("stations")
        if not (skip_one and n == 1)
    }


def _scaling(runs: pd.DataFrame, access: str, lo: int, hi: int):
    """Per seed: throughput at `hi` stations over throughput at `lo`."""
    t = runs[runs["access"] == access].pivot(index="seed", columns="stations", values="sim_bps")
    if lo not in t or hi not in t:
        raise NotRun(f"n = {lo} and {hi} were not both run")
    r = t[hi] / t[lo]
    return Sample.of(list(r), list(r.index))


def _claims() -> list[Claim]:
    """The checks of `wlansim validate bianchi`, as claim records (tolerances: 3 % on the
    throughput, 0.02 on the collision probability; the model neglects the correlation of
    collisions with the backoff stage, see tests/test_validation_bianchi.py)."""
    out = []
    for access, name in (("basic", "basic access"), ("rts", "RTS/CTS")):
        out += [
            Claim(
                f"bianchi.throughput-{access}", "Bianchi 2000, eq 13",
                f"{name}: the saturation throughput follows Bianchi's model within 3 %",
                Every(Within("simulated throughput", "the model", tol=0.03), "n"),
                lambda t, a=access: _per_n(t["bianchi"], a, "sim_bps", "model_bps"),
                kind="model vs simulation",
            ),
            Claim(
                f"bianchi.p-{access}", "Bianchi 2000, eqs 7, 9",
                f"{name}: the collision probability follows the model within 0.02",
                Every(Within("simulated p", "the model's p", tol=0.02,
                             scale=Scale(relative=False, digits=4)), "n"),
                lambda t, a=access: _per_n(t["bianchi"], a, "sim_p", "model_p", skip_one=True),
                kind="model vs simulation",
            ),
        ]  # fmt: skip
    out += [
        Claim(
            "rts.costs-at-one-station", "Bianchi 2000, Fig 9",
            "with one station, RTS/CTS costs throughput against basic access",
            Compare("basic access", "RTS/CTS"),
            lambda t: (Sample.from_frame(_one(t["bianchi"], "basic", 1), "sim_bps"),
                       Sample.from_frame(_one(t["bianchi"], "rts", 1), "sim_bps")),
        ),
        Claim(
            "rts.scales-better", "Bianchi 2000, Fig 9",
            "RTS/CTS loses less throughput from 5 to 50 stations than basic access",
            Compare("RTS/CTS's throughput at 50 / at 5", "basic access's"),
            lambda t: (_scaling(t["bianchi"], "rts", 5, 50),
                       _scaling(t["bianchi"], "basic", 5, 50)),
        ),
    ]  # fmt: skip
    return out


def _one(runs: pd.DataFrame, access: str, n: int) -> pd.DataFrame:
    rows = runs[(runs["access"] == access) & (runs["stations"] == n)]
    if rows.empty:
        raise NotRun(f"{access} access with n = {n} was not run")
    return rows


CLAIMS = _claims()
