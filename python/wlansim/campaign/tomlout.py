"""A minimal TOML writer for scenario dicts (the standard library only reads TOML).

Used to save the copy of a campaign's base scenario, ``DIR/base-<hash>.toml``,
so that the reproduction command of each run (``wlansim run DIR/base-<hash>.toml --set …``)
works. Supports what scenarios contain: tables, arrays of tables, strings, numbers,
booleans and arrays of those.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + "}"
    if hasattr(v, "item"):
        return _value(v.item())
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and bool(v) and all(isinstance(x, Mapping) for x in v)


def dumps(data: Mapping[str, Any]) -> str:
    lines: list[str] = []

    def emit(table: Mapping[str, Any], path: list[str], header: str | None) -> None:
        scalars = [(k, v) for k, v in table.items() if not isinstance(v, Mapping)
                   and not _is_table_array(v)]  # fmt: skip
        if header is not None:
            lines.append("")
            lines.append(header)
        for k, v in scalars:
            lines.append(f"{_key(str(k))} = {_value(v)}")
        for k, v in table.items():
            sub = path + [_key(str(k))]
            if isinstance(v, Mapping):
                emit(v, sub, "[" + ".".join(sub) + "]")
            elif _is_table_array(v):
                for item in v:
                    emit(item, sub, "[[" + ".".join(sub) + "]]")

    emit(data, [], None)
    return "\n".join(lines).lstrip("\n") + "\n"
