"""docs/validation-ns3.md's standing tables, made from a whole run of ``wlansim validate
ns3`` (every case: 6 seeds of 12 s of the single-MPDU cases, 20 of 4 s of the rate
ladder's, 3 of 12 s of the others) whose ns-3 side is the committed pack
(:mod:`wlansim.evidence.ns3.pack`) and whose wlansim side is this build's: saturated UDP
with single MPDUs, the 802.11ac ones again with wlansim under the standard's PPDU timing,
with A-MPDU, TCP through the AP, the rate ladder, and the verdicts of the agreement
statements on them (:data:`NAMES`).

Each sits in the page between ``<!-- ns3-table NAME begin -->`` and ``<!-- ns3-table NAME
end -->``; :func:`write` replaces what is between, :func:`committed` reads it back.
``python scripts/ns3_tables.py`` writes them; a test checks that the committed ones are
what the pack and the build give (tests/test_ns3_tables.py).
"""

from __future__ import annotations

import math
from pathlib import Path

#: The page the tables are in.
DOC = Path("docs") / "validation-ns3.md"
#: The tables, by marker name.
NAMES = ("verdicts", "udp", "udp-standard", "ampdu", "tcp", "rate")


def _pm(mean: float, half: float) -> str:
    return f"{mean:.2f} ± {half:.2f}"


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:+.2f} %".replace("-", "−")


def _num(x: float) -> str:
    return "n/a" if math.isnan(x) else ("inf" if math.isinf(x) else f"{x:.2f}")


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    if not rows:
        return ["(no case)"]
    return (["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            + ["| " + " | ".join(r) + " |" for r in rows])  # fmt: skip


def _udp(udp, ampdu: bool) -> list[str]:
    rows = [r for r in udp.to_dict("records") if (r["aggregation"] != "single MPDUs") == ampdu]
    head = ["cell", "ns-3", "wlansim", "wlansim − ns-3", "collided ns-3", "collided wlansim"]
    if ampdu:
        head += ["BlockAckReq ns-3", "wlansim", "MPDUs per A-MPDU ns-3", "wlansim"]
    head += ["captures ns-3", "wlansim", "silent ns-3", "wlansim"]
    out = []
    for r in rows:
        line = [r["cell"], _pm(r["ns3_mbps"], r["ns3_ci95"]),
                _pm(r["wlansim_mbps"], r["wlansim_ci95"]), _pct(r["diff_pct"]),
                f"{r['ns3_collided_pct']:.1f} %", f"{r['wlansim_collided_pct']:.1f} %"]  # fmt: skip
        if ampdu:
            line += [f"{r['ns3_bars']:.0f}", f"{r['wlansim_bars']:.0f}",
                     f"{r['ns3_mpdus_per_frame']:.1f}",
                     f"{r['wlansim_mpdus_per_frame']:.1f}"]  # fmt: skip
        line += [f"{r['ns3_captures']:.0f}", f"{r['wlansim_captures']:.0f}",
                 f"{r['ns3_silent']:.1f}", f"{r['wlansim_silent']:.1f}"]  # fmt: skip
        out.append(line)
    return _table(head, out)


def _tcp(tcp) -> list[str]:
    head = ["case", "ns-3 up", "down", "total", "wlansim up", "down", "total",
            "total: wlansim − ns-3", "ratio ns-3 (runs)", "ratio wlansim (runs)", "starves",
            "silent flows ns-3", "wlansim", "ns-3 aborted"]  # fmt: skip
    rows = [[r["cell"], _num(r["ns3_up_mbps"]), _num(r["ns3_down_mbps"]),
             _pm(r["ns3_total_mbps"], r["ns3_total_ci95"]), _num(r["wlansim_up_mbps"]),
             _num(r["wlansim_down_mbps"]), _pm(r["wlansim_total_mbps"], r["wlansim_total_ci95"]),
             _pct(r["total_diff_pct"]), f"{_num(r['ns3_ratio'])} ({r['ns3_ratio_runs']})",
             f"{_num(r['wlansim_ratio'])} ({r['wlansim_ratio_runs']})",
             "yes" if r["starved"] else "no", f"{r['ns3_silent']:.1f}",
             f"{r['wlansim_silent']:.1f}", str(r["ns3_failed"])]
            for r in tcp.to_dict("records")]  # fmt: skip
    return _table(head, rows)


def _rate(rate) -> list[str]:
    head = ["case", "ns-3", "wlansim", "wlansim − ns-3", "rate ns-3", "rate wlansim", "MCS ns-3"]
    rows = []
    for r in rate.to_dict("records"):
        rows.append([
            r["cell"], _pm(r["ns3_mbps"], r["ns3_ci95"]), _pm(r["wlansim_mbps"], r["wlansim_ci95"]),
            _pct(r["diff_pct"]), _num(r["ns3_rate_mbps"]), _num(r["wlansim_rate_mbps"]),
            _num(r["ns3_mcs"]),
        ])  # fmt: skip
    return _table(head, rows)


def _verdicts(verdicts) -> list[str]:
    """One row per statement: its verdict and the engine's sentence, up to the named
    differences it cites (printed beside the cases)."""
    if not verdicts:
        return ["(no claim)"]
    rows = [[f"`{v.claim.id}`", v.verdict,
             v.sentence.split(" Named difference")[0].removeprefix(f"{v.verdict}: ")]
            for v in verdicts]  # fmt: skip
    return _table(["statement", "verdict", "why (95 % intervals over the runs)"], rows)


def markdown(tables: dict, verdicts=()) -> dict[str, list[str]]:
    """The page's tables (by :data:`NAMES`) from a run's `tables` (``validate ns3``'s: ``udp``,
    ``udp-standard``, ``tcp``, ``rate``, ``build``, ``left-out``) and its `verdicts`: each
    opens with the binary whose runs it shows, and ends with the cases it leaves out for
    want of a stored run."""
    build = tables["build"].iloc[0]
    left = list(tables["left-out"]["cell"])
    made = {"verdicts": lambda: _verdicts(verdicts),
            "udp": lambda: _udp(tables["udp"], False), "ampdu": lambda: _udp(tables["udp"], True),
            "udp-standard": lambda: _udp(tables["udp-standard"], False),
            "tcp": lambda: _tcp(tables["tcp"]), "rate": lambda: _rate(tables["rate"])}  # fmt: skip
    wanted = {"verdicts": lambda c: True,
              "udp": lambda c: not any(w in c for w in ("A-MPDU", "TCP", "SNR", "defaults")),
              "udp-standard": lambda c: c.startswith("802.11ac") and "A-MPDU" not in c
              and not any(w in c for w in ("TCP", "SNR", "defaults")),
              "ampdu": lambda c: "A-MPDU 65535" in c and "defaults" not in c,
              "tcp": lambda c: "TCP" in c, "rate": lambda c: "SNR" in c}  # fmt: skip
    out = {}
    for name in NAMES:
        source = {"ampdu": "udp", "verdicts": "udp"}.get(name, name)
        rows = made[name]() if len(tables[source]) else ["(no case)"]
        missing = [c for c in left if wanted[name](c)]
        out[name] = [f"<!-- ns-3.37's runs: the pack's, of cell {build.binary_key} -->", "", *rows]
        if missing:
            out[name] += ["", f"Not in the pack yet, left out ({len(missing)}): "
                          + ", ".join(missing) + "."]  # fmt: skip
    return out


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- ns3-table {name} begin -->", f"<!-- ns3-table {name} end -->"


def committed(doc: Path) -> dict[str, list[str]]:
    """The tables between the markers of `doc`, by name (those it has)."""
    text = Path(doc).read_text()
    out = {}
    for name in NAMES:
        begin, end = _markers(name)
        if begin in text and end in text:
            out[name] = (
                text[text.index(begin) + len(begin) : text.index(end)].strip("\n").split("\n")
            )
    return out


def write(doc: Path, tables: dict, verdicts=()) -> list[str]:
    """Put :func:`markdown`'s tables between their markers in `doc` (every marker pair must
    be there); the names of those that changed."""
    text = Path(doc).read_text()
    changed = []
    old = committed(doc)
    for name, lines in markdown(tables, verdicts).items():
        begin, end = _markers(name)
        if name not in old:
            raise ValueError(f"{doc} has no {begin} ... {end}")
        if old[name] != lines:
            changed.append(name)
            start, stop = text.index(begin), text.index(end) + len(end)
            text = text[:start] + "\n".join([begin, *lines, end]) + text[stop:]
    Path(doc).write_text(text)
    return changed
