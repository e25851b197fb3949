"""`wlansim run FILE [--set key=value ...] [--seed N] [--json | --resolve]`."""

from __future__ import annotations

import json
import sys

from wlansim.api import run


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "run",
        help="simulate one scenario file",
        description="Simulate a scenario and print its flow and node tables "
        "(or one JSON document with --json).",
    )
    p.add_argument("scenario", metavar="FILE", help="scenario TOML file")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a scenario key, e.g. --set stations.sta.count=10 (repeatable)",
    )
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the scenario's)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--resolve",
        action="store_true",
        help="print the scenario with every default and preset written out (TOML), do not run",
    )
    p.set_defaults(func=run_scenario)


def run_scenario(args) -> int:
    if args.resolve:
        from wlansim.campaign.tomlout import dumps
        from wlansim.scenario import resolve

        print(dumps(resolve(args.scenario, args.overrides)), end="")
        return 0
    # A bar on stderr for runs expected to last more than a few seconds (terminal only).
    r = run(args.scenario, seed=args.seed, overrides=args.overrides, progress=sys.stderr.isatty())
    if args.json:
        print(json.dumps(r.to_dict()))
        return 0
    flows = r.flows.assign(
        throughput_mbps=r.flows["throughput_bps"] / 1e6,
        delay_mean_ms=r.flows["delay_mean_s"].astype(float) * 1e3,
        delay_p95_ms=r.flows["delay_p95_s"].astype(float) * 1e3,
    )
    columns = [
        "name",
        "direction",
        "src",
        "dst",
        "offered_packets",
        "delivered_packets",
        "dropped_queue",
        "dropped_retry",
        "throughput_mbps",
        "delay_mean_ms",
        "delay_p95_ms",
    ]
    if "goodput_bps" in flows:
        flows = flows.assign(
            goodput_mbps=flows["goodput_bps"] / 1e6,
            rtt_ms=flows["rtt_mean_s"].astype(float) * 1e3,
        )
        columns += ["goodput_mbps", "rtt_ms", "retransmissions", "timeouts"]
    print("Flows")
    print(flows[columns].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print("\nNodes")
    print(r.nodes.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    m, meta = r.metrics, r.meta
    print(
        f"\ntotal {m.get('throughput_bps', 0) / 1e6:.3f} Mb/s over {meta['measured_s']:g} s "
        f"(after {meta['warmup_s']:g} s warm-up), seed {meta['seed']}, {meta['events']} "
        f"events in {meta['wall_s']:.3f} s"
    )
    if "up_down_ratio" in m:
        print(f"up/down ratio {m['up_down_ratio']:.3f}, Jain's index {m['jain_index']:.3f}")
    return 0
