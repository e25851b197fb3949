"""`wlansim reproduce STUDY [--quick] [--out DIR]`: run a paper's experiments and write
CSVs, PNG figures and a Markdown report with the paper's values beside ours."""

from __future__ import annotations

from wlansim.reproduce import STUDIES


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "reproduce",
        help="reproduce a paper's experiments",
        description="Run a study's experiments (campaigns stored under OUT/campaigns, "
        "reused on a second call) and write CSVs, PNGs and OUT/report.md.",
    )
    p.add_argument("study", choices=sorted(STUDIES), help="the paper")
    p.add_argument("--quick", action="store_true", help="shorter runs, fewer points and reps")
    p.add_argument("--out", default=None, help="output directory (default out/STUDY[-quick])")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    p.set_defaults(func=run_reproduce)


def run_reproduce(args) -> int:
    out = args.out or f"out/{args.study}{'-quick' if args.quick else ''}"
    path = STUDIES[args.study].reproduce(out, quick=args.quick, jobs=args.jobs)
    print(path.read_text())
    print(f"written: {path}")
    return 0
