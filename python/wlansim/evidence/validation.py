"""Running a validation (``wlansim validate NAME``): the simulator beside a model, another
simulator or a paper's outcomes. A validation is what a study is, claims over runs: its
agreement statements are claim records decided by the engine the studies use
(:mod:`wlansim.evidence.claims`), and it writes what a study writes: every table as CSV,
``claims.csv`` (:func:`wlansim.evidence.report.write_claims_csv`), its figures and a
``report.md`` that opens with the computed bottom line
(:func:`wlansim.evidence.conclusion.bottom_line`).

A validation module (``wlansim.evidence.validations.NAME``, one per name of
:data:`NAMES`) declares, as data:

  TITLE       what is set beside what
  PROFILE     the rules wlansim's runs follow ("standard", or "ns2" beside ns-2.35)
  NO_NS2      why no ns-2.35 verdict stands beside the claims (the bottom line says it)
  CLAIMS      the agreement statements (:class:`wlansim.evidence.claims.Claim`), decided
              on the tables of :func:`run`
  Plan        a frozen dataclass of the command's options, its fields named after the
              flags, and ``quick``: ``Plan.of(quick, **options)`` checks the options (an
              error names the flag, the value and what is allowed) and applies --quick's
              settings; ``plan.skips()`` lists what a quick plan leaves out. A time
              (--duration, --warmup) is held in seconds, in a field made with
              :func:`in_seconds`, and written with :func:`seconds_text`
  run(plan) -> {name: DataFrame}: every table the claims, the figures and the printout
              read (per-run rows where a claim needs replications)
  plot(tables, out, plan) -> [paths]: the figures, written under ``out``
  show(tables, plan) -> [lines]: the tables as the command prints them

and, where it needs them:

  CSV_PREFIX  prepended to each table's file name (``ns2-udp.csv``)
  JSON_TABLE  the one table ``--json`` prints (as a list of rows); without it ``--json``
              prints every table, by name
  unavailable() -> str: why the validation cannot run on this machine ("" when it can)

:func:`validate` does the rest, the same for every validation.
"""

from __future__ import annotations

import dataclasses
import importlib
import shlex
from pathlib import Path
from types import ModuleType
from typing import Any

#: the validations, by the name the command line takes
NAMES = ("bianchi", "capture", "tcp-drops", "ns2", "hidden", "ns3")


def validation(name: str) -> ModuleType:
    """The module of validation ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise KeyError(f"unknown validation {name!r}; known: {', '.join(NAMES)}")
    return importlib.import_module(f"wlansim.evidence.validations.{name.replace('-', '_')}")


@dataclasses.dataclass(frozen=True)
class Result:
    """What a run of ``wlansim validate`` did: the text the command prints, what ``--json``
    prints instead (None when nothing ran, e.g. ns-2.35 is missing: the text says why),
    and, for a validation (:func:`validate`), its tables, verdicts and the files it wrote
    (tables, claims.csv, figures, report.md)."""

    text: str
    data: Any = None
    tables: dict[str, Any] = dataclasses.field(default_factory=dict)
    verdicts: list = dataclasses.field(default_factory=list)
    files: list[Path] = dataclasses.field(default_factory=list)


def json_data(tables: dict[str, Any], table: str | None = None) -> Any:
    """What ``--json`` prints of `tables`: the rows of `table`, or every table's rows by
    name."""
    if table is not None:
        return tables[table].to_dict(orient="records")
    return {n: t.to_dict(orient="records") for n, t in tables.items()}


def command(name: str, plan: Any, out: str | Path) -> str:
    """The command line that repeats a run of `plan` into `out`: every option spelled
    out, so that it does not depend on the defaults of the day (a time, a field made with
    :func:`in_seconds`, with its unit: the flags read it with the scenario's parser)."""
    parts = ["wlansim", "validate", name] + (["--quick"] if plan.quick else [])
    for f in dataclasses.fields(plan):
        if f.name == "quick":
            continue
        value = getattr(plan, f.name)
        if isinstance(value, bool):  # a switch: there or not
            parts += [f"--{f.name.replace('_', '-')}"] if value else []
            continue
        if f.metadata.get("unit") == "s":
            text = seconds_text(value)
        elif isinstance(value, (list, tuple)):
            text = ",".join(map(str, value))
        else:
            text = str(value)
        parts += [f"--{f.name.replace('_', '-')}", text]
    parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def in_seconds() -> Any:
    """A field of a validation's Plan that holds a time in seconds (--duration, --warmup:
    the command line reads them with the scenario's unit parser, :data:`wlansim.cli.flags.
    DURATION`); :func:`command` writes it back with its unit."""
    return dataclasses.field(metadata={"unit": "s"})


def seconds_text(seconds: float) -> str:
    """A time in seconds as the scenario and the command line write it (``"20 s"``): the
    shortest of ``%g`` and the exact decimal that reads back as the same number."""
    text = f"{seconds:g}"
    if float(text) != seconds:
        text = repr(float(seconds))
    return f"{text} s"


def past_warmup(duration_s: float, warmup_s: float) -> float:
    """`duration_s` of --duration, refused unless longer than the `warmup_s` not measured."""
    from wlansim.errors import ScenarioError

    if duration_s <= warmup_s:
        raise ScenarioError(
            f"--duration {seconds_text(duration_s)}: longer than the {seconds_text(warmup_s)} "
            "warm-up"
        )
    return duration_s


def at_least(flag: str, value: int, least: int = 1, why: str = "") -> int:
    """`value` of command-line option `flag`, refused below `least` (``why``: the reason,
    said in the error)."""
    from wlansim.errors import ScenarioError

    if value < least:
        raise ScenarioError(f"{flag} {value}: at least {least}" + (f" ({why})" if why else ""))
    return value


def speed_report(name: str, runs: int) -> Result:
    """``wlansim validate NAME --speed``: validation `name`'s ``speed(runs=...)`` over
    `runs` rounds, printed by its ``speed_lines`` (the measurements themselves with
    ``--json``), or why the other simulator cannot run here."""
    module = validation(name)
    why = module.unavailable()
    if why:
        return Result(why)
    at_least("--speed-runs", runs)
    measured = module.speed(runs=runs)
    return Result("\n".join(module.speed_lines(measured)), measured)


def checks_lines(verdicts) -> list[str]:
    """The checks as the command prints them: each claim's verdict and sentence, then the
    counts."""
    from wlansim.evidence import claims as cl
    from wlansim.evidence.report import counts

    c = counts(verdicts)
    return [
        "",
        "Checks (95 % confidence intervals over the runs):",
        *[f"- {v.claim.id}: {v.sentence}" for v in verdicts],
        ", ".join(f"{c[k]} {k}" for k in cl.VERDICTS if c[k]),
    ]


def validate(name: str, out: str | Path, quick: bool = False, **options: Any) -> Result:
    """Run validation `name` with the command's `options` (``Plan.of(quick, **options)``),
    decide its claims, and write every table as CSV, ``claims.csv``, the figures and
    ``report.md`` into `out`."""
    import time

    from wlansim.evidence import claims as cl
    from wlansim.evidence.conclusion import Evidence, bottom_line, conclude
    from wlansim.evidence.report import claims_markdown, write_claims_csv

    module = validation(name)
    why_not = getattr(module, "unavailable", lambda: "")()
    if why_not:
        return Result(why_not)
    plan = module.Plan.of(quick, **options)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    tables = module.run(plan)
    wall = time.perf_counter() - start
    verdicts = cl.decide_all(module.CLAIMS, tables)
    evidence = Evidence(verdicts, module.PROFILE, ns2_absent=module.NO_NS2, subject="validation")
    conclusions = conclude(evidence)
    prefix = getattr(module, "CSV_PREFIX", "")
    written = []
    for key, t in tables.items():
        written.append(out / f"{prefix}{key}.csv")
        t.to_csv(written[-1], index=False)
    written.append(write_claims_csv(out / "claims.csv", evidence, conclusions))
    figures = [Path(f) for f in module.plot(tables, out, plan)]
    shown = module.show(tables, plan)
    skips = plan.skips()
    lines = [
        f"# validate {name}: {module.TITLE}",
        "",
        *bottom_line(evidence, conclusions),
        "## How this was run",
        "",
        f"`{command(name, plan, out)}`: a {'quick' if quick else 'full'} run, wlansim under "
        f"the `{module.PROFILE}` profile, {wall:.0f} s of wall time on this machine.",
        "",
        *(["This run leaves out:", "", *[f"- {s}" for s in skips], ""] if skips else []),
        "## Checks",
        "",
        "One row per statement. Each verdict and its sentence are computed from the runs by "
        "the verdict engine of the studies (`wlansim.evidence.claims`, 95 % confidence "
        "intervals over the runs); the rule of each statement is in `claims.csv`.",
        "",
        *claims_markdown(evidence, conclusions),
        "",
        "## Tables",
        "",
        "As `wlansim validate` prints them:",
        "",
        "```text",
        *shown,
        "```",
        "",
    ]
    if figures:
        lines += ["## Figures", "", *[f"![{f.name}]({f.name})" for f in figures], ""]
    lines += [
        "## Files",
        "",
        "- `claims.csv`: one row per statement (rule, our value and interval, verdict, "
        "outcome and reason)",
        *[f"- `{prefix}{k}.csv`" for k in tables],
        "",
    ]
    report = out / "report.md"
    report.write_text("\n".join(lines))
    files = [*written, *figures, report]
    text = "\n".join([*shown, *checks_lines(verdicts), "wrote " + ", ".join(str(f) for f in files)])
    data = json_data(tables, getattr(module, "JSON_TABLE", None))
    return Result(text, data, tables, verdicts, files)
