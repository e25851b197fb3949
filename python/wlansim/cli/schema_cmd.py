"""`wlansim schema [--markdown | --cli | --cli-units] [--out FILE]`: the JSON Schema of
scenario files, or the references generated from it and from the command line's
parsers."""

from __future__ import annotations

import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "schema",
        help="print the JSON Schema of scenario files (or --markdown: the key reference)",
        description="Print the JSON Schema of scenario files, for editors that validate and "
        "complete TOML (e.g. taplo, VS Code's Even Better TOML). With --markdown, print the "
        "reference of every key (docs/scenario.md).",
    )
    what = p.add_mutually_exclusive_group()
    what.add_argument("--markdown", action="store_true", help="the key reference in Markdown")
    what.add_argument(
        "--cli", action="store_true", help="the command-line reference in Markdown (docs/cli.md)"
    )
    what.add_argument(
        "--cli-units",
        action="store_true",
        help="the table of every flag and its unit handling in Markdown (docs/cli-units.md)",
    )
    p.add_argument("--out", metavar="FILE", default=None, help="write to FILE, not stdout")
    p.set_defaults(func=schema)


def schema(args) -> int:
    from wlansim.schema import json_text, markdown

    from . import reference

    if args.cli:
        text = reference.markdown()
    elif args.cli_units:
        text = reference.units_table()
    else:
        text = markdown() if args.markdown else json_text()
    if args.out:
        from pathlib import Path

        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
