"""`wlansim reproduce STUDY [--quick] [--out DIR]`: run a paper's experiments and write
CSVs, PNG figures and a Markdown report with the paper's values beside ours."""

from __future__ import annotations

from wlansim.reproduce import CAMPAIGNS_DIR, NAMES, PROFILES


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "reproduce",
        help="reproduce a paper's experiments",
        description=f"Run a study's experiments (campaigns stored under OUT/{CAMPAIGNS_DIR}, "
        "reused on a second call; a progress bar per campaign on stderr) and write CSVs, "
        "PNGs and OUT/report.md.",
    )
    p.add_argument("study", choices=sorted(NAMES), help="the paper")
    p.add_argument("--quick", action="store_true", help="shorter runs, fewer points and reps")
    p.add_argument("--out", default=None, help="output directory (default out/STUDY[-quick])")
    p.add_argument(
        "--profile",
        choices=PROFILES,
        default=None,
        help="run every figure under these rules instead of the study's choice, which its "
        "report states (standard: the 802.11 standard and the RFCs; ns2: ns-2.35's MAC and "
        "TCP rules); default out directory gets -ns2 / -standard appended",
    )
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=run_reproduce)


def run_reproduce(args) -> int:
    from wlansim.reproduce import study

    suffix = ("-quick" if args.quick else "") + (f"-{args.profile}" if args.profile else "")
    out = args.out or f"out/{args.study}{suffix}"
    kw = {"profile": args.profile} if args.profile else {}
    path = study(args.study).reproduce(
        out, quick=args.quick, jobs=args.jobs, progress=not args.no_progress, **kw
    )
    print(path.read_text())
    print(f"written: {path}")
    return 0
