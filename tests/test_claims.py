"""The verdict engine (wlansim.evidence.claims): intervals against scipy's tests, each rule's
verdicts on both sides of its threshold, sentences that follow the numbers."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

from wlansim.evidence import claims as cl
from wlansim.evidence.claims import (
    Best,
    Claim,
    Compare,
    Every,
    InRange,
    NotRun,
    PaperValue,
    Sample,
    Scale,
    Test,
    Trend,
    Within,
)
from wlansim.evidence.conclusion import Evidence, agreement, bottom_line, conclude
from wlansim.evidence.report import claims_markdown, write_claims_csv

RNG = np.random.default_rng(7)


def sample(mean, sd, n=10, seeds=None, rng=RNG):
    return Sample.of(list(rng.normal(mean, sd, n)), seeds or list(range(1, n + 1)))


def test_paired_difference_interval_is_the_paired_t_test():
    a = sample(10, 1)
    b = Sample.of([v - 0.4 + RNG.normal(0, 0.3) for v in a.values], a.seeds)
    e = cl.difference(a, b)
    t = stats.ttest_rel(a.values, b.values)
    assert (e.low > 0 or e.high < 0) == (t.pvalue < 0.05)
    assert e.value == pytest.approx(np.mean(np.subtract(a.values, b.values)))


def test_unpaired_difference_is_welch():
    a, b = sample(10, 1, seeds=list(range(10))), sample(11, 2, seeds=list(range(50, 60)))
    assert not a.paired_with(b)
    e = cl.difference(a, b)
    t = stats.ttest_ind(a.values, b.values, equal_var=False)
    assert (e.low > 0 or e.high < 0) == (t.pvalue < 0.05)


def test_relative_interval_of_a_ratio_of_means_covers_the_truth():
    # 400 experiments of 10 paired runs each: the 95 % interval of A/B - 1 covers the
    # true 10 % about 95 % of the time
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(400):
        common = rng.normal(0, 5, 10)
        b = Sample.of(list(100 + common + rng.normal(0, 2, 10)), list(range(10)))
        a = Sample.of(list(110 + 1.1 * common + rng.normal(0, 2, 10)), list(range(10)))
        e = cl.relative(a, b)
        hits += e.low <= 0.10 <= e.high
    assert 0.91 <= hits / 400 <= 0.99


def test_exact_values_have_zero_width_and_nan_runs_are_dropped():
    e = cl.relative(Sample.exact_value(2.0), Sample.exact_value(1.0))
    assert (e.value, e.low, e.high) == (1.0, 1.0, 1.0)
    s = Sample.of([1.0, math.nan, 3.0], [1, 2, 3])
    assert s.values == (1.0, 3.0) and s.seeds == (1, 3) and s.dropped == 1


RULES = [
    Compare("A", "B"),
    Compare("A", "B", op="<"),
    Compare("A", "B", margin=0.2),
    Compare("A", "B", op="<", margin=-0.1),
    Compare("A", "B", margin=99, scale=Scale(ratio=True)),
    Compare("A", "B", scale=Scale(relative=False, unit="ms", factor=1e3)),
    Within("A", "B", tol=0.05),
    Within("A", "B", tol=2.0, scale=Scale(relative=False, unit="pkt/s")),
    InRange("A", 9, 12),
    Trend("delay", "W*", "up"),
    Trend("delay", "W*", "down", margin=-0.1),
    Trend("delay", "W*", "flat", tol=0.05),
    Trend("delay", "W*", "up", scale=Scale(relative=False, unit="s")),
    PaperValue("injection", 0.46, "802.11"),
    PaperValue("delay (ms)", 21.5, tol=0.5, scale=Scale(relative=False, unit="ms")),
    PaperValue("ratio", 2.0, "B", paper_runs=5, scale=Scale(relative=False)),
    Best("goodput", "sack"),
    Best("delay", "d=4", higher=False),
    Every(Compare("A", "B"), "PER"),
    Every(Within("A", "B", tol=0.1), "n"),
]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.describe()[:60])
def test_every_rule_flips_its_verdict_and_its_sentence(rule):
    holds, fails = rule.examples()
    c = Claim("x", "Fig 1", "claim", rule, measure=lambda t: t)
    v1, v2 = c.decide(holds), c.decide(fails)
    assert v1.verdict == "holds", v1.sentence
    assert v2.verdict == "does not hold", v2.sentence
    assert v1.sentence != v2.sentence
    assert v1.sentence.startswith("holds") and v2.sentence.startswith("does not hold")


def test_overlapping_intervals_are_undecided_and_say_how_many_runs_would_decide():
    a = Sample.of([100, 104, 98, 103, 101], [1, 2, 3, 4, 5])
    b = Sample.of([101, 99, 102, 98, 100], [1, 2, 3, 4, 5])
    out = Compare("A", "B").evaluate((a, b))
    assert out.verdict == "undecided"
    assert "runs per point would decide it" in out.phrase


def test_not_run_and_model_property_are_labelled():
    def skipped(_):
        raise NotRun("quick mode runs n = 1 only")

    v = Claim("x", "Fig 4", "c", Compare("A", "B"), measure=skipped).decide(None)
    assert v.verdict == "not run" and "quick mode" in v.sentence
    m = Claim(
        "m",
        "Fig 4",
        "eq 10 above eq 9",
        Compare("eq 10", "eq 9"),
        measure=lambda _: (Sample.exact_value(2.0), Sample.exact_value(1.0)),
        kind="model property",
    ).decide(None)
    assert m.verdict == "holds" and "property of the models" in m.sentence
    with pytest.raises(ValueError, match="kind"):
        Claim("k", "r", "t", Compare("A", "B"), measure=lambda _: None, kind="opinion")


def test_trend_pairs_by_seed_when_every_point_has_the_same_seeds():
    rng = np.random.default_rng(1)
    seed_level = rng.normal(0, 20, 6)  # large per-seed offsets shared by every x
    pts = [
        (x, Sample.of(list(100 + 2 * x + seed_level + rng.normal(0, 0.5, 6)), list(range(6))))
        for x in range(5)
    ]
    paired = Trend("y", "x", "up").evaluate(pts)
    assert paired.verdict == "holds"
    unpaired = [(x, Sample.of(list(s.values), None)) for x, s in pts]
    assert Trend("y", "x", "up").evaluate(unpaired).verdict == "undecided"


def test_best_is_beaten_when_another_option_is_significantly_better():
    opts = {
        "sack": Sample.of([10, 10.1, 9.9, 10, 10.05], [1, 2, 3, 4, 5]),
        "reno": Sample.of([11, 11.1, 10.9, 11, 11.05], [1, 2, 3, 4, 5]),
        "vegas": Sample.of([9, 9.1, 8.9, 9, 9.05], [1, 2, 3, 4, 5]),
    }
    out = Best("goodput", "sack").evaluate(opts)
    assert out.verdict == "does not hold" and "reno" in out.phrase
    assert Best("goodput", "reno").evaluate(opts).verdict == "holds"
    with pytest.raises(NotRun):
        Best("goodput", "tahoe").evaluate(opts)


def test_claims_csv_round_trip_and_contradictions(tmp_path):
    c = Claim("a", "Fig 1", "A above B", Compare("A", "B"), measure=lambda t: t, paper="+5 %")
    holds, fails = c.rule.examples()
    mine, other = [c.decide(holds)], [c.decide(fails)]
    evidence = Evidence(mine, "standard", other, "ns2")
    path = write_claims_csv(tmp_path / "claims.csv", evidence)
    rows = cl.read_csv(path)
    assert rows[0]["verdict"] == "holds" and rows[0]["other_verdict"] == "does not hold"
    assert rows[0]["paper"] == "+5 %" and rows[0]["profile"] == "standard"
    assert rows[0]["category"] == "reproduced" and rows[0]["ns2_verdict"] == "not run"
    assert cl.contradicts("holds", "does not hold")
    assert not cl.contradicts("holds", "undecided") and not cl.contradicts("not run", "holds")
    md = "\n".join(claims_markdown(evidence))
    assert "| a | Fig 1 |" in md and "under `ns2`" in md and "holds 1" in md
    with pytest.raises(ValueError, match="duplicate"):
        cl.decide_all([c, c], holds)


def test_every_point_must_hold_with_bonferroni_intervals():
    good = (Sample.of([110, 111, 109, 110.5], [1, 2, 3, 4]), Sample.of([100] * 4, [1, 2, 3, 4]))
    bad = (Sample.of([90, 91, 89, 90.5], [1, 2, 3, 4]), Sample.of([100] * 4, [1, 2, 3, 4]))
    rule = Every(Compare("A", "B"), "PER")
    assert rule.evaluate({10: good, 20: good}).verdict == "holds"
    out = rule.evaluate({10: good, 20: bad})
    assert out.verdict == "does not hold" and "not at 20" in out.phrase
    with pytest.raises(NotRun):
        rule.evaluate({})


def test_trend_is_the_change_from_the_first_x_to_the_last():
    seeds = [1, 2, 3, 4]
    pts = [(x, Sample.of([100.0 / (1 + x) + d for d in (0, 0.1, -0.1, 0.05)], seeds))
           for x in range(5)]  # fmt: skip
    out = Trend("goodput", "PER", "down").evaluate(pts)
    assert out.verdict == "holds"
    assert -1 < out.estimate.value == pytest.approx(20 / 100 - 1, abs=0.01)
    assert "from PER = 0 to 4" in out.phrase


def test_two_cases_identical_in_every_run_cannot_show_an_effect():
    same = Sample.of([3.2, 3.1, 3.3], [1, 2, 3])
    twin = Sample.of([3.2, 3.1, 3.3], [1, 2, 3])
    for rule, inputs in (
        (Compare("IFQ 100", "IFQ 25"), (same, twin)),
        (Within("A", "B", 0.05), (same, twin)),
        (Trend("y", "x", "up"), [(1, same), (2, twin)]),
        (Best("goodput", "sack"), {"sack": same, "reno": twin}),
        (Every(Compare("A", "B"), "PER"), {10: (same, twin)}),
        (PaperValue("A", 0.2, "B"), (same, twin)),
    ):
        out = rule.evaluate(inputs)
        assert out.verdict == "cannot show", (rule, out.phrase)
    # one constant value on both sides without seeds: the same; a real difference is not
    assert Compare("A", "B").evaluate((Sample.of([0.0] * 3), Sample.of([0.0] * 3))).verdict == (
        "cannot show"
    )
    differs = Sample.of([3.3, 3.1, 3.3], [1, 2, 3])
    assert Compare("A", "B").evaluate((differs, twin)).verdict != "cannot show"


def test_paper_value_uses_our_run_to_run_spread():
    seeds = list(range(1, 11))
    base = Sample.of([1.0] * 10, seeds)
    wide = Sample.of([1.5 + 0.36 * (-1) ** i * (1 + i % 3) for i in range(10)], seeds)
    narrow = Sample.of([1.5 + 0.01 * (-1) ** i for i in range(10)], seeds)
    # +50 % on average; one run of the wide sample may well show +100 %, of the narrow not
    assert PaperValue("A", 1.0, "B").evaluate((wide, base)).verdict == "holds"
    out = PaperValue("A", 1.0, "B").evaluate((narrow, base))
    assert out.verdict == "does not hold" and "excludes the paper's +100.0 %" in out.phrase
    # the mean of five paper runs is known better than one
    assert PaperValue("A", 0.62, "B").evaluate((narrow, base)).verdict == "does not hold"
    assert PaperValue("A", 0.505, "B", tol=0.0).evaluate((narrow, base)).verdict == "holds"


def _claim(cid, rule_inputs, **kw):
    rule = Compare("A", "B")
    return Claim(cid, "Fig 1", f"statement {cid}", rule, measure=lambda t: rule_inputs, **kw)


def test_a_statement_holds_when_each_of_its_tests_holds():
    good, bad = Compare("A", "B").examples()
    value_ok = Test("value", PaperValue("A", 0.3, "B"), measure=lambda t: good)
    value_far = Test("value", PaperValue("A", 5.0, "B"), measure=lambda t: good)
    assert _claim("a", good, also=(value_ok,)).decide(None).verdict == "holds"
    v = _claim("b", good, also=(value_far,)).decide(None)
    assert v.verdict == "does not hold" and "Value: does not hold" in v.sentence
    assert v.row()["tests"] == "value: does not hold"


def test_a_failed_premise_fails_the_statement_and_a_blind_setup_cannot_show():
    good, bad = Compare("A", "B").examples()
    gains_exist = Test("both gains above 0", Compare("gain", "0"), lambda t: bad, "simulation")
    v = _claim("g", good, premise=gains_exist).decide(None)
    assert v.verdict == "does not hold" and "what it presupposes" in v.sentence
    blind = _claim("w", bad, setup=lambda t: "no segment was lost in any run").decide(None)
    assert blind.verdict == "cannot show" and "no segment was lost" in blind.sentence


def test_an_extension_says_holds_and_does_not_hold_where_a_paper_says_reproduced():
    good, bad = Compare("A", "B").examples()
    mine = [_claim("held", good).decide(None), _claim("failed", bad).decide(None)]
    for subject, held, failed in (
        ("paper", "**reproduced**. Holds", "**not reproduced**. "),
        ("extension", "**holds**: ", "**does not hold**: "),
    ):
        evidence = Evidence(mine, "standard", ns2_absent="no ns-2.35", subject=subject)
        out = conclude(evidence)
        # claims.csv and the index keep the category either way
        assert [c.category for c in out] == ["reproduced", "not reproduced"]
        top = "\n".join(bottom_line(evidence, out, headline=("held", "failed")))
        assert held in top and failed in top, top
        table = "\n".join(claims_markdown(evidence, out))
        assert ("| holds |" in table) == (subject == "extension")
    assert "Of the extension's 2 checks, **1 holds** and **1 does not**" in top


def test_conclusions_name_the_reason_of_each_statement_that_fails():
    good, bad = Compare("A", "B").examples()
    claims = {
        "both-fail": _claim("both-fail", bad),
        "sim-diff": _claim("sim-diff", bad),
        "held": _claim("held", good),
        "no-ns2": _claim("no-ns2", bad, ns2="needs delay injection", rests_on=("both-fail",)),
        "model": _claim("model", good, kind="model property"),
    }
    mine = [c.decide(None) for c in claims.values()]
    ns2_inputs = {"both-fail": bad, "sim-diff": good, "held": good, "model": good}
    ns2 = [
        c.cannot_run_ns2()
        if c.ns2
        else dataclasses.replace(c, measure=lambda t, i=ns2_inputs[k]: i).decide(None)
        for k, c in claims.items()
    ]
    evidence = Evidence(mine, "ns2", ns2=ns2, differences={"sim-diff": "wlansim's Vegas differs"})
    out = {c.id: c for c in conclude(evidence)}
    assert out["both-fail"].category == "needs a setup the paper does not state"
    assert out["sim-diff"].category == "simulator difference"
    assert "wlansim's Vegas differs" in out["sim-diff"].reason
    assert out["held"].category == "reproduced" and out["held"].agreement == "agree"
    assert out["no-ns2"].category == "needs a setup the paper does not state"
    assert "ns-2.35 cannot run it (needs delay injection)" in out["no-ns2"].reason
    assert out["model"].category == "model property"
    top = "\n".join(bottom_line(evidence, list(out.values()), headline=("both-fail",)))
    assert "Of the paper's 4 statements checked here, **1 reproduces** and **3 do not**" in top
    assert "counted apart" in top.lower() and "The paper's headline" in top
    # a statement resting on a baseline the simulators put apart (+1.5 % against +1.0 %,
    # both "holds"): it counts as agreeing only when the study names the difference and
    # the verdicts are the same
    seeds = list(range(1, 9))
    base = Sample.of([100.0 + 0.1 * (-1) ** i for i in range(8)], seeds)
    ours_in = (Sample.of([101.5 + 0.1 * (-1) ** i for i in range(8)], seeds), base)
    theirs_in = (Sample.of([101.0 + 0.1 * (-1) ** i for i in range(8)], seeds), base)
    anchor = _claim("base", ours_in)
    rests = _claim("inj", bad, ns2="needs injection", rests_on=("base",))
    mine2 = [anchor.decide(None), rests.decide(None)]

    def under_ns2(inputs):
        return [dataclasses.replace(anchor, measure=lambda t: inputs).decide(None),
                rests.cannot_run_ns2()]  # fmt: skip

    apart = under_ns2(theirs_in)
    assert mine2[0].verdict == apart[0].verdict == "holds"
    assert agreement(mine2[0].estimate, apart[0].estimate) == "differ"
    named = {"base": "a MAC timing"}
    cases = [
        (Evidence(mine2, "ns2", ns2=apart), "not reproduced"),
        (Evidence(mine2, "ns2", ns2=apart, differences=named),
         "needs a setup the paper does not state"),
        (Evidence(mine2, "ns2", ns2=under_ns2((base, base)), differences=named),
         "not reproduced"),  # named, but ns-2.35's verdict differs (cannot show)
    ]  # fmt: skip
    for evidence, category in cases:
        assert {c.id: c for c in conclude(evidence)}["inj"].category == category
    reason = {c.id: c for c in conclude(cases[1][0])}["inj"].reason
    assert "apart on base only by a named simulator difference" in reason
    # the swept settings: named where the statement holds, said where none does
    sweeps = {"setting x": [anchor.decide(None), rests.decide(None)],
              "setting y": [anchor.decide(None), _claim("inj", good).decide(None)]}  # fmt: skip
    swept = {c.id: c for c in conclude(Evidence(mine2, "ns2", sweeps=sweeps))}
    assert swept["inj"].holds_under == ("setting y",)
    assert swept["inj"].reason.endswith("It holds under: setting y.")
    none = {c.id: c for c in conclude(Evidence(mine2, "ns2", sweeps={"x": sweeps["setting x"]}))}
    assert "No swept setting makes it hold" in none["inj"].reason
    # without ns-2.35 the same failures are only "not reproduced"
    alone = {c.id: c for c in conclude(Evidence(mine, "ns2", ns2_absent="a test-bed paper"))}
    assert alone["both-fail"].category == "not reproduced"
    assert alone["both-fail"].reason.startswith("A test-bed paper; wlansim finds -30.0 %")


def test_agreeing_estimates_are_no_simulator_difference_when_only_the_spread_differs():
    # pilosof2003's tab1.ratio-8: the paper's 7.9; both simulators near 40, ns-2.35's five
    # runs so spread that one run of it could fall at 7.9, wlansim's not.
    seeds = [1, 2, 3, 4, 5]
    ours, theirs = Sample.of([38, 39, 40, 39, 38], seeds), Sample.of([10, 70, 40, 42, 39], seeds)
    rule = PaperValue("R", 7.9, scale=Scale(relative=False))
    mine = Claim("r8", "Table I", "ratio about 8", rule, measure=lambda t: ours)
    ns2 = dataclasses.replace(mine, measure=lambda t: theirs)
    v, n = mine.decide(None), ns2.decide(None)
    assert (v.verdict, n.verdict) == ("does not hold", "holds")
    out = conclude(Evidence([v], "ns2", ns2=[n]))[0]
    assert out.agreement == "agree"
    assert out.category == "needs a setup the paper does not state"
    assert "spread too widely" in out.reason
    # named by the study, or estimates apart: a simulator difference as before
    named = conclude(Evidence([v], "ns2", ns2=[n], differences={"r8": "ns-2 differs"}))[0]
    assert named.category == "simulator difference"
