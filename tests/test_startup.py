"""Start-up: `import wlansim`, the command line, `wlansim --help` and `wlansim run` do not
load pandas, matplotlib, scipy or numpy (they are imported where they are used); `import
wlansim`, a run from a dict or from a TOML file (the whole process `wlansim validate ns2
--speed` times) and `wlansim --version`/`--help` do not load the standard library's
costlier modules they do not use either (typing, pathlib, tomllib, json, re...: the core
reads TOML and the scenario dict itself). This checks the import graph, not a time:
`wlansim bench --startup` measures the time, docs/benchmarks.md "Start-up and import" the
instructions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, SATURATED, wlansim_cli

HEAVY = ("pandas", "matplotlib", "scipy", "numpy", "pyarrow")
#: standard-library modules that cost a millisecond or more to import and that neither
#: `import wlansim`, a run from a dict nor `--version`/`--help` needs
UNNEEDED = ("typing", "pathlib", "tomllib", "urllib", "dataclasses", "inspect", "platform")

PROBE = """
import sys
before = set(sys.modules)
import contextlib, io
{code}
print(",".join(sorted(m for m in set(sys.modules) - before if m.split(".")[0] in {heavy!r})))
"""


def heavy_modules_after(code: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    """The modules of `heavy` that running `code` in a fresh interpreter loads."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code, heavy=heavy)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    last = out.stdout.splitlines()[-1] if out.stdout.strip() else ""
    return last.split(",") if last else []


def test_import_wlansim_and_the_cli_load_no_heavy_library():
    assert heavy_modules_after("import wlansim, wlansim.cli, wlansim.models") == []
    assert heavy_modules_after("import wlansim.campaign, wlansim.evidence.study") == []


def test_import_and_a_run_from_a_dict_or_a_file_load_only_what_they_use(tmp_path):
    """`import wlansim`, a run of a scenario dict, of TOML text and of a TOML file (the
    process `validate ns2 --speed` times: :data:`SPEED_PROCESS`) load neither json, re nor
    tomllib (nor the rest of `UNNEEDED`)."""
    from wlansim.evidence.validations.ns2 import (
        SPEED_PROCESS,
        WARMUP_S,
        speed_cell,
        speed_file,
        udp_uplink_scenario,
    )

    unneeded = HEAVY + UNNEEDED + ("json", "re")
    assert heavy_modules_after("import wlansim", unneeded) == []
    s = udp_uplink_scenario(speed_cell(), 12.0, WARMUP_S)
    assert heavy_modules_after(f"import wlansim\nwlansim.run({s!r}, seed=1)", unneeded) == []
    path = speed_file(s, tmp_path)
    text = path.read_text()
    assert heavy_modules_after(f"import wlansim\nwlansim.run({text!r}, seed=1)", unneeded) == []
    process = SPEED_PROCESS.replace("sys.argv[1]", repr(str(path)))
    assert "sys.argv" not in process and heavy_modules_after(process, unneeded) == []


def test_version_and_help_load_only_what_they_use():
    for flag in ("--version", "--help"):
        code = "from wlansim.cli import main\nwith contextlib.suppress(SystemExit):\n"
        code += f"    with contextlib.redirect_stdout(io.StringIO()): main([{flag!r}])"
        assert heavy_modules_after(code, HEAVY + UNNEEDED) == [], flag


def test_help_and_run_load_no_heavy_library():
    help_ = "from wlansim.cli import main\nwith contextlib.suppress(SystemExit):\n"
    help_ += "    with contextlib.redirect_stdout(io.StringIO()): main(['--help'])"
    assert heavy_modules_after(help_) == []
    run = "from wlansim.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
    run += f"    assert main(['run', {str(SATURATED)!r}, '--set', 'duration=2 s']) == 0"
    assert heavy_modules_after(run) == []


def test_quick_commands_load_no_heavy_library(tmp_path):
    """`wlansim --version`, `model bianchi`, `results` and `run` of every example (its
    session statistics and confidence intervals included) need none of them."""
    from wlansim.campaign import Campaign

    short = {"duration": "1 s", "warmup": "0.1 s"}
    c = Campaign(SATURATED, {"stations.sta.count": [1, 2]}, reps=2, store=tmp_path, overrides=short)
    c.run(jobs=1, progress=False)
    commands = [
        ["--version"],
        ["model", "bianchi", "--stations", "1:50"],
        ["model", "bianchi", "--stations", "5", "--json"],
        ["results", str(tmp_path)],
        ["results", str(tmp_path), "--metric", "throughput_bps", "--runs"],
    ]
    commands += [
        ["run", str(p), "--set", "duration=40 s", "--set", "warmup=0 s"]
        for p in sorted((ROOT / "scenarios").glob("*.toml"))
    ]
    code = "from wlansim.cli import main\n"
    for args in commands:
        code += "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        code += f"    assert main({args!r}) == 0, {args!r}\n"
    assert heavy_modules_after(code) == []


def test_results_tables_are_built_on_first_access():
    code = "import wlansim\nr = wlansim.run({path!r}, overrides={{'duration': '2 s'}})\n"
    code = code.format(path=str(SATURATED))
    code += "m = r.metrics\nassert m['throughput_bps'] > 0 and 0 < m['jain_index'] <= 1"
    assert heavy_modules_after(code) == []
    assert "pandas" in heavy_modules_after(code + "\nassert len(r.flows) == 10")


def test_bench_startup_times_every_quick_command():
    out = wlansim_cli("bench", "--startup", "--reps", "1", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    names = [r["name"] for r in rows]
    assert names[:4] == [
        "wlansim --help",
        "wlansim --version",
        "wlansim model bianchi --stations 1:50",
        "wlansim results STORE",
    ]
    examples = sorted(p.name for p in (ROOT / "scenarios").glob("*.toml"))
    assert names[4:] == [f"wlansim run scenarios/{n}" for n in examples]
    for r in rows:
        assert r["runs"] == 1 and 0 < r["min_s"] <= r["median_s"] <= r["max_s"]
        assert r["cpu_median_s"] > 0 and r["target_s"] == 0.3
        for key in ("load_before", "load_after"):
            assert len([float(x) for x in r[key].split()]) == 3, r[key]


def test_timed_processes_start_byte_compiled_from_a_cache_of_their_own():
    """`bench --startup` and `validate ns2 --speed` time Python processes as installed
    (modules byte-compiled), whatever PYTHONDONTWRITEBYTECODE says, with the cache in a
    temporary directory removed afterwards."""
    from wlansim.machine import byte_compiled

    with byte_compiled() as env:
        assert "PYTHONDONTWRITEBYTECODE" not in env
        cache = Path(env["PYTHONPYCACHEPREFIX"])
        subprocess.run([sys.executable, "-c", "import wlansim"], env=env, check=True, cwd=ROOT)
        assert list(cache.rglob("wlansim/__init__.*.pyc")), sorted(cache.rglob("*"))[:5]
    assert not cache.exists()


def test_a_command_line_loads_its_own_command_module_alone():
    """`wlansim run ...` imports `run_cmd` and no other command module; `COMMANDS` names
    every module's commands (what each registers, and the whole parser's list in order)."""
    import argparse

    from wlansim.cli import COMMANDS, build_parser

    def commands(parser: argparse.ArgumentParser) -> list[str]:
        (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return list(sub.choices)

    assert commands(build_parser()) == [n for names in COMMANDS.values() for n in names]
    for names in COMMANDS.values():
        for name in names:
            assert commands(build_parser(name)) == list(names)
    code = "import contextlib, io, sys\nfrom wlansim.cli import main\n"
    code += "with contextlib.redirect_stdout(io.StringIO()):\n"
    code += f"    assert main(['run', {str(SATURATED)!r}, '--set', 'duration=2 s']) == 0\n"
    code += "print(','.join(sorted(m for m in sys.modules if m.endswith('_cmd'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["wlansim.cli.run_cmd"]
