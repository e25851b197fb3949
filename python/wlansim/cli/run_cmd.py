"""`wlansim run FILE [--set key=value ...] [--seed N] [--pcap DIR] [--json | --resolve]`."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

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


def run_scenario(args) -> int:
    if args.pcap is not None:
        # a JSON string is a TOML basic string: the directory is taken verbatim
        args.overrides = [*args.overrides, f"output.pcap={json.dumps(args.pcap)}"]
    if args.resolve:
        from wlansim.campaign.tomlout import dumps
        from wlansim.scenario import resolve

        print(dumps(resolve(Path(args.scenario), args.overrides)), end="")
        return 0

    # A bar on stderr for runs expected to last more than a few seconds (terminal only).
    r = run(
        Path(args.scenario),
        seed=args.seed,
        overrides=args.overrides,
        progress=sys.stderr.isatty(),
    )
    if args.json:
        print(json.dumps(r.to_dict()))
        return 0
    data = r.to_dict()
    flows = [
        {
            **f,
            "throughput_mbps": f["throughput_bps"] / 1e6,
            "delay_mean_ms": _ms(f["delay_mean_s"]),
            "delay_p95_ms": _ms(f["delay_p95_s"]),
        }
        for f in data["flows"]
    ]
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
    tcp = any(f.get("protocol") == "tcp" for f in flows)
    if tcp:
        for f in flows:
            f["goodput_mbps"] = _scaled(f.get("goodput_bps"), 1e-6)
            f["rtt_ms"] = _ms(f.get("rtt_mean_s"))
        columns += ["goodput_mbps", "rtt_ms", "retransmissions", "timeouts"]
    headers = {"dropped_queue": "dropped_queue*"} if tcp else {}
    print("Flows")
    print(format_table(flows, columns, "{:.3f}", headers))
    if tcp:
        print(TCP_NOTE)
    print("\nNodes")
    nodes = data["nodes"]
    print(format_table(nodes, list(nodes[0]) if nodes else [], "{:.4f}"))
    bss = data.get("bss", [])
    if len(bss) > 1:
        for b in bss:
            b["uplink_mbps"] = _scaled(b["uplink_bps"], 1e-6)
            b["downlink_mbps"] = _scaled(b["downlink_bps"], 1e-6)
        columns = ["ap", "ssid", "stations", "uplink_mbps", "downlink_mbps", "attempts"]
        columns += ["collisions", "retry_drops", "queue_drops"]
        print("\nBSSs")
        print(format_table(bss, columns, "{:.3f}"))
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


def _scaled(value: Any, factor: float) -> float:
    return math.nan if value is None else float(value) * factor


def _ms(seconds: Any) -> float:
    return _scaled(seconds, 1e3)


def _column(values: list[Any], float_format: str) -> tuple[list[str], bool]:
    """A column's cells as pandas' ``to_string`` writes them (integers as integers, a numeric
    column holding floats or missing values with `float_format`, NaN for missing) and
    whether the column is numeric."""
    present = [v for v in values if v is not None]
    numeric = bool(present) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in present
    )
    if numeric and all(isinstance(v, int) for v in present) and len(present) == len(values):
        return [str(v) for v in values], True
    if numeric:
        cells = ["NaN" if v is None or v != v else float_format.format(v) for v in values]
        return cells, True
    return ["NaN" if v is None else str(v) for v in values], False


def format_table(
    rows: list[dict[str, Any]],
    columns: list[str],
    float_format: str,
    headers: dict[str, str] | None = None,
) -> str:
    """Rows as a right-aligned text table (the layout of ``DataFrame.to_string(index=False)``),
    without pandas, so that `wlansim run` starts fast."""
    headers = headers or {}
    columns_ = [_column([row.get(c) for row in rows], float_format) for c in columns]
    cells = [col for col, _ in columns_]
    names = [headers.get(c, c) for c in columns]
    # a numeric column is one character wider than its header (room for a sign)
    widths = [
        max([len(n) + numeric] + [len(v) for v in col])
        for n, (col, numeric) in zip(names, columns_)
    ]
    lines = [" ".join(n.rjust(w) for n, w in zip(names, widths))]
    for i in range(len(rows)):
        lines.append(" ".join(col[i].rjust(w) for col, w in zip(cells, widths)))
    return "\n".join(lines)
