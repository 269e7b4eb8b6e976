"""Draw a data set's exam: each distinct source's coverage questions, once, to keep and reuse.

:func:`draw_exam` is what ``sumjudge questions DATA --out exam.jsonl`` runs: the scorer is built as a
batch builds it (:func:`~sumjudge.runs.scoring.build_scorer`: registry, reply cache), each distinct
source (by digest) has its questions drawn by step B alone (no summary is read), and one
:class:`~sumjudge.summarization.exam.Exam` comes back, entries stamped with the judge, the
prompt version, the seed (the sample drawn) and ``max_questions``. The exam file is written through
the one writer of files (:class:`~sumjudge.data.files.OutputPlan`), replaced whole.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .._aio import gather_or_cancel
from ..data.datasets import Dataset
from ..judges.base import JudgeModel, Usage, judge_identity
from ..errors import JudgeOutputError
from ..summarization.exam import Exam, ExamEntry, source_sha256
from ..summarization.prompts import PROMPT_VERSION
from ..summarization.spec import ScorerSpec
from .scoring import build_scorer


async def draw_exam(
    dataset: Dataset,
    spec: ScorerSpec,
    *,
    concurrency: int = 8,
    timeout: float | None = None,
    cache: bool | str | None = None,
    seed: int = 0,
    judge_factory: Callable[[], JudgeModel] | None = None,
) -> tuple[Exam, Usage]:
    """The exam of ``dataset`` (validated), and what drawing it cost. ``seed``: the sample index the
    questions are drawn as (0: the judge's own temperature; above 0 the samples' temperature), so
    that several exams of one data set can be drawn and kept."""
    scorer = build_scorer(spec, concurrency=concurrency, timeout=timeout, cache=cache, judge_factory=judge_factory)
    sources: dict[str, str] = {}
    first_item: dict[str, str] = {}
    for row in dataset.rows():
        sources.setdefault(source_sha256(row.source), row.source)
        first_item.setdefault(source_sha256(row.source), row.id)
    gate = asyncio.Semaphore(concurrency)
    judge = judge_identity(scorer.judge)
    max_questions = spec.options.max_questions

    async def one(digest: str, source: str) -> tuple[ExamEntry, Usage]:
        async with gate:
            questions, usage = await scorer.questions_for(source, sample=seed)
        if not questions:  # an entry without questions would score every summary of the source 0
            raise JudgeOutputError(f"the judge drew no questions for the source of item {first_item[digest]!r}: "
                                   "no exam is written", step="questions")
        try:
            entry = ExamEntry(source_sha256=digest, questions=questions, judge=judge, prompt_version=PROMPT_VERSION,
                              seed=seed, max_questions=max_questions)
        except ValidationError as exc:  # one line naming what the judge drew, never pydantic's dump
            said = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
            raise JudgeOutputError(f"the judge's questions for the source of item {first_item[digest]!r} cannot "
                                   f"be kept ({said}): no exam is written", step="questions") from None
        return entry, usage

    drawn = await gather_or_cancel(*(one(d, s) for d, s in sources.items()))
    usage = Usage()
    for _, u in drawn:
        usage = usage + u
    return Exam.of((e for e, _ in drawn), label="the exam"), usage


def exam_output_plan(out: str | Path, *, data: str | Path | None = None, cache: bool | str | Path | None = None) -> Any:
    """The files ``sumjudge questions`` must not write its exam over: the data file, the reply cache, the
    default run store and every file its runs read (:class:`~sumjudge.data.files.OutputPlan`); check it
    before the first call."""
    from ..data.files import OutputPlan
    from ..judges.cache import DEFAULT_CACHE_PATH
    from ..store.database import DEFAULT_STORE_PATH
    from .outputs import store_reads

    read_by_runs, caches_of_runs = store_reads(DEFAULT_STORE_PATH)
    return OutputPlan(inputs={**read_by_runs, "the data file": str(data) if data is not None else None},
                      databases={**caches_of_runs, "the run store": DEFAULT_STORE_PATH,
                                 "the reply cache": (DEFAULT_CACHE_PATH if cache is True else cache) or DEFAULT_CACHE_PATH},
                      outputs={"--out": str(out)})


def write_exam(exam: Exam, out: str | Path, *, data: str | Path | None = None,
               cache: bool | str | Path | None = None) -> None:
    """``exam`` written to ``out`` whole (beside, then renamed); refused when ``out`` is a file that must
    not be written over (:func:`exam_output_plan`)."""
    plan = exam_output_plan(out, data=data, cache=cache)
    plan.check()
    target = plan.open("--out")
    target.fh.write(exam.text())
    target.commit()


__all__ = ["draw_exam", "exam_output_plan", "write_exam"]
