"""`wlansim reproduce STUDY|all [--quick] [--out DIR] [--seed S] [--against ns2]`: run a paper's
experiments, decide its claims over replications, and write CSVs, claims.csv, PNG figures
and a Markdown report with the paper's values beside ours."""

from __future__ import annotations

from wlansim.errors import WlansimError
from wlansim.evidence.studies import CAMPAIGNS_DIR, NAMES, PROFILES


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "reproduce",
        help="reproduce a paper's experiments and decide its claims",
        description=f"Run a study's experiments (campaigns stored under OUT/{CAMPAIGNS_DIR}, "
        "reused on a second call; a progress bar per campaign on stderr), decide each of the "
        "paper's claims over replications (holds / does not hold / undecided / not run), "
        "and write CSVs, claims.csv, PNGs and OUT/report.md. A full run also runs every "
        "case under the other profile and reports its verdicts beside. 'all' runs the five "
        "studies and pilosof2003_11ac (an extension: pilosof2003's statements on 802.11ac "
        "with A-MPDU) into OUT/NAME and writes OUT/index.md.",
    )
    p.add_argument(
        "study", choices=[*sorted(NAMES), "all"], help="the paper (or the extension), or all"
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="fewer points and replications, no run under the other profile; the report "
        "lists what it skips",
    )
    p.add_argument("--out", default=None, help="output directory (default out/STUDY[-quick])")
    p.add_argument(
        "--profile",
        choices=PROFILES,
        default=None,
        help="run every figure under these rules instead of the study's own, which its "
        "report states (standard: the 802.11 standard and the RFCs; ns2: ns-2.35's MAC and "
        "TCP rules); default out directory gets -ns2 / -standard appended",
    )
    p.add_argument(
        "--seed",
        dest="seed_base",
        type=int,
        default=1,
        metavar="S",
        help="the base seed (default 1): replication r of every point gets the seed derived "
        "from (S, r); another S checks that a verdict does not belong to one set of seeds",
    )
    p.add_argument(
        "--against",
        choices=("ns2",),
        default=None,
        help="also run the paper's own simulator, ns-2.35, on every scenario of the study it "
        "can express, and decide each claim under it beside wlansim (the studies made with "
        "ns-2: fotiadis2005, janevski2009, miorandi2004, pilosof2003; 'all' skips it for "
        "ng2005, a test-bed study); needs `ns` (`make ns2`)",
    )
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: all)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=run_reproduce)


def run_reproduce(args) -> int:
    from wlansim.evidence.studies import study
    from wlansim.evidence.study import reproduce_all

    suffix = ("-quick" if args.quick else "") + (f"-{args.profile}" if args.profile else "")
    suffix += f"-seed{args.seed_base}" if args.seed_base != 1 else ""
    suffix += f"-{args.against}" if args.against else ""
    out = args.out or f"out/{args.study}{suffix}"
    progress = not args.no_progress
    if args.study == "all":
        if args.profile:
            raise WlansimError("--profile applies to one study; 'all' runs each study's own")
        path = reproduce_all(
            out, quick=args.quick, jobs=args.jobs, progress=progress, seed_base=args.seed_base,
            against=args.against,
        )  # fmt: skip
        print(path.read_text())
        print(f"written: {path}")
        return 0
    path = study(args.study).reproduce(
        out, quick=args.quick, jobs=args.jobs, progress=progress, profile=args.profile,
        seed_base=args.seed_base, against=args.against,
    )  # fmt: skip
    print(path.read_text())
    print(f"written: {path}")
    return 0
