"""Phrases: the stretches of a sentence between commas, semicolons and clause-opening conjunctions, in
which a negation cue or an antonym is compared, and which of a phrase's words its negation bears on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import regex


@dataclass(frozen=True)
class Phrase:
    """A stretch of a sentence between commas, semicolons and clause-opening conjunctions: the
    scope that a negation cue or an antonym is compared in."""

    text: str
    units: frozenset[str]
    negated: bool
    """The phrase holds a negation cue."""
    scope: frozenset[str] = frozenset()
    """The content units its negation cues bear on (:data:`NEGATION_SCOPE`)."""
    infinitives: frozenset[str] = frozenset()
    """English: the content units it states as an infinitive ("to *qualify*", "to be *announced*"): the
    complement of another word ("under pressure to qualify", "failed to qualify"), which asserts nothing
    of itself."""
    until: bool = False
    """English: the phrase's negation bears on a time ("will not reopen until May"): it says when, not
    whether, so it contradicts neither "will reopen in May" nor "will not reopen"."""


_UNTIL = regex.compile(r"(?i)\b(?:until|till)\b")
# Where a phrase ends: punctuation between two tokens (or a word that opens a clause: lexicon.PHRASE_OPENERS).
_PHRASE_PUNCT = regex.compile(r"[,;:()\[\]\u2013\u2014]|\s-\s")

NEGATION_SCOPE: dict[str, tuple[int, int]] = {"de": (1, 1), "ko": (1, 1), "ja": (1, 0)}
"""(content words before, content words after) a negation cue bears on, within its phrase: the
word it negates. Languages not named put the negation right before it: (0, 1), "did not *open*",
"was not *Ada* Lind"; an adverb in -ly between them is passed over ("did not immediately *reply*")."""

WordSpan = tuple[int, int, int]
"""A word that made units: (its phrase's number, its first unit's index, the index after its last)."""


def punctuation_between(text: str, end: int, start: int) -> bool:
    """Whether the text between one token's ``end`` and the next one's ``start`` ends a phrase."""
    between = text[end:start]
    return start > end and not between.isspace() and _PHRASE_PUNCT.search(text, end, start) is not None


def scope_negations(
    phrases: list[Phrase], cues: Sequence[tuple[int, int]], words: Sequence[WordSpan],
    sequence: Sequence[str], forms: dict[str, str], lang: str,
) -> list[Phrase]:
    """Each negated phrase with the units its cues bear on: the words :data:`NEGATION_SCOPE` counts
    around each cue (``cues``: its phrase's number, the words before it), inside its own phrase, so
    that a negation contradicts only the word it negates and not the whole phrase."""
    before, after = NEGATION_SCOPE.get(lang, (0, 1))
    scopes: dict[int, set[str]] = {}

    def forms_of(word: WordSpan) -> str:
        return forms.get(sequence[word[1]], "").lower() if word[2] > word[1] else ""

    for phrase_no, at in cues:
        stop = at + after
        while lang == "en" and stop < len(words) and forms_of(words[stop - 1]).endswith("ly"):
            stop += 1
        near = [w for w in (*words[max(0, at - before) : at], *words[at:stop]) if w[0] == phrase_no]
        scopes.setdefault(phrase_no, set()).update(sequence[k] for _, a, b in near for k in range(a, b))
    return [replace(p, scope=frozenset(scopes[n])) if n in scopes else p for n, p in enumerate(phrases)]


def mark_until(phrases: list[Phrase], text: str, lang: str) -> list[Phrase]:
    """English: a negated phrase followed by one that opens with "until" is marked :attr:`Phrase.until`
    (its negation says when, not whether)."""
    if lang != "en" or len(phrases) <= 1 or not _UNTIL.search(text):
        return phrases
    return [
        replace(p, until=True) if p.negated and _UNTIL.match(nxt.text) else p
        for p, nxt in zip(phrases, phrases[1:] + [Phrase("", frozenset(), False)])
    ]
