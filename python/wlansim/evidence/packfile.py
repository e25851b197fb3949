"""Files written whole or not at all, shared by the stores and packs of the peers' runs
(ns-2.35's, :mod:`wlansim.evidence.ns2.run` and :mod:`~wlansim.evidence.ns2.pack`;
ns-3.37's, :mod:`wlansim.evidence.ns3.store` and :mod:`~wlansim.evidence.ns3.pack`): a
stored run's JSON row, and a pack of JSON lines in an xz stream. Each is written under a
temporary name in its directory and renamed, so a killed run leaves no half-written file
to be read back."""

from __future__ import annotations

import json
import lzma
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def keep(path: Path, row: dict, sort_keys: bool = False) -> None:
    """Write `row` to `path` as JSON, whole or not at all: under a name of its own in the
    same directory (runs made side by side never share one), then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(row, sort_keys=sort_keys))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_pack(pack: Path, lines: Iterable[dict], sort_keys: bool = False) -> None:
    """Write `lines` to `pack`, one JSON object per line in an xz stream (:mod:`lzma`,
    preset 6, no time stamp: the same lines give the same bytes with the same liblzma),
    whole or not at all."""
    pack = Path(pack)
    pack.parent.mkdir(parents=True, exist_ok=True)
    tmp = pack.with_name(pack.name + ".tmp")
    with lzma.open(tmp, "wb", preset=6) as xz:
        for line in lines:
            xz.write((json.dumps(line, sort_keys=sort_keys) + "\n").encode())
    os.replace(tmp, pack)
