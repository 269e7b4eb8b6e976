"""A verdict answers what was asked: the question (coverage) or the given claim (a long source's checks)
that it carries is, as a reader would read it, the text asked at its position.

"As a reader would read it" (:func:`same_text`) forgives what hosted judges routinely do when they copy
a text back: Unicode forms (NFKC: fullwidth letters, composed or decomposed accents), typographic quotes
and dashes for straight ones, an escaped character (``\\"``, ``&amp;``), whitespace, case, quotation
marks around the text or a space inside them, a dropped or added final punctuation mark ("?", "."), and
small edits (a fixed typo): a character similarity of at least :data:`SIMILARITY` (difflib's ratio) with
the same numbers and every word of each text in the other or a misspelling of one
(:data:`~.quotes.WORD_THRESHOLD`, the quote matcher's rule). It does not forgive another text: a number
or a word changed, added or dropped ("not"), another item's question, a claim of the judge's own.

A judge that answers about other texts at the same positions would otherwise be scored as if it had
judged these: "The dog ran." at 1.0 against a source about a cat. Such a reply is invalid: the scorer
asks once more, saying which verdicts strayed, and a reply that strays again fails the step with
:class:`~sumjudge.errors.JudgeOutputError` (the item is recorded as failed, and counted among the
run's errors).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher

from ..errors import JudgeOutputError
from .quotes import WORD_THRESHOLD, fold_marks

_SHOWN = 3  # stray verdicts quoted in a re-ask or an error
SIMILARITY = 0.9
"""The least character similarity (:class:`difflib.SequenceMatcher` ratio, on the folded texts) of a
text copied back with small edits."""
_ESCAPED = re.compile(r"\\(.)")
_EDGE = "\"'`.?!;:,\u3002\uff1f\uff01 "
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD_EDGE = "\"'`.,;:!?()[]{}"


def _folded(text: str) -> str:
    """``text`` as compared: NFKC, unescaped, quote and dash styles folded, whitespace collapsed, case
    folded, without surrounding quotation marks, spaces and final punctuation."""
    text = _ESCAPED.sub(r"\1", html.unescape(unicodedata.normalize("NFKC", text)))
    text = " ".join(fold_marks(text).split()).casefold()
    return text.strip(_EDGE)


def _words(text: str) -> list[str]:
    return [w for w in (w.strip(_WORD_EDGE) for w in text.split(" ")) if w]


def _words_kept(a: list[str], b: list[str]) -> bool:
    """Every word of ``a`` is in ``b`` or a misspelling of one of its words."""
    have = set(b)
    return all(w in have or any(SequenceMatcher(None, w, h, autojunk=False).ratio() >= WORD_THRESHOLD for h in have)
               for w in a)


def same_text(asked: str, said: str) -> bool:
    """Whether ``said`` is ``asked`` as a reader would read it (see the module docstring)."""
    a, s = _folded(asked), _folded(said)
    if a == s:
        return True
    if not a or not s or sorted(_NUMBER.findall(a)) != sorted(_NUMBER.findall(s)):
        return False
    if SequenceMatcher(None, a, s, autojunk=False).ratio() < SIMILARITY:
        return False
    wa, ws = _words(a), _words(s)
    return len(wa) == len(ws) and _words_kept(wa, ws) and _words_kept(ws, wa)


def strays(asked: Sequence[str], said: Sequence[str]) -> list[int]:
    """The positions (0-based) whose verdict names another text than the one asked there (verdicts
    past the end of ``asked``, and missing ones, are the count's business, not this)."""
    return [i for i, (a, s) in enumerate(zip(asked, said)) if not same_text(a, s)]


def _listed(asked: Sequence[str], said: Sequence[str], where: list[int], what: str) -> str:
    shown = "; ".join(f"{what} {i + 1} is {asked[i][:200]!r}, the verdict names {said[i][:200]!r}" for i in where[:_SHOWN])
    more = len(where) - _SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def stray_feedback(asked: Sequence[str], said: Sequence[str], where: list[int], what: str) -> str:
    """The correction sent with the re-ask."""
    return (
        f"Your verdicts must answer the {what}s given, each copied exactly as given, in the order given: "
        f"{_listed(asked, said, where, what)}. Return one verdict per {what}, in order."
    )


def stray_error(step: str, asked: Sequence[str], said: Sequence[str], where: list[int], what: str) -> JudgeOutputError:
    """The failure of a step whose verdicts strayed after the re-ask."""
    return JudgeOutputError(
        f"the judge answered about {what}s it was not asked ({len(where)} of {len(asked)}): "
        f"{_listed(asked, said, where, what)}",
        step=step,
    )


__all__ = ["SIMILARITY", "same_text", "stray_error", "stray_feedback", "strays"]
