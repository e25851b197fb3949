"""Every study's claims as data: each claim's verdict can fail (its rule flips on both
sides), and no quick-mode verdict contradicts the committed full run's claims.csv."""

from __future__ import annotations

from pathlib import Path

import pytest

from wlansim.evidence import claims as cl
from wlansim.evidence.studies import NAMES, study

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "docs" / "reproductions"


def _claims(name):
    module = study(name)
    return getattr(module, "CLAIMS", None) if hasattr(module, "PARAMETERS") else None


CASES = [(name, c) for name in NAMES for c in (_claims(name) or [])]


@pytest.mark.parametrize("name,claim", CASES, ids=[f"{n}:{c.id}" for n, c in CASES])
def test_every_claim_can_hold_and_can_fail(name, claim):
    holds, fails = claim.rule.examples()
    a, b = claim.judge(holds), claim.judge(fails)
    assert a.verdict == "holds", a.phrase
    assert b.verdict == "does not hold", b.phrase
    assert a.phrase != b.phrase


@pytest.mark.parametrize("name", NAMES)
def test_quick_verdicts_never_contradict_the_committed_full_run(name, quick_reproduction):
    if _claims(name) is None:
        pytest.skip(f"{name} does not declare its claims as data yet")
    committed = COMMITTED / name / "claims.csv"
    assert committed.is_file(), f"run `wlansim reproduce {name} --out {committed.parent}`"
    full = {r["id"]: r for r in cl.read_csv(committed)}
    quick = cl.read_csv(quick_reproduction(name) / "claims.csv")
    ids = [c.id for c in _claims(name)]
    assert sorted(full) == sorted(ids), "claims.csv is stale: regenerate the full run"
    # A statement tested against the paper's printed value (PaperValue) holds while that
    # value lies in the interval in which a run of ours falls; with a quick run's fewer
    # runs that interval is wider (Student t), so quick "holds" beside full "does not
    # hold" is the rule working, not a contradiction; the other way round still is.
    against_paper = {
        c.id
        for c in _claims(name)
        if any(isinstance(r, cl.PaperValue) for r in (c.rule, *(t.rule for t in c.also)))
    }
    clashes = [
        f"{r['id']}: quick {r['verdict']} ({r['sentence']}), full {full[r['id']]['verdict']}"
        for r in quick
        if cl.contradicts(r["verdict"], full[r["id"]]["verdict"])
        and not (r["id"] in against_paper and r["verdict"] == "holds")
    ]
    assert not clashes, "\n".join(clashes)


def test_the_docs_quote_only_verdicts_of_the_committed_claims():
    import subprocess
    import sys

    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    text = "\n".join(p.read_text() for p in pages if "reproductions" not in p.parts)
    for name in NAMES:
        if (COMMITTED / name / "claims.csv").is_file():
            assert f"<!-- claims:{name} -->" in text, f"the docs have no claims block for {name}"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme_claims.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr


def test_the_index_counts_each_studys_outcomes_from_its_claims_file(quick_reproduction, tmp_path):
    from wlansim.evidence.report import category_counts, write_index

    index = write_index(tmp_path, {n: quick_reproduction(n) for n in NAMES}).read_text()
    assert "Quick run (`wlansim reproduce all --quick`)" in index
    for name in NAMES:
        rows = cl.read_csv(quick_reproduction(name) / "claims.csv")
        c = category_counts(rows)
        line = next(x for x in index.splitlines() if x.startswith(f"| {name} |"))
        assert f"| {c['reproduced']} | {c['needs a setup the paper does not state']} |" in line
        assert "report.md" in line
        report = (quick_reproduction(name) / "report.md").read_text()
        assert report.split("\n")[2] == "## Bottom line", "a report opens with its bottom line"


def test_the_committed_index_is_generated_from_the_committed_claims_files(tmp_path):
    import shutil

    from wlansim.evidence.report import RUN_FILE, write_index

    for name in NAMES:
        shutil.copytree(COMMITTED / name, tmp_path / name)
    if (COMMITTED / RUN_FILE).is_file():
        shutil.copy(COMMITTED / RUN_FILE, tmp_path / RUN_FILE)
    index = write_index(tmp_path, {n: tmp_path / n for n in NAMES}).read_text()
    assert index == (COMMITTED / "index.md").read_text(), "regenerate docs/reproductions"


def test_claims_diff_names_each_contradiction(tmp_path):
    import subprocess
    import sys

    def folder(name, verdicts):
        d = tmp_path / name / "study"
        d.mkdir(parents=True)
        rows = ["id,verdict", *(f"{i},{v}" for i, v in verdicts.items())]
        (d / "claims.csv").write_text("\n".join(rows) + "\n")
        return tmp_path / name

    a = folder("a", {"x": "holds", "y": "undecided", "z": "does not hold"})
    b = folder("b", {"x": "holds", "y": "holds", "z": "does not hold"})
    c = folder("c", {"x": "does not hold", "y": "undecided", "z": "does not hold"})
    script = str(ROOT / "scripts" / "claims_diff.py")
    same = subprocess.run([sys.executable, script, a, b], capture_output=True, text=True)
    assert same.returncode == 0, same.stdout
    assert "2 of 3 verdicts the same, 1 to or from undecided, 0 contradictions" in same.stdout
    flip = subprocess.run([sys.executable, script, a, c], capture_output=True, text=True)
    assert flip.returncode == 1
    assert "x: holds / does not hold" in flip.stdout
