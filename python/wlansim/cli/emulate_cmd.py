"""`wlansim emulate FILE [--set k=v] [--seed N] [--out DIR] [--pcap DIR] [--reps N]
[--json]` and `wlansim emulate --cleanup [--force]`."""

from __future__ import annotations

import math
import sys

from .flags import add_reps, add_seed
from .output import format_table, json_dumps


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "emulate",
        help="run a scenario with real Linux hosts in real time (root)",
        description="Run a scenario whose [emulation] groups are real hosts (a network "
        "namespace with a TUN device per node, running the groups' commands) through the "
        "simulated cell in real time; print wlansim's tables beside the applications' "
        "reports and the real-time loop's lateness. Needs root, /dev/net/tun and `ip`.",
    )
    p.add_argument("scenario", metavar="FILE", nargs="?", help="scenario TOML file")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a scenario key (repeatable)",
    )
    add_seed(p, "random seed of the first replication (default: the scenario's)")
    p.add_argument("--out", metavar="DIR", default=None, help="keep the applications' outputs")
    p.add_argument(
        "--pcap", metavar="DIR", default=None, help="captures of the simulated air (real packets)"
    )
    add_reps(p, "run N times (seeds seed, seed+1, ...) and report means with 95%% CIs")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--cleanup",
        action="store_true",
        help="remove the namespaces and processes of emulation runs that were killed",
    )
    p.add_argument(
        "--force", action="store_true", help="with --cleanup: also those of runs still alive"
    )
    p.set_defaults(func=emulate_scenario)


def emulate_scenario(args) -> int:
    from wlansim.emulation import EmulationError, cleanup, emulate

    if args.cleanup:
        removed = cleanup(force=args.force)
        print(f"removed {len(removed)} namespace(s)" + "".join(f"\n  {n}" for n in removed))
        return 0
    if args.scenario is None:
        raise EmulationError("name a scenario file (or use --cleanup)")
    if args.reps < 1:
        raise EmulationError(f"--repetitions {args.reps}: at least 1")
    from wlansim.scenario import load

    seed = args.seed if args.seed is not None else int(load(args.scenario).get("seed", 1))
    runs = []
    for k in range(args.reps):
        out = None if args.out is None else f"{args.out}/rep-{k}"
        pcap = None if args.pcap is None else f"{args.pcap}/rep-{k}"
        if args.reps == 1:
            out, pcap = args.out, args.pcap
        runs.append(
            emulate(args.scenario, overrides=args.overrides, seed=seed + k, out=out, pcap=pcap)
        )
        if args.reps > 1 and not args.json:
            s = runs[-1].summary()
            print(
                f"repetition {k + 1}/{args.reps}: air {s['air_throughput_bps'] / 1e6:.3f}"
                f" Mb/s, applications {s['app_rate_bps'] / 1e6:.3f} Mb/s, lateness p99 "
                f"{_ms(s['lateness_p99_s'])} ms",
                file=sys.stderr,
            )
    if args.json:
        print(json_dumps([_document(r) for r in runs]))
        return 0
    if len(runs) == 1:
        _print_run(runs[0])
    else:
        _print_summary(runs)
    return 0


def _document(r) -> dict:
    return {
        "results": r.results.to_dict(),
        "realtime": r.realtime,
        "devices": r.devices,
        "applications": [
            {
                "node": a.node,
                "command": a.command,
                "returncode": a.returncode,
                "rate_bps": a.rate_bps(),
                "report": a.report,
            }
            for a in r.applications
        ],
        "summary": r.summary(),
    }


def _ms(seconds) -> str:
    return "nan" if seconds is None or math.isnan(seconds) else f"{seconds * 1e3:.3f}"


def _print_run(r) -> None:
    data = r.results.to_dict()
    flows = data["flows"]
    print("Flows (by 5-tuple, as the simulated network carried them)")
    columns = ["name", "direction", "src", "dst", "delivered_packets", "dropped_queue"]
    columns += ["dropped_retry", "throughput_bps", "delay_mean_s"]
    print(format_table(flows, columns))
    print("\nNodes")
    nodes = data["nodes"]
    print(format_table(nodes, list(nodes[0]) if nodes else []))
    print("\nApplications")
    apps = [
        {
            "node": a.node,
            "exit": a.returncode,
            "rate_bps": a.rate_bps(),
            "tx_dropped": r.devices.get(a.node, {}).get("tx_dropped", 0),
            "command": a.command if len(a.command) < 60 else a.command[:57] + "...",
        }
        for a in r.applications
    ]
    print(format_table(apps, ["node", "exit", "rate_bps", "tx_dropped", "command"]))
    rt = r.realtime
    print(
        f"\nreal time ({rt['mode']}): {rt['packets_out']} packets written, lateness p50 "
        f"{_ms(rt['lateness_p50_s'])} ms, p99 {_ms(rt['lateness_p99_s'])} ms, max "
        f"{_ms(rt['lateness_max_s'])} ms; largest lag {_ms(rt['max_lag_s'])} ms at "
        f"{rt['max_lag_at_s']:.3f} s; {rt['packets_in']} packets read, dropped: "
        f"{rt['dropped_unroutable']} unroutable, {rt['dropped_malformed']} malformed, "
        f"{rt['write_errors']} write errors, "
        f"{sum(d.get('tx_dropped', 0) for d in r.devices.values())} by the kernel (device "
        f"rings full); {rt['flow_control_stops']} flow-control stops; stopped at "
        f"{rt['stopped_at_s']:.3f} s"
    )
    for a in r.applications:
        if a.returncode not in (0, None, -15) and a.report is None:
            tail = a.output.strip().splitlines()[-3:]
            print(f"{a.node}: exit {a.returncode}: " + " | ".join(tail), file=sys.stderr)


def _print_summary(runs) -> None:
    from wlansim.campaign.stats import t_interval

    keys = list(runs[0].summary())
    rows = []
    for k in keys:
        ci = t_interval([r.summary()[k] for r in runs])
        rows.append({"metric": k, **{c: ci[c] for c in ("mean", "half_width", "n")}})
    print(f"Means over {len(runs)} repetitions (95% CI half-widths)")
    print(format_table(rows, ["metric", "mean", "half_width", "n"]))
