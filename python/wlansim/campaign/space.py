"""Parameter spaces: which scenario values a campaign varies, and how.

A *point* is a plain ``dict`` mapping key paths (the same paths as the CLI's
``--set key=value``, e.g. ``"ap.queue"`` or ``"stations.sta.count"``) to values.
A :class:`Space` is an ordered list of points plus derived values, built from:

* **lists** — ``Space.grid({"ap.queue": [10, 20, 50]})``;
* **numeric ranges** — ``values("1:50:1")`` or :func:`frange`. ``start:stop:step`` includes
  ``stop`` when it lands exactly on the grid (``1:10:3`` → 1, 4, 7, 10; ``1:9:3`` → 1, 4, 7;
  floats are compared with a relative tolerance of 1e-9 of the step, so ``0:1:0.1`` ends at
  1.0). ``start:stop`` means step 1. Integers stay integers;
* **Cartesian products** — ``Space.grid({...})`` with several keys, or ``a * b``;
* **lockstep** (zip) — ``Space.zip({"a": [1, 2], "b": [10, 20]})`` gives (1, 10), (2, 20);
* **concatenation** — ``a + b`` (points of ``a`` then points of ``b``);
* **derived values** — ``space.derive("tcp.rwnd", "floor(ap.queue / stations.sta.count)")``
  or ``space.derive("tcp.rwnd", lambda p: p["ap.queue"] // p["stations.sta.count"])``.
  A string expression is evaluated by :func:`safe_eval`, a small evaluator over Python's
  ``ast`` that allows only numbers, strings, parameter names, arithmetic, comparisons,
  ``x if c else y`` and a fixed set of math functions — never ``eval``. A parameter is
  named by its full key path (``ap.queue``) or by its last component (``queue``) when that
  is unambiguous. Derived values may use earlier derived values.

Points keep their order: the first key of a product varies slowest.
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Callable, Union

from ..errors import WlansimError

Point = dict[str, Any]
Derivation = Union[str, Callable[[Mapping[str, Any]], Any]]


class SpaceError(WlansimError, ValueError):
    """A parameter space or a derived-value expression is malformed."""


def match_key(name: str, keys: Sequence[str], what: str = "parameter") -> str:
    """``name`` itself if it is one of ``keys``, else the unique key ending with ``.name``."""
    if name in keys:
        return name
    hits = [k for k in keys if k.endswith("." + name)]
    if len(hits) == 1:
        return hits[0]
    listing = ", ".join(keys) or "none"
    if hits:
        raise WlansimError(f"{what} {name!r} is ambiguous: {', '.join(hits)}")
    raise WlansimError(f"unknown {what} {name!r}; available: {listing}")


# ----------------------------------------------------------------------------- values


def parse_scalar(text: str) -> Any:
    """A value as ``--set key=value`` reads it: TOML syntax when it parses (``5`` → 5,
    ``0.5`` → 0.5, ``true`` → True, ``"5"`` → the string "5", ``[1, 2]`` → a list),
    otherwise the raw string (``1000 B``, ``11 Mb/s``, which the scenario parser
    understands)."""
    from ..scenario import parse_value  # the one rule, as --set reads values

    return parse_value(text.strip())


def frange(start: float, stop: float, step: float = 1) -> list[Any]:
    """Inclusive numeric range: ``start, start+step, …`` up to ``stop``, which is included
    when it lands exactly on the grid (floats: within 1e-9 of a step). Values are computed
    as ``start + i*step`` (no accumulated error) and are ints when all inputs are ints."""
    if step == 0:
        raise SpaceError(f"range {start}:{stop}:{step}: step must not be 0")
    if (stop - start) * step < 0:
        raise SpaceError(
            f"range {start}:{stop}:{step}: step {step} never reaches {stop} from {start}"
        )
    all_int = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, stop, step))
    if all_int:
        end = stop + (1 if step > 0 else -1)
        return list(range(start, end, step))
    n = int(math.floor((stop - start) / step + 1e-9))
    out = []
    for i in range(n + 1):
        v = start + i * step
        out.append(round(v, 12))
    return out


def values(spec: Any) -> list[Any]:
    """Values of one parameter from a spec: a list/tuple/range (kept as is), a scalar, or a
    string ``"v1,v2,..."`` (comma list) or ``"start:stop[:step]"`` (inclusive range)."""
    if isinstance(spec, (list, tuple, range)):
        return list(spec)
    if not isinstance(spec, str):
        return [spec]
    s = spec.strip()
    if not s:
        raise SpaceError("empty value list")
    if ":" in s and "," not in s and "://" not in s:
        parts = [parse_scalar(p) for p in s.split(":")]
        if len(parts) in (2, 3) and all(
            isinstance(p, (int, float)) and not isinstance(p, bool) for p in parts
        ):
            start, stop = parts[0], parts[1]
            step = parts[2] if len(parts) == 3 else 1
            return frange(start, stop, step)
        raise SpaceError(
            f"range {spec!r}: expected start:stop or start:stop:step with numbers, "
            "e.g. 1:50:1 or 0.1:1.0:0.1"
        )
    return [parse_scalar(p) for p in s.split(",")]


# ----------------------------------------------------------------------------- expressions

_FUNCS: dict[str, Callable[..., Any]] = {
    "floor": math.floor,
    "ceil": math.ceil,
    "round": round,
    "abs": abs,
    "min": min,
    "max": max,
    "int": int,
    "float": float,
    "str": str,
    "sqrt": math.sqrt,
    "log": math.log,
    "log2": math.log2,
    "log10": math.log10,
    "exp": math.exp,
}
_CONSTS = {"pi": math.pi, "e": math.e, "True": True, "False": False}
_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNOPS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
_CMPOPS = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _lookup(name: str, env: Mapping[str, Any], expr: str) -> Any:
    if name in env:
        return env[name]
    matches = [k for k in env if k.split(".")[-1] == name or k.endswith("." + name)]
    if len(matches) == 1:
        return env[matches[0]]
    if name in _CONSTS:
        return _CONSTS[name]
    if not matches:
        known = ", ".join(sorted(env)) or "none"
        raise SpaceError(f"expression {expr!r}: unknown name {name!r} (parameters: {known})")
    raise SpaceError(
        f"expression {expr!r}: name {name!r} is ambiguous ({', '.join(sorted(matches))}); "
        "use the full key path"
    )


def safe_eval(expr: str, env: Mapping[str, Any]) -> Any:
    """Evaluate a restricted arithmetic expression over parameter values ``env``.

    Allowed: numbers, strings, names (full key paths like ``ap.queue`` or their last
    component), ``+ - * / // % **``, unary ``- + not``, comparisons, ``and``/``or``,
    ``a if cond else b`` and calls to ``floor ceil round abs min max int float str sqrt log
    log2 log10 exp``. Anything else (attribute access on values, subscripts, lambdas,
    comprehensions, other calls) is rejected with a :class:`SpaceError`.
    """
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as exc:
        raise SpaceError(f"expression {expr!r}: syntax error: {exc.msg}") from None

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return node.value
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = _dotted(node)
            if name is None:
                raise SpaceError(f"expression {expr!r}: only key paths may use '.'")
            return _lookup(name, env, expr)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > 1000:
                raise SpaceError(f"expression {expr!r}: exponent too large")
            try:
                return _BINOPS[type(node.op)](left, right)
            except (ZeroDivisionError, TypeError, ValueError, OverflowError) as exc:
                raise SpaceError(f"expression {expr!r} with {dict(env)}: {exc}") from None
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNOPS:
            return _UNOPS[type(node.op)](ev(node.operand))
        if isinstance(node, ast.BoolOp):
            vals = [ev(v) for v in node.values]
            if isinstance(node.op, ast.And):
                return all(vals)
            return any(vals)
        if isinstance(node, ast.Compare) and all(type(o) in _CMPOPS for o in node.ops):
            left = ev(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = ev(comp)
                if not _CMPOPS[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return ev(node.body) if ev(node.test) else ev(node.orelse)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCS
            and not node.keywords
        ):
            args = [ev(a) for a in node.args]
            try:
                return _FUNCS[node.func.id](*args)
            except (TypeError, ValueError, OverflowError) as exc:
                raise SpaceError(f"expression {expr!r} with {dict(env)}: {exc}") from None
        raise SpaceError(
            f"expression {expr!r}: {type(node).__name__} is not allowed "
            f"(allowed: arithmetic, comparisons, if/else, {', '.join(sorted(_FUNCS))})"
        )

    return ev(tree)


# ----------------------------------------------------------------------------- spaces


class Space:
    """An ordered list of parameter points plus derived values (see the module docstring)."""

    def __init__(
        self,
        points: Iterable[Mapping[str, Any]] = ({},),
        derived: Sequence[tuple[str, Derivation]] = (),
    ):
        self._points = [dict(p) for p in points]
        self._derived = list(derived)

    # constructors
    @classmethod
    def grid(cls, axes: Mapping[str, Any]) -> Space:
        """Cartesian product of ``{key: values-spec}`` (first key varies slowest)."""
        keys = list(axes)
        lists = [values(axes[k]) for k in keys]
        for k, v in zip(keys, lists):
            if not v:
                raise SpaceError(f"parameter {k!r}: no values")
        return cls(dict(zip(keys, combo)) for combo in itertools.product(*lists))

    @classmethod
    def zip(cls, axes: Mapping[str, Any]) -> Space:
        """Several parameters varied in lockstep; all value lists must have equal length."""
        keys = list(axes)
        lists = [values(axes[k]) for k in keys]
        lengths = {k: len(v) for k, v in zip(keys, lists)}
        if len(set(lengths.values())) > 1:
            raise SpaceError(f"lockstep parameters need equal numbers of values, got {lengths}")
        return cls(dict(zip(keys, combo)) for combo in zip(*lists))

    @classmethod
    def from_any(cls, space: Any) -> Space:
        """A :class:`Space`, a ``{key: values}`` mapping (grid), a list of point dicts, or
        ``None`` (one empty point)."""
        if space is None:
            return cls()
        if isinstance(space, Space):
            return space
        if isinstance(space, Mapping):
            return cls.grid(space)
        if isinstance(space, Iterable):
            pts = list(space)
            if all(isinstance(p, Mapping) for p in pts):
                return cls(pts)
        raise SpaceError(f"cannot build a parameter space from {type(space).__name__}")

    # combinators
    def __mul__(self, other: Space) -> Space:
        other = Space.from_any(other)
        pts = []
        for a in self._points:
            for b in other._points:
                clash = set(a) & set(b)
                if clash:
                    raise SpaceError(f"parameter(s) {sorted(clash)} appear in both factors")
                pts.append({**a, **b})
        return Space(pts, self._derived + other._derived)

    def __add__(self, other: Space) -> Space:
        other = Space.from_any(other)
        return Space(self._points + other._points, self._derived + other._derived)

    def derive(self, key: str, how: Derivation) -> Space:
        """Add a value computed from the other parameters of each point."""
        if not isinstance(how, str) and not callable(how):
            raise SpaceError(f"derived {key!r}: give an expression string or a callable")
        return Space(self._points, self._derived + [(key, how)])

    # views
    @property
    def derived_keys(self) -> list[str]:
        return [k for k, _ in self._derived]

    @property
    def keys(self) -> list[str]:
        """Every key path a point may set, varied ones first, then derived ones."""
        seen: dict[str, None] = {}
        for p in self._points:
            for k in p:
                seen.setdefault(k, None)
        for k in self.derived_keys:
            seen.setdefault(k, None)
        return list(seen)

    def points(self) -> list[Point]:
        """All points with derived values filled in (in declaration order)."""
        out = []
        for p in self._points:
            q = dict(p)
            for key, how in self._derived:
                if isinstance(how, str):
                    q[key] = safe_eval(how, q)
                else:
                    q[key] = how(dict(q))
            out.append(q)
        return out

    def describe(self) -> dict[str, Any]:
        """JSON-able description (for the store's metadata)."""
        return {
            "keys": self.keys,
            "n_points": len(self._points),
            "derived": {k: (h if isinstance(h, str) else repr(h)) for k, h in self._derived},
        }

    def __len__(self) -> int:
        return len(self._points)

    def __iter__(self):
        return iter(self.points())

    def __repr__(self) -> str:
        return f"Space({len(self)} points, keys={self.keys})"


def parse_assignment(text: str) -> tuple[str, str]:
    """``"key=value"`` → ``("key", "value")`` (used by ``--vary``, ``--set``, ``--derive``)."""
    key, sep, val = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise SpaceError(f"expected key=value, got {text!r}")
    return key, val.strip()
