"""Seeds, run keys and reproduction commands.

Seeds (common random numbers)
-----------------------------
Replication ``r`` (0-based) of *every* point of a campaign with base seed ``S`` runs with

    seed(S, r) = int.from_bytes(sha256(f"wlansim-campaign-seed:{S}:{r}")[:8], "big") >> 11

i.e. a 53-bit integer (exact in a float64 and in JSON, so it survives any table format).
All points share the seed of a replication — differences between points are not blurred
by different random draws (common random numbers, a variance-reduction technique) — while
replications use unrelated seeds, hence independent runs (the simulator derives its
per-entity streams from the seed). Changing ``S`` gives a fresh, independent set of
replications; adding replications keeps the existing ones.

Run keys
--------
A campaign's base scenario (the scenario as written, plus the campaign's fixed ``--set``
overrides) and wlansim's version make its *base hash* (:func:`base_hash`). A run is
identified by ``sha256`` of the canonical JSON (sorted keys, no whitespace) of ``{"base":
base hash, "scenario": <fully resolved scenario>, "seed": seed}``. In both an input file
(a trace, a size or think-time distribution: ``wlansim.scenario.INPUT_FILES``) counts by
the SHA-256 of its bytes, not by its path: the same study from another checkout or install
finds its runs, and an edited file is a new base. Two points of one base that reach the
same resolved scenario (even through different spellings like ``"1000 B"`` vs ``1000``)
share their runs; a changed base or a new wlansim version is another base, whose runs are
never taken for the first one's (see :class:`wlansim.campaign.Campaign`).

The core's build is not in the key: a run reports it (``meta.build``, a digest of the
core's sources, :data:`wlansim._core.BUILD`), and a campaign reruns and replaces a stored
ok run whose build differs from the current core's (:meth:`wlansim.campaign.store.Store.stale`),
so a changed core never hands back the old one's runs. Were the build in the key, a run of
the ns-2 side (which has no build) would change key with every change to the core, and
the committed ns-2 packs would no longer match.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import shlex
from collections.abc import Mapping
from typing import Any

SEED_BITS = 53


def replication_seed(base_seed: int, rep: int) -> int:
    """Seed of replication ``rep`` of every point (see the module docstring)."""
    digest = hashlib.sha256(f"wlansim-campaign-seed:{int(base_seed)}:{int(rep)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def _default(obj: Any) -> Any:
    # numpy scalars and other number-likes; Paths; anything else as its string
    if hasattr(obj, "item"):
        return obj.item()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    return str(obj)


def canonical_json(obj: Any) -> str:
    """Deterministic JSON: sorted keys, compact separators, no NaN ambiguity."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=_default, allow_nan=True)


@functools.lru_cache(maxsize=256)
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    # (mtime, size) in the cache key: a file rewritten in place is read again
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def _content(path: str) -> str:
    """An input file by its bytes (its path when it cannot be read: the scenario's
    validation reports that)."""
    try:
        st = os.stat(path)
        return _file_digest(os.path.abspath(path), st.st_mtime_ns, st.st_size)
    except OSError:
        return path


def _by_content(scenario: Mapping[str, Any]) -> Any:
    from wlansim.scenario import map_inputs

    out = copy.deepcopy(dict(scenario))
    map_inputs(out, _content)
    return out


def base_hash(scenario: Mapping[str, Any], overrides: Mapping[str, Any], version: str) -> str:
    """Hash of a campaign's base: the scenario as written (input files by content), its
    fixed overrides and the wlansim version."""
    payload = canonical_json(
        {"overrides": overrides, "scenario": _by_content(scenario), "version": version}
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def run_key(resolved: Mapping[str, Any], seed: int, base: str) -> str:
    """Key of a run: hash of its base's hash, its resolved scenario (input files by
    content) and its seed."""
    payload = canonical_json({"base": base, "scenario": _by_content(resolved), "seed": int(seed)})
    return hashlib.sha256(payload.encode()).hexdigest()


def format_value(value: Any) -> str:
    """A value written so that the CLI's ``--set key=value`` (TOML syntax, else raw string)
    reads back exactly ``value``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        from .space import parse_scalar

        return value if parse_scalar(value) == value else json.dumps(value)
    return json.dumps(value, default=_default)


def reproduce_command(scenario_file: str, overrides: Mapping[str, Any], seed: int) -> str:
    """The exact shell command that re-runs one run: ``wlansim run FILE --set k=v … --seed S``."""
    parts = ["wlansim", "run", str(scenario_file)]
    for key, value in overrides.items():
        parts += ["--set", f"{key}={format_value(value)}"]
    parts += ["--seed", str(int(seed))]
    return " ".join(shlex.quote(p) for p in parts)
