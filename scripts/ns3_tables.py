"""Write docs/validation-ns3.md's standing tables (the statements' verdicts, saturated UDP
with single MPDUs and with A-MPDU, TCP, the rate ladder) from the committed pack of
ns-3.37's runs and this build's wlansim runs (`wlansim.evidence.ns3.tables`):

    python scripts/ns3_tables.py           # write them between their markers
    python scripts/ns3_tables.py --check   # exit 1 if the committed ones differ

It runs `wlansim validate ns3 --from-pack` with every case as the page's plan has it (6
seeds of 12 s of the single-MPDU cases, 20 of 4 s of the rate ladder's, 3 of 12 s of the
others) into a temporary directory with a store of its own (WLANSIM_CACHE), so that only
the pack's runs are read: nothing runs in ns-3 (fill the pack first with a whole
`wlansim validate ns3`). A case the pack has no run of is left out, and said so.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def from_pack():
    """A whole `validate ns3 --from-pack` run against the committed pack (its tables and
    verdicts)."""
    from wlansim.evidence.validation import validate
    from wlansim.evidence.validations import ns3

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WLANSIM_CACHE"] = str(Path(tmp) / "cache")
        result = validate("ns3", Path(tmp) / "out", reps=ns3.REPS, duration=ns3.DURATION_S,
                          jobs=1, from_pack=True)  # fmt: skip
    return result


def main() -> int:
    from wlansim.evidence.ns3 import tables

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare, exit 1 if stale")
    args = parser.parse_args()
    doc = ROOT / tables.DOC
    run = from_pack()
    if args.check:
        made = tables.markdown(run.tables, run.verdicts)
        stale = [n for n, lines in tables.committed(doc).items() if made[n] != lines]
        print("stale: " + ", ".join(stale) if stale else "the committed tables are current")
        return 1 if stale else 0
    changed = tables.write(doc, run.tables, run.verdicts)
    print(f"{doc}: " + (", ".join(changed) + " rewritten" if changed else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
