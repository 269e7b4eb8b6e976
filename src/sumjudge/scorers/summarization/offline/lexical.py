"""``offline/lexical``: a deterministic judge that answers the scorer's three steps by the words
that statements share, weighted by how informative they are.

It reads no prompt. Each request carries typed inputs (source, summary, questions); the judge
answers from them:

- alignment: the summary's sentences, split into statements (:mod:`..language.clauses`), are the claims;
  :mod:`.support` decides each one and says why.
- questions: the source's most salient facts, one per question (:mod:`..language.questions`).
- coverage: a question is answered when the summary carries most of the fact's weight and does not
  negate or reverse it.

No model, no network, the same answer every time. It is a quick gate, not a reader.
"""

from __future__ import annotations

from typing import Any

from ....errors import JudgeError
from ....judges.base import JudgeReply, JudgeRequest, Usage
from ..language import Reading, memo
from ..language.analysis import PASSIVE, Document, Sentence, TextAnalyzer, capitalised_words
from ..language.passages import Evidence, dangling_pronoun, derived_forms, light_units, passages
from ..language.lexicon import CORE, WORDFREQ
from ..language.questions import fact_of_question, phrase_question
from ..language.segment import quote
from ..verdicts import (
    ALIGNMENT_STEP,
    CLAIMS_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    AlignmentVerdict,
    ClaimsOutput,
    CoverageOutput,
    Difference,
    QuestionsOutput,
)
from .coverage import coverage_gaps, judge_fact, read_summary
from .extrinsic import additions, antonym_beside, extrinsic_problems, in_slot, passage_form, predicates, slot_word
from .reasons import renumber, unchecked_reason, whole_source_numbers
from .crossings import crossing_note
from .denials import denial_verdict
from .links import opposite_link, unit_changed
from .roles import anchors_reordered, role_swap, subject_swap, swap_shown
from .lexical_settings import LexicalSettings
from .tense import planned_as_done
from .support import (
    Shown, loose_pairs, negated_once, negation_unstated, polarity_conflict, substitutions,
)
from .wrong_names import name_errors
from .wrong_numbers import number_errors

__all__ = ["RULES_VERSION", "LexicalJudge", "LexicalSettings", "fact_of_question", "phrase_question"]


RULES_VERSION = "50.2"
"""The version of the judge's rules and its own word lists: raise it with any change that can move
a verdict, so that a stored run is never resumed with another judge's verdicts. The history of each
version is in the commit log and docs/design-notes.md."""


def _antonym(claim: Sentence, unit: str, ev: Evidence, there: str) -> Shown:
    """A claim word against its antonym in the passage."""
    said, theirs = claim.forms.get(unit, unit), passage_form(ev, there)
    return Shown(
        f"{said!r} contradicts the source's {theirs!r}: the claim says "
        f'"{quote(claim.text, 100)}", the source says "{quote(ev.text, 100)}" ({ev.where})',
        said, theirs,
    )


def _unsupported(claim: Sentence, ev: Evidence, shown: list[str]) -> AlignmentVerdict:
    """An unsupported verdict with its evidence: the passage that disproves the claim as
    its quote, and the words that differ (each error's, where it knows them), which the scorer
    locates and checks as it does any quote."""
    differs = [Difference(claim=r.said, source=r.instead) for r in shown if isinstance(r, Shown) and r.said]
    return AlignmentVerdict(
        claim=claim.text, quote=ev.text if ev.sentences else "", supported=False, reason="; ".join(shown),
        differs=differs or None,
    )


class LexicalJudge:
    """The offline lexical judge. Safe to share: it keeps only memos of pure functions."""

    cpu_bound = True  # all its work is CPU: `sumjudge score --workers` spreads a batch over processes

    def __init__(self, settings: LexicalSettings | None = None, data: str = CORE) -> None:
        if data not in (CORE, WORDFREQ):
            raise ValueError(f"unknown word data {data!r}: {CORE!r} or {WORDFREQ!r}")
        self.settings = settings or LexicalSettings()
        self.data = data
        """``core`` (the default: only what a plain install has) or ``wordfreq`` (opt-in)."""
        self.reading = Reading(data)
        """What it reads: sentences, claims, passages, key facts."""

    @property
    def model_id(self) -> str:
        return "offline/lexical" if self.data == CORE else "offline/lexical+wordfreq"

    @property
    def judge_version(self) -> str:
        """The version of the rules and of the word data they read."""
        return f"rules {RULES_VERSION}; {memo.data_version(self.data)}"

    @property
    def fingerprint(self) -> str:
        """The judge's identity: its name and the version of its rules and data. Two judges with the
        same fingerprint give the same verdicts (put it in a run's key)."""
        default = self.settings == LexicalSettings()
        return f"{self.model_id}@{RULES_VERSION}+{memo.data_version(self.data)}" + ("" if default else f"+{self.settings!r}")

    async def generate(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        return self.answer(request)

    def answer(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        """The synchronous core of :meth:`generate` (for scripts and benchmarks)."""
        inputs = request.inputs
        if request.step == ALIGNMENT_STEP and inputs.claims is not None:
            output: Any = self.check(inputs.source or "", inputs.claims, inputs.passage_sentences)
        elif request.step == ALIGNMENT_STEP:
            output = self.align(inputs.source or "", inputs.summary or "")
        elif request.step == CLAIMS_STEP:
            output = self.list_claims(inputs.summary or "")
        elif request.step == QUESTIONS_STEP:
            output = self.questions(inputs.source or "", inputs.max_questions or 10)
        elif request.step == COVERAGE_STEP:
            output = self.cover(list(inputs.questions or []), inputs.summary or "")
        else:
            raise JudgeError(
                f"the offline lexical judge answers the steps {ALIGNMENT_STEP!r}, {QUESTIONS_STEP!r} "
                f"and {COVERAGE_STEP!r}, not {request.step!r}",
                step=request.step,
            )
        if not isinstance(output, request.output_type):
            output = request.output_type.model_validate(output.model_dump())
        return JudgeReply(output=output, usage=Usage(calls=1), raw=None)

    # ---------------------------------------------------------------------------------------------
    # What the judge reads (shared with every judge: :class:`..language.Reading`)

    def _analyser(self, lang: str) -> TextAnalyzer:
        return self.reading.analyser(lang)

    def _doc(self, source: str) -> Document:
        return self.reading.document(source)

    def claims(self, summary: str, lang: str, names: frozenset[str] = frozenset()) -> list[Sentence]:
        """The summary's clauses (:meth:`..language.Reading.claims`)."""
        return self.reading.claims(summary, lang, names)

    # ---------------------------------------------------------------------------------------------
    # Step A: alignment

    def align(self, source: str, summary: str) -> AlignmentOutput:
        if not summary.strip():
            return AlignmentOutput(alignment=[])
        doc = self._doc(source)
        # a source that opens with a pronoun ("He may not be playing much, but X ...") lets a summary do so
        named = bool(doc.sentences) and dangling_pronoun(doc.sentences[0].text, doc.lang, False, self.data)[0] is not None
        verdicts = []
        for c in self.claims(summary, doc.lang, doc.caps):
            dangling, named = dangling_pronoun(c.text, doc.lang, named, self.data)
            verdicts.append(self._judge_claim(c, doc, dangling))
        return AlignmentOutput(alignment=verdicts)

    def list_claims(self, summary: str) -> ClaimsOutput:
        """The claims :meth:`align` would judge (a long source lists them first, then checks them)."""
        if not summary.strip():
            return ClaimsOutput(claims=[])
        return ClaimsOutput(claims=self.reading.claim_texts(summary))

    def check(
        self, source: str, claims: list[str], passage_sentences: list[tuple[int, int]] | None = None
    ) -> AlignmentOutput:
        """Each claim, as given, against ``source`` (a long source's retrieved passages); with
        ``passage_sentences`` (:attr:`StepInputs.passage_sentences`) reasons number sentences in the
        whole source."""
        doc = self._doc(source)
        analyser = self._analyser(doc.lang)
        caps = capitalised_words(" ".join(claims)) | doc.caps
        verdicts = [self._judge_claim(analyser.analyse(c, capitalised_elsewhere=caps), doc) for c in claims]
        if passage_sentences:
            numbers = whole_source_numbers(source, [s.text for s in doc.sentences], passage_sentences)
            verdicts = [v.model_copy(update={"reason": renumber(v.reason, numbers)}) for v in verdicts]
        return AlignmentOutput(alignment=verdicts)

    def _judge_claim(self, claim: Sentence, doc: Document, dangling: str | None = None) -> AlignmentVerdict:
        """Unsupported only when an error is shown; supported and ``unchecked`` when words
        are missing but nothing contradicts the claim; supported when the passage states it."""
        if dangling:
            return AlignmentVerdict(
                claim=claim.text,
                supported=False,
                reason=f"{dangling!r} points back to no one: nothing before it in the summary says who or what "
                "it is, so the source cannot confirm the claim",
                differs=[Difference(claim=dangling)],
            )
        if (denied := denial_verdict(claim, doc, self._analyser(doc.lang), self._judge_claim)) is not None:
            return denied
        cfg = self.settings
        derived = derived_forms(claim, doc)
        light = light_units(claim, doc.lang)
        if light >= claim.units:
            light = frozenset()  # a claim of nothing but such words still has to be found
        found = passages(claim, doc, doc.aliases, derived, cfg.window, cfg.passages)
        first = found[0]
        numbers, number_notes = number_errors(claim, doc, first)
        names, name_notes = name_errors(claim, doc, first, derived)
        if numbers or names:
            return _unsupported(claim, first, numbers + names)
        added: frozenset[str] = frozenset()
        if cfg.addition_share is not None:
            added = additions(claim, doc, first, derived, light, self._analyser(doc.lang).antonyms)
        # a word the source lacks in any form it can read is unchecked, never shown wrong, in every
        # language but English (whose lexicon knows its word forms)
        words = extrinsic_problems(claim, doc, first, derived, light, cfg.strict_words, added, facts=False)
        notes = number_notes + name_notes + words
        for ev in found:
            shown, soft = self._check(claim, doc, ev, light, added)
            if shown:
                return _unsupported(claim, ev, shown)
            held = ev.found | ev.names_before | light
            if not soft and not notes and all(u in held for u in claim.units if not u.startswith("#")):
                return AlignmentVerdict(
                    claim=claim.text, quote=ev.text, supported=True,
                    reason=f'stated in source {ev.where}: "{quote(ev.text)}"',
                )
            if ev is first:
                notes = notes + soft
        covered = first.found | first.names_before | light
        # graded (``--graded``), an unchecked claim counts as the share of its words the passage holds,
        # not as fully supported; the boolean verdict stays "supported" (nothing contradicts it)
        support = claim.weight_of(covered & claim.units) / claim.mass if claim.mass else 1.0
        return AlignmentVerdict(
            claim=claim.text, quote=first.text, supported=True, unchecked=True,
            reason=unchecked_reason(claim, first, covered, doc, notes), probability=round(min(1.0, support), 4),
        )

    def _check(
        self, claim: Sentence, doc: Document, ev: Evidence, light: frozenset[str], added: frozenset[str] = frozenset()
    ) -> tuple[list[str], list[str]]:
        """What the passage ``ev`` shows wrong in the claim (a negation, an antonym, a role swap), and
        what keeps it from stating the claim without showing an error (missing words, words apart)."""
        cfg = self.settings
        soft: list[str] = []
        subs = substitutions(claim, ev)
        covered = ev.found | ev.names_before | frozenset(subs) | light
        if cfg.addition_share is not None and doc.lang == "en" and claim.mass:
            soft += self._additions(claim, ev, covered, added)
            missing = {u for u in claim.units - covered if not u.startswith("#") and u not in claim.names}
            missing -= predicates(claim)  # a verb the passage lacks counts against the threshold, not as an addition
            if not soft and claim.weight_of(covered) / claim.mass >= cfg.addition_share:
                covered |= missing  # none of them is in a slot: additions
        share = claim.weight_of(covered) / claim.mass if claim.mass else 0.0
        if share < cfg.support_threshold:
            soft.append(f"only {share:.0%} of the claim occurs in the closest passage ({ev.where})")
        analyser = self._analyser(doc.lang)
        for u, x in subs.items():
            if x in analyser.antonyms.get(u, ()) and not negated_once(claim, u, ev.sentences, x, doc.lang):
                return [_antonym(claim, u, ev, x)], soft
        for u in sorted(claim.units - ev.found - ev.names_before):
            against = analyser.antonyms.get(u)
            if not against or u.startswith("#") or u in claim.names:
                continue
            there = slot_word(claim, u, ev) if in_slot(claim, u, ev) else antonym_beside(claim, u, ev, against)
            # "the driver was unhurt" where the passage has "the driver was injured"; "did not approve"
            # for "rejected" negates the antonym: the two agree
            if there in against and not negated_once(claim, u, ev.sentences, there, doc.lang):
                return [_antonym(claim, u, ev, there)], soft
        conflict = polarity_conflict(
            claim, list(ev.sentences), analyser.antonyms, who="the claim", where=f"the source ({ev.where})",
            lang=doc.lang,
        )
        if not conflict and any(p.negated for p in claim.phrases) and claim.units <= ev.found | ev.names_before | light:
            # every word there, no negation: one sentence must state the negated phrase, its words in order
            unstated = negation_unstated(claim, ev.sentences, ev.names_before | light, doc.lang)
            if unstated is not None:
                conflict = Shown(
                    f'negation differs: the claim says "{quote(claim.text, 100)}", the source ({ev.where}) says '
                    f'"{quote(ev.text, 100)}" without a negation',
                    unstated.strip().rstrip("."),
                )
        if conflict:
            return [conflict], soft
        swap = role_swap(claim, ev, cfg.pair_distance, PASSIVE.get(doc.lang), doc.lang)
        if swap:
            return [swap], soft
        order = opposite_link(claim, ev.sentences, doc.lang) or unit_changed(claim, doc.sentences, doc.lang)
        if order:  # "resigned before the vote" where the source has "resigned after the vote"
            mine, theirs, s = order
            where = ev.where if s in ev.sentences else f"sentence {doc.sentences.index(s) + 1}"  # a unit elsewhere
            return [Shown(
                f"{mine!r} contradicts the source's {theirs!r}: the claim says \"{quote(claim.text, 100)}\", "
                f"the source says \"{quote(s.text, 100)}\" ({where})", mine, theirs,
            )], soft
        subject = swap_shown(claim, ev.sentences) if doc.lang == "en" else None
        if subject:
            mine, theirs, verb = subject
            return [Shown(
                f'the source says {theirs!r} {verb}, not {mine!r}: "{quote(ev.text, 100)}" ({ev.where})', mine, theirs
            )], soft
        other = subject_swap(claim, ev.sentences, named_after=False) if doc.lang == "en" else None
        if other:  # the words are there, but the source gives the verb another subject: not stated
            soft.append(f"the source ({ev.where}) says {other[1]!r} {other[2]}, where the claim has {other[0]!r}")
        planned = planned_as_done(claim, ev, analyser) if doc.lang == "en" else None
        if planned:  # every word there, but the source only plans or expects it
            soft.append(f"the source ({ev.where}) has {planned!r} only as planned, asked for or possible: the claim states it as done")
        crossed = crossing_note(claim, ev, analyser) if doc.lang == "en" else None
        if crossed:  # every word there, but joining parts of different clauses
            soft.append(crossed)
        reordered = anchors_reordered(claim, ev)
        if reordered:  # every word there, but in another relation: not stated
            soft.append(f"the source ({ev.where}) has {reordered[1]!r} before {reordered[0]!r}: the claim may relate them otherwise")
        if cfg.pair_threshold > 0:
            loose, judged = loose_pairs(claim, ev, cfg.pair_distance)
            if judged and 1 - len(loose) / judged < cfg.pair_threshold:
                shown = ", ".join(f"{claim.forms.get(a, a)!r} with {claim.forms.get(b, b)!r}" for a, b in loose[:3])
                soft.append(f"the words occur in the source ({ev.where}) but not together as the claim puts them: {shown}")
        return [], soft

    @staticmethod
    def _additions(claim: Sentence, ev: Evidence, covered: frozenset[str], added: frozenset[str]) -> list[str]:
        """The first claim word (not a name or number) that the source has but the passage lacks and
        that stands in another passage word's slot: a substitution, not an addition."""
        missing = sorted(u for u in claim.units - covered - added if not u.startswith("#") and u not in claim.names)
        for u in missing:
            if in_slot(claim, u, ev):
                there = slot_word(claim, u, ev)
                return [
                    f"{claim.forms.get(u, u)!r} stands where the passage has {passage_form(ev, there or u)!r} "
                    f'({ev.where}: "{quote(ev.text, 100)}")'
                ]
        return []

    # ---------------------------------------------------------------------------------------------
    # Step B: questions

    def facts(self, source: str, limit: int) -> list[Sentence]:
        """The source's most salient facts, most important first."""
        return self.reading.key_facts(source, limit, self.settings.ranking)

    def questions(self, source: str, max_questions: int) -> QuestionsOutput:
        return QuestionsOutput(questions=self.reading.questions(source, max_questions, self.settings.ranking))

    # ---------------------------------------------------------------------------------------------
    # Step C: coverage

    def cover(self, questions: list[str], summary: str) -> CoverageOutput:
        if not questions:
            return CoverageOutput(coverage=[])
        read = read_summary(self._analyser, questions, summary)
        cfg = self.settings
        return CoverageOutput(coverage=[
            judge_fact(q, f, read, cfg.answer_threshold, cfg.unsettled_presence, cfg.lone_name_presence)
            for q, f in zip(questions, read.facts)
        ])

    def coverage_gaps(self, questions: list[str], summary: str) -> list[str | None]:
        """For each question, why the summary's words alone show it cannot be answered yes, or
        ``None`` where only reading can tell (:func:`.coverage.coverage_gaps`)."""
        return coverage_gaps(self._analyser, questions, summary)
