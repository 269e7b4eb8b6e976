"""A claim that states as done what the source only plans, expects, asks for or may do: "The bridge reopened
in June" where the source says "The bridge will reopen in June". Every word is there, but not the
fact: the claim is not *stated*. Words cannot tell whether the plan was carried out since, so this
shows no error by itself and the claim stays unchecked (English only)."""

from __future__ import annotations

from ..language.units import Sentence, TextAnalyzer
from ..language.clauses import EN_AUX, WORD
from ..language.lexicon import past_form
from ..language.passages import Window

_MODALS = frozenset({"will", "would", "could", "may", "might", "shall", "'ll", "’ll"})
_INTENT = frozenset(
    "plan plans planned planning expect expects expected set due hope hopes hoped aim aims aimed intend intends "
    "intended want wants wanted propose proposes proposed scheduled likely going seek seeks sought".split()
)
_ASKING = frozenset("sought seek seeks seeking demanded demand demands demanding requested request requests".split())
"""Verbs whose object is asked for, not had: "had sought an eight-year sentence" is no sentence given."""


def _past(word: str) -> bool:
    """A simple past form: an irregular past or a word in -ed (not an auxiliary)."""
    w = word.lower()
    return w not in EN_AUX and past_form(w)


def _planned(low: list[str], i: int) -> bool:
    """``low[i]`` is a verb the sentence puts in the future or the possible: a modal within the two
    words before it ("will reopen", "will be reopened", "could close") or an intention before "to"
    ("plans to close", "is expected to be sold"), or what a verb of asking wants ("sought an eight-year
    sentence")."""
    before = low[max(0, i - 3):i]
    if any(w in _MODALS for w in before[-2:]):  # "will reopen", "will be reopened", "will not close"
        return True
    if any(w in _ASKING for w in low[max(0, i - 4):i]):  # "sought an eight-year sentence"
        return True
    if len(before) >= 3 and before[-2:] == ["to", "be"]:
        return before[-3] in _INTENT  # "is expected to be sold"
    return len(before) >= 2 and before[-1] == "to" and before[-2] in _INTENT


def planned_as_done(claim: Sentence, window: Window, analyser: TextAnalyzer) -> str | None:
    """The claim's verb, as written, that it states in the past where every sentence of ``window``
    that has the verb has it only as planned, asked for or possible (:func:`_planned`); ``None`` otherwise. A
    claim that keeps the modal ("would reopen") or that the source also states as done ("closed the
    plant and will reopen it") is left alone."""
    words = WORD.findall(claim.text)
    low = [w.lower() for w in words]
    for i, w in enumerate(low):
        if not _past(w) or _planned(low, i) or (i and low[i - 1] in {"to", "be"}):
            continue  # "would reopen", "to be sold": the claim keeps the plan
        units = analyser.analyse(w).units
        if not units:
            continue
        uses = []
        for s in window.sentences:
            theirs = [t.lower() for t in WORD.findall(s.text)]
            uses += [(theirs, k) for k, t in enumerate(theirs) if t[:3] == w[:3] and analyser.analyse(t).units & units]
        if uses and all(_planned(theirs, k) for theirs, k in uses):
            return words[i]
    return None


__all__ = ["planned_as_done"]
