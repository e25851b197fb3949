"""ns-3.37's runs kept by key, so that ``wlansim validate ns3`` runs a case in ns-3 once.

A run of the cell (:func:`~wlansim.evidence.ns3.run.run_cell`) is fully decided by the
binary and its arguments (ns-3's seed is one of them, ``--seed``, its ``RngRun``): the same
binary given the same arguments prints the same. :class:`Runs` keeps what each run printed
(parsed: :class:`~wlansim.evidence.ns3.run.Ns3Run`, or the error of a run that aborted,
raised again when read) in a directory, ``ROOT/<binary key>/<run key>.json``: the binary's
key is :func:`~wlansim.evidence.ns3.run.binary_key` (the SHA-256 of ``cell.cc``, the compile
command and ns-3's version), the run's the SHA-256 of its arguments (:func:`run_key`); a
stored run is read back only when both match and its arguments are the asked ones,
exactly. Each file is written whole under a temporary name and renamed, so a run killed
midway loses only the run it was making.

Where: ``runs/`` in the cache of the compiled cell (:func:`runs_dir`, beside the binaries:
``$WLANSIM_CACHE/ns3/runs``...), not under ``--out``: a run is the same whatever directory
the tables go to (``--quick`` into a test's temporary directory reads back what the last
one made), and the store, like the binaries, is remade when deleted. What is kept for
good, and carried to a machine without ns-3, is the pack
(:mod:`wlansim.evidence.ns3.pack`), restored into the store before a run and made from it
after a whole one.

Without ns-3 (no compiler or ``libns3-dev``) no binary key can be computed:
:func:`stored_binary` then takes the key of the stored runs whose ``binary.json`` names the
same ``cell.cc`` (its SHA-256), and only stored runs can be read (:class:`NotStored`
otherwise).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from wlansim.evidence import packfile
from wlansim.evidence.ns3.run import SOURCE, Ns3Run, arguments, cache_dir, run_cell

#: The file beside a binary's runs naming its source (:func:`source_digest`).
BINARY_FILE = "binary.json"


class NotStored(LookupError):
    """A run that is not stored, asked of a store without ns-3 to make it."""


def runs_dir() -> Path:
    """Where ns-3's runs are stored (the module's notes)."""
    return cache_dir() / "runs"


def source_digest() -> str:
    """The SHA-256 of :data:`~wlansim.evidence.ns3.run.SOURCE` (``cell.cc``)."""
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def run_key(args: dict) -> str:
    """The key of a run with `args` under one binary: the first 24 hex digits of the
    SHA-256 of its command-line arguments, sorted (ns-3 reads them in any order)."""
    text = "\n".join(sorted(arguments(args)))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def keep(path: Path, row: dict) -> None:
    """Write `row` to `path` whole or not at all (:func:`wlansim.evidence.packfile.keep`),
    its keys sorted."""
    packfile.keep(path, row, sort_keys=True)


def stored_binary(root: Path) -> str | None:
    """The key of the binary whose runs are stored under `root` and whose source is this
    ``cell.cc`` (the one holding the most runs if several, e.g. compiled elsewhere with
    other flags), or None."""
    digest = source_digest()
    found = []
    for meta in sorted(Path(root).glob(f"*/{BINARY_FILE}")):
        if json.loads(meta.read_text()).get("source_sha256") == digest:
            found.append((-sum(1 for _ in meta.parent.glob("*.json")), meta.parent.name))
    return min(found)[1] if found else None


@dataclass
class Runs:
    """The runs of the binary `key` stored under `root`; `binary`: the binary that makes
    the runs not stored yet, or None (ns-3 not here: :class:`NotStored`). The keys of the
    runs asked for (:attr:`asked`, what a whole run packs), made and read back."""

    root: Path
    key: str
    binary: Path | None = None
    asked: set[str] = field(default_factory=set)
    made: set[str] = field(default_factory=set)

    @property
    def directory(self) -> Path:
        return Path(self.root) / self.key

    def run(self, args: dict) -> Ns3Run:
        """The run of the cell with `args`: read back when stored under the same key with
        the same arguments, else made (and stored) by the binary; a stored run that aborted
        raises its RuntimeError again."""
        key = run_key(args)
        path = self.directory / f"{key}.json"
        argv = sorted(arguments(args))
        self.asked.add(key)  # one call: atomic under the GIL (pmap's threads)
        if path.is_file():
            row = json.loads(path.read_text())
            if row["argv"] == argv:
                return _read(row)
        if self.binary is None:
            raise NotStored(f"no stored ns-3 run of {' '.join(argv)}")
        if not (self.directory / BINARY_FILE).is_file():
            keep(self.directory / BINARY_FILE, {"source_sha256": source_digest()})
        try:
            made = run_cell(self.binary, args)
            row = {"argv": argv, "run": asdict(made)}
        except RuntimeError as e:
            row = {"argv": argv, "error": str(e)}
        keep(path, row)
        self.made.add(key)
        return _read(row)


def _read(row: dict) -> Ns3Run:
    if "error" in row:
        raise RuntimeError(row["error"])
    run = dict(row["run"])
    run["per_station"] = {int(k): v for k, v in run["per_station"].items()}
    return Ns3Run(**run)
