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


# --------------------------------------------------------------------------- studies as evidence
#
# A study module (one per paper) declares, as data:
#   TITLE        the paper (authors, title, venue, year)
#   PROFILE      the study's own rules: "ns2" where the paper ran ns-2 (its simulator's
#                defaults where the paper is silent), "standard" otherwise
#   CLAIMS       a list of wlansim.claims.Claim: every claim of the paper the study checks
#   PARAMETERS   rows (parameter, the paper says, we use, why): every open parameter
#   Plan         a dataclass with ``Plan.of(quick, profile, seed_base, main)`` (``main``:
#                False for the run under the other profile, which may skip sensitivity
#                sweeps) and ``skips() -> list[str]``: what this plan leaves out
#   run_experiments(out, plan, jobs, progress) -> {name: DataFrame}: the tables the
#                claims read (per-run rows where a claim needs replications) and figures
#   plot(tables, out, plan) -> [png names]: every figure the study reproduces
#   sections(tables, plan, verdicts) -> [markdown lines]: the study's own tables, sweeps
#                and explanations (explanations cite counters of the runs)
# and ends with ``reproduce = study_reproduce(__name__)``.

#: the runs under the other profile go here, under a study's output directory
OTHER_DIR = "other-{profile}"


def other_profile(profile: str) -> str:
    return next(p for p in PROFILES if p != profile)


def parameters_table(rows) -> list[str]:
    """The report's table of open parameters: what the paper says, what we use, why."""
    out = ["| parameter | the paper says | we use | why |", "|---|---|---|---|"]
    for row in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |")
    return out


def run_study(
    module: ModuleType,
    out,
    quick: bool = False,
    jobs: int | None = None,
    progress: bool = False,
    profile: str | None = None,
    seed_base: int = 1,
    other: bool | None = None,
):
    """Run study `module` under `profile` (default: the study's own), decide its claims,
    and, unless `quick` (or ``other=False``), run it again under the other profile and
    decide them there too. Writes every table as CSV, ``claims.csv``, the figures,
    ``report.md`` and ``summary.json`` into `out`; returns the report's path."""
    import json
    import time
    from pathlib import Path

    from wlansim import claims as cl

    name = module.__name__.rsplit(".", 1)[-1]
    profile = profile or module.PROFILE
    if profile not in PROFILES:
        raise ValueError(f"profile {profile!r}: one of {', '.join(PROFILES)}")
    other = (not quick) if other is None else other
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    plan = module.Plan.of(quick, profile, seed_base, True)
    tables = module.run_experiments(out, plan, jobs, progress)
    verdicts = cl.decide_all(module.CLAIMS, tables)
    second = other_profile(profile)
    other_verdicts = None
    if other:
        plan2 = module.Plan.of(quick, second, seed_base, False)
        tables2 = module.run_experiments(
            out / OTHER_DIR.format(profile=second), plan2, jobs, progress
        )
        other_verdicts = cl.decide_all(module.CLAIMS, tables2)
    wall = time.perf_counter() - start
    for key, t in tables.items():
        t.to_csv(out / f"{key}.csv", index=False)
    cl.write_csv(out / "claims.csv", verdicts, profile, other_verdicts, second)
    figures = module.plot(tables, out, plan)
    skips = list(plan.skips())
    if not other:
        skips.append(f"the run under the other profile (`{second}`): its verdicts are not run")
    lines = [
        f"# {name}: {module.TITLE}",
        "",
        f"Profile `{profile}`"
        + (
            " (the study's own)"
            if profile == module.PROFILE
            else f" (the study's own is `{module.PROFILE}`)"
        )
        + f"; seed base {seed_base}; {'quick' if quick else 'full'} run; {wall:.0f} s of "
        "wall time for this invocation on this machine (runs already stored under the "
        "output directory's campaigns are reused, not run again). Command: `wlansim reproduce "
        + name
        + (" --quick" if quick else "")
        + (f" --profile {profile}" if profile != module.PROFILE else "")
        + (f" --seed-base {seed_base}" if seed_base != 1 else "")
        + "`.",
        "",
    ]
    if skips:
        lines += ["This run leaves out:", "", *[f"- {s}" for s in skips], ""]
    lines += [
        "## Claims",
        "",
        "Each verdict and its sentence are computed from the runs (`wlansim.claims`): "
        "**holds** when the 95 % confidence interval of the effect lies on the claimed side "
        "of the rule's threshold, **does not hold** when it lies on the other side, "
        "**undecided** when it straddles it, **not run** when the case was not run. The "
        "rule of each claim is in `claims.csv`.",
        "",
        *cl.markdown(verdicts, other_verdicts, second),
        "",
        "## Parameters",
        "",
        *parameters_table(module.PARAMETERS),
        "",
        *module.sections(tables, plan, verdicts),
        "",
        "## Figures",
        "",
        *[f"![{f}]({f})" for f in figures],
        "",
        "## Files",
        "",
        "- `claims.csv`: one row per claim (rule, our value and interval, the paper's, verdict "
        "under both profiles)",
        *[f"- `{k}.csv`" for k in tables],
        "",
    ]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    (out / "summary.json").write_text(
        json.dumps(
            {
                "study": name,
                "title": module.TITLE,
                "profile": profile,
                "other_profile": second if other else None,
                "seed_base": seed_base,
                "quick": quick,
                "wall_s": wall,
                "counts": cl.counts(verdicts),
                "other_counts": cl.counts(other_verdicts) if other_verdicts else None,
                "figures": figures,
            },
            indent=2,
        )
    )
    return path


def study_reproduce(module_name: str):
    """The ``reproduce(out, quick=False, jobs=None, progress=False, profile=None,
    seed_base=1, other=None)`` function of study module `module_name` (:func:`run_study`)."""
    import sys

    def reproduce(out, quick=False, jobs=None, progress=False, profile=None, seed_base=1,
                  other=None):  # fmt: skip
        return run_study(
            sys.modules[module_name], out, quick, jobs, progress, profile, seed_base, other
        )

    reproduce.__doc__ = run_study.__doc__
    return reproduce


def reproduce_all(out, quick=False, jobs=None, progress=False, seed_base=1):
    """Run the five studies into ``out/NAME`` and write ``out/index.md``
    (:func:`write_index`); return its path."""
    import os
    import time
    from pathlib import Path

    from wlansim.machine import cpu_seconds

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    start, cpu0, load0 = time.perf_counter(), cpu_seconds(own=True), os.getloadavg()[0]
    for name in NAMES:
        study(name).reproduce(
            out / name, quick=quick, jobs=jobs, progress=progress, seed_base=seed_base
        )
    machine = (
        f"{cpu_seconds(own=True) - cpu0:.0f} s of CPU in this process and its workers, "
        f"{os.cpu_count()} cores, load average {load0:.1f} at the start and "
        f"{os.getloadavg()[0]:.1f} at the end"
    )
    return write_index(out, {n: out / n for n in NAMES}, time.perf_counter() - start, machine)


def write_index(out, folders, wall: float, machine: str = ""):
    """``out/index.md``: per study (its output folder in `folders`, which holds the
    ``summary.json`` a run writes) the verdict counts under its own profile and the other,
    a link to its report, its run time, and where its settings are; `machine` says what
    the wall time was measured under (CPU time, cores, load)."""
    import json
    import os
    from pathlib import Path

    from wlansim.claims import VERDICTS

    out = Path(out)
    rows = {n: json.loads((Path(f) / "summary.json").read_text()) for n, f in folders.items()}
    quick = any(r["quick"] for r in rows.values())
    bases = {r["seed_base"] for r in rows.values()}
    lines = [
        "# wlansim: the five studies, reproduced",
        "",
        f"{'Quick' if quick else 'Full'} run (`wlansim reproduce all"
        + (" --quick" if quick else "")
        + "".join(f" --seed-base {b}" for b in bases if b != 1)
        + f"`): {wall:.0f} s of wall time on this machine"
        + (f" ({machine})" if machine else "")
        + ". Verdicts under each study's own "
        "profile, and how many each verdict counts under the other profile.",
        "",
        "| study | profile | " + " | ".join(VERDICTS) + " | under the other profile | "
        "run time | report |",
        "|---|---|" + "---|" * len(VERDICTS) + "---|---|---|",
    ]
    for name, r in rows.items():
        c, o = r["counts"], r["other_counts"]
        other = (
            f"`{r['other_profile']}`: " + ", ".join(f"{o[v]} {v}" for v in VERDICTS if o[v])
            if o
            else "not run"
        )
        report = os.path.relpath(Path(folders[name]) / "report.md", out)
        lines.append(
            f"| {name} | `{r['profile']}` | "
            + " | ".join(str(c[v]) for v in VERDICTS)
            + f" | {other} | {r['wall_s']:.0f} s | [report]({report}) |"
        )
    lines += ["", "## Settings", ""]
    for name, r in rows.items():
        link = os.path.relpath(Path(folders[name]) / "report.md", out) + "#parameters"
        lines.append(f"- **{name}**: {r['title']}. Parameters: [{link}]({link})")
    lines.append("")
    path = out / "index.md"
    path.write_text("\n".join(lines))
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


__all__ = [
    "CAMPAIGNS_DIR", "NAMES", "PROFILES", "STUDIES", "markdown_table",
    "profile_section", "reproduce_all", "run_study", "study_reproduce",
    "write_index",
    "study", "with_profile", *NAMES,
]  # fmt: skip
