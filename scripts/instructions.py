"""Instructions of the event loop per benchmark case, counted by callgrind: a measure of
the simulator's work that does not depend on the machine's load, for A/B comparisons of
two commits and for the cost per event of the spatial medium.

    cargo build --release -p wlansim-core --example simulate
    python scripts/instructions.py                          # every `wlansim bench` case
    python scripts/instructions.py --only dcf-saturated-20sta
    python scripts/instructions.py --grid 1,3,10,30,100     # the BSS grids of `bench --grid`
    python scripts/instructions.py --scale 20,1000,10000    # the cells of `bench --scale`
    python scripts/instructions.py --driver OTHER/target/release/examples/simulate

Each case runs once (seed 1) under `valgrind --tool=callgrind`, which counts only inside
`World::run_with` (the event loop and the results gathered at its end; building the world
and writing the report are left out), with the Rust driver
`crates/wlansim-core/examples/simulate.rs` (no Python in the process).
Prints the case, its events, the instructions and the instructions per event.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from wlansim.bench import bss_grid, cases
from wlansim.evidence.validations.bianchi import saturated_cell

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "target" / "release" / "examples" / "simulate"


def instructions(driver: Path, scenario: dict, tmp: Path) -> tuple[int, int]:
    """(events, instructions in the event loop) of one run of `scenario`, seed 1."""
    spec, out = tmp / "scenario.json", tmp / "callgrind.out"
    spec.write_text(json.dumps(scenario))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--toggle-collect=*World*run_with*",
         f"--callgrind-out-file={out}", str(driver), str(spec), "1"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{driver} failed: {done.stderr.strip()[-2000:]}")
    events = int(re.search(r"events (\d+)", done.stdout).group(1))
    text = out.read_text()
    total = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
    return events, int(total.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--driver", type=Path, default=DRIVER, help=f"the driver ({DRIVER})")
    ap.add_argument("--only", default=None, help="the cases whose name contains this")
    ap.add_argument(
        "--grid",
        default=None,
        metavar="N,N,...",
        help="BSS grids of these sizes (`wlansim bench --grid`'s, spatial medium) instead "
        "of the benchmark cases",
    )
    ap.add_argument(
        "--scale",
        default=None,
        metavar="N,N,...",
        help="one collision domain of N saturated stations each (`wlansim bench --scale`'s, "
        "20 s) instead of the benchmark cases",
    )
    ap.add_argument("--duration", default=None, help="simulated time of every case")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    if not args.driver.is_file():
        raise SystemExit(
            f"{args.driver}: build it with `cargo build --release -p wlansim-core "
            "--example simulate`"
        )
    if args.grid:
        sizes = [int(n) for n in args.grid.split(",")]
        named = {f"{n} BSSs": bss_grid(n, duration="20 s", medium="spatial") for n in sizes}
    elif args.scale:
        sizes = [int(n) for n in args.scale.split(",")]
        named = {f"{n} stations": saturated_cell(n, "basic", duration="20 s") for n in sizes}
    else:
        named = cases()
    print(f"{'case':40} {'events':>10} {'instructions':>14} {'per event':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, scenario in named.items():
            if args.only and args.only not in name:
                continue
            if args.duration:
                scenario = dict(scenario, duration=args.duration)
            events, total = instructions(args.driver, scenario, Path(tmp))
            print(f"{name:40} {events:10d} {total:14d} {total / events:10.0f}", flush=True)


if __name__ == "__main__":
    main()
