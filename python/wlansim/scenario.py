"""Scenario loading and overrides.

A scenario is a TOML file, TOML text or a dict (see `scenarios/` for examples and the
README for the keys). The files a scenario file reads (an empirical distribution's
`csv`) are found relative to the scenario file's directory, as in most configuration
formats; in TOML text, a dict or a `--set` override, relative to the working directory.
`--set key=value` overrides use dotted key paths; an element of a list of tables
(`stations`, `flows`) is addressed by its `name` or its index: ``stations.sta.count=10``,
``flows.0.packet_size="1000 B"``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping

from wlansim.errors import ScenarioError

# A run needs none of pathlib, re or typing until it uses them: they are imported where
# they are used (`import wlansim` stays cheap, see docs/benchmarks.md "Start-up and
# import"), and TOML is parsed, and a scenario dict read, by the core, without tomllib
# or json ("A run's process without json or tomllib"); tests/test_startup.py guards it.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Iterable
    from pathlib import Path
    from typing import Any, Union

    ScenarioLike = Union[str, Path, Mapping[str, Any]]
    Overrides = Union[Mapping[str, Any], Iterable[str], None]


def __getattr__(name: str) -> Any:
    """The type aliases `ScenarioLike` and `Overrides` at run time, built on first use
    (PEP 562; the same as the block above, which is what type checkers read)."""
    if name not in ("ScenarioLike", "Overrides"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from collections.abc import Iterable
    from pathlib import Path
    from typing import Any, Union

    aliases = {
        "ScenarioLike": Union[str, Path, Mapping[str, Any]],
        "Overrides": Union[Mapping[str, Any], Iterable[str], None],
    }
    globals().update(aliases)
    return aliases[name]


def is_path(scenario: Any) -> bool:
    """Whether `scenario` names a file (the one rule, for `wlansim.run`, campaigns and the
    command line): a path object; or a one-line string that has no ``=``, names an
    existing file, or ends with ``.toml``. Any other string is TOML text."""
    if isinstance(scenario, os.PathLike):
        return True
    if not isinstance(scenario, str) or "\n" in scenario:
        return False
    if "=" not in scenario:
        return True
    from pathlib import Path

    return Path(scenario).exists() or scenario.endswith(".toml")


#: The largest scenario file (a scenario is a few kB; its large inputs are files of their
#: own, read by the core with their own limit).
MAX_SCENARIO_BYTES = 16 << 20
#: How deeply tables and arrays may nest in a scenario (the deepest key of the format is
#: a handful of levels down, e.g. `flows[0].files.size.distribution`).
MAX_DEPTH = 32


def check_file(path: str | os.PathLike) -> Path:
    """`path` as a Path if it is a readable scenario file (a regular file of at most
    16 MiB), else a ScenarioError that says what it is instead."""
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        examples = sorted(x.name for x in p.glob("*.toml"))[:3]
        hint = f" (it holds {', '.join(examples)})" if examples else ""
        raise ScenarioError(f"{str(p)!r} is a directory, not a scenario file{hint}")
    if not p.exists():
        raise ScenarioError(f"scenario file {str(p)!r} does not exist")
    if not p.is_file():
        raise ScenarioError(
            f"{str(p)!r} is not a regular file (a device or a pipe); expected a scenario file"
        )
    size = p.stat().st_size
    if size > MAX_SCENARIO_BYTES:
        raise ScenarioError(
            f"{str(p)!r} has {size} bytes; a scenario file has at most 16 MiB "
            "(large inputs such as traces are files of their own)"
        )
    return p


def _where(scenario: Any) -> str:
    """A scenario file's path as messages name it (as pathlib writes it)."""
    from pathlib import Path

    return str(Path(scenario))


def _read(scenario: str | os.PathLike) -> str:
    """The text of a scenario file, checked as `check_file` checks it (a regular file of
    at most 16 MiB: `check_file` itself, for its message, only when `os.stat` finds it is
    not), read with the size limit (a file that grew since the check is refused too)."""
    path = os.fspath(scenario)
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        info = None
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SCENARIO_BYTES:
        path = str(check_file(scenario))
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SCENARIO_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(f"cannot read {_where(path)}: {exc.strerror or exc}") from None
    if len(data) > MAX_SCENARIO_BYTES:
        raise ScenarioError(f"{_where(path)!r}: a scenario file has at most 16 MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{_where(path)}: not UTF-8 text ({exc})") from None


def check_depth(value: Any, where: str = "") -> None:
    """Refuse a value whose tables and arrays nest more than `MAX_DEPTH` levels (checked
    without recursion, before anything recursive such as a copy or JSON touches it)."""
    stack = [(value, where, 0)]
    while stack:
        node, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            key = f"scenario key `{path}`" if path else "scenario"
            raise ScenarioError(
                f"{key}: tables and arrays nested more than {MAX_DEPTH} levels deep; a "
                "scenario's deepest keys are a few levels down"
            )
        if isinstance(node, Mapping):
            stack.extend((v, f"{path}.{k}" if path else str(k), depth + 1) for k, v in node.items())
        elif isinstance(node, (list, tuple)):
            stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(node))


def parse_toml(text: str, path: str | os.PathLike | None = None) -> dict:
    """TOML text (of the file `path`, if given) as a dict, parsed by the core as `tomllib`
    parses it; a syntax error names the file, its line and column."""
    from wlansim import _core

    try:
        return _core.parse_toml(text)
    except ValueError as exc:
        where = "scenario text" if path is None else _where(path)
        raise ScenarioError(f"{where}: invalid TOML: {exc}") from None


def load(scenario: ScenarioLike) -> dict:
    """Return a scenario as a plain dict: a path to a .toml file, TOML text, or a mapping
    (see :func:`is_path`). A UTF-8 byte-order mark is ignored."""
    import copy

    if isinstance(scenario, Mapping):
        check_depth(scenario)
        return copy.deepcopy(dict(scenario))
    if is_path(scenario):
        data = parse_toml(_read(scenario), scenario)
        check_depth(data)
        _inputs_relative_to(data, scenario)
        return data
    if isinstance(scenario, str):
        data = parse_toml(scenario.removeprefix("\ufeff"))
        check_depth(data)
        return data
    raise ScenarioError(f"a scenario is a path, TOML text or a dict, not {type(scenario).__name__}")


#: Keys whose values are files a scenario reads (`*`: every element of a list).
INPUT_FILES = (
    ("flows", "*", "files", "size", "csv"),
    ("flows", "*", "files", "think", "csv"),
    ("flows", "*", "game", "size", "csv"),
    ("flows", "*", "game", "interval", "csv"),
    ("flows", "*", "trace", "file"),
)


def map_inputs(data: Any, fn: Callable[[str], Any]) -> None:
    """Replace each path of `INPUT_FILES` in `data` (a scenario as a dict) by ``fn(path)``."""

    def walk(node: Any, keys: tuple[str, ...]) -> None:
        if not keys:
            return
        head, rest = keys[0], keys[1:]
        children = node if head == "*" and isinstance(node, list) else None
        if children is None:
            if not isinstance(node, dict) or head not in node:
                return
            if not rest:
                if isinstance(node[head], str):
                    node[head] = fn(node[head])
                return
            children = [node[head]]
        for child in children:
            walk(child, rest)

    for keys in INPUT_FILES:
        walk(data, keys)


def _inputs_relative_to(data: Any, scenario: str | os.PathLike) -> None:
    """Rewrite the relative paths of `INPUT_FILES` in `data` to lie under the directory of
    the file `scenario` (pathlib is imported only for a scenario that reads files)."""

    base = None

    def under(v: str) -> str:
        nonlocal base
        from pathlib import Path

        if Path(v).is_absolute():
            return v
        if base is None:  # the scenario's directory, resolved once
            base = Path(scenario).resolve().parent
        return str(base / v)

    map_inputs(data, under)


def parse_value(text: str) -> Any:
    """A `--set` value: TOML syntax when it parses (numbers, booleans, quoted strings,
    arrays), otherwise the raw string (so ``--set phy.data_rate=11 Mb/s`` works)."""
    from wlansim import _core

    try:
        return _core.parse_toml(f"v = {text}")["v"]
    except ValueError:
        return text


def _parse_assignment(item: str) -> tuple[str, Any]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise ScenarioError(f"override {item!r} is not of the form key=value")
    return key.strip(), parse_value(value.strip())


def _as_pairs(overrides: Overrides) -> list[tuple[str, Any]]:
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        return list(overrides.items())
    if isinstance(overrides, str):
        return [_parse_assignment(overrides)]
    return [_parse_assignment(item) for item in overrides]


def _child(node: Any, part: str, path: str) -> Any:
    """Step into `node` by `part` for reading/writing a key path (creates missing tables)."""
    if isinstance(node, list):
        if part.isdigit() and int(part) < len(node):
            return node[int(part)]
        for item in node:
            if isinstance(item, dict) and item.get("name") == part:
                return item
        names = [str(item.get("name")) for item in node if isinstance(item, dict)]
        raise ScenarioError(
            f"override key `{path}`: no element {part!r}; use an index below {len(node)} "
            f"or one of the names {', '.join(names) or '(none)'}"
        )
    if isinstance(node, dict):
        return node.setdefault(part, {})
    raise ScenarioError(f"override key `{path}`: {part!r} is inside a value, not a table")


def apply_overrides(scenario: Mapping[str, Any], overrides: Overrides) -> dict:
    """Return a copy of `scenario` with each `key.path = value` set."""
    import copy

    check_depth(scenario)
    out = copy.deepcopy(dict(scenario))
    for key, value in _as_pairs(overrides):
        check_depth(value, key)
        parts = key.split(".")
        node: Any = out
        for part in parts[:-1]:
            node = _child(node, part, key)
        last = parts[-1]
        if isinstance(node, list):
            target = _child(node, last, key)
            raise ScenarioError(
                f"override key `{key}`: {target.get('name', last)!r} is a table; "
                "set one of its keys"
            )
        if not isinstance(node, dict):
            raise ScenarioError(f"override key `{key}`: {parts[-2]!r} is not a table")
        node[last] = value
    return out


_INDEXED = r"\b(stations|flows)\[(\d+)\]"
_VALID_NAME = r"[^.=\s\x00-\x1f\x7f]+"


def _named_paths(message: str, data: Mapping[str, Any]) -> str:
    """Write `stations[0].count` as `stations.sta.count` (the form `--set` takes)."""
    import re

    def name(match: re.Match) -> str:
        table, index = match.group(1), int(match.group(2))
        items = data.get(table)
        if isinstance(items, list) and index < len(items) and isinstance(items[index], dict):
            label = items[index].get("name")
            # Only a valid name (as the core checks it) can stand in a key path.
            if isinstance(label, str) and re.fullmatch(_VALID_NAME, label):
                return f"{table}.{label}"
        return match.group(0)

    return re.sub(_INDEXED, name, message)


def call_core(function: Callable[..., Any], data: Mapping[str, Any], *args: Any) -> Any:
    """Call a core function on a scenario dict (the core reads it as the canonical JSON
    text `json.dumps(data, sort_keys=True)` writes, refusing TOML dates and other values
    that are not plain data) and return its answer (dicts and lists, as `json.loads` would
    read the core's JSON). Core errors become `ScenarioError` (bad input) or
    `SimulationError` (internal), never a panic."""
    from wlansim.errors import SimulationError

    try:
        return function(data, *args)
    except ValueError as exc:
        raise ScenarioError(_named_paths(str(exc), data)) from None
    except OverflowError as exc:
        raise ScenarioError(f"a number is out of range (seeds are below 2**64): {exc}") from None
    except RuntimeError as exc:
        raise SimulationError(str(exc)) from None


def resolve(scenario: ScenarioLike, overrides: Overrides = None) -> dict:
    """The validated scenario with every default written out (what a run really uses)."""
    from wlansim import _core

    return call_core(_core.resolve, apply_overrides(load(scenario), overrides))
