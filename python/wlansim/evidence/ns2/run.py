"""Running ns-2.35: find the `ns` binary, run a script in a directory of its own (what it
printed, the drops it traced, its wall and CPU seconds), read its trace, and run many
scripts a few at a time. Every ns-2 comparison (``wlansim validate ns2 | hidden``,
``wlansim reproduce NAME --against ns2``) goes through here."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from wlansim.evidence.packfile import keep
from wlansim.machine import timed_run


def ns_binary() -> str | None:
    """The `ns` executable on the PATH, or None."""
    return shutil.which("ns")


INSTALL_HINT = (
    "ns-2 is not installed: `make ns2` installs the Debian package ns2 (ns-2.35), or "
    "`sudo apt-get install ns2`; then run `wlansim validate ns2` again."
)


#: The file an ns-2 script writes its trace to, in the directory it runs in
#: (:func:`run_script`). With every trace flag off ns-2's wireless nodes still trace their
#: drops (interface queue, ARP, MAC), and only those; ns-2 refuses to build a wireless
#: node without a trace file.
TRACE_FILE = "trace.tr"


@dataclass(frozen=True)
class Ns2Run:
    """What an ns-2 script printed, the drops it traced (:data:`TRACE_FILE`, when it
    wrote one), its wall-clock and CPU seconds, and the files asked for by name
    (:func:`run_script`'s `read`)."""

    stdout: str
    drops: list[Drop]
    wall_s: float
    cpu_s: float
    #: the files asked for (:func:`run_script`'s `files`) by name, as text
    files: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Drop:
    """A drop line of ns-2's wireless trace (`D 12.3 _0_ IFQ --- 91 tcp 1040 ...`): its
    time, node, layer (IFQ, MAC, RTR, ARP), packet type (tcp, ack, cbr, ...) and size,
    and the reason ns-2 gives (`cmu-trace.h` `DROP_*`: `COL` collision, `CBK` a routing
    agent's MAC-failure callback, `ARP`, `---` none, as for a full interface queue's own
    drops; not compared)."""

    t: float
    node: int
    layer: str
    kind: str
    size: int
    reason: str = field(default="", compare=False)


def parse_drops(trace: str) -> list[Drop]:
    """The drop lines of an ns-2 wireless trace (old format, `cmu-trace.cc` `format_mac`
    and its neighbours: event, time, _node_, layer, reason, uid, type, size)."""
    drops = []
    for line in trace.splitlines():
        if not line.startswith("D"):  # most lines of a trace with agent or MAC traces on
            continue
        f = line.split()
        if len(f) >= 8 and f[0] == "D":
            drops.append(Drop(float(f[1]), int(f[2].strip("_")), f[3], f[6], int(f[7]), f[4]))
    return drops


def run_script(
    script: str,
    under: Sequence[str] = (),
    files: Mapping[str, str] | None = None,
    read: Sequence[str] = (),
    drops: bool = True,
) -> Ns2Run:
    """Run an ns-2 script in a directory of its own; see :class:`Ns2Run`. `under`: a
    command the run goes under (gdb's ``gdb -batch -x probe.py -ex run --args``); `files`:
    further files written beside the script first (name → text); `read`: glob patterns of
    the files read back when it ends (:attr:`Ns2Run.files`; e.g. the whole
    :data:`TRACE_FILE` of a script with its agent or MAC traces on); `drops` False leaves
    :attr:`Ns2Run.drops` empty (a caller that reads the trace itself)."""
    ns = ns_binary()
    if ns is None:
        raise RuntimeError(INSTALL_HINT)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "cell.tcl"
        path.write_text(script)
        for name, text in (files or {}).items():
            (Path(d) / name).write_text(text)
        out, wall, cpu = timed_run(
            [*under, ns, str(path)], cwd=d, capture_output=True, text=True, timeout=3600
        )
        trace = Path(d) / TRACE_FILE
        dropped = parse_drops(trace.read_text()) if drops and trace.exists() else []
        kept = {p.name: p.read_text() for pattern in read for p in sorted(Path(d).glob(pattern))}
    if out.returncode != 0:
        raise RuntimeError(f"ns-2 failed:\n{out.stdout}\n{out.stderr}")
    return Ns2Run(out.stdout, dropped, wall, cpu, kept)


def stored(store: Path | None, script: str, compute, digits: int = 24) -> dict:
    """`compute()`'s row (a JSON-able dict) for `script`, kept in `store` under the hash of
    the script's text (its first `digits` hex digits: fotiadis2005's rows were kept under
    20) and read back from there when the same script comes again (an interrupted or
    repeated `--against ns2` resumes); None: computed every time. Noted as asked for
    (:func:`asking`)."""
    if store is None:
        return compute()
    import hashlib
    import json

    path = Path(store) / f"{hashlib.sha256(script.encode()).hexdigest()[:digits]}.json"
    if _asked is not None:
        _asked.files.add(path.resolve())  # one call: atomic under the GIL (pmap's threads)
    if path.is_file():
        return json.loads(path.read_text())
    row = compute()
    keep(path, row)
    return row


@dataclass
class Asked:
    """What the ns-2 side of one invocation asked for, made or read back (:func:`asking`):
    the rows of :func:`stored` by their file's path, and campaign runs by their store's
    directory and key (:func:`asked_runs`); paths resolved."""

    files: set[Path] = field(default_factory=set)
    runs: dict[Path, set[str]] = field(default_factory=dict)


#: what :func:`asking` is collecting, if anything
_asked: Asked | None = None


@contextmanager
def asking() -> Iterator[Asked]:
    """Collect, while inside, what the ns-2 side asks for: its :class:`Asked` (what a
    whole run's pack keeps, :func:`wlansim.evidence.ns2.pack.save`)."""
    global _asked
    outer, _asked = _asked, Asked()
    try:
        yield _asked
    finally:
        _asked = outer


def asked_runs(store: Path, keys: Iterable[str]) -> None:
    """Note the runs `keys` of the campaign stored in the directory `store` as asked for,
    when :func:`asking` collects."""
    if _asked is not None:
        _asked.runs.setdefault(Path(store).resolve(), set()).update(keys)


def run_text(script: str) -> str:
    """Run an ns-2 script; what it printed."""
    return run_script(script).stdout


def packets(out: str) -> int:
    """The `packets N` line a UDP script printed."""
    m = re.search(r"^packets (\d+)$", out, re.MULTILINE)
    if m is None:
        raise RuntimeError(f"ns-2 printed no packet count:\n{out}")
    return int(m.group(1))


def pmap(fn, items: list, jobs: int = 1) -> list:
    """`fn` over `items` in order, `jobs` at a time: threads, since the work is an ns-2
    process and a wlansim run, which releases the GIL."""
    if jobs <= 1:
        return [fn(x) for x in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items))


def per_seed(fn, items: list, seeds: list[int], jobs: int = 1) -> list[list]:
    """`fn(item, seed)` for every item and seed, `jobs` at a time (:func:`pmap`): per
    item, its seeds' results in order."""
    every = pmap(lambda t: fn(*t), [(item, seed) for item in items for seed in seeds], jobs)
    return [every[i * len(seeds) : (i + 1) * len(seeds)] for i in range(len(items))]
