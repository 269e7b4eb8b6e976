"""A claim is the summary's: the judge lists the claims of the summary (step A), and a claim it writes
that the summary does not make is judged against the source as if the summary made it. A false
summary ("The council rejected 500 homes.") would score 1.0 on claims the judge took from the source
("The council approved 120 homes.", with a real quote).

"The summary makes it" (:func:`held_by`) forgives what a judge does when it cuts a summary into atomic
claims, with the tolerance of the verdicts' matching (:mod:`.stray_verdicts`): Unicode forms, typographic
quotes and dashes, escapes, case, whitespace and punctuation; a word of the claim may be a misspelling
or another form of a word of the summary (a character similarity of at least
:data:`~.quotes.WORD_THRESHOLD`, or the same beginning: "approves" for "approved", "열었다" for
"열었고"), and the small words a claim needs to
stand alone ("the", "was", "by", ...) may be added. Every number of the claim is a number of the
summary, and every other word of the claim is in the summary (or the claim is the summary's text
however spaced: "Image : AP" for "Image: AP"). A word changed or added ("rejected" for "approved",
"not"), a number changed, is another claim; so are the same words with their sides swapped ("Bob
paid Alice" for "Alice paid Bob": :mod:`.word_order`), and a denial dropped: a claim with no denial
of its own that says what the summary denies ("The council approved the homes" from "The council did
not approve" or "refused to approve the homes", "It is false that ...": :mod:`.denied_words`). A key
hidden in the claim (:data:`~sumjudge.guards.redact.MASK`) stands for the key the summary holds.

A reply with such a claim is invalid: the scorer asks once more, saying which claims are not the
summary's, and a reply that holds one again fails the step with
:class:`~sumjudge.errors.JudgeOutputError` (the item is recorded as failed, and counted among the
run's errors), as for answers to questions not asked.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from difflib import SequenceMatcher
from typing import Any

from ..errors import ContextOverflowError, JudgeOutputError
from ..judges.base import ChatMessage, JudgeReply, JudgeRequest
from ..guards.redact import MASK
from .stray_verdicts import _NUMBER, _folded
from .denied_words import DENYING_WORDS, HEARSAY, Clauses, clauses, denied_from_outside, negation
from .quotes import WORD_THRESHOLD
from .word_order import swapped

_SHOWN = 3  # claims quoted in a re-ask or an error
_ECHO_LIMIT = 2000
"""Characters of the judge's reply shown back to it in the re-ask: a small model's reply may fill the
rest of its window with claims, and shown whole it would leave no room for the answer."""

JOINING_WORDS = frozenset("""
a an the this that these those it its they them their he him his she her we our you your i
is are was were be been being has have had do does did will would shall should can could may might must
of to in on at by for from with as into onto about over under after before than then and or but nor so
also there here which who whom whose what when where while
""".split())
"""Words a claim may add to stand alone ("The plan was approved by the council" from "the council
approved the plan"), none of which carries a fact of its own ("not" and "no" do: they are not here)."""


def _same_stem(a: str, b: str) -> bool:
    """Two forms of one word: a shared beginning of two letters or more, at least half the shorter word
    ("열었다", "열었고"; "approves", "approval")."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= 2 and 2 * n >= min(len(a), len(b))


def _kept(word: str, have: set[str], text: str) -> bool:
    if word in have or word in JOINING_WORDS:
        return True
    if len(word) >= 3 and word in text:  # a part of a word, or a claim in a language written without spaces
        return True
    return any(_same_stem(word, h) or SequenceMatcher(None, word, h, autojunk=False).ratio() >= WORD_THRESHOLD
               for h in have)


FRAME_WORDS = frozenset({"true", "case", "correct", "accurate", "so"})
"""Words of a denying frame, not of what it denies ("It is not true that ...", "not the case that ...")."""


@functools.lru_cache(maxsize=1 << 16)  # a pure function of two words, asked again for every claim
def _same(a: str, b: str) -> bool:
    """Two forms of one word, or one misspelt (the tolerance of :func:`_kept`)."""
    return a == b or _same_stem(a, b) or SequenceMatcher(None, a, b, autojunk=False).ratio() >= WORD_THRESHOLD


def _content(word: str) -> bool:
    return word not in JOINING_WORDS and any(ch.isalnum() for ch in word)


def _drops_a_denial(claimed: list[str], cut: Clauses) -> bool:
    """Whether the claim (no denial of its own) says what the summary denies: for some denial, the
    claim holds the first word it covers and no clause of the summary holds that word undenied
    together with every other word of the claim that the denial covers ("safe for children" from "not
    safe for children, but safe for adults"; "The plan was popular" from "which was not popular")."""
    words = cut.words
    in_clause: dict[int, set[str]] = {}
    undenied: dict[str, set[int]] = {}  # each distinct word: the clauses where it stands undenied
    for word, clause, denied in zip(words, cut.clause, cut.denied):
        in_clause.setdefault(clause, set()).add(word)
        if not denied:
            undenied.setdefault(word, set()).add(clause)
    heads: dict[str, set[int]] = {}
    decided: dict[tuple[str, frozenset[str]], bool] = {}  # a long summary repeats its denials
    for scope in cut.scopes():
        said = words[scope[0] - 1]
        if (said in HEARSAY or said in DENYING_WORDS) and any(_same(w, said) for w in claimed):
            continue  # the claim keeps the word: "Inoki has claimed to have seen a UFO"
        key = [j for j in scope if _content(words[j]) and words[j] not in FRAME_WORDS]
        if not key or not any(_same(w, words[key[0]]) for w in claimed):
            continue
        head = words[key[0]]
        shared = frozenset(w for w in claimed if _content(w) and any(_same(w, words[j]) for j in key))
        if (head, shared) not in decided:
            if head not in heads:
                heads[head] = {c for w, found in undenied.items() if _same(w, head) for c in found}
            decided[head, shared] = any(all(any(_same(w, other) for other in in_clause[c]) for w in shared)
                                        for c in heads[head])
        if not decided[head, shared]:
            return True
    return False


def _squeezed(text: str) -> str:
    return "".join(text.split())


def held_by(summary: str, claim: str) -> bool:
    """Whether ``summary`` makes ``claim`` (see the module docstring)."""
    text, said = _folded(summary), _folded(claim)
    if not said:
        return True
    cut, own = clauses(text), clauses(said)
    claimed = [w for w in own.words if any(ch.isalnum() for ch in w) or w == MASK]
    squeezed, whole = _squeezed(said), _squeezed(text)
    if squeezed in whole:  # the summary's own text, however spaced: its own unless a denial before it covers it
        at = whole.find(squeezed)
        while at >= 0:
            if not denied_from_outside(cut, at, at + len(squeezed)):
                return True
            at = whole.find(squeezed, at + 1)
        return False
    if not set(_NUMBER.findall(said)) <= set(_NUMBER.findall(text)):
        return False
    have = set(cut.words) | ({MASK} if MASK in summary else set())
    if not all(w == MASK or _kept(w, have, text) for w in claimed):
        return False
    kept = [i for i, w in enumerate(own.words) if any(ch.isalnum() for ch in w) or w == MASK]
    if swapped(claimed, cut.words, _content, _same, ([own.clause[i] for i in kept], cut.clause)):
        return False
    return any(negation(w) for w in claimed) or not _drops_a_denial(claimed, cut)


def not_held(summaries: Sequence[str], claims: Sequence[str]) -> list[int]:
    """The positions (0-based) of the claims that none of ``summaries`` (the summary, and the same
    summary with its secrets hidden) makes."""
    return [i for i, c in enumerate(claims) if not any(held_by(s, c) for s in summaries)]


def _listed(claims: Sequence[str], where: list[int]) -> str:
    shown = "; ".join(f"claim {i + 1} {claims[i][:200]!r}" for i in where[:_SHOWN])
    more = len(where) - _SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def not_held_feedback(claims: Sequence[str], where: list[int]) -> str:
    """The correction sent with the re-ask."""
    return (f"Each claim must be one the SUMMARY makes, in the summary's own words: {_listed(claims, where)} "
            "is not in the summary. List the summary's claims only, then judge each against the source.")


def not_held_error(step: str, claims: Sequence[str], where: list[int]) -> JudgeOutputError:
    """The failure of a step whose claims are not the summary's after the re-ask."""
    return JudgeOutputError(
        f"the judge returned claims the summary does not make ({len(where)} of {len(claims)}): "
        f"{_listed(claims, where)}",
        step=step,
    )


async def summary_claims(
    ask: Callable[[JudgeRequest[Any]], Awaitable[JudgeReply[Any]]], request: JudgeRequest[Any],
    reply: JudgeReply[Any], summaries: Sequence[str],
) -> JudgeReply[Any]:
    """``reply`` (an alignment reply to ``request``) when every claim in it is the summary's; else the
    reply to one more request that says which are not (the reply shown back when it is short, and left
    out when the judge finds the request too large for its window); a reply that still holds one, or a
    re-ask that fits the window in no form, raises :func:`not_held_error`."""
    claims = [v.claim for v in reply.output.alignment if v.claim.strip()]
    where = not_held(summaries, claims)
    if not where:
        return reply
    said = reply.raw if reply.raw is not None else reply.output.model_dump_json()
    told = ChatMessage(role="user", content=not_held_feedback(claims, where))
    asks = [[*request.messages, told]]
    if len(said) <= _ECHO_LIMIT:
        asks.insert(0, [*request.messages, ChatMessage(role="assistant", content=said), told])
    for messages in asks:
        try:
            reply = await ask(replace(request, messages=messages))
            break
        except ContextOverflowError:
            continue
    else:
        raise not_held_error(request.step, claims, where)
    claims = [v.claim for v in reply.output.alignment if v.claim.strip()]
    where = not_held(summaries, claims)
    if where:
        raise not_held_error(request.step, claims, where)
    return reply


__all__ = ["FRAME_WORDS", "JOINING_WORDS", "held_by", "not_held", "not_held_error", "not_held_feedback", "summary_claims"]
