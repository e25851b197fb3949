"""`wlansim validate bianchi` (the simulator beside Bianchi's model), `capture` (SINR
reception beside Bianchi's model with capture), `tcp-drops` (Fall & Floyd's drop tests),
`ns2` (wlansim's ns-2 profile beside ns-2.35 itself), `hidden` (the spatial medium:
hidden and exposed terminals, channels) and `ns3` (beside ns-3.37): the parsers. Each
validation runs in `wlansim.evidence.validation` (claims decided over its runs; CSVs,
claims.csv, figures and report.md under --out)."""

from __future__ import annotations

from wlansim.cli.flags import DURATION, SIZE
from wlansim.cli.model_cmd import parse_stations
from wlansim.phy import UDP_PAYLOAD_BYTES

from .output import json_dumps

DEFAULT_STATIONS = "1,2,3,5,7,10,15,20,25,30,40,50"
OUT_HELP = "directory for the CSVs, claims.csv, the figures and report.md"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="compare the simulator with a model or with ns-2.35",
        description="Run a validation, decide its checks over the runs (95 % confidence "
        "intervals), print its tables and checks, and write its tables (CSV), claims.csv, "
        "figures and report.md (opening with the bottom line) under --out.",
    )
    which = parser.add_subparsers(dest="validation", required=True, metavar="MODEL")
    p = which.add_parser(
        "bianchi",
        help="saturated 802.11b cell vs Bianchi's model",
        description="Simulate saturated cells (unlimited retries, ideal channel) for each n "
        "and access mode, and compare throughput and collision probability with Bianchi.",
    )
    p.add_argument(
        "--stations",
        default=DEFAULT_STATIONS,
        metavar="N",
        help="N, a list or FIRST:LAST[:STEP] (default: %(default)s)",
    )
    p.add_argument(
        "--quick", action="store_true", help="n = 1, 5, 20 and 50, 20 s per run, 3 seeds"
    )
    p.add_argument("--access", default="both", help="basic, rts, or both (default; also basic,rts)")
    p.add_argument(
        "--duration", type=DURATION, default=100.0, help="simulated time per run (default 100 s)"
    )
    p.add_argument(
        "--warmup",
        type=DURATION,
        default=1.0,
        help="warm-up of each run, not measured (default 1 s)",
    )
    p.add_argument(
        "--payload",
        type=SIZE,
        default=UDP_PAYLOAD_BYTES,
        help="UDP payload (default: %(default)s B)",
    )
    p.add_argument("--seed", type=int, default=1, metavar="S", help="the first seed (default 1)")
    p.add_argument(
        "--reps",
        type=int,
        metavar="N",
        default=5,
        help="runs per point, seeds S.. (default 5)",
    )
    p.add_argument("--out", default="out/validate-bianchi", help=OUT_HELP)
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(func=run_validation)
    c = which.add_parser(
        "capture",
        help="saturated 802.11b cells, reception none and sinr, vs Bianchi with capture",
        description="Simulate saturated 802.11b cells (basic access and RTS/CTS, control "
        "frames at 1 Mb/s) with reception none, sinr at equal powers and sinr with the "
        "stations at random distances, beside Bianchi's model and Bianchi's model with a "
        "capture probability (wlansim.models.capture) on the same powers.",
    )
    c.add_argument("--quick", action="store_true", help="n = 5 and 20, 20 s per run, 3 seeds")
    c.add_argument(
        "--stations", default=DEFAULT_STATIONS, metavar="N", help="N, a list or FIRST:LAST[:STEP]"
    )
    c.add_argument(
        "--duration", type=DURATION, default=100.0, help="simulated time per run (default 100 s)"
    )
    c.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="S",
        help="the first seed of the runs and the placements",
    )
    c.add_argument("--reps", type=int, metavar="N", default=5, help="runs per point (default 5)")
    c.add_argument("--out", default="out/validate-capture", help=OUT_HELP)
    c.add_argument("--json", action="store_true", help="print the table as JSON")
    c.set_defaults(func=run_validation)
    t = which.add_parser(
        "tcp-drops",
        help="Fall & Floyd 1996: 1 to 4 drops from one window, per TCP variant",
        description="One TCP upload over a wired bottleneck (0.8 Mb/s, 100 ms, queue 8) "
        "with segments 14, 16, 18, 20 (the first 1 to 4 of them) dropped at the router, for "
        "Tahoe, Reno, NewReno, SACK, Vegas and CUBIC: a table (timeouts, retransmissions, "
        "recovery time) and the paper's time-sequence and cwnd plots.",
    )
    t.add_argument(
        "--variants",
        default="tahoe,reno,newreno,sack,vegas,cubic",
        help="TCP variants, comma-separated (default: %(default)s)",
    )
    t.add_argument("--quick", action="store_true", help="4 s per run instead of 6 s, no plots")
    t.add_argument("--seed", type=int, default=1, metavar="S", help="the first seed (default 1)")
    t.add_argument("--reps", type=int, metavar="N", default=3, help="runs per case (default 3)")
    t.add_argument("--out", default="out/validate-tcp-drops", help=OUT_HELP)
    t.add_argument("--json", action="store_true", help="print the table as JSON")
    t.set_defaults(func=run_validation)
    n = which.add_parser(
        "ns2",
        help='profile = "ns2" beside ns-2.35 on matched cells',
        description="Write an ns-2 Tcl script for each matched cell, run ns-2 and wlansim "
        "(profile ns2) with several seeds and print them side by side: saturated UDP uplink "
        "(n = 1, 5, 10, 20; basic access and RTS/CTS; control rate 1 and 2 Mb/s; packets "
        "per second with 95 % intervals); ns-2's capture rule on both sides (20 stations "
        "on the circle and spread 5-45 m from the AP, capture on and off); how many "
        "packets an interface queue of B holds; "
        "a NewReno download whose window (128, 390) the path and an IFQ of 25 cannot hold, "
        "beside CBR through the same queue (goodput, timeouts, retransmissions, drops at "
        "the AP); TCP NewReno with k uploads and k downloads through the AP, k = 1-4 and "
        "B = 5, 20, 50, 100 (up/down ratio of means with a bootstrap interval and a "
        "permutation test per point, timeouts, retransmissions and drops at the AP per "
        "direction, SRTT, RTO and flows active per second); the totals of that grid with "
        "ns-2's DSDV and wlansim's routing_agent = dsdv (the profile's frame sizes). "
        "--speed instead times both simulators (ns-2 at its cheapest saturating load); "
        "--probe NAME instead measures one mechanism on both sides at one point of the TCP "
        "grid (--k, --buffer, seeds 1..--reps, --duration, ns-2's stations on --layout): "
        "ap-queue, how often the AP's buffer is full and when a download's timeout finds it "
        "full (ns-2's level rebuilt from its trace); pause-slots, the idle slots ns-2.35's "
        "backoff counts when it pauses, measured inside ns-2 with gdb (ns-2 only); "
        "tie-collisions, who collides right after a successful exchange (wlansim's side "
        "read from a capture with tshark). "
        "Needs `ns` on the PATH (`make ns2`); without it, says how to install it and exits.",
    )
    n.add_argument(
        "--quick",
        action="store_true",
        help="n = 1 and 10, basic, 1 Mb/s, 3 seeds; the capture case spread only; window "
        "128, 2 seeds; k = 1, 2 at B = 20, 50 with 3 seeds and no --tcp-reps-wide; one "
        "point of the frame-size check",
    )
    n.add_argument(
        "--reps",
        type=int,
        metavar="N",
        default=5,
        help="runs (seeds 1..N) per UDP cell, or of a --probe (default 5)",
    )
    n.add_argument(
        "--tcp-reps",
        metavar="N",
        type=int,
        default=10,
        help="runs per point of the TCP grid and of the window case (default 10)",
    )
    n.add_argument(
        "--tcp-reps-wide",
        metavar="N",
        type=int,
        default=240,
        help="runs for a TCP grid point where neither simulator starves and whose 95 %% "
        "interval of the ratio difference is wider than ±10 %% with --tcp-reps (decided on "
        "the width only; 0: never; default 240; not in --quick)",
    )
    n.add_argument(
        "--duration",
        type=DURATION,
        default=40.0,
        help="time per UDP run, or per run of a --probe, 10 s not measured (default 40 s)",
    )
    n.add_argument(
        "--speed",
        action="store_true",
        help="only time ns-2 and wlansim on 20 saturated stations for 100 s (alternating "
        "runs, with the machine's load; wlansim in-process and as a whole process, its "
        "modules byte-compiled)",
    )
    n.add_argument("--speed-runs", type=int, default=5, help="rounds of --speed (default 5)")
    n.add_argument(
        "--probe",
        choices=("ap-queue", "pause-slots", "tie-collisions"),
        default=None,
        help="only run this probe (above) and print its table",
    )
    n.add_argument("--k", type=int, default=3, help="--probe: k uploads + k downloads (default 3)")
    n.add_argument("--buffer", type=int, default=50, help="--probe: the AP's buffer (default 50)")
    n.add_argument(
        "--layout",
        choices=("circle", "half-circle"),
        default="circle",
        help="--probe: where ns-2's stations stand, 10 m from the AP (default circle)",
    )
    n.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="seeds run at a time, each an ns-2 process and a wlansim run (default 1)",
    )
    n.add_argument("--out", default="out/validate-ns2", help=OUT_HELP)
    n.add_argument("--json", action="store_true", help="print the tables as JSON")
    n.set_defaults(func=run_ns2)
    h = which.add_parser(
        "hidden",
        help="the spatial medium: hidden stations (beside ns-2.35 and a model), exposed "
        "senders, BSSs on channels 1, 6, 11",
        description="(a) Two saturated stations hidden from each other, the AP between "
        "them, basic access and RTS/CTS: wlansim (ns2 profile) beside ns-2.35 with the same "
        "geometry and thresholds, wlansim (standard) beside the vulnerable-period model; "
        "(b) two exposed senders; (c) three BSSs on channels 1, 6, 11 and on channel 1. "
        "Without `ns` on the PATH the ns-2 column is left out, with a note.",
    )
    h.add_argument("--quick", action="store_true", help="3 seeds, 20 s per run")
    h.add_argument(
        "--reps",
        type=int,
        metavar="N",
        default=10,
        help="runs (seeds 1..N) per case (default 10)",
    )
    h.add_argument(
        "--duration",
        type=DURATION,
        default=40.0,
        help="time per run (default 40 s, 10 s not measured)",
    )
    h.add_argument("--out", default="out/validate-hidden", help=OUT_HELP)
    h.add_argument("--json", action="store_true", help="print the tables as JSON")
    h.set_defaults(func=run_validation)
    m = which.add_parser(
        "ns3",
        help="wlansim beside ns-3.37 (libns3-dev) on matched saturated cells",
        description="Compile the ns-3 cell (python/wlansim/evidence/ns3/cell.cc) once "
        "into a cache, run it and wlansim with the same seeds on matched saturated UDP "
        "cells (802.11b 11 Mb/s, 802.11g/a 54 Mb/s, 802.11n MCS 7 at 20/40 MHz, 802.11ac "
        "MCS 8 at 20 MHz and MCS 9 at 40/80 MHz, single MPDUs; the 802.11n/ac ones again "
        "with A-MPDUs of 65,535 B; n = 1, 5, 10, 20; basic access and RTS/CTS) and on TCP "
        "through the AP with A-MPDU (802.11n 20 MHz and 802.11ac 80 MHz, k = 1, 2, 5 "
        "uploads and as many downloads, AP buffer 100) and on one station adapting its "
        "rate (Minstrel-HT, ideal) with A-MPDU on 802.11n 20 MHz and 802.11ac 80 MHz at "
        "SNRs of 5-30 dB, "
        "decide the agreement statements "
        "and measure what ns-3's defaults the matched runs turn off change (preamble "
        "detection, beacons, the 802.11ac stations' Block Ack agreement). --speed instead "
        "times both simulators (ns-3 at its cheapest). ns-3's runs are stored by the cell's "
        "and their arguments' hashes and read back (only what changed runs again); the "
        "checkout's pack (docs/validation-ns3/ns3-runs.jsonl.xz) is restored into the store "
        "first, and a run of every case with the default --reps and --duration packs the "
        "ns-3 runs it asked for into it. Needs g++ and libns3-dev (`make ns3`); without "
        "them, the tables of the cases the pack holds (wlansim's side run anew, the rest "
        "left out, said so), or, with no stored run, how to install them.",
    )
    m.add_argument(
        "--quick",
        action="store_true",
        help="802.11b and 802.11ac 80 MHz at n = 5, basic access, and 802.11n MCS 7 20 MHz "
        "with A-MPDU; Minstrel-HT at 10 and 25 dB SNR; no TCP case; 2 seeds, 4 s per run",
    )
    m.add_argument(
        "--reps",
        type=int,
        default=3,
        metavar="N",
        help="runs per case (default 3; with the defaults of --reps and --duration the "
        "single-MPDU cases run 6 seeds, the A-MPDU and TCP ones 10 and the rate ladder 20)",
    )
    m.add_argument(
        "--duration",
        type=DURATION,
        default=12.0,
        help="time per run (default 12 s, 2 s not measured)",
    )
    m.add_argument("--jobs", type=int, default=1, help="ns-3 runs at a time (default 1)")
    m.add_argument(
        "--from-pack",
        action="store_true",
        help="run nothing in ns-3: its side only from the stored runs (restored from "
        "docs/validation-ns3/ns3-runs.jsonl.xz), a case without one left out (as without "
        "ns-3 installed)",
    )
    m.add_argument(
        "--speed",
        action="store_true",
        help="only time ns-3 and wlansim on the bench's A-MPDU cells (802.11ac 80 MHz: 20 "
        "saturated stations; 5 TCP uploads + 5 downloads), 10 s each (alternating runs, "
        "with the machine's load)",
    )
    m.add_argument("--speed-runs", type=int, default=3, help="rounds of --speed (default 3)")
    m.add_argument("--out", default="out/validate-ns3", help=OUT_HELP)
    m.add_argument("--json", action="store_true", help="print the tables as JSON")
    m.set_defaults(func=run_ns3)


def run_validation(args, ignore: tuple[str, ...] = ()) -> int:
    """Run the validation the command names with its options (every option of its parser
    but --out, --json and those in `ignore`; comma lists split, --stations parsed) and
    print what it found, or its tables as JSON."""
    from wlansim.evidence.validation import validate

    skip = {"command", "validation", "func", "out", "json", *ignore}
    options = {k: v for k, v in vars(args).items() if k not in skip}
    for key in ("access", "variants"):
        if key in options:
            options[key] = [x.strip() for x in options[key].split(",") if x.strip()]
    if "stations" in options:
        options["stations"] = parse_stations(options["stations"])
    return _print(validate(args.validation, args.out, **options), args.json)


def run_ns2(args) -> int:
    """``validate ns2``: the validation, or --speed's timing, or a --probe."""
    if args.speed:
        from wlansim.evidence.validation import speed_report

        return _print(speed_report("ns2", args.speed_runs), args.json)
    if args.probe:
        from wlansim.evidence.validations.ns2_probes import probe

        result = probe(args.probe, args.k, args.buffer, args.reps, args.duration, args.layout,
                       args.out)  # fmt: skip
        return _print(result, args.json)
    return run_validation(args, ignore=("speed", "speed_runs", "probe", "k", "buffer", "layout"))


def run_ns3(args) -> int:
    """``validate ns3``: the validation, or --speed's timing."""
    if args.speed:
        from wlansim.evidence.validation import speed_report

        return _print(speed_report("ns3", args.speed_runs), args.json)
    return run_validation(args, ignore=("speed", "speed_runs"))


def _print(result, as_json: bool) -> int:
    print(json_dumps(result.data) if as_json and result.data is not None else result.text)
    return 0
