"""The docs' summary of each study, generated from its committed full run
(docs/reproductions/NAME/claims.csv): the documentation (README.md and the pages under
docs/) quotes only verdicts from claims.csv.

    python scripts/readme_claims.py          # rewrite the blocks in README.md and docs/
    python scripts/readme_claims.py --check  # exit 1 if a block differs (make test)

A block sits between ``<!-- claims:NAME -->`` and ``<!-- /claims:NAME -->``; its links
are relative to the page it is on.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from wlansim.evidence import claims as cl  # noqa: E402

WORDS = {"holds": "hold", "does not hold": "do not hold", "undecided": "undecided",
         "cannot show": "cannot show", "not run": "not run"}  # fmt: skip


#: the pages that may hold claims blocks
PAGES = ("README.md", "docs/**/*.md")


def block(name: str, page: Path) -> str:
    """The summary of study `name`'s committed full run, as on `page`."""
    folder = Path(os.path.relpath(ROOT / "docs" / "reproductions" / name, page.parent))
    rows = cl.read_csv(ROOT / "docs" / "reproductions" / name / "claims.csv")
    profile = rows[0]["profile"] if rows else "?"
    other = rows[0]["other_profile"] if rows else "?"
    counts = {v: sum(r["verdict"] == v for r in rows) for v in cl.VERDICTS}
    moved = sum(r["other_verdict"] != r["verdict"] for r in rows)
    lines = [
        f"Full run under `{profile}` ([report]({folder}/report.md), "
        f"[claims.csv]({folder}/claims.csv)): "
        + ", ".join(f"{counts[v]} {WORDS[v]}" for v in cl.VERDICTS if counts[v])
        + f" of {len(rows)} claims"
        + (f"; under `{other}`, {moved} verdicts differ." if other else " (one profile only)."),
        "",
    ]
    failed = [r for r in rows if r["verdict"] == "does not hold"]
    summary = ROOT / "docs" / "reproductions" / name / "summary.json"
    extension = json.loads(summary.read_text()).get("subject") == "extension"
    if failed:
        lines.append(
            "Where the paper's statement does not carry over to this cell (does not hold):"
            if extension
            else "Where ours differs from the paper (does not hold):"
        )
        lines.append("")
        lines += [f"- {r['claim']} ({r['ref']}; ours: {r['ours']})" for r in failed]
    return "\n".join(lines)


PATTERN = re.compile(r"(<!-- claims:(\w+) -->\n)(.*?)(<!-- /claims:\2 -->)", re.S)


def render(text: str, page: Path) -> str:
    return PATTERN.sub(lambda m: m.group(1) + block(m.group(2), page) + "\n" + m.group(4), text)


def pages() -> list[Path]:
    """The pages with a claims block (the reproductions' own reports excluded)."""
    found = [p for pattern in PAGES for p in sorted(ROOT.glob(pattern))]
    return [p for p in found if "reproductions" not in p.parts and PATTERN.search(p.read_text())]


def main(argv: list[str]) -> int:
    stale = []
    for page in pages():
        text = page.read_text()
        new = render(text, page)
        if new != text:
            stale.append(page)
            if "--check" not in argv:
                page.write_text(new)
    if "--check" in argv and stale:
        names = ", ".join(str(p.relative_to(ROOT)) for p in stale)
        print(f"the claims blocks of {names} differ from docs/reproductions/*/claims.csv: "
              "run `python scripts/readme_claims.py`", file=sys.stderr)  # fmt: skip
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
