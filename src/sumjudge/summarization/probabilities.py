"""Verdict probabilities read from a judge's token log-probabilities.

A judge whose server returns token log-probabilities hands them back with its reply
(:attr:`~sumjudge.judges.base.JudgeReply.logprobs`) and knows nothing of verdicts. This module does:
a verdict is the JSON value of its ``"supported"`` (alignment) or ``"answered"`` (coverage) key, in
the order the verdicts were written. For each, the token where that value begins is found in the
reply's tokens, and its probability is ``P(true) / (P(true) + P(false))`` over the alternatives the
server listed at that token (``top_logprobs``; tokens that begin ``true`` count for true, ``false``
for false, after the part of the token that precedes the value, such as ``":``). An alternative
that is neither is left out of both; where the other value is not among the listed alternatives, its
share is taken as 0 (the chosen value gets 1.0 or 0.0).

Probabilities are set only when every verdict's value is found and agrees with the parsed verdict,
and the log-probabilities read at those tokens are log-probabilities (a number at or below 0, or -inf);
a server that sends +1000, +inf, NaN or another positive figure there gives no probability. Otherwise (prose around the JSON that hides it, tokens that do not spell the reply) none is set and
the verdicts stay as the judge gave them. A verdict that already has a probability (a judge that
reads one itself, such as the reader) keeps it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..judges.base import JudgeReply, OutputT, TokenLogprob
from .verdicts import AlignmentOutput, CoverageOutput

_LITERALS = ("true", "false")
_ROUNDING = 1e-6
"""A log-probability this far above 0 is a server's rounding of a certain token (0), not a figure to refuse."""


def _logprob_readable(logprob: float) -> bool:
    """A log-probability: at most 0 (give or take rounding), -inf allowed (probability 0); NaN, +inf and
    positive figures (a probability above 1) are not."""
    return logprob <= _ROUNDING  # False for NaN


def value_offsets(text: str, key: str) -> list[int]:
    """Where the ``true``/``false`` value of each ``"key":`` begins in the JSON ``text``, in order
    (keys and values inside strings are skipped)."""
    offsets: list[int] = []
    i, n = 0, len(text)
    last: str | None = None  # the string just closed, while only whitespace follows it
    expect = False  # a ':' after the key was just read
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            last, expect, i = text[i + 1 : j], False, j + 1
            continue
        if c.isspace():
            i += 1
            continue
        if c == ":":
            expect, last = last == key, None
        elif expect and text.startswith(_LITERALS, i):
            offsets.append(i)
            expect = False
        else:
            expect, last = False, None
        i += 1
    return offsets


def _literal(text: str) -> bool | None:
    """``True``/``False`` for text that begins (a prefix of) ``true``/``false``, else ``None``."""
    word = ""
    for ch in text.lstrip():
        if not ch.isalpha():
            break
        word += ch.lower()
    if not word:
        return None
    for literal, value in (("true", True), ("false", False)):
        if literal.startswith(word) or word.startswith(literal):
            return value
    return None


def _probability_of_true(token: TokenLogprob, prefix: str) -> float | None:
    """P(true) normalised over true/false among the alternatives at ``token``, whose first
    ``prefix`` characters come before the value."""
    head = prefix.strip()
    mass = {True: 0.0, False: 0.0}
    seen: set[str] = set()
    for alt, logprob in ((token.token, token.logprob), *token.top):
        if alt in seen:
            continue
        seen.add(alt)
        if not _logprob_readable(logprob):
            return None  # the server's figures at this token are not log-probabilities: no probability
        stripped = alt.lstrip()
        if not stripped.startswith(head):
            continue  # an alternative that leaves the JSON before the value: no verdict either way
        value = _literal(stripped[len(head) :])
        if value is not None:
            mass[value] += math.exp(min(logprob, 0.0))
    total = mass[True] + mass[False]
    return min(1.0, max(0.0, mass[True] / total)) if total > 0 else None


def verdict_probabilities(
    logprobs: Sequence[TokenLogprob], key: str, verdicts: Sequence[bool]
) -> list[float] | None:
    """P(true) of each of ``verdicts`` (the parsed values of ``key``, in order), or ``None`` when the
    tokens do not show exactly those values."""
    text = "".join(t.token for t in logprobs)
    offsets = value_offsets(text, key)
    if len(offsets) != len(verdicts):
        return None
    starts: list[int] = []
    at = 0
    for t in logprobs:
        starts.append(at)
        at += len(t.token)
    probabilities: list[float] = []
    k = 0
    for offset, said in zip(offsets, verdicts):
        if text.startswith("true", offset) != said:
            return None
        while k + 1 < len(starts) and starts[k + 1] <= offset:
            k += 1
        p = _probability_of_true(logprobs[k], text[starts[k] : offset])
        if p is None:
            return None
        probabilities.append(p)
    return probabilities


_VERDICTS: dict[type[Any], tuple[str, str]] = {
    AlignmentOutput: ("alignment", "supported"),
    CoverageOutput: ("coverage", "answered"),
}


def with_probabilities(reply: JudgeReply[OutputT]) -> JudgeReply[OutputT]:
    """``reply`` with each alignment or coverage verdict's ``probability`` read from its token
    log-probabilities; unchanged for other steps, for a reply without them, and where they do not
    spell the verdicts (see the module docstring)."""
    where = _VERDICTS.get(type(reply.output))
    if reply.logprobs is None or where is None:
        return reply
    field, key = where
    verdicts = getattr(reply.output, field)
    if not verdicts or any(v.probability is not None for v in verdicts):
        return reply
    probabilities = verdict_probabilities(reply.logprobs, key, [bool(getattr(v, key)) for v in verdicts])
    if probabilities is None:
        return reply
    dressed = [v.model_copy(update={"probability": p}) for v, p in zip(verdicts, probabilities)]
    return replace(reply, output=reply.output.model_copy(update={field: dressed}))


__all__ = ["value_offsets", "verdict_probabilities", "with_probabilities"]
