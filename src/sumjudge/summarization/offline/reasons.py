"""How the offline judge says what it could not check, and which sentence of a long source its
reasons name.

The judge calls a claim unsupported only when it can show the error (:mod:`.wrong_numbers`,
:mod:`.wrong_names`, :mod:`.support`, and a pronoun that opens the summary with no one before it,
:mod:`..language.passages`). Words it cannot find but that contradict nothing leave the claim supported
and *unchecked* (:func:`unchecked_reason`): a words-only judge cannot tell a paraphrase from a wrong
word. A long source is checked in its retrieved passages; :func:`whole_source_numbers` and
:func:`renumber` make a reason's "sentence N" the sentence's number in the whole source.
"""

from __future__ import annotations

import regex

from ..language.units import Document, Sentence
from ..language.passages import Evidence
from ..language.segment import quote
from .extrinsic import in_slot, passage_form, slot_word


def unchecked_reason(claim: Sentence, ev: Evidence, covered: frozenset[str], doc: Document, notes: list[str]) -> str:
    """The reason of a claim supported because nothing contradicts it: how many of its content words
    the passage lacks, which they are, and that a paraphrase cannot be checked by words."""
    words = {claim.forms.get(u, u).lower(): u for u in claim.sequence if not u.startswith("#")}
    missing = [w for w, u in words.items() if u not in covered]
    absent = [w for w in missing if words[w] not in doc.units]
    head = "no contradiction found"
    if missing:
        shown = ", ".join(_with_slot(claim, w, words[w], ev) for w in missing[:6]) + (", ..." if len(missing) > 6 else "")
        where = "the source" if len(absent) == len(missing) else "the closest passage"
        head += f"; {len(missing)} of {len(words)} content words not in {where}: {shown}"
    elif notes:
        head += f"; {notes[0]}"
    return f'{head} ({ev.where}: "{quote(ev.text, 100)}"); a paraphrase cannot be checked by words'


def _with_slot(claim: Sentence, word: str, unit: str, ev: Evidence) -> str:
    """``word`` quoted, with the passage's word in its place where one stands there."""
    there = slot_word(claim, unit, ev) if in_slot(claim, unit, ev) else None
    return f"{word!r} (the passage has {passage_form(ev, there)!r} there)" if there else repr(word)


_SENTENCE_NUMBER = regex.compile(r"\b(sentences? )(\d+)(?:-(\d+))?")


def whole_source_numbers(text: str, sentences: list[str], passages: list[tuple[int, int]]) -> list[int]:
    """A long source: the number in the whole source of each of ``sentences`` (the judge's
    sentences of ``text``, the retrieved passages joined), from where each passage begins in ``text``
    and how many of the whole source's sentences come before it."""
    out: list[int] = []
    cursor, current, local = 0, -1, 0
    starts = sorted(passages)
    for s in sentences:
        at = text.find(s, cursor)
        at = cursor if at < 0 else at
        cursor = at + len(s)
        k = max((i for i, (start, _) in enumerate(starts) if start <= at), default=0)
        if k != current:
            current, local = k, 0
        out.append(starts[k][1] + local + 1)
        local += 1
    return out


def renumber(reason: str, numbers: list[int]) -> str:
    """``reason`` with its "sentence N" / "sentences N-M" (numbered within the passages) numbered in the
    whole source."""

    def one(n: str) -> str:
        i = int(n) - 1
        return str(numbers[i]) if 0 <= i < len(numbers) else n

    def sub(m: regex.Match[str]) -> str:
        head, a, b = m.group(1), one(m.group(2)), m.group(3)
        return f"{head}{a}" + (f"-{one(b)}" if b else "")

    return _SENTENCE_NUMBER.sub(sub, reason)
