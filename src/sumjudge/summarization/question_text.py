"""A coverage question as the scorer keeps it, whoever wrote it (a judge drawing it, a kept exam):

- :func:`cleaned`: control characters (NUL, ESC, ...) and invisible format characters (zero-width
  spaces, joiners, a byte-order mark) taken out, whitespace made single spaces; a question with
  nothing visible left is blank, and one with no word (no letter or digit: "?", combining marks alone)
  asks nothing;
- :data:`~sumjudge.guards.limits.MAX_QUESTION_CHARS`: the longest a question may be;
- :func:`same_question`: two questions that read the same (:func:`~.stray_verdicts.same_text`) are one.

:func:`drawn_questions` applies them to what a judge drew (blank ones dropped, repeats dropped, a long
one cut at a word, at most ``max_questions`` kept); :func:`question_problem` says what is wrong with a
kept exam's question, which is refused rather than changed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from ..guards.limits import MAX_QUESTION_CHARS
from .stray_verdicts import same_text


def _hidden(ch: str) -> bool:
    """A character with nothing to show: a control (but whitespace) or a format character (Cf)."""
    kind = unicodedata.category(ch)
    return (kind == "Cc" and not ch.isspace()) or kind == "Cf"


def cleaned(question: str) -> str:
    """``question`` without control and format characters, its whitespace single spaces."""
    return " ".join("".join(" " if ch.isspace() else ch for ch in question if not _hidden(ch)).split())


def worded(question: str) -> bool:
    """Whether ``question`` holds a word: a letter or a digit (not only "?" or combining marks)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in question)


def cut(question: str, limit: int = MAX_QUESTION_CHARS) -> str:
    """``question`` cut at the last word that ends within ``limit`` characters, ended with "?"."""
    if len(question) <= limit:
        return question
    head = question[: limit - 1]
    head = head[: head.rfind(" ")] if " " in head else head
    return head.rstrip(" ,;:") + "?"


def same_question(a: str, b: str) -> bool:
    return a == b or same_text(a, b)


def drawn_questions(said: Iterable[str], max_questions: int) -> list[str]:
    """What a judge drew, cleaned, cut, without blank ones or repeats, at most ``max_questions``."""
    kept: list[str] = []
    for question in said:
        question = cut(cleaned(question))
        if worded(question) and not any(same_question(question, k) for k in kept):
            kept.append(question)
        if len(kept) == max_questions:
            break
    return kept


def question_problem(questions: Sequence[str], number: int) -> str | None:
    """What is wrong with question ``number`` (1-based) of a kept exam's ``questions``, or ``None``."""
    question = questions[number - 1]
    control = next((c for c in question if unicodedata.category(c) == "Cc" and not c.isspace()), None)
    if control is not None:
        return f"question {number} holds a control character (U+{ord(control):04X})"
    if not cleaned(question):
        return f"question {number} is blank"
    if not worded(question):
        return f"question {number} has no word (no letter or digit: {cleaned(question)[:20]!r})"
    if len(question) > MAX_QUESTION_CHARS:
        return f"question {number} is {len(question)} characters, more than the {MAX_QUESTION_CHARS} a question may have"
    first = next((i for i, q in enumerate(questions[: number - 1], 1) if same_question(cleaned(q), cleaned(question))), None)
    if first is not None:
        return f"question {number} repeats question {first}"
    return None


__all__ = ["cleaned", "cut", "drawn_questions", "question_problem", "same_question", "worded"]
