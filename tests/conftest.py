"""Shared fixtures: the example scenarios and a quick saturated cell."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
