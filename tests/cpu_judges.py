"""Judges for the worker-process tests, importable by name in a worker (tests/ is on sys.path there too)."""

from __future__ import annotations

from typing import Any

from sumjudge.errors import JudgeError
from sumjudge.judges.base import JudgeReply, JudgeRequest
from sumjudge.summarization.offline.lexical import LexicalJudge

MARK = "BROKEN"


class BreaksOnMark(LexicalJudge):
    """The offline judge, except that it fails every request about a summary that carries MARK."""

    def answer(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        if MARK in (request.inputs.summary or ""):
            raise JudgeError("the judge broke on this summary", step=request.step)
        return super().answer(request)


def breaks_on_mark() -> BreaksOnMark:
    return BreaksOnMark()
