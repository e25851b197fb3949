"""Running a study: its experiments under a profile, its claims decided, its report.

A study module (``wlansim.evidence.studies.NAME``) declares the paper's claims and open
parameters as data and provides its experiments, figures and sections; :func:`run_study`
does the rest, the same for every study.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from types import ModuleType
from typing import Any

# CAMPAIGNS_DIR and PROFILES live in the registry, which the command line imports cheaply
from wlansim.evidence.studies import CAMPAIGNS_DIR as CAMPAIGNS_DIR
from wlansim.evidence.studies import NAMES, PROFILES, study


def with_profile(scenario: dict, profile: str, ns2_propagation_delay: str | None = None) -> dict:
    """`scenario` as a study built it (the paper's TCP parameters, i.e. ns-2's where the
    paper ran ns-2: ``[tcp] profile = "ns2-compat"``) under `profile`: ``standard`` keeps it
    (the standard's MAC, the RFCs' timer and recovery rules); ``ns2`` runs ns-2.35's MAC
    and TCP rules as well (top-level ``profile = "ns2"``, and ``ns2-compat`` becomes
    ``ns2``, which is ``ns2-compat`` plus ns-2's rules; README "ns-2 compatibility"), and
    with `ns2_propagation_delay` (e.g. "33 ns") as ``phy.propagation_delay``: what ns-2.35
    works out from the geometry of the study's ns-2 scripts, in place of the standard's
    1 µs."""
    if profile not in PROFILES:
        raise ValueError(f"profile {profile!r}: one of {', '.join(PROFILES)}")
    if profile == "standard":
        return scenario
    s = {**scenario, "profile": "ns2"}
    if ns2_propagation_delay is not None:
        s["phy"] = {**s.get("phy", {}), "propagation_delay": ns2_propagation_delay}
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


# --------------------------------------------------------------------------- studies as evidence
#
# A study module (one per paper) declares, as data:
#   TITLE        the paper (authors, title, venue, year)
#   PROFILE      the study's own rules: "ns2" where the paper ran ns-2 (its simulator's
#                defaults where the paper is silent), "standard" otherwise
#   CLAIMS       a list of wlansim.evidence.claims.Claim: every claim of the paper the study checks
#   PARAMETERS   rows (parameter, the paper says, we use, why): every open parameter
#   Plan         a dataclass with ``Plan.of(quick, profile, seed_base, main)`` (``main``:
#                False for the run under the other profile, which may skip sensitivity
#                sweeps) and ``skips() -> list[str]``: what this plan leaves out
#   run_experiments(out, plan, jobs, progress) -> {name: DataFrame}: the tables the
#                claims read (per-run rows where a claim needs replications) and figures
#   plot(tables, out, plan) -> [png names]: every figure the study reproduces (with
#                `--against ns2`, `tables` also holds run_ns2's tables as "ns2_KEY")
#   sections(tables, plan, verdicts) -> [markdown lines]: the study's own tables, sweeps
#                and explanations (explanations cite counters of the runs)
# and may declare
#   SUBJECT      whose statements these are (default "paper"): "extension" for a study
#                that asks a paper's statements of a setup the paper did not run (no
#                paper values to reproduce); the report counts checks that hold or not
#   ONE_PROFILE  why the study runs under its own PROFILE only (no run under the other)
# and ends with ``reproduce = study_reproduce(__name__)``.

#: the runs under the other profile go here, under a study's output directory
OTHER_DIR = "other-{profile}"


def other_profile(profile: str) -> str:
    return next(p for p in PROFILES if p != profile)


@dataclasses.dataclass
class Ran:
    """A study's runs, made (:func:`run_runs`) and not yet decided (:func:`conclude_runs`):
    its tables under its profile, under the other one (``None`` when not run) and
    ns-2.35's (``None`` without ``--against ns2``), and how they were asked for."""

    module: ModuleType
    out: Path
    quick: bool
    profile: str
    seed_base: int
    against: str | None
    plan: Any
    tables: dict
    other_tables: dict | None
    ns2_tables: dict | None
    start: float
    wall_ns2: float


def run_study(module: ModuleType, out, *args, **kwargs):
    """Run study `module` under `profile` (default: the study's own), decide its claims,
    and, unless `quick` (or ``other=False``), run it again under the other profile and
    decide them there too. With ``against="ns2"`` run the paper's own simulator on the
    scenarios it can express (the study's ``run_ns2``) and decide the claims on its runs.
    Decide them again under each swept setting of the open parameters (the study's
    ``readings``), conclude (:func:`wlansim.evidence.conclusion.conclude`), and write every
    table as CSV, ``claims.csv``, ``sweeps.csv``, the figures, ``report.md`` (opening with
    the computed bottom line) and ``summary.json`` into `out`; returns the report's path.
    The arguments are :func:`run_runs`'; the two halves, :func:`run_runs` and
    :func:`conclude_runs`."""
    return conclude_runs(run_runs(module, out, *args, **kwargs))


def run_runs(
    module: ModuleType,
    out,
    quick: bool = False,
    jobs: int | None = None,
    progress: bool = False,
    profile: str | None = None,
    seed_base: int = 1,
    other: bool | None = None,
    against: str | None = None,
) -> Ran:
    """The runs of :func:`run_study`, none of its decisions: study `module`'s experiments
    into `out` under `profile` (default: the study's own) with `jobs` worker processes
    (progress bars when `progress`), seeds from `seed_base`; unless `quick` (or
    ``other=False``) under the other profile too; ns-2.35's with ``against="ns2"``."""
    import time

    from wlansim.errors import WlansimError

    name = module.__name__.rsplit(".", 1)[-1]
    profile = profile or module.PROFILE
    if profile not in PROFILES:
        raise ValueError(f"profile {profile!r}: one of {', '.join(PROFILES)}")
    if against not in (None, "ns2"):
        raise ValueError(f"against {against!r}: the only simulator to run beside is ns2")
    if against == "ns2":
        _check_ns2(module, name)
    one = getattr(module, "ONE_PROFILE", "")
    if one and profile != module.PROFILE:
        raise WlansimError(
            f"--profile {profile}: {name} runs under `{module.PROFILE}` only ({one})"
        )
    other = (not quick and not one) if other is None else other
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    plan = module.Plan.of(quick, profile, seed_base, True)
    tables = module.run_experiments(out, plan, jobs, progress)
    other_tables = None
    if other:
        second = other_profile(profile)
        plan2 = module.Plan.of(quick, second, seed_base, False)
        other_tables = module.run_experiments(
            out / OTHER_DIR.format(profile=second), plan2, jobs, progress
        )
    wall_ns2 = 0.0
    ns2_tables = None
    if against == "ns2":
        from wlansim.evidence.ns2 import pack
        from wlansim.evidence.ns2.run import asking

        t0 = time.perf_counter()
        # the committed pack's runs first: only what changed runs in ns-2.35 again
        pack.restore(out / pack.PACK, out / NS2_DIR)
        with asking() as asked:
            ns2_tables = module.run_ns2(out / NS2_DIR, plan, jobs, progress)
        whole = pack.whole(quick, profile, module.PROFILE, seed_base)
        pack.save(out / NS2_DIR, out / pack.PACK, asked if whole else None)
        wall_ns2 = time.perf_counter() - t0
    return Ran(module, out, quick, profile, seed_base, against, plan, tables, other_tables,
               ns2_tables, start, wall_ns2)  # fmt: skip


def conclude_runs(ran: Ran):
    """The rest of :func:`run_study` on its runs `ran`: decide, conclude, write; returns
    the report's path."""
    import json
    import time

    from wlansim.evidence import claims as cl
    from wlansim.evidence.conclusion import Evidence, bottom_line, conclude
    from wlansim.evidence.report import (
        claims_markdown,
        counts,
        parameters_table,
        write_claims_csv,
    )

    module, out, plan, tables = ran.module, ran.out, ran.plan, ran.tables
    quick, profile, seed_base, against = ran.quick, ran.profile, ran.seed_base, ran.against
    name = module.__name__.rsplit(".", 1)[-1]
    start, wall_ns2 = ran.start, ran.wall_ns2
    other = ran.other_tables is not None
    second = other_profile(profile)
    verdicts = cl.decide_all(module.CLAIMS, tables)
    other_verdicts = cl.decide_all(module.CLAIMS, ran.other_tables) if other else None
    ns2_verdicts = None
    # what the figures and the study's sections show: its tables and ns-2.35's, named as
    # their CSV files (ns2_KEY)
    shown = dict(tables)
    if ran.ns2_tables is not None:
        ns2_verdicts = decide_ns2(module.CLAIMS, ran.ns2_tables)
        for key, t in ran.ns2_tables.items():
            t.to_csv(out / f"ns2_{key}.csv", index=False)
            shown[f"ns2_{key}"] = t
    readings = getattr(module, "readings", None)
    sweeps = {
        label: cl.decide_all(module.CLAIMS, t)
        for label, t in (readings(tables, plan).items() if readings else ())
    }
    evidence = Evidence(
        verdicts,
        profile,
        other_verdicts,
        second if other else "",
        ns2_verdicts,
        sweeps,
        getattr(module, "DIFFERENCES", {}),
        ns2_absent=_ns2_absent(module, against),
        subject=getattr(module, "SUBJECT", "paper"),
    )
    conclusions = conclude(evidence)
    wall = time.perf_counter() - start
    for key, t in tables.items():
        t.to_csv(out / f"{key}.csv", index=False)
    write_claims_csv(out / "claims.csv", evidence, conclusions)
    _write_sweeps(out / "sweeps.csv", sweeps)
    figures = module.plot(shown, out, plan)
    skips = list(plan.skips())
    if not other:
        why = getattr(module, "ONE_PROFILE", "") or "its verdicts are not run"
        skips.append(f"the run under the other profile (`{second}`): {why}")
    if against != "ns2" and hasattr(module, "run_ns2"):
        skips.append("ns-2.35 beside wlansim (`--against ns2`): its column is not run")
    tried = [row[0] for row in module.PARAMETERS if _swept(row)]
    top = bottom_line(evidence, conclusions, getattr(module, "HEADLINE", ()), tried)
    command = (
        f"wlansim reproduce {name}"
        + (" --quick" if quick else "")
        + (f" --profile {profile}" if profile != module.PROFILE else "")
        + (f" --seed {seed_base}" if seed_base != 1 else "")
        + (f" --against {against}" if against else "")
    )
    lines = [
        f"# {name}: {module.TITLE}",
        "",
        *top,
        "## How this was run",
        "",
        f"Profile `{profile}`"
        + (
            " (the study's own)"
            if profile == module.PROFILE
            else f" (the study's own is `{module.PROFILE}`)"
        )
        + f"; seed base {seed_base}; {'quick' if quick else 'full'} run; {wall:.0f} s of "
        "wall time for this invocation on this machine"
        + (f", of which ns-2.35 {wall_ns2:.0f} s" if against else "")
        + " (runs already stored under the output directory's campaigns are reused, not run "
        f"again). Command: `{command}`.",
        "",
    ]
    if skips:
        lines += ["This run leaves out:", "", *[f"- {s}" for s in skips], ""]
    lines += [
        "## Claims",
        "",
        "One row per statement of the paper. Each verdict and its sentence are computed from "
        "the runs (`wlansim.evidence.claims`): **holds** when the 95 % confidence interval "
        "of the effect lies on the claimed side of the rule's threshold, **does not hold** "
        "when it lies on the other side, **undecided** when it straddles it, **cannot show** "
        "when the runs cannot show the effect either way (the cases compared gave the same "
        "value in every run, or the setup's own check says why), **not run** when the case "
        "was not run. A statement with several tests (its direction and the paper's value) "
        "holds when each does. The outcome column is the bottom line's category; the rule "
        "of each statement is in `claims.csv`.",
        "",
        *claims_markdown(evidence, conclusions),
        "",
        "## Parameters",
        "",
        *parameters_table(module.PARAMETERS),
        "",
        *module.sections(shown, plan, verdicts),
        "",
        "## Figures",
        "",
        *[f"![{f}]({f})" for f in figures],
        "",
        "## Files",
        "",
        "- `claims.csv`: one row per statement (rule, our value and interval, the paper's, "
        "verdict under both profiles and under ns-2.35, outcome and reason)",
        "- `sweeps.csv`: each statement's verdict under every swept setting",
        *[f"- `{k}.csv`" for k in shown],
        "",
    ]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    (out / "summary.json").write_text(
        json.dumps(
            {
                "study": name,
                "subject": evidence.subject,
                "title": module.TITLE,
                "profile": profile,
                "other_profile": second if other else None,
                "against": against,
                "seed_base": seed_base,
                "quick": quick,
                "wall_s": wall,
                "wall_ns2_s": wall_ns2,
                "counts": counts(verdicts),
                "bottom_line": top[2] if len(top) > 2 else "",
                "figures": figures,
            },
            indent=2,
        )
    )
    return path


#: where a study's ns-2.35 runs go, under its output directory
NS2_DIR = "ns2"


def decide_ns2(claims, tables) -> list:
    """The claims decided on ns-2.35's runs (a study's ``run_ns2`` tables): a claim whose
    ``ns2`` names what stock ns-2.35 lacks is not run, and says so."""
    return [c.cannot_run_ns2() if c.ns2 else c.decide(tables) for c in claims]


def _ns2_absent(module: ModuleType, against: str | None) -> str:
    if against == "ns2":
        return ""
    if not hasattr(module, "run_ns2"):
        return getattr(module, "NO_NS2", "no ns-2.35 scenarios of this study are written yet")
    return "ns-2.35 was not run beside (`--against ns2` runs it)"


def _check_ns2(module: ModuleType, name: str) -> None:
    from wlansim.errors import WlansimError
    from wlansim.evidence.ns2.run import INSTALL_HINT, ns_binary

    if not hasattr(module, "run_ns2"):
        made = [n for n in NAMES if hasattr(study(n), "run_ns2")]
        raise WlansimError(
            f"--against ns2: {name} was not made with ns-2 "
            f"({getattr(module, 'NO_NS2', 'no ns-2 scenarios')}); the studies made with "
            f"ns-2 are {', '.join(made)}"
        )
    if ns_binary() is None:
        raise WlansimError(f"--against ns2: {INSTALL_HINT}")


def _swept(row) -> bool:
    """Is an open parameter's row one whose values were swept (its "we use" cell lists
    the values tried)?"""
    return "swept" in str(row[2]).lower() or "tried" in str(row[2]).lower()


def _write_sweeps(path, sweeps) -> None:
    import csv

    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["setting", "id", "verdict", "ours", "ci95", "sentence"])
        for label, verdicts in sweeps.items():
            for v in verdicts:
                r = v.row()
                w.writerow([label, r["id"], r["verdict"], r["ours"], r["ci95"], r["sentence"]])


def verdict_grid(claims, main_label: str, tables: dict, settings: dict):
    """statement × setting: "verdict (ours)" of each of `claims` on `tables` (column
    `main_label`) and on each of `settings` (a study's ``readings``: label → tables);
    None without settings."""
    import pandas as pd

    from wlansim.evidence import claims as cl

    if not settings:
        return None
    columns = {}
    for label, t in {main_label: tables, **settings}.items():
        cells = {}
        for v in cl.decide_all(claims, t):
            ours = v.row()["ours"]
            cells[v.claim.id] = f"{v.verdict} ({ours})" if ours else v.verdict
        columns[label] = cells
    return pd.DataFrame(columns).loc[[c.id for c in claims]]


def study_reproduce(module_name: str):
    """The ``reproduce(out, quick=False, jobs=None, progress=False, profile=None,
    seed_base=1, other=None, against=None)`` function of study module `module_name`
    (:func:`run_study`)."""
    import sys

    def reproduce(out, quick=False, jobs=None, progress=False, profile=None, seed_base=1,
                  other=None, against=None):  # fmt: skip
        return run_study(
            sys.modules[module_name],
            out,
            quick,
            jobs,
            progress,
            profile,
            seed_base,
            other,
            against,
        )

    reproduce.__doc__ = run_study.__doc__
    return reproduce


def reproduce_all(out, quick=False, jobs=None, progress=False, seed_base=1, against=None):
    """Run every study (the five reproductions and the extension) into ``out/NAME``
    (``against="ns2"``: beside ns-2.35 those made with it) and write ``out/index.md`` from
    their claims files (:func:`wlansim.evidence.report.write_index`); return its path.

    One study's runs at a time; its decisions, figures and report (:func:`conclude_runs`,
    work for one core) are made in a process of their own (a fork, which holds the runs)
    while the next study's runs go on."""
    import json
    import multiprocessing
    import os
    import time

    from wlansim.errors import WlansimError
    from wlansim.evidence.report import RUN_FILE, write_index
    from wlansim.machine import cpu_seconds

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    start, cpu0, load0 = time.perf_counter(), cpu_seconds(own=True), os.getloadavg()[0]
    fork = multiprocessing.get_context("fork")
    reports = []
    try:
        for name in NAMES:
            module = study(name)
            ran = run_runs(
                module, out / name, quick=quick, jobs=jobs, progress=progress,
                seed_base=seed_base, against=against if hasattr(module, "run_ns2") else None,
            )  # fmt: skip
            report = fork.Process(target=_conclude_exit, args=(ran,), name=f"{name} report")
            report.start()
            reports.append((name, report))
            del ran
        failed = []
        for name, report in reports:
            report.join()
            if report.exitcode != 0:
                failed.append(name)
    finally:
        for _name, report in reports:
            if report.is_alive():  # an error or Ctrl-C above: stop the reports
                report.kill()
                report.join()
    if failed:
        raise WlansimError(
            f"reproduce all: the report of {', '.join(failed)} failed (its error is above); "
            "run `wlansim reproduce NAME` with the same options to see it again (the runs "
            "are stored and reused)"
        )
    run = {
        "wall_s": time.perf_counter() - start,
        "cpu_s": cpu_seconds(own=True) - cpu0,
        "cores": os.cpu_count(),
        "load_start": load0,
        "load_end": os.getloadavg()[0],
    }
    (out / RUN_FILE).write_text(json.dumps(run, indent=2))
    return write_index(out, {n: out / n for n in NAMES})


def _conclude_exit(ran: Ran) -> None:
    """:func:`conclude_runs` in a report process of :func:`reproduce_all`: exit status 0,
    or 1 after printing the error."""
    import sys
    import traceback

    try:
        conclude_runs(ran)
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
