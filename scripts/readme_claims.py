"""The README's summary of each study, generated from its committed full run
(docs/reproductions/NAME/claims.csv): the README quotes only verdicts from claims.csv.

    python scripts/readme_claims.py          # rewrite the blocks in README.md
    python scripts/readme_claims.py --check  # exit 1 if a block differs (make test)

A block sits between ``<!-- claims:NAME -->`` and ``<!-- /claims:NAME -->``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from wlansim.evidence import claims as cl  # noqa: E402

WORDS = {"holds": "hold", "does not hold": "do not hold", "undecided": "undecided",
         "cannot show": "cannot show", "not run": "not run"}  # fmt: skip


def block(name: str) -> str:
    """The summary of study `name`'s committed full run."""
    folder = Path("docs") / "reproductions" / name
    rows = cl.read_csv(ROOT / folder / "claims.csv")
    profile = rows[0]["profile"] if rows else "?"
    other = rows[0]["other_profile"] if rows else "?"
    counts = {v: sum(r["verdict"] == v for r in rows) for v in cl.VERDICTS}
    moved = sum(r["other_verdict"] != r["verdict"] for r in rows)
    lines = [
        f"Full run under `{profile}` ([report]({folder}/report.md), "
        f"[claims.csv]({folder}/claims.csv)): "
        + ", ".join(f"{counts[v]} {WORDS[v]}" for v in cl.VERDICTS if counts[v])
        + f" of {len(rows)} claims; under `{other}`, {moved} verdicts differ.",
        "",
    ]
    failed = [r for r in rows if r["verdict"] == "does not hold"]
    if failed:
        lines.append("Where ours differs from the paper (does not hold):")
        lines.append("")
        lines += [f"- {r['claim']} ({r['ref']}; ours: {r['ours']})" for r in failed]
    return "\n".join(lines)


PATTERN = re.compile(r"(<!-- claims:(\w+) -->\n)(.*?)(<!-- /claims:\2 -->)", re.S)


def render(text: str) -> str:
    return PATTERN.sub(lambda m: m.group(1) + block(m.group(2)) + "\n" + m.group(4), text)


def main(argv: list[str]) -> int:
    readme = ROOT / "README.md"
    text = readme.read_text()
    new = render(text)
    if "--check" in argv:
        if new != text:
            print("README.md's claims blocks differ from docs/reproductions/*/claims.csv: "
                  "run `python scripts/readme_claims.py`", file=sys.stderr)  # fmt: skip
            return 1
        return 0
    readme.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
