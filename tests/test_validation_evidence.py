"""Every validation is evidence as a study is (`wlansim.evidence.validation`): claims decided
over its runs, claims.csv, its tables, figures and a report.md that opens with the computed
bottom line; the command line's options reach it as documented."""

from __future__ import annotations

import json
import re
import shlex

import pandas as pd
import pytest
from conftest import wlansim_cli

from wlansim.cli import main
from wlansim.cli.flags import DURATION
from wlansim.evidence import claims as cl
from wlansim.evidence.ns2.run import ns_binary
from wlansim.evidence.validation import NAMES, command, seconds_text, validation

CASES = [(name, c) for name in NAMES for c in validation(name).CLAIMS]


@pytest.mark.parametrize("name", NAMES)
def test_every_validation_writes_claims_tables_and_a_report_opening_with_the_bottom_line(
    name, quick_validation
):
    if name == "ns2" and ns_binary() is None:
        pytest.skip("ns-2 is not installed (make ns2)")
    module = validation(name)
    out, printed = quick_validation(name)
    rows = cl.read_csv(out / "claims.csv")
    assert [r["id"] for r in rows] == [c.id for c in module.CLAIMS]
    # the verdicts printed are the ones written
    for r in rows:
        assert f"- {r['id']}: {r['verdict']}" in printed, r["id"]
        assert r["category"] and r["reason"], r["id"]
    report = (out / "report.md").read_text().splitlines()
    assert report[0].startswith(f"# validate {name}: ")
    assert [x for x in report if x.startswith("## ")][0] == "## Bottom line"
    assert report[2] == "## Bottom line"
    assert any(x.startswith(f"`wlansim validate {name} --quick") for x in report)
    written = printed.strip().splitlines()[-1]
    assert written.startswith("wrote ") and written.endswith(str(out / "report.md"))
    for path in written.removeprefix("wrote ").split(", "):
        assert (out / path.rsplit("/", 1)[-1]).is_file(), path
    csvs = [p.name for p in out.glob("*.csv")]
    assert "claims.csv" in csvs and len(csvs) >= 2


@pytest.mark.parametrize("name,claim", CASES, ids=[f"{n}:{c.id}" for n, c in CASES])
def test_every_check_can_hold_and_can_fail(name, claim):
    holds, fails = claim.rule.examples()
    assert claim.judge(holds).verdict == "holds"
    assert claim.judge(fails).verdict == "does not hold"


TINY = ["--stations", "1,5", "--duration", "2 s", "--warmup", "0.5 s", "--reps", "2"]


@pytest.mark.parametrize("access", ["both", "basic,rts", "rts,both"])
def test_bianchi_access_both_runs_both_modes(access, tmp_path):
    """`--access both` (documented, refused before: issue 39) is basic access and
    RTS/CTS, as `basic,rts` is; --json prints the table's rows."""
    proc = wlansim_cli("validate", "bianchi", *TINY, "--access", access, "--out",
                       str(tmp_path), "--json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = pd.DataFrame(json.loads(proc.stdout))
    assert sorted(set(rows["access"])) == ["basic", "rts"]
    assert len(rows) == 2 * 2 * 2
    verdicts = {r["id"]: r["verdict"] for r in cl.read_csv(tmp_path / "claims.csv")}
    assert verdicts["rts.costs-at-one-station"] == "holds", verdicts


def test_the_reports_command_repeats_the_run(tmp_path, capsys):
    """The command line in report.md spells out every option: run again, it gives the
    same claims (same seeds, same numbers)."""
    first = tmp_path / "first"
    assert main(["validate", "bianchi", *TINY, "--access", "basic", "--out", str(first)]) == 0
    (command,) = re.findall(r"^`(wlansim validate bianchi [^`]*)`", (first / "report.md")
                            .read_text(), re.MULTILINE)  # fmt: skip
    args = shlex.split(command)[1:]
    assert args[args.index("--out") + 1] == str(first)
    args[args.index("--out") + 1] = str(tmp_path / "again")
    assert main(args) == 0
    capsys.readouterr()
    for f in ("claims.csv", "bianchi.csv"):
        a, b = (pd.read_csv(tmp_path / d / f) for d in ("first", "again"))
        assert a.drop(columns=["wall_s"], errors="ignore").equals(
            b.drop(columns=["wall_s"], errors="ignore")
        ), f


ODD_S = 12.3456789  # more digits than %g writes


@pytest.mark.parametrize(
    "name,options",
    [
        ("bianchi", {"stations": [1], "access": ["basic"], "duration": ODD_S, "warmup": 0.25,
                     "payload": 1472, "seed": 1, "reps": 1}),
        ("capture", {"stations": [5], "duration": ODD_S, "seed": 1, "reps": 1}),
        ("hidden", {"reps": 2, "duration": ODD_S}),
        ("ns2", {"reps": 1, "tcp_reps": 1, "tcp_reps_wide": 0, "duration": ODD_S, "jobs": 1}),
        ("ns3", {"reps": 1, "duration": ODD_S, "jobs": 1}),
    ],
)  # fmt: skip
def test_every_plan_keeps_seconds_and_the_command_writes_them_back(name, options):
    """Every validation's plan holds its times in seconds; the command line of the report
    writes each with its unit, and the flag's parser reads back the same number."""
    plan = validation(name).Plan.of(False, **options)
    args = shlex.split(command(name, plan, "out"))
    times = [flag for flag in ("--duration", "--warmup") if flag in args]
    assert "--duration" in times
    for flag in times:
        text = args[args.index(flag) + 1]
        key = flag.removeprefix("--")
        assert text.endswith(" s") and DURATION(text) == getattr(plan, key) == options[key]
    assert seconds_text(20.0) == "20 s" and seconds_text(ODD_S) == "12.3456789 s"


@pytest.mark.parametrize(
    "args,message",
    [
        (["bianchi", "--access", "pcf"], "--access 'pcf': allowed values are basic, rts, both"),
        (["bianchi", "--reps", "0"], "--reps 0: at least 1"),
        (["bianchi", "--duration", "10"], "--duration"),
        (["bianchi", "--duration", "1 s", "--warmup", "2 s"], "longer than the warm-up"),
        (["capture", "--reps", "0"], "--reps 0: at least 1"),
        (["hidden", "--quick", "--reps", "1"], "--reps 1: at least 2"),
        (["hidden", "--duration", "5 s"], "--duration 5 s: longer than the 10 s warm-up"),
        (["hidden", "--duration", "5"], '--duration: "5" has no valid unit'),
    ],
)
def test_bad_options_are_refused_naming_the_flag(args, message, tmp_path, capsys):
    try:  # a value the flag's parser refuses stops argparse (SystemExit), others main
        code = main(["validate", *args, "--out", str(tmp_path)])
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", [None, *NAMES])
def test_help_texts_print_their_percent_signs_once(name, capsys):
    with pytest.raises(SystemExit):
        main(["validate", *([name] if name else []), "--help"])
    out = capsys.readouterr().out
    assert "%%" not in out and "usage: wlansim validate" in out
