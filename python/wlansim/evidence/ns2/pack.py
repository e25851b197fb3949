"""ns-2.35's runs of a study, packed into one file that is committed beside its report.

`wlansim reproduce NAME --against ns2` keeps ns-2.35's runs under ``OUT/NAME/ns2/``: the
campaign stores (``campaign.sqlite``) and the rows of :func:`~wlansim.evidence.ns2.run.stored`
(one JSON file per script). Those are work files, not committed, so a new machine had to
run ns-2.35 again (about two hours of CPU for the four studies) before it could write a
report with the ns-2 column, even when only wlansim's side had changed. :func:`save`
packs them into ``OUT/NAME/ns2-runs.jsonl.xz`` (:data:`PACK`), which is committed with the
report; :func:`restore` puts the packed runs back into an empty or partial ``ns2/`` before
the study runs, so only the runs whose scenario (its run key) or script (its hash) changed
are made again. A packed run is used exactly as a stored one: the same key, the same row.

A pack holds the runs the study asks for: an invocation that runs the study's whole ns-2
side as its committed report does (:func:`whole`: not ``--quick``, the study's own profile,
seed base 1) packs only the runs its ns-2 side asked for, made or read back
(:func:`~wlansim.evidence.ns2.run.asking`), so a run the study no longer asks for leaves
the pack; any other invocation (quick, another profile or seed base) adds its runs to the
pack's and drops none, so it never throws away a whole run's runs.

The pack is one JSON object per line, in the order of the files and of the stores' keys,
in an xz stream (:mod:`lzma`, preset 6; no time stamp), so packing the same runs twice
gives the same bytes (with the same liblzma). xz, not gzip: the four committed packs take
1.79 MB instead of 3.66 MB (miorandi2004's, mostly ``file_sizes`` lists, 1.40 MB instead
of 3.14 MB) and restore as fast (packing takes longer: miorandi2004's 7.0 s of CPU
instead of 2.5 s, once per ``--against ns2`` run); a row keeps the order of its columns
(the tables made from it do too). A line is one of
``{"kind": "file", "path": ..., "row": ...}`` (a stored script's row),
``{"kind": "base", "store": ..., ...}`` (a campaign's base scenario) and
``{"kind": "run", "store": ..., ...}`` (a run: the store's ``runs`` row, its series).
Paths are relative to ``ns2/``."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

from wlansim.campaign.store import DB_NAME, Store
from wlansim.evidence.ns2.run import Asked
from wlansim.evidence.packfile import keep, write_pack

#: the file a study's ns-2.35 runs are packed into, in its output directory
PACK = "ns2-runs.jsonl.xz"


def whole(quick: bool, profile: str, own_profile: str, seed_base: int) -> bool:
    """Whether an invocation runs a study's whole ns-2 side, as its committed report does
    (not `quick`, under the study's `own_profile`, seed base 1): its pack then holds only
    what it asked for (:func:`save`)."""
    return not quick and profile == own_profile and seed_base == 1


def save(store: Path, pack: Path, asked: Asked | None = None) -> int:
    """Pack the runs under the directory `store` (a study's ``ns2/``) into `pack`: every
    one, or with `asked` (a whole run's, :func:`whole`) those it names and their campaigns'
    bases; how many runs (campaign runs and stored scripts) it holds."""
    store = Path(store)
    lines = []
    for path in sorted(store.rglob("*.json")):
        if asked is None or path.resolve() in asked.files:
            rel = path.relative_to(store).as_posix()
            lines.append({"kind": "file", "path": rel, "row": json.loads(path.read_text())})
    for db in sorted(store.rglob(DB_NAME)):
        rel = db.parent.relative_to(store).as_posix()
        with Store(db.parent, readonly=True) as st:
            dump = st.dump()
        runs, bases = dump["runs"], dump["bases"]
        if asked is not None:
            keys = asked.runs.get(db.parent.resolve(), set())
            runs = [r for r in runs if r["key"] in keys]
            used = {r["base_hash"] for r in runs}
            bases = [b for b in bases if b["hash"] in used]
        lines += [{"kind": "base", "store": rel, **b} for b in bases]
        lines += [{"kind": "run", "store": rel, **r} for r in runs]
    # keys in the order written: a row's columns come back in its own order
    write_pack(pack, lines)
    return sum(x["kind"] != "base" for x in lines)


def restore(pack: Path, store: Path) -> int:
    """Put the runs of `pack` into the directory `store` where they are not there yet
    (a run already stored is kept as it is); how many it put. No pack: nothing."""
    pack, store = Path(pack), Path(store)
    if not pack.is_file():
        return 0
    dumps: dict[str, dict[str, list]] = {}
    put = 0
    with lzma.open(pack, "rt") as f:
        for x in map(json.loads, f):
            kind = x.pop("kind")
            if kind == "file":
                path = store / x["path"]
                if not path.exists():
                    keep(path, x["row"])
                    put += 1
            else:
                dump = dumps.setdefault(x.pop("store"), {"bases": [], "runs": []})
                dump[f"{kind}s"].append(x)
    for rel, dump in dumps.items():
        with Store(store / rel) as st:
            put += st.merge(dump)
    return put
