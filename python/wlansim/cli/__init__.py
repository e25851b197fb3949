"""The `wlansim` command line. Each sub-command lives in its own module with a
`register(subparsers)` function that adds its parser and sets `func`. A command line that
names its command imports and registers that module alone (`wlansim run` loads none of the
campaign, model or validation modules); `--help`, `--version` and an unknown command build
the whole parser."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from wlansim.errors import WlansimError

#: Every module's commands, in the order `wlansim --help` lists them.
COMMANDS = {
    "run_cmd": ("run",),
    "examples_cmd": ("examples",),
    "emulate_cmd": ("emulate",),
    "model_cmd": ("model",),
    "validate_cmd": ("validate",),
    "bench_cmd": ("bench",),
    "campaign_cmd": ("sweep", "results", "plot", "prune"),
    "reproduce_cmd": ("reproduce",),
    "schema_cmd": ("schema",),
    "trace_cmd": ("trace",),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of `command`'s module alone."""
    from wlansim import __version__

    parser = argparse.ArgumentParser(
        prog="wlansim",
        description="Simulate and model TCP/UDP over IEEE 802.11 WLANs.",
    )
    parser.add_argument("--version", action="version", version=f"wlansim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module, names in COMMANDS.items():
        if command is None or command in names:
            importlib.import_module(f"{__name__}.{module}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = argv[0] if argv and any(argv[0] in names for names in COMMANDS.values()) else None
    args = build_parser(named).parse_args(argv)
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
