"""The offline judge's rules, in the order it runs them, and the verdict their findings make.

The rules that run once per claim go first, in order; then the passage rules, in order, against each
of the claim's passages, best first. The first rule that shows the claim wrong (:class:`.findings.Wrong`)
or gives its verdict (:class:`.findings.Settled`) decides, and no later rule runs. A passage that no
rule doubts (:class:`.findings.Doubt`), and that holds every word of the claim, states it; otherwise the
claim is supported and unchecked, its reason naming the doubts of the claim's rules and of its best
passage. Adding a rule is adding one :class:`.findings.Rule` to :data:`RULES`; docs/offline-judge.md's
table of the rules is :func:`rules_table`.
"""

from __future__ import annotations

from ..language.units import Document, Sentence, TextAnalyzer
from ..language.segment import quote
from ..verdicts import AlignmentVerdict
from .claim_rules import ABSENT_WORDS, ANOTHERS_DEEDS, DENIAL, NUMBERS_AND_NAMES, OPENING_PRONOUN
from .findings import CONCLUSIONS, ClaimCase, Doubt, Finding, Look, Rule, Settled, Wrong
from .lexical_settings import LexicalSettings
from .passage_rules import (
    ANTONYM_IN_PLACE, ANTONYM_SUBSTITUTED, APART, CROSSING, LINK_TURNED, NEGATION_UNSTATED, OTHER_SUBJECT,
    PLANNED, POLARITY, REORDERED, ROLES, SHARE, SLOT_WORD, SWAPPED_NAMES, UNIT_CHANGED,
)
from .reasons import unchecked_reason

RULES: tuple[Rule, ...] = (
    OPENING_PRONOUN, DENIAL, NUMBERS_AND_NAMES, ANOTHERS_DEEDS, ABSENT_WORDS,
    SLOT_WORD, SHARE, ANTONYM_SUBSTITUTED, ANTONYM_IN_PLACE, POLARITY, NEGATION_UNSTATED, ROLES, LINK_TURNED,
    UNIT_CHANGED, SWAPPED_NAMES, OTHER_SUBJECT, PLANNED, CROSSING, REORDERED, APART,
)
"""The rules, in the order the judge runs them (the claim's first, then the passages')."""


def _decisive(finding: Finding, claim: Sentence) -> AlignmentVerdict | None:
    """The verdict a finding gives by itself: unsupported for an error shown, the rule's own verdict."""
    if isinstance(finding, Wrong):
        return finding.verdict(claim)
    if isinstance(finding, Settled):
        return finding.verdict
    return None


def _run(rules: list[Rule], look: Look, notes: list[str]) -> AlignmentVerdict | None:
    """``rules`` against ``look`` in order: the first verdict a finding gives, else ``None`` with every
    doubt added to ``notes``."""
    for rule in rules:
        finding = rule.find(look)
        if isinstance(finding, Doubt):
            notes.extend(finding.notes)
        elif (verdict := _decisive(finding, look.claim)) is not None:
            return verdict
    return None


def judge_claim(
    claim: Sentence, doc: Document, analyser: TextAnalyzer, settings: LexicalSettings,
    opening: str | None = None, rules: tuple[Rule, ...] = RULES,
) -> AlignmentVerdict:
    """The verdict on ``claim`` against ``doc`` by ``rules`` (see the module). ``opening``: a pronoun that
    opens the summary with no one before it, where this claim starts the summary with one."""

    def rejudge(other: Sentence, same: Document) -> AlignmentVerdict:
        return judge_claim(other, same, analyser, settings, None, rules)

    case = ClaimCase(claim, doc, analyser, settings, opening, rejudge)
    active = [r for r in rules if doc.lang == "en" or not r.english_only]
    best = Look(case, 0)
    notes: list[str] = []
    if (verdict := _run([r for r in active if r.scope == "claim"], best, notes)) is not None:
        return verdict
    each = [r for r in active if r.scope == "passage"]
    for look in [best] + [Look(case, i) for i in range(1, len(case.passages))]:
        doubts: list[str] = []
        if (verdict := _run(each, look, doubts)) is not None:
            return verdict
        if not doubts and not notes and look.holds_every_word():
            ev = look.ev
            reason = f'stated in source {ev.where}: "{quote(ev.text)}"'
            return AlignmentVerdict(claim=claim.text, quote=ev.text, supported=True, reason=reason)
        if look is best:
            notes += doubts
    return _unchecked(case, notes)


def _unchecked(case: ClaimCase, notes: list[str]) -> AlignmentVerdict:
    """Supported, since nothing contradicts the claim, and unchecked: its probability the share of its
    weight the best passage holds (what a graded axis counts), its reason the words it lacks and ``notes``."""
    claim, first = case.claim, case.passages[0]
    covered = first.found | first.names_before | case.light
    support = claim.weight_of(covered & claim.units) / claim.mass if claim.mass else 1.0
    reason = unchecked_reason(claim, first, covered, case.doc, notes)
    return AlignmentVerdict(
        claim=claim.text, quote=first.text, supported=True, unchecked=True, reason=reason,
        probability=round(min(1.0, support), 4),
    )


def rules_table(rules: tuple[Rule, ...] = RULES) -> str:
    """The rules as docs/offline-judge.md's Markdown table: order, name, when it runs, what it reads,
    what it may conclude."""
    runs = {"claim": "once", "passage": "each passage"}
    rows = ["| # | rule | runs | reads | may conclude |", "|---|---|---|---|---|"]
    for i, r in enumerate(rules, 1):
        reads = ("(English) " if r.english_only else "") + r.reads
        concludes = ", ".join(CONCLUSIONS[k] for k in r.concludes)
        rows.append(f"| {i} | {r.name} | {runs[r.scope]} | {reads} | {concludes} |")
    return "\n".join(rows)


__all__ = ["RULES", "judge_claim", "rules_table"]
