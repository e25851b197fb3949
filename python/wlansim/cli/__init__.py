"""The `wlansim` command line. Each sub-command lives in its own module with a
`register(subparsers)` function that adds its parser and sets `func`."""

from __future__ import annotations

import argparse
import os
import sys

from wlansim.errors import WlansimError

from . import (
    bench_cmd,
    campaign_cmd,
    emulate_cmd,
    examples_cmd,
    model_cmd,
    reproduce_cmd,
    run_cmd,
    schema_cmd,
    trace_cmd,
    validate_cmd,
)

COMMANDS = [
    run_cmd,
    examples_cmd,
    emulate_cmd,
    model_cmd,
    validate_cmd,
    bench_cmd,
    campaign_cmd,
    reproduce_cmd,
    schema_cmd,
    trace_cmd,
]


def build_parser() -> argparse.ArgumentParser:
    from wlansim import __version__

    parser = argparse.ArgumentParser(
        prog="wlansim",
        description="Simulate and model TCP/UDP over IEEE 802.11 WLANs.",
    )
    parser.add_argument("--version", action="version", version=f"wlansim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WlansimError as exc:
        print(f"wlansim: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt as exc:
        # a campaign says how many runs it stored; anything else was simply stopped
        print(f"wlansim: {str(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"wlansim: error: {exc}", file=sys.stderr)
        return 2
