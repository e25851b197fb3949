"""The example scenarios shipped with wlansim (package data: they are in every install).

    >>> from wlansim import examples
    >>> examples.names()[:2]
    ['bursty-upload-delay-injection', 'capture-mixed']
    >>> wlansim.run(examples.path("saturated-11b"))

In a checkout, ``scenarios/`` is a link to this directory. ``wlansim examples`` lists them
with their first comment line; ``wlansim examples --copy DIR`` copies them (and the traces
they read) to DIR to edit; ``wlansim run --example NAME`` runs one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from wlansim.errors import ScenarioError

#: where the example scenarios are installed
DIR = Path(__file__).resolve().parent / "scenarios"


def names() -> list[str]:
    """The example names (file names without ``.toml``), sorted."""
    return sorted(p.stem for p in DIR.glob("*.toml"))


def path(name: str) -> Path:
    """The file of example ``name`` (``"saturated-11b"`` or ``"saturated-11b.toml"``)."""
    stem = name.removesuffix(".toml")
    p = DIR / f"{stem}.toml"
    if stem not in names():
        raise ScenarioError(
            f"no example scenario {name!r}; the examples: {', '.join(names())} "
            "(`wlansim examples` describes them)"
        )
    return p


def summary(name: str) -> str:
    """The first comment line of an example: what it is."""
    for line in path(name).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("# ").strip()
    return ""


def copy(directory: str | Path) -> list[Path]:
    """Copy every example (and the ``traces/`` they read) into ``directory`` (created);
    an existing file is left as it is. Returns the files written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sorted(DIR.rglob("*")):
        if src.is_dir() or src.suffix not in (".toml", ".txt", ".csv"):
            continue
        dst = out / src.relative_to(DIR)
        if dst.exists():
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        written.append(dst)
    return written
