"""Compare the verdicts of two sets of reproductions, e.g. the committed full runs against a
run with other seeds:

    wlansim reproduce all --seed 2 --out /tmp/seed2
    python scripts/claims_diff.py docs/reproductions /tmp/seed2

Per study (a folder holding ``claims.csv`` in both): how many verdicts are the same, how
many moved to or from "undecided" (allowed: another set of seeds may straddle a threshold),
and every claim that holds in one and does not hold in the other (a contradiction: that
verdict belongs to its seeds). Exit 1 if there is a contradiction.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from wlansim.evidence import claims as cl  # noqa: E402


def compare(a: Path, b: Path) -> tuple[list[str], int]:
    """The report's lines and the number of contradictions between folders `a` and `b`."""
    lines, flips = [], 0
    for path in sorted(a.glob("*/claims.csv")):
        other = b / path.parent.name / "claims.csv"
        if not other.exists():
            continue
        left = {r["id"]: r["verdict"] for r in cl.read_csv(path)}
        right = {r["id"]: r["verdict"] for r in cl.read_csv(other)}
        common = sorted(set(left) & set(right))
        same = sum(left[i] == right[i] for i in common)
        bad = [i for i in common if cl.contradicts(left[i], right[i])]
        flips += len(bad)
        lines.append(
            f"{path.parent.name}: {same} of {len(common)} verdicts the same, "
            f"{len(common) - same - len(bad)} to or from undecided, {len(bad)} contradictions"
            + (
                f" ({len(set(left) ^ set(right))} claims in one only)"
                if set(left) ^ set(right)
                else ""
            )
        )
        lines += [f"  {i}: {left[i]} / {right[i]}" for i in bad]
    if not lines:
        lines.append(f"no study has claims.csv under both {a} and {b}")
    return lines, flips


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    lines, flips = compare(Path(argv[0]), Path(argv[1]))
    print("\n".join(lines))
    return 1 if flips else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
