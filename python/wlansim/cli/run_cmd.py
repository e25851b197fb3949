"""`wlansim run FILE|--example NAME [--set key=value ...] [--seed N] [--pcap DIR]
[--json | --resolve]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from wlansim.api import run

from .output import format_table, json_dumps


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "run",
        help="simulate one scenario file",
        description="Simulate a scenario and print its flow and node tables "
        "(or one JSON document with --json).",
    )
    p.add_argument("scenario", metavar="FILE", nargs="?", help="scenario TOML file")
    p.add_argument(
        "--example",
        metavar="NAME",
        default=None,
        help="run the shipped example scenario NAME instead of a FILE (`wlansim examples` "
        "lists them)",
    )
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a scenario key, e.g. --set stations.sta.count=10 (repeatable)",
    )
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the scenario's)")
    p.add_argument(
        "--pcap",
        metavar="DIR",
        default=None,
        help="write pcap captures into DIR (sets output.pcap; one file per node, or per BSS "
        "with --set output.pcap_per=bss, and one per wired link)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--resolve",
        action="store_true",
        help="print the scenario with every default and preset written out (TOML), do not run",
    )
    p.set_defaults(func=run_scenario)


def scenario_path(args) -> Path:
    """The FILE argument, or the example that --example names (one of the two)."""
    from wlansim import examples
    from wlansim.errors import WlansimError

    if (args.scenario is None) == (args.example is None):
        raise WlansimError("give a scenario FILE or --example NAME (one of the two)")
    return Path(args.scenario) if args.example is None else examples.path(args.example)


def run_scenario(args) -> int:
    path = scenario_path(args)
    if args.pcap is not None:
        # a JSON string is a TOML basic string: the directory is taken verbatim
        args.overrides = [*args.overrides, f"output.pcap={json.dumps(args.pcap)}"]
    if args.resolve:
        from wlansim.campaign.tomlout import dumps
        from wlansim.scenario import resolve

        print(dumps(resolve(path, args.overrides)), end="")
        return 0

    # A bar on stderr for runs expected to last more than a few seconds (terminal only).
    r = run(
        path,
        seed=args.seed,
        overrides=args.overrides,
        progress=sys.stderr.isatty(),
    )
    if args.json:
        print(json_dumps(r.to_dict()))
        return 0
    data = r.to_dict()
    flows = data["flows"]
    columns = [
        "name",
        "direction",
        "src",
        "dst",
        "offered_packets",
        "delivered_packets",
        "dropped_queue",
        "dropped_retry",
        "throughput_bps",
        "delay_mean_s",
        "delay_p95_s",
    ]
    tcp = any(f.get("protocol") == "tcp" for f in flows)
    if tcp:
        columns += ["goodput_bps", "rtt_mean_s", "retransmissions", "timeouts"]
    headers = {"dropped_queue": "dropped_queue*"} if tcp else {}
    early = sum(f.get("delivered_from_warmup", 0) for f in flows if f.get("protocol") != "tcp")
    if early:
        headers["delivered_packets"] = "delivered_packets+"
    print("Flows")
    print(format_table(flows, columns, headers))
    if tcp:
        print(TCP_NOTE)
    if early:
        print(
            f"+ delivered_packets counts {early} packet(s) offered during the warm-up and "
            "delivered after it\n  (column delivered_from_warmup of --json and Results.flows)."
        )
    print("\nNodes")
    nodes = data["nodes"]
    print(format_table(nodes, list(nodes[0]) if nodes else []))
    bss = data.get("bss", [])
    if len(bss) > 1:
        columns = ["ap", "ssid", "stations", "uplink_bps", "downlink_bps", "attempts"]
        columns += ["collisions", "retry_drops", "queue_drops"]
        print("\nBSSs")
        print(format_table(bss, columns))
    m, meta = r.metrics, r.meta
    print(
        f"\ntotal {m.get('throughput_bps', 0) / 1e6:.3f} Mb/s over {meta['measured_s']:g} s "
        f"(after {meta['warmup_s']:g} s warm-up), seed {meta['seed']}, {meta['events']} "
        f"events in {meta['wall_s']:.3f} s"
    )
    if "up_down_ratio" in m:
        print(f"up/down ratio {m['up_down_ratio']:.3f}, Jain's index {m['jain_index']:.3f}")
    return 0


TCP_NOTE = (
    "* TCP flows: offered/delivered count data segments (retransmissions included; a "
    "segment sent\n  before the end of the warm-up counts only as delivered); "
    "dropped_queue counts the flow's data\n  segments and its ACKs dropped at any queue "
    "(an upload's are mostly its ACKs at the AP)."
)
