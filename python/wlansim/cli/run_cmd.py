"""`wlansim run FILE|--example NAME [--set key=value ...] [--seed N] [--pcap DIR]
[--json | --resolve]`."""

from __future__ import annotations

import json
import sys

from wlansim.api import run

from .flags import add_seed
from .output import format_table, json_dumps

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see wlansim.scenario)
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path


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
    add_seed(p, "random seed (default: the scenario's)")
    p.add_argument(
        "--pcap",
        metavar="DIR",
        default=None,
        help="write pcap captures into DIR (sets output.pcap; one file per node, or per BSS "
        "with --set output.pcap_per=bss, and one per wired link)",
    )
    p.add_argument(
        "--wide",
        action="store_true",
        help="every flow column and the nodes table (default: a compact summary)",
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
    from pathlib import Path

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
    print(summary_text(r.to_dict(), wide=args.wide))
    return 0


def summary_text(data: dict, wide: bool = False) -> str:
    """What `wlansim run` prints: the flows, the sessions when there are any, the BSSs and
    the totals; with ``wide`` every flow column and the nodes table (all-zero columns
    named, not shown). Each number that needs it is explained by a note under its table."""
    flows = [flow_row(f) for f in data["flows"]]
    meta, metrics = data["meta"], data["metrics"]
    tcp = any(f.get("protocol") == "tcp" for f in flows)
    out = ["Flows", format_table(flows, flow_columns(flows, wide), flow_headers(flows, wide))]
    out += flow_notes(flows, meta, wide)
    sessions = session_rows(data)
    if sessions:
        out += ["", "Sessions (files of the on/off flows; delay: request to last byte acked)"]
        out.append(format_table(sessions, list(sessions[0])))
    if wide:
        nodes = data["nodes"]
        shown, zero = nonzero_columns(nodes)
        out += ["", "Nodes", format_table(nodes, shown)]
        if zero:
            out.append(f"(all zero, not shown: {', '.join(zero)})")
    bss = data.get("bss", [])
    if bss:
        columns = ["ap", "ssid", "stations", "uplink_bps", "downlink_bps", "attempts"]
        columns += ["collisions", "retry_drops", "queue_drops"]
        out += ["", "BSSs"]
        out.append(format_table(bss, columns))
    out.append(
        f"\ntotal {metrics.get('throughput_bps', 0) / 1e6:.3f} Mb/s over {meta['measured_s']:g} s "
        f"(after {meta['warmup_s']:g} s warm-up), seed {meta['seed']}, {meta['events']} "
        f"events in {meta['wall_s']:.3f} s"
    )
    if "up_down_ratio" in metrics:
        out.append(
            f"up/down ratio {metrics['up_down_ratio']:.3f}, Jain's index "
            f"{metrics['jain_index']:.3f}"
        )
    if not wide:
        out.append("(--wide: every flow column, the nodes table; --json: everything)")
    if tcp:
        out.append(TCP_NOTE if wide else TCP_NOTE_COMPACT)
    return "\n".join(out)


#: the compact flow table (TCP columns when a flow is TCP)
COMPACT = ["name", "direction", "src", "dst", "throughput_bps", "delay_mean_s", "dropped"]
COMPACT_TCP = ["goodput_bps", "rtt_mean_s", "retransmissions", "timeouts"]
WIDE = ["name", "protocol", "direction", "src", "dst", "offered_packets", "delivered_packets",
        "dropped_queue", "dropped_retry", "dropped_scripted", "dropped_lifetime",
        "throughput_bps",
        "delay_mean_s", "delay_p95_s", "jitter_s"]  # fmt: skip
WIDE_TCP = ["goodput_bps", "rtt_mean_s", "retransmissions", "fast_retransmits", "timeouts",
            "spurious_timeouts", "acks_sent", "cwnd_bytes"]  # fmt: skip


def flow_row(flow: dict) -> dict:
    """A flow as its table shows it: all drops summed in ``dropped``, and ``completed``
    in seconds (not a ``_s`` column: the table would show it in ms)."""
    row = dict(flow)
    row["dropped"] = flow["dropped_queue"] + flow["dropped_retry"]
    row["dropped"] += flow.get("dropped_scripted", 0) + flow.get("dropped_lifetime", 0)
    row["completed"] = flow.get("completed_s")
    return row


def flow_columns(flows: list[dict], wide: bool) -> list[str]:
    columns = list(WIDE if wide else COMPACT)
    if any(f.get("protocol") == "tcp" for f in flows):
        columns += WIDE_TCP if wide else COMPACT_TCP
    if any(f["completed"] is not None for f in flows):
        columns.append("completed")
    return columns


def flow_headers(flows: list[dict], wide: bool) -> dict[str, str]:
    headers = {"completed": "completed (s)"}
    if any(f.get("protocol") == "tcp" for f in flows):
        headers["dropped_queue" if wide else "dropped"] = "dropped_queue*" if wide else "dropped*"
    if wide and any(f.get("delivered_from_warmup", 0) for f in flows if f.get("protocol") != "tcp"):
        headers["delivered_packets"] = "delivered_packets+"
    return headers


def flow_notes(flows: list[dict], meta: dict, wide: bool) -> list[str]:
    """The notes that explain a flow table's less obvious numbers, only when they occur."""
    notes = []
    measured = meta["measured_s"]
    over = [f["name"] for f in flows if f.get("goodput_bps", 0) > f["throughput_bps"]]
    if over:
        notes.append(
            f"goodput above throughput ({', '.join(over)}): data received out of order before "
            "the warm-up ended was delivered in order after it, so it counts in goodput and "
            "not in throughput (at most one receive window per flow)"
        )
    done = [f for f in flows if f["completed"] is not None]
    if done:
        notes.append(
            "completed: the transfer's last byte was acknowledged then; its rates are averaged "
            f"over the whole {measured:g} s measured, so divide by the time it took "
            "(completed - start) for its transfer rate"
        )
    if wide and any(f.get("cwnd_bytes", 0) > 0 for f in flows):
        notes.append(
            "cwnd_bytes: the congestion window at the end; the sender keeps at most min(cwnd, "
            "rwnd) in flight and, as in ns-2, cwnd grows with each ACK while rwnd limits the "
            "flow, so it may end far above rwnd"
        )
    early = sum(f.get("delivered_from_warmup", 0) for f in flows if f.get("protocol") != "tcp")
    if wide and early:
        notes.append(
            f"+ delivered_packets counts {early} packet(s) offered during the warm-up and "
            "delivered after it (column delivered_from_warmup of --json and Results.flows)"
        )
    return [f"note: {n}" for n in notes]


def session_rows(data: dict) -> list[dict]:
    """Per flow that sends files: files finished and unfinished, the mean session delay
    with its batch-means 95 % CI and the mean setup time (wlansim.session_stats)."""
    from wlansim.session_stats import session_delay_summary

    unfinished = dict(data.get("unfinished_sessions", []))
    sessions = data.get("sessions", [])
    names = list(dict.fromkeys([s["flow"] for s in sessions] + list(unfinished)))
    rows = []
    for name in names:
        mine = [s for s in sessions if s["flow"] == name]
        summary = session_delay_summary(mine, [(name, unfinished.get(name, 0))])
        rows.append(
            {
                "flow": name,
                "finished": int(summary["sessions"]),
                "unfinished": int(summary["sessions_unfinished"]),
                "delay_mean_s": summary.get("session_delay_mean_s"),
                "delay_ci95_s": summary.get("session_delay_ci95_s"),
                "setup_mean_s": summary.get("session_setup_mean_s"),
            }
        )
    return rows


def nonzero_columns(rows: list[dict]) -> tuple[list[str], list[str]]:
    """The columns of ``rows`` with a value other than 0 somewhere, and the others."""
    columns = list(rows[0]) if rows else []
    zero = [
        c
        for c in columns
        if all(isinstance(r.get(c), (int, float)) and r.get(c) == 0 for r in rows)
        and not isinstance(rows[0].get(c), bool)
    ]
    return [c for c in columns if c not in zero], zero


TCP_NOTE_COMPACT = (
    "* TCP flows: dropped counts the flow's data segments and its ACKs dropped at any queue "
    "(an\n  upload's are mostly its ACKs at the AP); throughput counts data segments, "
    "goodput the bytes\n  delivered in order to the application."
)
TCP_NOTE = (
    "* TCP flows: offered/delivered count data segments (retransmissions included; a "
    "segment sent\n  before the end of the warm-up counts only as delivered); "
    "dropped_queue counts the flow's data\n  segments and its ACKs dropped at any queue "
    "(an upload's are mostly its ACKs at the AP)."
)
