"""A scripted judge for unit tests: answers each step from a function or a queue, records every request."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sumjudge.judges.base import JudgeReply, JudgeRequest, Usage
from sumjudge.summarization.verdicts import (
    ALIGNMENT_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    CoverageOutput,
    QuestionsOutput,
)

Answer = dict[str, Any] | Callable[[JudgeRequest[Any]], dict[str, Any]] | Exception


class ScriptedJudge:
    """Answers per step: a fixed dict, a function of the request, or a queue of those."""

    def __init__(self, model_id: str = "scripted/judge", delay: float = 0.0, **steps: Answer | list[Answer]) -> None:
        self._model_id = model_id
        self.steps = {k: (list(v) if isinstance(v, list) else v) for k, v in steps.items()}
        self.requests: list[JudgeRequest[Any]] = []
        self.delay = delay

    @property
    def model_id(self) -> str:
        return self._model_id

    def calls(self, step: str) -> list[JudgeRequest[Any]]:
        return [r for r in self.requests if r.step == step]

    async def generate(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        self.requests.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        script = self.steps[request.step]
        answer = script.pop(0) if isinstance(script, list) else script
        if isinstance(answer, Exception):
            raise answer
        data = answer(request) if callable(answer) else answer
        return JudgeReply(output=request.output_type.model_validate(data), usage=Usage(prompt_tokens=10, completion_tokens=5, calls=1))


def claims(*pairs: tuple[str, bool]) -> dict[str, Any]:
    return {"alignment": [{"claim": c, "supported": s, "reason": "ok" if s else "not in the source"} for c, s in pairs]}


def questions(*qs: str) -> dict[str, Any]:
    return {"questions": list(qs)}


def answers(*flags: bool) -> Callable[[JudgeRequest[Any]], dict[str, Any]]:
    """Coverage verdicts for the questions asked, in order (extra flags are ignored)."""

    def make(request: JudgeRequest[Any]) -> dict[str, Any]:
        qs = request.inputs.questions or []
        return {"coverage": [{"question": q, "answered": f, "reason": "r"} for q, f in zip(qs, flags)]}

    return make


def sentence_claims(unsupported_word: str) -> Callable[[JudgeRequest[Any]], dict[str, Any]]:
    """Alignment that makes each sentence of the summary a claim, unsupported when it holds ``unsupported_word``."""

    def make(request: JudgeRequest[Any]) -> dict[str, Any]:
        summary = request.inputs.summary or ""
        return claims(*[(s.strip() + ".", unsupported_word not in s) for s in summary.split(".") if s.strip()])

    return make


def judge(alignment: Any, qs: Any, coverage: Any, **kw: Any) -> ScriptedJudge:
    return ScriptedJudge(**{ALIGNMENT_STEP: alignment, QUESTIONS_STEP: qs, COVERAGE_STEP: coverage}, **kw)


__all__ = ["AlignmentOutput", "CoverageOutput", "QuestionsOutput", "ScriptedJudge", "answers", "claims", "judge", "questions",
           "sentence_claims"]
