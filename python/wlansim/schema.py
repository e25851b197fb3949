"""The scenario schema and the key reference generated from it.

The JSON Schema comes from the Rust scenario types (`wlansim._core.schema()`); their doc
comments are its descriptions. `markdown()` renders it as `docs/scenario.md`: every key
with its type or unit, default and allowed range. Both committed files are checked for
staleness by the tests (`wlansim schema --out docs/scenario.schema.json`,
`wlansim schema --markdown --out docs/scenario.md` regenerate them).
"""

from __future__ import annotations

import json
from typing import Any


def json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of scenario files."""
    return json.loads(json_text())


def json_text() -> str:
    """The JSON Schema as text, as committed in `docs/scenario.schema.json`."""
    from wlansim import _core

    return _core.schema() + "\n"


def _resolve(root: dict, node: dict) -> dict:
    """Follow `$ref`; of an optional value (anyOf with null) take the other schema."""
    for _ in range(8):
        ref = node.get("$ref")
        if isinstance(ref, str):
            node = root.get("$defs", {}).get(ref.rsplit("/", 1)[-1], node)
            continue
        alts = node.get("anyOf")
        if isinstance(alts, list):
            non_null = [a for a in alts if a.get("type") != "null"]
            if len(non_null) == 1 and len(non_null) < len(alts):
                node = non_null[0]
                continue
        break
    return node


def _choices(node: dict) -> list | None:
    values: list = list(node.get("enum", []))
    for key in ("oneOf", "anyOf"):
        for alt in node.get(key, []):
            if "const" in alt:
                values.append(alt["const"])
            elif "enum" in alt:
                values.extend(alt["enum"])
            else:
                return None
    return values or None


def _kind(root: dict, prop: dict) -> str:
    """The type column: a unit, a choice list, or a JSON type with its range."""
    node = _resolve(root, prop)
    if "x-unit" in node:
        return node["x-unit"]
    choices = _choices(node)
    if choices:
        return "one of " + ", ".join(f"`{json.dumps(c)}`" for c in choices)
    types = node.get("type")
    if isinstance(types, list):
        types = next((t for t in types if t != "null"), "any")
    if types == "array":
        items = _resolve(root, node.get("items", {}))
        if "properties" in items:
            return "array of tables"
        return f"array of {_kind(root, node.get('items', {}))}"
    if types == "integer":
        lo = node.get("minimum")
        hi = node.get("maximum")
        if hi is None:
            hi = {"uint8": 255, "uint16": 65535, "uint32": 4294967295}.get(node.get("format"))
        if lo is not None and hi is not None:
            return f"integer, {lo} to {hi}"
        if lo is not None:
            return f"integer ≥ {lo}"
        return "integer"
    if types == "number":
        return "number"
    if types == "object" or "properties" in node:
        return "table"
    return str(types or "any")


def _default(prop: dict) -> str:
    if "default" not in prop:
        return ""
    value = prop["default"]
    if isinstance(value, dict):
        return "(table)" if value else ""
    if value is None or value == []:
        return "none" if value is None else "`[]`"
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


#: the TCP profiles, in the order the reference lists their defaults
TCP_PROFILES = ("standard", "ns2-compat", "ns2")


def tcp_defaults() -> dict[str, str]:
    """The default of every `[tcp]` key under each TCP profile, as the reference shows
    it: one value, or each profile's (the core's `--resolve` of a minimal TCP scenario
    under each profile writes them out)."""
    from wlansim.scenario import resolve

    per_profile = {}
    for profile in TCP_PROFILES:
        scenario = {
            "duration": "1 s",
            "stations": [{"name": "sta"}],
            "servers": [{"name": "srv"}],
            "flows": [{"name": "f", "protocol": "tcp", "direction": "uplink",
                       "stations": "sta", "server": "srv"}],
        }  # fmt: skip
        per_profile[profile] = resolve({**scenario, "tcp": {"profile": profile}})["tcp"]
        # the thresholds exist only with the dynamic delayed ACK on
        dynamic = resolve({**scenario, "tcp": {"profile": profile, "dynamic_delayed_ack": True}})
        key = "dynamic_delayed_ack_thresholds"
        per_profile[profile][key] = dynamic["tcp"][key]
    out = {}
    for key in per_profile["standard"]:
        if key == "profile":
            continue
        groups: dict[str, list[str]] = {}
        for p in TCP_PROFILES:
            groups.setdefault(f"`{json.dumps(per_profile[p][key])}`", []).append(p)
        if len(groups) == 1:
            out[key] = next(iter(groups))
        else:
            out[key] = "; ".join(f"{v} ({', '.join(ps)})" for v, ps in groups.items())
    out["profile"] = "the top-level `profile`"
    return out


def _rows(root: dict, node: dict, prefix: str, required: set, out: list, tables: list) -> None:
    tcp = tcp_defaults() if prefix == "tcp." else {}
    for key, prop in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        target = _resolve(root, prop)
        kind = _kind(root, prop)
        description = prop.get("description") or target.get("description", "")
        default = "required" if key in required else (tcp.get(key) or _default(prop))
        if not default and prop.get("type") == "boolean":
            default = "`false`"  # every optional switch is off unless set
        default = default or "—"
        out.append((path, kind, default, description))
        items = _resolve(root, target.get("items", {})) if target.get("type") == "array" else None
        if "properties" in target:
            tables.append((path, target))
        elif items is not None and "properties" in items:
            tables.append((f"{path}[]", items))


def markdown() -> str:
    """The reference of every scenario key (what `docs/scenario.md` holds)."""
    root = json_schema()
    lines = [
        "# Scenario reference",
        "",
        "<!-- Generated by `wlansim schema --markdown --out docs/scenario.md` from the Rust",
        "scenario types; do not edit by hand (a test fails when this file is stale). -->",
        "",
        "Every key of a scenario file, with its type or unit, its default and what it allows.",
        "A scenario is TOML; `stations[]` marks an array of tables (`[[stations]]`).",
        "Editors can validate and complete scenario files with the JSON Schema",
        "`docs/scenario.schema.json` (`wlansim schema`).",
        "",
        'Units: a **duration** is a string with ns, us (µs), ms, s or min (`"10 ms"`), from',
        "0 to 1e9 s at a 1 ns resolution (a bare `0` is allowed); a **rate** a string with b/s,",
        'kb/s, Mb/s or Gb/s (`"11 Mb/s"`), from 1 b/s to 1 Tb/s; a **size** an integer number',
        'of bytes or a string with B, kB, KiB, MB, MiB, GB or GiB (`"1500 B"`), at most 2^53 B;',
        'a **power** a string with dBm, mW or W (`"-82 dBm"`, `"3.652e-10 W"`). The command',
        "line reads its flags' durations, rates, sizes and powers with the same parser.",
        "",
        "Limits of a run, checked before anything is allocated: at most 100 000 nodes (AP,",
        "stations and servers), 100 000 flows, 1 000 000 packets per queue, 10 000 000",
        "recorded series values, and about 4 GiB reserved at start.",
        "",
    ]
    tables: list = [("", root)]
    rendered: dict = {}  # id of a table's schema -> the first path it was shown under
    while tables:
        path, node = tables.pop(0)
        title = f"`[{path}]`" if path else "Top level"
        lines += [f"## {title}", ""]
        if id(node) in rendered:
            lines += [f"The keys of `[{rendered[id(node)]}]`.", ""]
            continue
        rendered[id(node)] = path
        rows: list = []
        prefix = f"{path}." if path else ""
        _rows(root, node, prefix, set(node.get("required", [])), rows, tables)
        if node is not root and node.get("description"):
            lines += [_cell(node["description"]), ""]
        lines += ["| key | type / unit | default | description |", "| --- | --- | --- | --- |"]
        for key, kind, default, description in rows:
            lines.append(f"| `{key}` | {_cell(kind)} | {_cell(default)} | {_cell(description)} |")
        lines.append("")
    return "\n".join(lines)
