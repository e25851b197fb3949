"""Paper reproductions: one module per study, each with ``reproduce(out, quick, jobs)``
writing CSVs, PNG figures and a Markdown report that sets the paper's values beside ours.

A study's module is imported when it is used (it needs pandas and matplotlib).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: the studies, by the name the command line takes
NAMES = ("fotiadis2005", "miorandi2004", "ng2005", "pilosof2003")
#: where a study stores its campaigns, under its output directory
CAMPAIGNS_DIR = "campaigns"


def files_section(files: list[str], tables: dict) -> list[str]:
    """The report's closing "Files" section: the figures, then a CSV per table."""
    return ["## Files", "", *[f"- `{f}`" for f in files], *[f"- `{k}.csv`" for k in tables], ""]


def write_outputs(out, tables: dict, plot, report) -> Any:
    """Write a CSV per table into `out`, the figures (``plot(tables, out)`` returns their
    file names) and ``report.md`` (``report(files)`` returns its text); return its path."""
    for key, t in tables.items():
        t.to_csv(out / f"{key}.csv", index=False)
    files = plot(tables, out)
    path = out / "report.md"
    path.write_text(report(files))
    return path


def study(name: str) -> ModuleType:
    """The module of study ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise KeyError(f"unknown study {name!r}; known: {', '.join(NAMES)}")
    return importlib.import_module(f"{__name__}.{name}")


def __getattr__(name: str) -> Any:
    if name in NAMES:
        return study(name)
    if name == "STUDIES":
        return {n: study(n) for n in NAMES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CAMPAIGNS_DIR", "NAMES", "STUDIES", "files_section", "study", "write_outputs", *NAMES]
