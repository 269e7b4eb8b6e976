"""What a rule of the offline judge is, what it reads and what it may conclude.

A rule (:class:`Rule`) looks at one claim against one passage of the source (:class:`Look`) and
returns a :data:`Finding`:

- :class:`Wrong`: the claim is shown wrong, with the reasons and the passage that shows it; the
  claim is unsupported;
- :class:`Doubt`: something keeps the passage from stating the claim without showing it wrong (a
  word the source lacks, words found far apart); unless another passage states it, the claim is
  supported and *unchecked*, the notes in its reason;
- :class:`Settled`: the rule gives the claim's whole verdict (a claim that denies a statement);
- ``None``: nothing found.

:mod:`.rule_list` orders the rules and turns their findings into the verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Union

from ..language.units import Document, Sentence, TextAnalyzer
from ..language.passages import Evidence, derived_forms, light_units, passages
from ..language.segment import quote
from ..verdicts import AlignmentVerdict, Difference
from .extrinsic import additions, in_slot, passage_form, slot_word
from .lexical_settings import LexicalSettings
from .support import Shown, substitutions


@dataclass(frozen=True)
class Wrong:
    """The claim shown wrong: each error's reason (a :class:`.support.Shown` where the rule knows
    the words that differ) and the passage that shows it (``None``: the claim alone shows it)."""

    reasons: tuple[str, ...]
    passage: Evidence | None

    def verdict(self, claim: Sentence) -> AlignmentVerdict:
        """The unsupported verdict: the passage as its quote and the words that differ as
        ``differs``, which the scorer locates and checks as it does any quote."""
        ev = self.passage
        shown = [r for r in self.reasons if isinstance(r, Shown) and r.said]
        differs = [Difference(claim=r.said, source=r.instead) for r in shown]
        return AlignmentVerdict(
            claim=claim.text, quote=ev.text if ev is not None and ev.sentences else "", supported=False,
            reason="; ".join(self.reasons), differs=differs or None,
        )


@dataclass(frozen=True)
class Doubt:
    """What keeps the passage from stating the claim, though it shows nothing wrong: each a note for
    the unchecked verdict's reason."""

    notes: tuple[str, ...]


@dataclass(frozen=True)
class Settled:
    """The claim's whole verdict, given by the rule."""

    verdict: AlignmentVerdict


Finding = Union[Wrong, Doubt, Settled, None]
"""What one rule concludes about one claim against one passage."""

Scope = Literal["claim", "passage"]
"""When a rule runs: ``claim``, once per claim (it may read the claim's best passage); ``passage``,
against each of the claim's passages in turn."""

CONCLUSIONS: dict[type, str] = {Wrong: "unsupported", Doubt: "unchecked", Settled: "the whole verdict"}
"""Each finding's kind in words, as docs/offline-judge.md's table of the rules names it."""


class ClaimCase:
    """One claim as the rules read it, with what several rules share, each worked out when first read:
    its passages are not looked for when a rule that reads the claim alone settles it."""

    def __init__(
        self, claim: Sentence, doc: Document, analyser: TextAnalyzer, settings: LexicalSettings,
        opening: str | None, rejudge: Callable[[Sentence, Document], AlignmentVerdict],
    ) -> None:
        self.claim = claim
        self.doc = doc
        self.analyser = analyser
        self.settings = settings
        self.opening = opening
        """A pronoun that opens the summary with no one before it (in this claim), else ``None``."""
        self.rejudge = rejudge
        """The judge of another claim against the same source (a statement a denial wraps)."""

    @cached_property
    def derived(self) -> dict[str, str]:
        """Claim units the source has only in a derived form (:func:`..language.passages.derived_forms`)."""
        return derived_forms(self.claim, self.doc)

    @cached_property
    def light(self) -> frozenset[str]:
        """The claim's units that state no fact; none when the claim has nothing else."""
        light = light_units(self.claim, self.doc.lang)
        return frozenset() if light >= self.claim.units else light

    @cached_property
    def passages(self) -> list[Evidence]:
        """The passages that hold most of the claim, best first."""
        cfg = self.settings
        return passages(self.claim, self.doc, self.doc.aliases, self.derived, cfg.window, cfg.passages)

    @cached_property
    def added(self) -> frozenset[str]:
        """The claim's words that the best passage lacks and that stand in no passage word's slot:
        additions, as a paraphrase makes (:func:`.extrinsic.additions`); none when the settings
        count no word as an addition."""
        if self.settings.addition_share is None:
            return frozenset()
        first = self.passages[0]
        return additions(self.claim, self.doc, first, self.derived, self.light, self.analyser.antonyms)


class Look:
    """A claim against one of its passages (``index`` 0: the best), with what several rules read of
    the two, each worked out when first read."""

    def __init__(self, case: ClaimCase, index: int) -> None:
        self.case = case
        self.index = index

    @property
    def claim(self) -> Sentence:
        return self.case.claim

    @property
    def doc(self) -> Document:
        return self.case.doc

    @cached_property
    def ev(self) -> Evidence:
        """The passage."""
        return self.case.passages[self.index]

    @cached_property
    def substitutions(self) -> dict[str, str]:
        """The claim word whose slot the passage fills with another word (:func:`.support.substitutions`)."""
        return substitutions(self.claim, self.ev)

    @cached_property
    def reads_additions(self) -> bool:
        """Whether words the passage lacks may count as additions: English, the setting on, a claim of
        some weight."""
        on = self.case.settings.addition_share is not None
        return on and self.doc.lang == "en" and bool(self.claim.mass)

    @cached_property
    def slotted(self) -> str | None:
        """The note on the first claim word (not a name or number) that the source has but the passage
        lacks and that stands in another passage word's slot: a substitution, not an addition."""
        claim, ev = self.claim, self.ev
        covered = ev.found | ev.names_before | frozenset(self.substitutions) | self.case.light
        missing = claim.units - covered - self.case.added
        for u in sorted(u for u in missing if not u.startswith("#") and u not in claim.names):
            if in_slot(claim, u, ev):
                there = slot_word(claim, u, ev)
                return (
                    f"{claim.forms.get(u, u)!r} stands where the passage has {passage_form(ev, there or u)!r} "
                    f'({ev.where}: "{quote(ev.text, 100)}")'
                )
        return None

    def holds_every_word(self) -> bool:
        """Whether the passage holds every word of the claim, numbers aside (the numbers rule reads those)."""
        held = self.ev.found | self.ev.names_before | self.case.light
        return all(u in held for u in self.claim.units if not u.startswith("#"))


@dataclass(frozen=True)
class Rule:
    """One rule of the offline judge: its name, what it reads (one line), when it runs, the kinds of
    finding it may return (of :data:`CONCLUSIONS`), and the function that looks."""

    name: str
    reads: str
    scope: Scope
    concludes: tuple[type, ...]
    find: Callable[[Look], Finding]
    english_only: bool = False
    """Run on English sources only (it reads English word order or verbs)."""


__all__ = ["CONCLUSIONS", "ClaimCase", "Doubt", "Finding", "Look", "Rule", "Scope", "Settled", "Wrong"]
