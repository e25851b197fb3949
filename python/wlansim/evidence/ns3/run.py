"""Running ns-3.37 (Debian's ``libns3-dev``): find ``g++`` and ns-3's pkg-config modules,
compile :data:`SOURCE` (``cell.cc``) once into a cache, run the binary with a case's
arguments and read what it printed. Every ns-3 comparison (``wlansim validate ns3``)
goes through here.

The cache: ``$WLANSIM_CACHE/ns3`` when that variable is set, else
``$XDG_CACHE_HOME/wlansim/ns3``, else ``~/.cache/wlansim/ns3``; the binary is named
``cell-<key>``, the key the first 16 hex digits of the SHA-256 of the source, the
compiler's command line and ns-3's version, so an edited ``cell.cc``, other flags or
another ns-3 compile anew and nothing stale is run. A compile writes to a temporary
name and renames it, so runs started together never see half a binary.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from wlansim.machine import timed_run

#: The C++ scenario every case runs (one binary, every choice an argument).
SOURCE = Path(__file__).with_name("cell.cc")
#: The pkg-config modules `cell.cc` links against.
MODULES = (
    "ns3-wifi",
    "ns3-internet",
    "ns3-applications",
    "ns3-mobility",
    "ns3-network",
    "ns3-point-to-point",
    "ns3-traffic-control",
    "ns3-core",
)
#: Compiler flags besides ns-3's own.
CXXFLAGS = ("-O2", "-std=c++17")

INSTALL_HINT = (
    "ns-3 is not installed: `make ns3` installs Debian's libns3-dev (ns-3.37) and libgsl-dev "
    "(which its pkg-config files need), or `sudo apt-get install libns3-dev libgsl-dev`; "
    "`g++` and `pkg-config` are needed too. Then run `wlansim validate ns3` again."
)


def cache_dir() -> Path:
    """Where compiled binaries are kept (see the module's notes)."""
    if os.environ.get("WLANSIM_CACHE"):
        return Path(os.environ["WLANSIM_CACHE"]) / "ns3"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wlansim" / "ns3"


@dataclass(frozen=True)
class Toolchain:
    """The compiler, ns-3's compile and link flags, and its version."""

    cxx: str
    flags: tuple[str, ...]
    version: str


def _pkg_config(*args: str) -> str | None:
    try:
        out = subprocess.run(["pkg-config", *args], capture_output=True, text=True, timeout=60)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def toolchain() -> Toolchain | None:
    """The toolchain, or None when `g++`, `pkg-config` or ns-3's modules are missing
    (:func:`missing` says which)."""
    cxx = shutil.which("g++")
    if cxx is None or shutil.which("pkg-config") is None:
        return None
    flags = _pkg_config("--cflags", "--libs", *MODULES)
    version = _pkg_config("--modversion", MODULES[0])
    if flags is None or version is None:
        return None
    return Toolchain(cxx, tuple(flags.split()), version)


def missing() -> str | None:
    """Why ns-3 cannot be run here (what is missing, how to install it), or None."""
    if shutil.which("g++") is None:
        return "g++ is not on the PATH. " + INSTALL_HINT
    if shutil.which("pkg-config") is None:
        return "pkg-config is not on the PATH. " + INSTALL_HINT
    if toolchain() is None:
        return f"pkg-config finds no {', '.join(MODULES)}. " + INSTALL_HINT
    return None


def binary_key(tools: Toolchain) -> str:
    """The key of :data:`SOURCE`'s binary for `tools` (the module's notes): what names it
    in the cache and keys its stored runs (:mod:`wlansim.evidence.ns3.store`)."""
    command = " ".join([tools.cxx, *CXXFLAGS, *tools.flags])
    digest = hashlib.sha256()
    for part in (SOURCE.read_bytes(), command.encode(), tools.version.encode()):
        digest.update(part)
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def binary_path(tools: Toolchain) -> Path:
    """The cached binary of :data:`SOURCE` for `tools` (compiled or not)."""
    return cache_dir() / f"cell-{binary_key(tools)}"


@dataclass(frozen=True)
class Compiled:
    """The binary, and the seconds its compile took (0: it was in the cache)."""

    path: Path
    compile_wall_s: float
    compile_cpu_s: float

    @property
    def key(self) -> str:
        """The binary's key (:func:`binary_key`)."""
        return self.path.name.removeprefix("cell-")


def compiled() -> Compiled:
    """The binary of :data:`SOURCE`, compiled if the cache does not hold it."""
    tools = toolchain()
    if tools is None:
        raise RuntimeError(missing() or INSTALL_HINT)
    path = binary_path(tools)
    if path.exists():
        return Compiled(path, 0.0, 0.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent)
    os.close(fd)
    try:
        out, wall, cpu = timed_run(
            [tools.cxx, *CXXFLAGS, str(SOURCE), "-o", tmp, *tools.flags],
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if out.returncode != 0:
            raise RuntimeError(f"compiling {SOURCE} failed:\n{out.stderr}")
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return Compiled(path, wall, cpu)


@dataclass(frozen=True)
class Ns3Run:
    """What one run of the cell printed: payload bytes received after the warm-up (in
    all; UDP per station, by the last byte of its address; TCP per flow, ``up0``,
    ``down0``...), the measured window, the counters (with ``counters``: the frames on
    the air by kind, ``tx_...``; with TCP also per node, ``by_...``, the AP's queue,
    ``apq_...``, and per flow, ``tcp_...``: cell.cc's header), and its wall-clock and CPU
    seconds."""

    rx_bytes: int
    window_s: float
    per_station: dict[int, int]
    frames: dict[str, int] = field(default_factory=dict)
    flows: dict[str, int] = field(default_factory=dict)
    wall_s: float = 0.0
    cpu_s: float = 0.0

    @property
    def throughput_bps(self) -> float:
        return 8.0 * self.rx_bytes / self.window_s


def parse(out: str) -> tuple[int, float, dict[int, int], dict[str, int], dict[str, int]]:
    """(rx_bytes, window_s, per station, counters, per flow) from the cell's output."""
    total = re.search(r"^rx_bytes (\d+)$", out, re.MULTILINE)
    window = re.search(r"^window_s (\S+)$", out, re.MULTILINE)
    if total is None or window is None:
        raise RuntimeError(f"ns-3's cell printed no byte count:\n{out}")
    stations = {int(a): int(b) for a, b in re.findall(r"^sta (\d+) rx_bytes (\d+)$", out, re.M)}
    frames = {k: int(v) for k, v in re.findall(r"^((?:tx|phy|by|apq|tcp)_\w+) (\d+)$", out, re.M)}
    flows = {k: int(v) for k, v in re.findall(r"^flow (\w+) rx_bytes (\d+)$", out, re.M)}
    return int(total.group(1)), float(window.group(1)), stations, frames, flows


def arguments(args: dict) -> list[str]:
    """The cell's command-line arguments for `args`: `--key=value` each, booleans as 0/1."""
    return [f"--{key}={int(value) if isinstance(value, bool) else value}"
            for key, value in args.items()]  # fmt: skip


def run_cell(binary: Path, args: dict) -> Ns3Run:
    """Run the cell with `args` (:func:`arguments`)."""
    argv = [str(binary), *arguments(args)]
    out, wall, cpu = timed_run(argv, capture_output=True, text=True, timeout=7200)
    if out.returncode != 0:
        raise RuntimeError(f"ns-3 failed ({' '.join(argv)}):\n{out.stdout}\n{out.stderr}")
    return Ns3Run(*parse(out.stdout), wall_s=wall, cpu_s=cpu)
