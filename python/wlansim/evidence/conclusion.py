"""What a reproduction concludes: per statement of the paper, whether it reproduced and, when
it did not, one computed reason; and the bottom line a report opens with.

The reason comes from the evidence, never from prose written for the occasion:

- the statement holds in our runs: **reproduced**;
- it does not hold, and the paper's own simulator (ns-2.35, run on the same scenarios with
  ``--against ns2``) does not reproduce it either: the paper disagrees with both simulators
  on the setup it states, so it **needs a setup the paper does not state**; where an open
  parameter was swept, the values under which it holds are named;
- it does not hold in our runs but holds under ns-2.35: a **simulator difference**, named
  where the study knows it (the study's ``DIFFERENCES``), else said to be unexplained;
  but where the two estimates agree (95 % intervals overlap) and the study names no
  difference, ns-2.35 holds only through its wider spread: the paper disagrees with what
  both simulators find, again a setup the paper does not state;
- ns-2.35 cannot run the statement's cases (a mechanism stock ns-2.35 does not have) but
  runs the cases it is measured against (``Claim.rests_on``), and agrees with us there
  (estimates within each other's intervals, or apart by a difference the study names,
  with the same verdict): again the setup the paper does not state, with that as the
  evidence;
- otherwise (no run of the paper's simulator, or one that cannot tell): **not reproduced**,
  with the sweeps as the only evidence;
- **cannot show**: the runs cannot show the effect (identical in every run, or the claim's
  own setup check), which is not the paper being wrong;
- undecided and not run as the verdicts say;
- model properties and checks of the paper's numbers against each other are labelled and
  counted apart: they are not reproductions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from wlansim.evidence.claims import NOT_REPRODUCTION, Verdict
from wlansim.evidence.stats import Estimate

#: The categories of a statement, in the order the bottom line lists them.
REPRODUCED = "reproduced"
UNSTATED = "needs a setup the paper does not state"
SIMULATOR = "simulator difference"
NOT_REPRODUCED = "not reproduced"
UNDECIDED = "undecided"
CANNOT_SHOW = "cannot show"
NOT_RUN = "not run"
MODEL = "model property"
CONSISTENCY = "paper consistency"
CATEGORIES = (
    REPRODUCED, UNSTATED, SIMULATOR, NOT_REPRODUCED, UNDECIDED, CANNOT_SHOW, NOT_RUN, MODEL,
    CONSISTENCY,
)  # fmt: skip
#: The categories of a statement that did not reproduce.
FAILED = (UNSTATED, SIMULATOR, NOT_REPRODUCED)
#: Categories that are not counted as reproduction either way.
APART = (MODEL, CONSISTENCY)
#: The subject of a study that asks a paper's statements of a setup the paper did not run:
#: there is nothing to reproduce, so its reports say "holds" and "does not hold".
EXTENSION = "extension"


def shown(category: str, subject: str) -> str:
    """A statement's category as a report shows it: as is, but for an
    :data:`EXTENSION`'s statements "holds" for reproduced and "does not hold" for not
    reproduced (claims.csv and the index keep the category)."""
    if subject != EXTENSION:
        return category
    return {REPRODUCED: "holds", NOT_REPRODUCED: "does not hold"}.get(category, category)


@dataclasses.dataclass(frozen=True)
class Evidence:
    """Everything decided about a study's statements: the verdicts under its own profile,
    under the other profile (None: not run), under ns-2.35 on the same scenarios (None:
    not run), under each other value swept of its open parameters (label → verdicts), and
    the simulator differences the study has named (claim id → what differs and why)."""

    verdicts: Sequence[Verdict]
    profile: str
    other: Sequence[Verdict] | None = None
    other_profile: str = ""
    ns2: Sequence[Verdict] | None = None
    sweeps: Mapping[str, Sequence[Verdict]] = dataclasses.field(default_factory=dict)
    differences: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: why ns-2.35 was not run beside (shown where a reason needs it): "" when it was
    ns2_absent: str = ""
    #: whose statements these are: "paper" (a study), or e.g. "validation", whose checks
    #: hold or do not, with their sentence as the reason
    subject: str = "paper"

    def by_id(self, which: Sequence[Verdict] | None) -> dict[str, Verdict]:
        return {v.claim.id: v for v in which or ()}


@dataclasses.dataclass(frozen=True)
class Conclusion:
    """One statement's outcome: its category, the computed reason, whether wlansim and
    ns-2.35 agree on its estimate ("agree", "differ" or "" when not both measured it), and
    the swept settings under which it holds."""

    id: str
    category: str
    reason: str
    agreement: str = ""
    holds_under: tuple[str, ...] = ()


def agreement(a: Estimate, b: Estimate) -> str:
    """ "agree" when the two 95 % intervals overlap (or two exact values are equal),
    "differ" when they do not, "" when either is undefined."""
    if not a.defined or not b.defined:
        if a.identical and b.identical:
            return "agree"
        return ""
    return "agree" if a.low <= b.high and b.low <= a.high else "differ"


def _anchor(mine: Verdict, theirs: Verdict | None, evidence: Evidence) -> str:
    """Whether a statement another rests on agrees between wlansim and ns-2.35: "agree"
    (ns-2.35 ran it, the estimates lie within each other's 95 % intervals), "named" (they
    do not, by a difference the study names in ``DIFFERENCES``, and the verdicts are the
    same), or "" (not run under ns-2.35, or apart without a named reason, or verdicts
    that differ)."""
    if theirs is None or theirs.verdict == "not run":
        return ""
    how = agreement(mine.estimate, theirs.estimate)
    if how == "agree":
        return "agree"
    if mine.claim.id in evidence.differences and mine.verdict == theirs.verdict:
        return "named"
    return ""


def _apart(differ: Sequence[Conclusion], differences: Mapping[str, str]) -> str:
    """The statements on which the two simulators are apart, grouped by what the study
    names as the reason (each reason printed once, after the ids it explains)."""
    groups: dict[str, list[str]] = {}
    for x in differ:
        groups.setdefault(differences.get(x.id) or "not yet explained", []).append(x.id)
    return "; ".join(", ".join(ids) + ": " + why for why, ids in groups.items())


def _ours(v: Verdict) -> str:
    r = v.row()
    return r["ours"] + (f" ({r['ci95']})" if r["ci95"] else "")


def _sweep_note(holds_under: Sequence[str], evidence: Evidence) -> str:
    if holds_under:
        return " It holds under: " + "; ".join(holds_under) + "."
    if evidence.sweeps:
        return " No swept setting makes it hold (the settings tried are listed above)."
    return ""


def conclude(evidence: Evidence) -> list[Conclusion]:
    """One :class:`Conclusion` per statement of ``evidence.verdicts`` (see the module)."""
    ns2 = evidence.by_id(evidence.ns2)
    mine = evidence.by_id(evidence.verdicts)
    swept = {label: evidence.by_id(vs) for label, vs in evidence.sweeps.items()}
    out = []
    for v in evidence.verdicts:
        cid = v.claim.id
        under = tuple(
            label for label, vs in swept.items() if cid in vs and vs[cid].verdict == "holds"
        )
        n = ns2.get(cid)
        ran = n is not None and n.verdict != "not run"
        agree = agreement(v.estimate, n.estimate) if ran else ""
        if v.claim.kind in NOT_REPRODUCTION:
            cat = MODEL if v.claim.kind == "model property" else CONSISTENCY
            out.append(Conclusion(cid, cat, v.sentence, agree, under))
            continue
        if v.verdict == "holds":
            note = ""
            if ran:
                note = (
                    f" ns-2.35 on the same setup: {n.verdict}, {_ours(n)}"
                    + (f" ({agree} with wlansim)" if agree else "")
                    + "."
                )
            out.append(Conclusion(cid, REPRODUCED, f"holds: {_ours(v)}.{note}", agree, under))
            continue
        if v.verdict in ("cannot show", "not run"):
            cat = CANNOT_SHOW if v.verdict == "cannot show" else NOT_RUN
            out.append(Conclusion(cid, cat, v.sentence, agree, under))
            continue
        if v.verdict == "undecided":
            out.append(Conclusion(cid, UNDECIDED, v.sentence + _sweep_note(under, evidence),
                                  agree, under))  # fmt: skip
            continue
        # does not hold
        if evidence.subject != "paper":
            out.append(Conclusion(cid, NOT_REPRODUCED, v.sentence, agree, under))
            continue
        sweep = _sweep_note(under, evidence)
        if ran and n.verdict in ("does not hold", "cannot show"):
            reason = (
                f"the paper disagrees with wlansim ({_ours(v)}) and with ns-2.35 on the same "
                f"setup ({n.verdict}: {_ours(n)}"
                + (f"; the two simulators {agree}" if agree else "")
                + ")."
                + sweep
            )
            out.append(Conclusion(cid, UNSTATED, reason, agree, under))
            continue
        if ran and n.verdict == "holds" and agree == "agree" and cid not in evidence.differences:
            # The two estimates agree: ns-2.35's "holds" comes from its wider spread, not
            # from another result; the paper disagrees with what both simulators find.
            reason = (
                f"the paper disagrees with wlansim ({_ours(v)}); ns-2.35 on the same setup "
                f"finds the same ({_ours(n)}: the two simulators agree), and holds only "
                "because its runs spread too widely to exclude the paper's value." + sweep
            )
            out.append(Conclusion(cid, UNSTATED, reason, agree, under))
            continue
        if ran and n.verdict == "holds":
            named = evidence.differences.get(cid, "")
            reason = (
                f"ns-2.35 on the same setup reproduces it ({_ours(n)}) and wlansim does not "
                f"({_ours(v)}): "
                + (named if named else "a difference between the simulators not yet explained")
                + "."
            )
            out.append(Conclusion(cid, SIMULATOR, reason, agree, under))
            continue
        anchors = [mine[i] for i in v.claim.rests_on if i in mine]
        anchored = [_anchor(a, ns2.get(a.claim.id), evidence) for a in anchors]
        if anchors and all(anchored):
            ids = ", ".join(a.claim.id for a in anchors)
            named = [a.claim.id for a, how in zip(anchors, anchored) if how == "named"]
            reason = (
                f"{v.claim.ns2 and 'ns-2.35 cannot run it (' + v.claim.ns2 + '); '}the cases "
                f"it is measured against agree between ns-2.35 and wlansim ({ids}"
                + (
                    f"; apart on {', '.join(named)} only by a named simulator difference, "
                    "with the same verdict"
                    if named
                    else ""
                )
                + f"), and wlansim finds {_ours(v)}."
                + sweep
            )
            out.append(Conclusion(cid, UNSTATED, reason, agree, under))
            continue
        if ran:  # ns-2.35 undecided
            why = f"ns-2.35 on the same setup is undecided ({_ours(n)}); wlansim finds {_ours(v)}."
        elif n is not None:
            why = n.sentence.rstrip(".") + f"; wlansim finds {_ours(v)}."
        else:
            why = (evidence.ns2_absent or "the paper's simulator was not run beside") + (
                f"; wlansim finds {_ours(v)}."
            )
        out.append(Conclusion(cid, NOT_REPRODUCED, _sentence(why) + sweep, agree, under))
    return out


def counts(conclusions: Sequence[Conclusion]) -> dict[str, int]:
    return {c: sum(x.category == c for x in conclusions) for c in CATEGORIES}


def _short(v: Verdict, limit: int = 140) -> str:
    text = v.claim.text
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def opening_sentence(c: Mapping[str, int], subject: str = "paper") -> str:
    """The bottom line's first sentence from the counts per category: "Of the paper's N
    statements checked here, R reproduce and F do not (…); U are undecided …" (for a
    validation, its checks hold or do not)."""
    statements = sum(c[k] for k in CATEGORIES if k not in APART)
    failed = sum(c[k] for k in FAILED)
    if subject == "paper":
        head = f"Of the paper's {_counted(statements, 'statement', 'statements')} checked here"
        good = _counted(c[REPRODUCED], "reproduces", "reproduce")
    else:
        head = f"Of the {subject}'s {_counted(statements, 'check', 'checks')}"
        good = _counted(c[REPRODUCED], "holds", "hold")
    parts = [f"**{good}**", f"**{failed} {'does' if failed == 1 else 'do'} not**"]
    if failed and subject == "paper":
        parts[-1] += " (" + ", ".join(f"{c[k]} {k}" for k in FAILED if c[k]) + ")"
    rest = [
        (c[UNDECIDED], "is undecided", "are undecided"),
        (c[CANNOT_SHOW], "cannot be shown by this setup", "cannot be shown by this setup"),
        (c[NOT_RUN], "was not run", "were not run"),
    ]
    parts += [_counted(n, one, many) for n, one, many in rest if n]
    text = head + ", " + ", ".join(parts[:-1]) + " and " + parts[-1] + "."
    if c[MODEL] or c[CONSISTENCY]:
        apart = [
            _counted(c[MODEL], "model property", "model properties") if c[MODEL] else "",
            _counted(c[CONSISTENCY], "check of the paper's numbers against each other",
                     "checks of the paper's numbers against each other")
            if c[CONSISTENCY] else "",
        ]  # fmt: skip
        text += " Counted apart (not reproductions): " + ", ".join(a for a in apart if a) + "."
    return text


def bottom_line(
    evidence: Evidence,
    conclusions: Sequence[Conclusion],
    headline: Sequence[str] = (),
    settings_tried: Sequence[str] = (),
) -> list[str]:
    """The report's opening section, computed: how many of the paper's statements
    reproduced and did not (:func:`opening_sentence`; a validation's checks: held or
    not), the paper's headline statements (ids in ``headline``) first,
    each statement that did not reproduce with its reason, what cannot be shown, what is
    undecided, what is counted apart and how ns-2.35 compares; the unstated settings tried
    (``settings_tried``, from the study's parameters, and the sweeps) come first."""
    by_id = evidence.by_id(evidence.verdicts)
    lines = ["## Bottom line", "", opening_sentence(counts(conclusions), evidence.subject), ""]
    concl = {x.id: x for x in conclusions}
    tried = [*settings_tried, *(f"{k} (swept)" for k in evidence.sweeps)]
    if tried:  # before the statements, whose notes refer to it
        lines += ["Settings the paper does not state, tried: " + "; ".join(tried) + ".", ""]
    if headline:
        lines += ["The paper's headline:", ""]
        for cid in headline:
            x = concl[cid]
            word = shown(x.category, evidence.subject)
            said = (  # a reason that opens with the verdict's word says it once
                x.reason[len(word) :] if x.reason.startswith(word) else f". {_sentence(x.reason)}"
            )
            lines.append(f"- **{_short(by_id[cid])}** ({cid}): **{word}**{said}")
        lines.append("")
    if evidence.ns2 is not None:
        ns2 = evidence.by_id(evidence.ns2)
        ran = [x for x in conclusions if ns2[x.id].verdict != "not run"]
        same = sum(ns2[x.id].verdict == by_id[x.id].verdict for x in ran)
        agree = sum(x.agreement == "agree" for x in ran)
        differ = [x for x in ran if x.agreement == "differ"]
        apart = sum(x.category in APART for x in conclusions)
        lines += [
            f"The paper's own simulator, ns-2.35, ran {len(ran)} of the {len(conclusions)} "
            "statements"
            + (f" (the {apart} counted apart included)" if apart else "")
            + f" on the same scenarios: the same verdict as wlansim on {same}, "
            f"estimates within each other's 95 % intervals on {agree}"
            + (
                f", apart on {len(differ)} (" + _apart(differ, evidence.differences) + ")"
                if differ
                else ""
            )
            + f"; it cannot run {len(conclusions) - len(ran)} (their rows say what they need).",
            "",
        ]
    elif evidence.ns2_absent:
        lines += [_sentence(evidence.ns2_absent) + ".", ""]
    sections = [
        (FAILED, "Did not reproduce" if evidence.subject == "paper" else "Does not hold"),
        ((CANNOT_SHOW,), "The setup cannot show the effect"),
        ((UNDECIDED,), "Undecided"),
        ((NOT_RUN,), "Not run"),
    ]
    for cats, title in sections:
        rows = [x for x in conclusions if x.category in cats and x.id not in headline]
        if not rows:
            continue
        lines += [f"{title}:", ""]
        for x in rows:
            word = shown(x.category, evidence.subject)
            tag = f"**{word}**: " if len(cats) > 1 and not x.reason.startswith(word) else ""
            lines.append(f"- {x.id} ({_short(by_id[x.id])}): {tag}{x.reason}")
        lines.append("")
    held = [x.id for x in conclusions if x.category == REPRODUCED and x.id not in headline]
    if held:
        word = "Reproduced" if evidence.subject == "paper" else "Holds"
        lines += [f"{word}: " + ", ".join(held) + ".", ""]
    return lines


def _sentence(text: str) -> str:
    """`text` as a sentence's start: its first letter capitalised, but not a name that is
    written in lower case (ns-2.35, wlansim)."""
    if text.startswith(("ns-", "wlansim")):
        return text
    return text[:1].upper() + text[1:]
