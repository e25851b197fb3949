"""`wlansim schema [--markdown] [--out FILE]`: the JSON Schema of scenario files, or the
reference of every key generated from it."""

from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "schema",
        help="print the JSON Schema of scenario files (or --markdown: the key reference)",
        description="Print the JSON Schema of scenario files, for editors that validate and "
        "complete TOML (e.g. taplo, VS Code's Even Better TOML). With --markdown, print the "
        "reference of every key (docs/scenario.md).",
    )
    p.add_argument("--markdown", action="store_true", help="the key reference in Markdown")
    p.add_argument("--out", metavar="FILE", default=None, help="write to FILE, not stdout")
    p.set_defaults(func=schema)


def schema(args) -> int:
    from wlansim.schema import json_text, markdown

    text = markdown() if args.markdown else json_text()
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
