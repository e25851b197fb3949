"""`wlansim reproduce PAPER [--quick] [--out DIR]`: a paper's experiments, beside its
claims. Each paper is a module of `wlansim.reproduce` with `add_arguments(parser)` and
`run(args)`; add one line to PAPERS to register another."""

from __future__ import annotations

from wlansim.reproduce import ng2005

PAPERS = {
    "ng2005": ng2005,
}


def register(subparsers) -> None:
    parser = subparsers.add_parser("reproduce", help="reproduce a paper's experiments")
    which = parser.add_subparsers(dest="paper", required=True, metavar="PAPER")
    for name, module in PAPERS.items():
        summary = (module.__doc__ or name).strip().splitlines()[0]
        p = which.add_parser(name, help=summary, description=module.__doc__)
        module.add_arguments(p)
        p.set_defaults(func=module.run)
