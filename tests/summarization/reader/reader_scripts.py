"""Scripted stand-ins for the reader's tests: a model that answers each claim read after the source
with a chosen P, and word proofs that prove nothing, so that the model alone decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sumjudge.judges.base import JudgeReply, JudgeRequest
from sumjudge.judges.next_token import YesNoAnswer
from sumjudge.summarization.verdicts import AlignmentOutput, AlignmentVerdict


class TailModel:
    """Reads the head once and answers each tail with ``p_yes(claim text)``, as YesNoModel.ask_after does."""

    def __init__(self, p_yes: Callable[[str], float]) -> None:
        self.p_yes = p_yes
        self.tails: list[str] = []

    def ask_after(self, system: str, head: str, tails: list[str]) -> list[YesNoAnswer]:
        self.tails += tails
        return [YesNoAnswer(self.p_yes(t.split(":", 1)[1].split("\n")[0].strip()), 120, 12) for t in tails]

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:  # pragma: no cover - the source layout reads after the head
        raise AssertionError("the source layout asks after the source's head")


class SilentWords:
    """Word proofs that prove nothing (every claim unchecked): the model and its contrast decide."""

    fingerprint = "silent"

    def answer(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:  # pragma: no cover - alignment only here
        raise AssertionError

    def _unchecked(self, claims: list[str]) -> AlignmentOutput:
        return AlignmentOutput(alignment=[AlignmentVerdict(claim=c, reason="unchecked", supported=True, unchecked=True)
                                          for c in claims])

    def align(self, source: str, summary: str) -> AlignmentOutput:
        return self._unchecked([summary])

    def check(self, source: str, claims: list[str]) -> AlignmentOutput:
        return self._unchecked(claims)

    def coverage_gaps(self, questions: list[str], summary: str) -> list[str | None]:  # pragma: no cover
        return [None] * len(questions)
