"""pilosof2003 with the kernel's TCP: the up/down ratio against the AP buffer B, with and
without rwnd clamping at the AP (rewriting the real ACKs' windows), beside wlansim's
simulated curve (`wlansim.evidence.studies.pilosof2003.scenario`, its TCP settings).

    python scripts/emulate_pilosof2003.py [--up 4 --down 4] [--buffers 10 30 50 100]
        [--duration 25] [--reps 1] [--cc reno] [--out out/emulate-pilosof]

Needs root (`wlansim emulate`). The emulated hosts run Linux TCP as configured (`--cc`,
its own window autotuning, SACK, timestamps, delayed ACKs); the simulated curve keeps the
paper's ns-2 TCP (NewReno, 1024-byte segments, a 42-segment window, an ACK per segment).
The ratio is the mean upload rate over the mean download rate, each measured by the
receiving application after the warm-up. Prints one row per point and writes
`pilosof2003-emulated.csv` and `pilosof2003-emulated.png` (both curves against B, with the
paper's Fig 11 result, 1:1 with the window rewritten, marked) into `--out`.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

from wlansim import _core, run
from wlansim.campaign.stats import t_interval
from wlansim.emulation import emulate
from wlansim.evidence.studies.pilosof2003 import scenario
from wlansim.models.fairness import up_down_ratio
from wlansim.scenario import call_core

WARMUP_S = 5.0


def emulated(n_up: int, n_down: int, buffer: int, clamp: bool, duration: float, cc: str) -> dict:
    """pilosof2003's cell with its stations and server as real hosts: each upload is a
    station's bulk sender to a receiver on the server, each download the server's sender
    to a station's receiver."""
    s = scenario(n_up, n_down, buffer, f"{duration} s")
    s["ap"]["rwnd_clamp"] = clamp
    py = "{python} -m wlansim.bulk"
    recv = f"{py} tcp-recv"
    server = [f"{recv} {5201 + i} --warmup {WARMUP_S} &" for i in range(n_up)]
    s["emulation"] = {"groups": [{"name": g} for g in ("srv", "up", "down")]}
    nodes = call_core(_core.emulated_nodes, s)
    down_ips = [n["ip"] for n in nodes if n["group"] == "down"]
    server += [
        f"{py} tcp-send {ip} {6201 + j} --seconds {duration} --cc {{cc}} &"
        for j, ip in enumerate(down_ips)
    ]
    send = f"{py} tcp-send {{srv.ip}} {{port}} --seconds {duration} --cc {{cc}}"
    down = f"{recv} $((6201 + {{i}})) --warmup {WARMUP_S}"
    s["emulation"] = {
        "groups": [
            {"name": "srv", "command": " ".join(server) + " wait", "congestion_control": cc},
            {"name": "up", "command": send, "start": "0.5 s", "congestion_control": cc},
            {"name": "down", "command": down},
        ]
    }
    return s


def ratio_emulated(r, n_up: int, n_down: int) -> float:
    server = [a for a in r.applications if a.node.startswith("srv")]
    up = sum(x["bps"] for a in server for x in (a.report or {}).get("reports", []) if "bps" in x)
    down = [a.rate_bps() or 0.0 for a in r.applications if a.node.startswith("down")]
    return up_down_ratio([up / n_up] * n_up, down) if sum(down) > 0 else math.inf


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--up", type=int, default=4)
    p.add_argument("--down", type=int, default=4)
    p.add_argument("--buffers", type=int, nargs="+", default=[10, 30, 50, 100])
    p.add_argument("--duration", type=float, default=25.0)
    p.add_argument("--reps", type=int, default=1)
    p.add_argument("--cc", default="reno")
    p.add_argument("--out", default="out/emulate-pilosof")
    a = p.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for clamp in (False, True):
        for b in a.buffers:
            sim = []
            emu = []
            for k in range(a.reps):
                s = scenario(a.up, a.down, b, f"{a.duration} s")
                s["ap"]["rwnd_clamp"] = clamp
                sim.append(run(s, seed=1 + k).metrics.get("up_down_ratio", math.nan))
                r = emulate(emulated(a.up, a.down, b, clamp, a.duration, a.cc), seed=1 + k)
                emu.append(ratio_emulated(r, a.up, a.down))
            row = {
                "rwnd_clamp": clamp,
                "buffer": b,
                "simulated_ratio": t_interval(sim)["mean"],
                "simulated_ratio_ci": t_interval(sim)["half_width"],
                "emulated_ratio": t_interval(emu)["mean"],
                "emulated_ratio_ci": t_interval(emu)["half_width"],
                "lateness_p99_ms": (r.realtime["lateness_p99_s"] or math.nan) * 1e3,
            }
            rows.append(row)
            print(
                f"clamp={clamp!s:5} B={b:4}: simulated {row['simulated_ratio']:.2f}, "
                f"emulated ({a.cc}) {row['emulated_ratio']:.2f}"
                f" (lateness p99 {row['lateness_p99_ms']:.1f} ms)",
                flush=True,
            )
    with open(out / "pilosof2003-emulated.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plot(rows, a, out / "pilosof2003-emulated.png")
    return 0


def plot(rows: list[dict], a: argparse.Namespace, path: Path) -> None:
    """Both curves against B (log scale; an infinite ratio, downloads starved, drawn at the
    top edge), with what the paper reports with clamping (Fig 11)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    finite = [r[k] for r in rows for k in ("simulated_ratio", "emulated_ratio")]
    top = 10 * max([x for x in finite if math.isfinite(x)] + [10.0])
    for clamp, colour in ((False, "tab:red"), (True, "tab:blue")):
        pts = [r for r in rows if r["rwnd_clamp"] == clamp]
        b = [r["buffer"] for r in pts]
        on = "on" if clamp else "off"

        def ys(key, pts=pts):
            return [r[key] if math.isfinite(r[key]) else top for r in pts]

        ax.errorbar(b, ys("simulated_ratio"), yerr=[r["simulated_ratio_ci"] for r in pts],
                    fmt="s--", color=colour, capsize=2, ms=4,
                    label=f"wlansim, paper's ns-2 TCP, clamp {on}")  # fmt: skip
        ax.errorbar(b, ys("emulated_ratio"), yerr=[r["emulated_ratio_ci"] for r in pts],
                    fmt="o-", color=colour, capsize=2, ms=4,
                    label=f"Linux {a.cc} (emulated), clamp {on}")  # fmt: skip
    ax.axhline(1.0, color="tab:orange", lw=3, alpha=0.5,
               label="paper Fig 11: 1:1 with the window rewritten")  # fmt: skip
    ax.set_yscale("log")
    ax.set_ylim(0.1, top * 1.5)
    runs = f"{a.reps} run{'s' if a.reps > 1 else ''} per point"
    ax.set(xlabel="AP buffer B (packets)", ylabel="up/down throughput ratio",
           title=f"pilosof2003, {a.up} up + {a.down} down: kernel TCP against ns-2's "
           f"({runs}; top edge: downloads starved)")  # fmt: skip
    ax.title.set_fontsize(8)
    ax.legend(fontsize=6, loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
