"""The benchmark suite behind `wlansim bench`: fixed scenarios, timed event loops.

Each case reports wall time of the simulator's event loop (best of `repeat` runs), events
processed, events per second and simulated seconds per wall-clock second. Numbers are
reported, never asserted.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

from wlansim import examples
from wlansim.api import run
from wlansim.evidence.validations.bianchi import saturated_cell
from wlansim.machine import byte_compiled, load_average, timed_run
from wlansim.scenario import load

#: the example scenarios (package data)
SCENARIOS = examples.DIR

#: the whole-process target of every command `wlansim bench --startup` times (s, on an
#: idle machine): each starts without pandas, scipy or matplotlib
STARTUP_TARGET_S = 0.3


def startup_commands(store: str) -> dict[str, list[str]]:
    """The commands `wlansim bench --startup` times: help and version, the Bianchi model,
    the summary of a campaign store (`store`), and a run of every example scenario (its
    simulation included)."""
    commands = {
        "wlansim --help": ["--help"],
        "wlansim --version": ["--version"],
        "wlansim model bianchi --stations 1:50": ["model", "bianchi", "--stations", "1:50"],
        "wlansim results STORE": ["results", store],
    }
    for path in sorted(SCENARIOS.glob("*.toml")):
        commands[f"wlansim run scenarios/{path.name}"] = ["run", str(path)]
    return commands


def cases() -> dict[str, dict]:
    """Benchmark name → scenario."""
    from wlansim.evidence.studies.fotiadis2005 import Setting
    from wlansim.evidence.studies.fotiadis2005 import scenario as fotiadis_scenario
    from wlansim.evidence.studies.miorandi2004 import scenario as http_scenario
    from wlansim.evidence.studies.ng2005_tcp import scenario as ng2005_scenario
    from wlansim.evidence.validations.ns3 import SPEED_CASES, tcp_scenario
    from wlansim.evidence.validations.ns3 import scenario as ns3_scenario

    saturated_ampdu, tcp_ampdu = SPEED_CASES

    return {
        "dcf-saturated-20sta-100s": saturated_cell(20, "basic", duration="100 s"),
        "dcf-saturated-50sta-100s": saturated_cell(50, "basic", duration="100 s"),
        # Contention cost per event does not grow with the number of stations.
        "dcf-saturated-500sta-100s": saturated_cell(500, "basic", duration="100 s"),
        "dcf-rts-20sta-100s": saturated_cell(20, "rts", duration="100 s"),
        # The same two cells with SINR reception (error curves at every frame, capture).
        "dcf-saturated-20sta-sinr-100s": _with_sinr(saturated_cell(20, "basic", duration="100 s")),
        "dcf-rts-20sta-sinr-100s": _with_sinr(saturated_cell(20, "rts", duration="100 s")),
        "edca-udp-20sta-100s": edca_udp_cell(20, duration="100 s"),
        # pilosof2003's TCP settings (ns-2 TCP parameters, 1024-byte segments, rwnd 42),
        # B = 100, at 11 Mb/s without RTS/CTS, NewReno, 5 s warm-up (the case as first
        # benchmarked, kept for comparisons; the study's own setting is 1 Mb/s RTS/CTS Reno).
        "tcp-12up-12down-100s": _tcp_cell("newreno"),
        # The same cell with SACK (RFC 6675) and with CUBIC + SACK senders.
        "tcp-sack-12up-12down-100s": _tcp_cell("sack"),
        "tcp-cubic-sack-12up-12down-100s": _tcp_cell("cubic-sack"),
        # ng2005 Fig 8: 12 TCP uploads with the Table 2 EDCA preset (per-packet classifier).
        "edca-tcp-12up-table2-100s": _without_series(ng2005_scenario("fig8", "100 s")),
        # miorandi2004's HTTP-like on/off downloads: Pareto files of mean 30 KB, think 1 s,
        # each file on a fresh connection (reports sessions per wall second).
        "http-20sta-pareto-100s": http_scenario(20, files=None, think="1 s", duration="100 s"),
        # fotiadis2005: 5 uploads, Gilbert–Elliott uplinks (PER 20 %, mean burst 20),
        # unlimited retries (the AP's too), delay injection at the AP with per-flow state;
        # ns-2's window of 20 segments and a mobile queue of 50 (the case as first
        # benchmarked, kept for comparisons).
        "tcp-5up-gilbert-elliott-inject-100s": _with_gilbert_elliott(
            fotiadis_scenario(
                5, 15, 20, "inject", "100 s", Setting(scope="flow", ap_retry_attempts=None)
            )
        ),
        # janevski2009's home network: two BSSs, movie and chat traces, a game, an FTP
        # download, shadowing (the example scenario of a checkout).
        "janevski-home-110s": load(str(SCENARIOS / "janevski2009-home.toml")),
        # The spatial medium: 30 BSSs of 10 saturated stations on channels 1, 6, 11 over
        # 300 m x 300 m; neighbouring BSSs sense but do not decode each other.
        "spatial-30bss-10sta-3ch-60s": bss_grid(30, duration="60 s"),
        # Memory: one BSS of 1,000 and of 10,000 stations sending 1 Mb/s CBR each (no
        # positions, shared medium); `bench` reports their peak RSS (MEMORY_CASES).
        "cbr-1000sta-1s": cbr_cell(1_000),
        "cbr-10000sta-1s": cbr_cell(10_000),
        # One collision domain of 10,000 saturated stations: the cost per event against the
        # 20-station cell's (`bench --scale` draws the curve between them).
        "dcf-saturated-10000sta-20s": saturated_cell(10_000, "basic", duration="20 s"),
        # 802.11ac MCS 9 80 MHz with A-MPDUs of 65,535 B (42 MPDUs of 1472-byte UDP
        # payloads), SINR reception: `wlansim validate ns3`'s matched cells, which
        # `validate ns3 --speed` runs in ns-3 too. 20 saturated stations; 5 TCP uploads and
        # 5 downloads through the AP (B = 100). An event carries a whole A-MPDU: its cost
        # grows with the MPDUs in it. Under the standard's PPDU timing, as they were timed
        # before the validation's cells took ns-3.37's (`profile = "ns3"`), so that the
        # bench's history and the fingerprints stay comparable.
        "ampdu-11ac-20sta-saturated-100s": ns3_scenario(saturated_ampdu, 100.0)
        | {"profile": "standard"},
        "ampdu-11ac-tcp-5up-5down-100s": tcp_scenario(tcp_ampdu, 100.0) | {"profile": "standard"},
    }


#: The cases whose peak resident memory `wlansim bench` reports (each run once more in a
#: process of its own).
MEMORY_CASES = ("cbr-1000sta-1s", "cbr-10000sta-1s")

#: Station counts of the saturated cells of `wlansim bench --scale`.
SCALE_STATIONS = (20, 100, 1_000, 2_000, 5_000, 10_000)


def cbr_cell(n: int, *, duration: str = "1 s") -> dict:
    """One BSS of `n` stations, each sending 1 Mb/s CBR of 1000-byte packets to the AP,
    no positions (shared medium), no warm-up."""
    return {
        "name": f"cbr-{n}sta",
        "duration": duration,
        "phy": {"standard": "802.11b"},
        "stations": [{"name": "sta", "count": n}],
        "flows": [{"name": "up", "direction": "uplink", "stations": "sta", "traffic": "cbr",
                   "rate": "1 Mb/s", "packet_size": 1000}],
    }  # fmt: skip


def peak_rss_mb(
    scenario: dict, seed: int = 1, *, address_space: int | None = None
) -> tuple[float, float]:
    """Peak resident memory (MB) of a fresh Python process that loads the core alone (not
    the package, whose imports would come first: pandas) and runs `scenario` through it,
    and the run's wall time (s). The peak is the process's own high-water mark (VmHWM, not
    `ru_maxrss`, which keeps the forking parent's size across the exec). `address_space`:
    a limit in bytes on the process's virtual memory (`ulimit -v`), None for none. The
    scenario goes to the process as TOML, which the core reads."""
    from wlansim import _core
    from wlansim.campaign.tomlout import dumps as toml_dumps

    child = (
        "import importlib.util, sys, time\n"
        "spec = importlib.util.spec_from_file_location('_core', sys.argv[1])\n"
        "core = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(core)\n"
        "scenario = core.parse_toml(sys.stdin.read())\n"
        "t0 = time.perf_counter()\n"
        f"core.run(scenario, {seed})\n"
        "wall = time.perf_counter() - t0\n"
        "status = open('/proc/self/status').read().split('VmHWM:')[1].split()\n"
        "print(int(status[0]) / 1024, wall)\n"
    )

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    done = subprocess.run(
        [sys.executable, "-c", child, _core.__file__], input=toml_dumps(scenario),
        capture_output=True, text=True, check=False,
        preexec_fn=None if address_space is None else limit,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{scenario.get('name')}: {done.stderr.strip()[-2000:]}")
    rss, wall = done.stdout.split()
    return float(rss), float(wall)


def scale_costs(
    stations: tuple[int, ...] = SCALE_STATIONS, duration: str = "20 s", repeat: int = 1
) -> list[dict]:
    """Per number of saturated stations in one collision domain (`saturated_cell`, shared
    medium): events, channel accesses (attempts), wall time of the run in the core (best
    of `repeat` runs), the cost per event and per attempt, and each against the first."""
    rows = []
    for n in stations:
        scenario = saturated_cell(n, "basic", duration=duration)
        r = min((run(scenario, seed=1) for _ in range(repeat)), key=lambda x: x.meta["wall_s"])
        wall, events = r.meta["wall_s"], r.meta["events"]
        attempts = int(r.nodes["attempts"].sum())
        rows.append({"stations": n, "events": events, "attempts": attempts, "wall_s": wall,
                     "ns_per_event": wall / events * 1e9,
                     "ns_per_attempt": wall / attempts * 1e9})  # fmt: skip
    for row in rows:
        row["per_event_vs_first"] = row["ns_per_event"] / rows[0]["ns_per_event"]
    return rows


#: ns-2's log-distance model at an indoor exponent without shadowing: with ns-2's
#: thresholds a frame is decoded up to 43 m and sensed up to 106 m.
GRID_PROPAGATION = {"model": "shadowing", "path_loss_exponent": 3.5, "sigma_db": 0.0}
#: Width and depth of a BSS's cell in the grid (30 BSSs: 6 x 5 cells over 300 m x 300 m).
GRID_CELL_M = (50.0, 60.0)


def bss_grid(n: int, *, duration: str, stations: int = 10, medium: str = "auto") -> dict:
    """`n` BSSs of `stations` saturated uploading stations each (1000-byte IP packets,
    802.11b at 11 Mb/s), their APs at the centres of 50 m x 60 m cells in a grid
    (6 x 5 cells for 30), on channels 1, 6 and 11 in turn so that side neighbours differ;
    a BSS's stations stand 10 m from its AP."""
    cols = max(1, round(math.sqrt(n * GRID_CELL_M[1] / GRID_CELL_M[0])))
    aps, groups, flows = [], [], []
    for i in range(n):
        row, col = divmod(i, cols)
        x, y = (col + 0.5) * GRID_CELL_M[0], (row + 0.5) * GRID_CELL_M[1]
        aps.append({"name": f"ap{i}", "position": [x, y], "channel": (1, 6, 11)[(col + row) % 3]})
        groups.append({"name": f"s{i}", "ap": f"ap{i}", "count": stations,
                       "position": [x + 8.0, y + 6.0]})  # fmt: skip
        flows.append({"name": f"up{i}", "direction": "uplink", "stations": f"s{i}",
                      "traffic": "saturated", "packet_size": "972 B"})  # fmt: skip
    return {
        "name": f"bss-grid-{n}",
        "duration": duration,
        "warmup": "1 s",
        "phy": {"standard": "802.11b"},
        "aps": aps,
        "stations": groups,
        "flows": flows,
        "channel": {"propagation": dict(GRID_PROPAGATION), "medium": medium},
    }


def grid_costs(
    sizes: tuple[int, ...] = (1, 3, 10, 30, 100), duration: str = "20 s", repeat: int = 1
) -> list[dict]:
    """Per number of BSSs of :func:`bss_grid` on the spatial medium (forced for one BSS):
    events, frames sent, wall time of the event loop (best of `repeat` runs) and the cost
    per event and per frame, beside the 20-station single cell on the shared medium."""
    rows = []
    cases = [("single cell, 20 stations", saturated_cell(20, "basic", duration=duration))]
    cases += [(f"{n} BSSs", bss_grid(n, duration=duration, medium="spatial")) for n in sizes]
    for name, scenario in cases:
        r = min((run(scenario, seed=1) for _ in range(repeat)), key=lambda x: x.meta["wall_s"])
        wall, events = r.meta["wall_s"], r.meta["events"]
        frames = int(r.nodes["attempts"].sum() + r.nodes["successes"].sum())
        rows.append(
            {
                "case": name,
                "medium": r.meta["medium"],
                "nodes": len(r.nodes),
                "events": events,
                "wall_s": wall,
                "events_per_s": events / wall,
                "ns_per_event": wall / events * 1e9,
                "ns_per_frame": wall / frames * 1e9,
            }
        )
    return rows


def _tcp_cell(variant: str) -> dict:
    from wlansim.evidence.studies.pilosof2003 import scenario

    s = scenario(12, 12, 100, "100 s", variant="newreno")
    s["phy"] = {"standard": "802.11b"}  # the preset: 11 Mb/s, the standard's control rates
    del s["mac"]  # no RTS/CTS
    s["warmup"] = "5 s"
    return s if variant == "newreno" else _with_variant(s, variant)


def _with_sinr(scenario: dict) -> dict:
    scenario["channel"] = {"reception": {"model": "sinr"}}
    scenario["name"] = f"{scenario['name']}-sinr"
    return scenario


def _with_gilbert_elliott(scenario: dict) -> dict:
    link = scenario["channel"]["links"][0]["bursts_uplink"]
    link["model"] = "gilbert-elliott"
    link.pop("phase", None)  # the periodic model's
    scenario["name"] = f"{scenario['name']}-ge"
    return scenario


def _with_variant(scenario: dict, variant: str) -> dict:
    scenario["tcp"]["variant"] = variant
    scenario["name"] = f"{scenario['name']}-{variant}"
    return scenario


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
        if "sessions" in best.metrics:
            results[-1]["sessions_per_wall_s"] = best.metrics["sessions"] / wall
        if name in MEMORY_CASES:
            results[-1]["peak_rss_mb"] = peak_rss_mb(scenario)[0]
    return results


def _wlansim_command() -> list[str]:
    """The `wlansim` console script of this interpreter's environment (what a user runs),
    or ``python -m wlansim`` when there is none."""
    script = Path(sys.executable).parent / "wlansim"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "wlansim"]


def startup_times(repeat: int = 10, cwd: str | os.PathLike | None = None) -> list[dict]:
    """Whole-process time of each command of :func:`startup_commands`, run `repeat` times
    as a subprocess (output discarded): median, min and max wall time, the median CPU
    time (user + system: less sensitive to other work on the machine) in seconds, the
    target, and the load averages (1, 5, 15 min) before and after the command's runs.
    The store `wlansim results` reads is a small campaign made first (2 points x 3 runs).
    Run it from the repository root (the scenario paths are relative). Each command runs
    once untimed first, byte-compiling its modules (:func:`wlansim.machine.byte_compiled`)."""
    import tempfile

    from wlansim.campaign import Campaign

    base = _wlansim_command()
    out = []
    with tempfile.TemporaryDirectory() as tmp, byte_compiled() as env:
        Campaign(SCENARIOS / "saturated-11b.toml", {"stations.sta.count": [1, 5]}, reps=3,
                 store=tmp, overrides={"duration": "2 s", "warmup": "0.5 s"},
                 ).run(jobs=1, progress=False)  # fmt: skip
        for name, args in startup_commands(tmp).items():
            quiet = {"cwd": cwd, "env": env, "stdout": subprocess.DEVNULL}
            subprocess.run(base + args, stderr=subprocess.DEVNULL, check=False, **quiet)
            wall, cpu, load_before = [], [], load_average()
            for _ in range(repeat):
                done, wall_s, cpu_s = timed_run(base + args, stderr=subprocess.PIPE, **quiet)
                wall.append(wall_s)
                cpu.append(cpu_s)
                if done.returncode != 0:
                    raise RuntimeError(f"`{name}` failed: {done.stderr.decode().strip()}")
            out.append(
                {
                    "name": name,
                    "median_s": statistics.median(wall),
                    "min_s": min(wall),
                    "max_s": max(wall),
                    "cpu_median_s": statistics.median(cpu),
                    "runs": repeat,
                    "target_s": STARTUP_TARGET_S,
                    "load_before": load_before,
                    "load_after": load_average(),
                }
            )
    return out
