"""`wlansim examples [--copy DIR]`: the example scenarios shipped with wlansim."""

from __future__ import annotations


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "examples",
        help="list the example scenarios shipped with wlansim, or copy them to edit",
        description="List the example scenarios installed with wlansim (run one with "
        "`wlansim run --example NAME`), or copy them into a directory to start your own.",
    )
    p.add_argument(
        "--copy",
        metavar="DIR",
        default=None,
        help="copy every example (and the traces they read) into DIR; existing files are kept",
    )
    p.set_defaults(func=cmd_examples)


def cmd_examples(args) -> int:
    from wlansim import examples

    if args.copy is not None:
        written = examples.copy(args.copy)
        print(f"copied {len(written)} files into {args.copy} (existing files kept)")
        return 0
    names = examples.names()
    width = max(len(n) for n in names)
    for name in names:
        print(f"{name.ljust(width)}  {examples.summary(name)}")
    print(f"\nrun one: wlansim run --example NAME; files in {examples.DIR}")
    return 0
