"""A verdict answers what was asked: the question (coverage) or the given claim (a long source's checks)
that it carries is, after whitespace and case, the text asked at its position.

A judge that answers about other texts at the same positions (another item's questions, claims of its
own) would otherwise be scored as if it had judged these: "The dog ran." at 1.0 against a source about
a cat. Such a reply is invalid: the scorer asks once more, saying which verdicts strayed, and a reply
that strays again fails the step with :class:`~sumjudge.errors.JudgeOutputError` (the item is recorded
as failed, and counted among the run's errors).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import JudgeOutputError

_SHOWN = 3  # stray verdicts quoted in a re-ask or an error


def same_text(asked: str, said: str) -> bool:
    """Whether ``said`` is ``asked``, whitespace and case aside."""
    return " ".join(asked.split()).casefold() == " ".join(said.split()).casefold()


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


__all__ = ["same_text", "stray_error", "stray_feedback", "strays"]
