"""Shared fixtures: the example scenarios and a quick saturated cell."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

# A suite started with SIGINT ignored (a background job of a shell without job control,
# e.g. `make test &` in a script) passes the ignore on to every child it starts, and then the
# Ctrl-C tests' children cannot be interrupted (Python keeps an inherited SIG_IGN). A
# handler, unlike an ignore, is reset to the default at exec, so the children get Python's
# usual KeyboardInterrupt whatever the suite was started from.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent
SATURATED = ROOT / "scenarios" / "saturated-11b.toml"


@pytest.fixture
def saturated() -> Path:
    return SATURATED


def wlansim_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run the `wlansim` command line in a subprocess, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "wlansim", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


@pytest.fixture(scope="session")
def quick_reproduction(tmp_path_factory):
    """``quick_reproduction(name)``: the output directory of ``wlansim reproduce NAME
    --quick``, run once per test session (the study's own tests and the cross-study
    claims test share it)."""
    from wlansim.cli import main

    done: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in done:
            out = tmp_path_factory.mktemp(f"quick-{name}")
            args = ["reproduce", name, "--quick", "--out", str(out), "--no-progress"]
            assert main([*args, "--jobs", "2"]) == 0
            done[name] = out
        return done[name]

    return get


@pytest.fixture(scope="session")
def quick_validation(tmp_path_factory):
    """``quick_validation(name)``: the output directory of ``wlansim validate NAME --quick``
    and what it printed, run once per test session (the validation's own tests and the
    test of every validation's files share it)."""
    import contextlib
    import io

    from wlansim.cli import main

    done: dict[str, tuple[Path, str]] = {}

    def get(name: str) -> tuple[Path, str]:
        if name not in done:
            out = tmp_path_factory.mktemp(f"validate-{name}")
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                assert main(["validate", name, "--quick", "--out", str(out)]) == 0
            done[name] = (out, printed.getvalue())
        return done[name]

    return get
