"""ns-3.37's runs of ``wlansim validate ns3``, packed into one committed file.

The store of runs (:mod:`wlansim.evidence.ns3.store`, ``runs/`` in the cache) is a work
directory, not committed, so a new machine (or a machine without ns-3) would have to run
ns-3 again, about six hours of CPU for the whole comparison, even when only wlansim's side
changed. :func:`save` packs the stored runs into :data:`PACK`, committed beside the
comparison's page (docs/validation-ns3.md); :func:`restore` puts them back into an empty
or partial store before ``validate ns3`` runs, so only the runs whose binary (``cell.cc``,
its compile, ns-3's version) or arguments changed run in ns-3 again. A packed run is
used exactly as a stored one: the same keys, the same row.

Which runs: a whole run (:func:`wlansim.evidence.validations.ns3.whole`: every case, as
the page's tables are made, with ns-3 here) packs the runs it asked for, made or read
back, and no other (a run no case asks for any more leaves the pack); no other invocation
writes the pack (``--quick`` and other seeds or durations make runs of their own, which
the page does not show; a whole run stopped midway leaves its runs in the store, and the
next one reads them back). ``validate ns3`` uses the pack of the checkout it runs from
(:func:`default_pack`); an installed wlansim has none.

The pack is one JSON object per line, sorted by binary and run key, in an xz stream
(:mod:`lzma`, preset 6, no time stamp): packing the same runs twice gives the same bytes
(with the same liblzma). A line is ``{"binary": KEY, "meta": {...}}`` (a binary's
``binary.json``) or ``{"binary": KEY, "run": RUN_KEY, "row": {...}}`` (a stored run).
"""

from __future__ import annotations

import json
import lzma
from collections.abc import Iterable
from pathlib import Path

from wlansim.evidence.ns3.store import BINARY_FILE, keep
from wlansim.evidence.packfile import write_pack

#: The committed pack, relative to the repository's root.
PACK = Path("docs") / "validation-ns3" / "ns3-runs.jsonl.xz"


def default_pack() -> Path | None:
    """:data:`PACK` of the checkout this wlansim runs from, when it is one (its ``docs/``
    exists); None for an installed wlansim."""
    root = Path(__file__).resolve().parents[4]
    return root / PACK if (root / "docs" / "validation-ns3.md").is_file() else None


def save(store: Path, pack: Path, asked: dict[str, Iterable[str]] | None = None) -> int:
    """Pack the runs under the directory `store` into `pack`: every one, or with `asked`
    (binary key → run keys) those it names; how many runs it holds."""
    store, pack = Path(store), Path(pack)
    lines = []
    for meta in sorted(store.glob(f"*/{BINARY_FILE}")):
        binary = meta.parent.name
        keys = None if asked is None else set(asked.get(binary, ()))
        runs = [p for p in sorted(meta.parent.glob("*.json"))
                if p.name != BINARY_FILE and (keys is None or p.stem in keys)]  # fmt: skip
        if not runs:
            continue
        lines.append({"binary": binary, "meta": json.loads(meta.read_text())})
        lines += [{"binary": binary, "run": p.stem, "row": json.loads(p.read_text())}
                  for p in runs]  # fmt: skip
    write_pack(pack, lines, sort_keys=True)
    return sum("run" in x for x in lines)


def restore(pack: Path | None, store: Path) -> int:
    """Put the runs of `pack` into the directory `store` where they are not there yet (a
    run already stored is kept as it is); how many it put. No pack: nothing."""
    if pack is None or not Path(pack).is_file():
        return 0
    put = 0
    with lzma.open(pack, "rt") as f:
        for x in map(json.loads, f):
            name = BINARY_FILE if "meta" in x else f"{x['run']}.json"
            path = Path(store) / x["binary"] / name
            if not path.exists():
                keep(path, x["meta"] if "meta" in x else x["row"])
                put += "run" in x
    return put
