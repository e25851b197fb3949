"""Paper reproductions: one module per study, each with ``reproduce(out, quick, jobs)``
writing CSVs, PNG figures and a Markdown report that sets the paper's values beside ours.

A study's module is imported when it is used (it needs pandas and matplotlib).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: the studies, by the name the command line takes
NAMES = ("fotiadis2005", "janevski2009", "miorandi2004", "ng2005", "pilosof2003")
#: where a study stores its campaigns, under its output directory
CAMPAIGNS_DIR = "campaigns"
#: `wlansim reproduce --profile`: the rules a study's scenarios run under
PROFILES = ("standard", "ns2")


def with_profile(scenario: dict, profile: str) -> dict:
    """`scenario` as a study built it (the paper's TCP parameters, i.e. ns-2's where the
    paper ran ns-2: ``[tcp] profile = "ns2-compat"``) under `profile`: ``standard`` keeps it
    (the standard's MAC, the RFCs' timer and recovery rules); ``ns2`` runs ns-2.35's MAC
    and TCP rules as well (top-level ``profile = "ns2"``, and ``ns2-compat`` becomes
    ``ns2``, which is ``ns2-compat`` plus ns-2's rules; README "ns-2 compatibility")."""
    if profile not in PROFILES:
        raise ValueError(f"profile {profile!r}: one of {', '.join(PROFILES)}")
    if profile == "standard":
        return scenario
    s = {**scenario, "profile": "ns2"}
    if s.get("tcp", {}).get("profile") == "ns2-compat":
        s["tcp"] = {**s["tcp"], "profile": "ns2"}
    return s


def profile_section(profile: str, study_choice: str, why: str) -> list[str]:
    """The report's statement of the rules its figures ran under: the study's own choice
    (`study_choice`, for the reason `why`) or the other one, asked for with ``--profile``."""
    rules = {
        "standard": "the 802.11 standard's MAC and the RFCs' TCP timer and recovery rules "
        "(over the paper's TCP parameters)",
        "ns2": 'ns-2.35\'s MAC and TCP rules (`profile = "ns2"`, checked against ns-2 by '
        "`wlansim validate ns2`)",
    }
    if profile == study_choice:
        other = next(p for p in PROFILES if p != profile)
        text = (
            f"Profile: `{profile}`, {rules[profile]}, for every figure. Why: {why} The other: "
            f"`--profile {other}`."
        )
    else:
        text = (
            f"Profile: `{profile}`, {rules[profile]}, for every figure, asked for with "
            f"`--profile {profile}`. The study's own choice is `{study_choice}`: {why}"
        )
    return [text, ""]


def markdown_table(t, digits: int = 2) -> list[str]:
    """The lines of a Markdown table of DataFrame `t` (floats with `digits` decimals)."""
    cols = list(t.columns)
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in t.iterrows():
        cells = (f"{v:.{digits}f}" if isinstance(v, float) else str(v) for v in r)
        out.append("| " + " | ".join(cells) + " |")
    return out


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


def reproduce_function(module_name: str, default_profile: str) -> Any:
    """A study module's ``reproduce(out, quick=False, jobs=None, progress=False,
    profile=default_profile)``: run the module's experiments under `profile`
    (``run_experiments``, its ``Plan``), then write the CSVs, the figures (``_plot``) and
    ``report.md`` (``report``) into `out`; it returns the report's path."""
    import sys
    from pathlib import Path

    def reproduce(out, quick=False, jobs=None, progress=False, profile=default_profile):
        module = sys.modules[module_name]
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        plan = module.Plan.of(quick, profile)
        tables = module.run_experiments(out, quick, jobs, progress, profile)
        return write_outputs(
            out, tables, module._plot, lambda files: module.report(tables, plan, files)
        )

    reproduce.__doc__ = (
        f"Run {module_name.rsplit('.', 1)[-1]}'s experiments under `profile` (default "
        f"{default_profile!r}), write CSVs, PNGs and ``report.md`` into `out`; return the "
        "report's path. ``progress``: a progress bar per campaign on stderr."
    )
    return reproduce


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


__all__ = [
    "CAMPAIGNS_DIR", "NAMES", "PROFILES", "STUDIES", "files_section", "markdown_table",
    "profile_section", "reproduce_function",
    "study", "with_profile", "write_outputs", *NAMES,
]  # fmt: skip
