"""What the evidence writes: claims.csv (one row per statement: its verdict under the study's
profile, the other profile and ns-2.35, its outcome and computed reason), the claims table
and sentences of a report, the tables every report shares (open parameters, profile), and
the index of the studies (the five reproductions and the extension), generated from their
claims files alone."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Sequence
from pathlib import Path

from wlansim.evidence.claims import VERDICTS, Verdict, read_csv
from wlansim.evidence.conclusion import (
    APART,
    CATEGORIES,
    EXTENSION,
    FAILED,
    Conclusion,
    Evidence,
    conclude,
    shown,
)

CSV_COLUMNS = (
    "id", "ref", "claim", "kind", "paper", "ours", "ci95", "value", "ci_low", "ci_high",
    "runs", "verdict", "tests", "rule", "sentence", "profile", "other_profile",
    "other_verdict", "other_ours", "other_ci95", "other_sentence", "ns2_verdict", "ns2_ours",
    "ns2_ci95", "ns2_sentence", "agreement", "category", "reason", "holds_under",
)  # fmt: skip


def counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    return {v: sum(x.verdict == v for x in verdicts) for v in VERDICTS}


def write_claims_csv(
    path: str | Path, evidence: Evidence, conclusions: Sequence[Conclusion] | None = None
) -> Path:
    """claims.csv: one row per statement, the study's own profile first and, beside it,
    the verdict under the other profile and under ns-2.35 ("not run" where not run), then
    the statement's outcome (:func:`wlansim.evidence.conclusion.conclude`)."""
    path = Path(path)
    conclusions = conclusions if conclusions is not None else conclude(evidence)
    other, ns2 = evidence.by_id(evidence.other), evidence.by_id(evidence.ns2)
    concl = {c.id: c for c in conclusions}
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
        w.writeheader()
        for v in evidence.verdicts:
            row = v.row()
            o, n, c = other.get(v.claim.id), ns2.get(v.claim.id), concl[v.claim.id]
            row.update(
                profile=evidence.profile,
                other_profile=evidence.other_profile,
                other_verdict=o.verdict if o else "not run",
                other_ours=o.row()["ours"] if o else "",
                other_ci95=o.row()["ci95"] if o else "",
                other_sentence=o.sentence if o else "",
                ns2_verdict=n.verdict if n else "not run",
                ns2_ours=n.row()["ours"] if n else "",
                ns2_ci95=n.row()["ci95"] if n else "",
                ns2_sentence=n.sentence if n else evidence.ns2_absent,
                agreement=c.agreement,
                category=c.category,
                reason=c.reason,
                holds_under="; ".join(c.holds_under),
            )
            w.writerow(row)
    return path


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _value(v: Verdict | None) -> str:
    if v is None:
        return "not run"
    r = v.row()
    ours = r["ours"] + (f" ({r['ci95']})" if r["ci95"] else "")
    return f"{ours} **{v.verdict}**" if ours else v.verdict


def claims_markdown(
    evidence: Evidence, conclusions: Sequence[Conclusion] | None = None
) -> list[str]:
    """The claims table of a report (one row per statement: the paper's value, ours with
    its verdict, ns-2.35's and the other profile's where run, the outcome), then each
    verdict's sentence, and the sentences under ns-2.35 and the other profile."""
    conclusions = conclusions if conclusions is not None else conclude(evidence)
    concl = {c.id: c for c in conclusions}
    other, ns2 = evidence.by_id(evidence.other), evidence.by_id(evidence.ns2)
    head = ["id", "paper ref", "statement", "paper", "wlansim"]
    if evidence.ns2 is not None:
        head.append("ns-2.35")
    if evidence.other is not None:
        head.append(f"under `{evidence.other_profile}`")
    head.append("outcome")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for v in evidence.verdicts:
        r = v.row()
        cells = [r["id"], r["ref"], r["claim"], r["paper"], _value(v)]
        if evidence.ns2 is not None:
            cells.append(_value(ns2.get(v.claim.id)))
        if evidence.other is not None:
            o = other.get(v.claim.id)
            cells.append(o.verdict if o else "not run")
        cells.append(shown(concl[v.claim.id].category, evidence.subject))
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines += ["", "Each verdict, as computed from the runs:", ""]
    lines += [
        f"- **{v.claim.id}** ({v.claim.ref}, {v.claim.kind}): {v.sentence}"
        for v in evidence.verdicts
    ]
    if evidence.ns2 is not None:
        lines += ["", "Under ns-2.35 (the same scenarios):", ""]
        lines += [f"- **{n.claim.id}**: {n.sentence}" for n in evidence.ns2]
    if evidence.other is not None:
        lines += ["", f"Under `{evidence.other_profile}`:", ""]
        lines += [f"- **{o.claim.id}**: {o.sentence}" for o in evidence.other]
    c = counts(evidence.verdicts)
    lines += ["", "Verdicts: " + ", ".join(f"{k} {c[k]}" for k in VERDICTS) + "."]
    return lines


def markdown_table(t, digits: int = 2) -> list[str]:
    """The lines of a Markdown table of DataFrame `t` (floats with `digits` decimals)."""
    cols = list(t.columns)
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in t.iterrows():
        cells = (f"{v:.{digits}f}" if isinstance(v, float) else str(v) for v in r)
        out.append("| " + " | ".join(cells) + " |")
    return out


def grid_markdown(grid) -> list[str]:
    """A statement × setting grid (:func:`wlansim.evidence.study.verdict_grid`) as a
    Markdown table."""
    out = ["| claim | " + " | ".join(grid.columns) + " |", "|---|" + "---|" * len(grid.columns)]
    out += [f"| {i} | " + " | ".join(row) + " |" for i, row in zip(grid.index, grid.to_numpy())]
    return out


def parameters_table(rows) -> list[str]:
    """The report's table of open parameters: what the paper says, what we use, why."""
    out = ["| parameter | the paper says | we use | why |", "|---|---|---|---|"]
    for row in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |")
    return out


# --------------------------------------------------------------------------- index


def category_counts(rows: Sequence[dict[str, str]]) -> dict[str, int]:
    """Statements per outcome category, from a claims.csv's rows."""
    return {c: sum(r["category"] == c for r in rows) for c in CATEGORIES}


def index_markdown(folders: dict[str, Path], out: Path) -> list[str]:
    """``index.md``, computed from each study's claims.csv (its outcomes) and summary.json
    (how it was run): nothing in it is typed by hand. `folders`: study name → its output
    folder; links are relative to `out`."""
    rows = {n: read_csv(Path(f) / "claims.csv") for n, f in folders.items()}
    meta = {n: json.loads((Path(f) / "summary.json").read_text()) for n, f in folders.items()}
    quick = any(m["quick"] for m in meta.values())
    bases = sorted({m["seed_base"] for m in meta.values()})
    against = sorted({m.get("against") or "" for m in meta.values()} - {""})
    beside = [n for n, m in meta.items() if m.get("against")]
    every = len(beside) == len(meta)
    command = (
        "`wlansim reproduce all"
        + (" --quick" if quick else "")
        + "".join(f" --seed {b}" for b in bases if b != 1)
        + ("".join(f" --against {a}" for a in against) if every else "")
        + "`"
        + ("" if every or not beside else f"; `--against ns2` for {', '.join(beside)} only")
    )
    lines = [
        "# wlansim: the five studies, reproduced"
        + (
            ", and an extension"
            if any(m.get("subject") == EXTENSION for m in meta.values())
            else ""
        ),
        "",
        f"{'Quick' if quick else 'Full'} run ({command}). Every number below is counted "
        "from the studies' `claims.csv` files (`wlansim.evidence.report.index_markdown`): "
        "one row per statement of a paper. A statement **reproduces** when it holds in "
        "wlansim's runs; one that does not carries a computed reason: the paper disagrees "
        "with wlansim *and* with its own simulator (ns-2.35) on the setup it states "
        "(**needs a setup the paper does not state**), wlansim differs from ns-2.35 "
        "(**simulator difference**), or neither simulator was there to tell (**not "
        "reproduced**). A setup that cannot show an effect is counted as such, not as a "
        "failure; model properties and checks of the paper's numbers against each other "
        "are counted apart. Run time: the wall time of the invocation that wrote the "
        "report; runs an earlier invocation stored in the same directory are reused, not "
        "counted (each report says how it was run).",
        "",
        "| study | profile | statements | reproduced | "
        + " | ".join(FAILED)
        + " | undecided | cannot show | not run | counted apart | ns-2.35 beside | run time "
        "| report |",
        "|---|---|---|---|" + "---|" * len(FAILED) + "---|---|---|---|---|---|---|",
    ]
    for name, rs in rows.items():
        c, m = category_counts(rs), meta[name]
        statements = sum(c[k] for k in CATEGORIES if k not in APART)
        apart = sum(c[k] for k in APART)
        ns2_ran = sum(r.get("ns2_verdict", "not run") != "not run" for r in rs)
        ns2 = f"{ns2_ran} of {len(rs)}" if m.get("against") == "ns2" else "not run"
        report = os.path.relpath(Path(folders[name]) / "report.md", out)
        lines.append(
            f"| {name} | `{m['profile']}` | {statements} | {c['reproduced']} | "
            + " | ".join(str(c[k]) for k in FAILED)
            + f" | {c['undecided']} | {c['cannot show']} | {c['not run']} | {apart} | {ns2} | "
            f"{m['wall_s']:.0f} s | [report]({report}) |"
        )
    extensions = [n for n, m in meta.items() if m.get("subject") == EXTENSION]
    if extensions:
        lines += [
            "",
            f"{', '.join(extensions)}: {'an extension' if len(extensions) == 1 else 'extensions'}"
            ", not a reproduction: a paper's statements asked of a setup the paper did not "
            "run; its reproduced and not reproduced columns count the statements that hold "
            "there and that do not.",
        ]
    lines += ["", "## Each study's bottom line", ""]
    for name, m in meta.items():
        first = m.get("bottom_line", "")
        if first:
            lines += [f"- **{name}**: {first}"]
    lines += ["", "## Settings", ""]
    for name, m in meta.items():
        link = os.path.relpath(Path(folders[name]) / "report.md", out) + "#parameters"
        lines.append(f"- **{name}**: {m['title']}. Parameters: [{link}]({link})")
    lines.append("")
    return lines


#: what ``reproduce all`` measured of itself (wall and CPU time, load), beside index.md
RUN_FILE = "run.json"


def write_index(out, folders) -> Path:
    """Write ``out/index.md`` (:func:`index_markdown`), with the cost of the run from
    ``out/run.json`` where ``reproduce all`` wrote it."""
    out = Path(out)
    lines = index_markdown({n: Path(f) for n, f in folders.items()}, out)
    run = out / RUN_FILE
    if run.is_file():
        r = json.loads(run.read_text())
        lines += [
            f"Cost of the run: {r['wall_s']:.0f} s of wall time, {r['cpu_s']:.0f} s of CPU "
            f"in the process and its workers, {r['cores']} cores, load average "
            f"{r['load_start']:.1f} at the start and {r['load_end']:.1f} at the end; each "
            "study's share is in its row.",
            "",
        ]
    path = out / "index.md"
    path.write_text("\n".join(lines))
    return path
