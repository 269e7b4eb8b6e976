"""run_evals over many items with a scripted judge."""

from __future__ import annotations

import asyncio

import pytest
from scripted import answers, claims, judge, questions

from sumjudge import create_summarization_scorer, run_evals, run_evals_sync
from sumjudge.errors import ConfigurationError, JudgeError
from sumjudge.summarization.verdicts import QUESTIONS_STEP


def make_scorer(**kw: object):
    def align(request):
        supported = "wrong" not in (request.inputs.summary or "")
        return claims((request.inputs.summary, supported))

    return create_summarization_scorer(model=judge(align, questions("Q?"), answers(True), **kw))


async def test_mean_score_per_scorer_and_callback_per_item() -> None:
    seen: list[tuple[str, str, float]] = []
    data = [{"input": "doc one", "output": "good"}, {"input": "doc two", "output": "wrong"}, {"input": "doc one", "output": "fine"}]
    scorer = make_scorer()
    result = await run_evals(data=data, scorers=[scorer], concurrency=2,
                             on_item_complete=lambda item, out, res: seen.append((item["input"], out, res[scorer.id].score)))
    assert result.scores == {"summarization-scorer": pytest.approx(2 / 3)}
    assert result.summary.total_items == 3
    assert sorted(seen) == [("doc one", "fine", 1.0), ("doc one", "good", 1.0), ("doc two", "wrong", 0.0)]
    assert [r.output for r in result.items] == ["good", "wrong", "fine"]


async def test_target_sync_or_async_makes_the_output() -> None:
    async def summarize(doc: str) -> str:
        await asyncio.sleep(0)
        return f"summary of {doc}"

    scorer = make_scorer()
    result = await run_evals(data=[{"input": "a"}, {"input": "b"}], scorers=[scorer], target=summarize)
    assert [r.output for r in result.items] == ["summary of a", "summary of b"]
    result = await run_evals(data=[{"input": "c"}], scorers=[scorer], target=lambda doc: "wrong " + doc)
    assert result.scores[scorer.id] == 0.0


async def test_concurrency_is_bounded_and_generators_are_read_lazily() -> None:
    in_flight = peak = 0
    pulled = 0

    async def slow_target(doc: str) -> str:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.01)
        in_flight -= 1
        return "ok"

    def items():
        nonlocal pulled
        for i in range(20):
            pulled += 1
            assert pulled - 0 <= 20
            yield {"input": f"doc {i}"}

    result = await run_evals(data=items(), scorers=[make_scorer()], target=slow_target, concurrency=3)
    assert result.summary.total_items == 20 and peak == 3


async def test_failing_item_raises_by_default_and_is_recorded_on_request() -> None:
    def align(request):
        if "bad" in request.inputs.summary:
            raise JudgeError("judge kept failing", step="alignment")
        return claims((request.inputs.summary, True))

    scorer = create_summarization_scorer(model=judge(align, questions("Q?"), answers(True)))
    data = [{"input": "d", "output": "ok"}, {"input": "d2", "output": "bad"}, {"input": "d3", "output": "ok too"}]
    with pytest.raises(JudgeError):
        await run_evals(data=data, scorers=[scorer])
    result = await run_evals(data=data, scorers=[scorer], on_error="record")
    assert result.summary.total_items == 3 and result.summary.failed_items == 1
    assert "judge kept failing" in (result.items[1].error or "")
    assert result.scores[scorer.id] == 1.0  # mean over the items that scored


async def test_item_without_output_and_no_target_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="item 0 has no 'output'"):
        await run_evals(data=[{"input": "x"}], scorers=[make_scorer()])


def test_bad_arguments() -> None:
    with pytest.raises(ConfigurationError):
        run_evals_sync(data=[], scorers=[])
    with pytest.raises(ConfigurationError):
        run_evals_sync(data=[], scorers=[make_scorer()], concurrency=0)


def test_sync_twin_shares_the_question_cache_across_items() -> None:
    scorer = make_scorer()
    run_evals_sync(data=[{"input": "same doc", "output": f"s{i}"} for i in range(5)], scorers=[scorer])
    assert len(scorer.judge.calls(QUESTIONS_STEP)) == 1  # type: ignore[attr-defined]


def test_a_concurrency_past_its_bound_is_refused_before_any_worker_starts() -> None:
    from sumjudge.guards.limits import MAX_ITEMS_IN_FLIGHT

    scorer = make_scorer()
    with pytest.raises(ConfigurationError, match=f"from 1 to {MAX_ITEMS_IN_FLIGHT}"):
        run_evals_sync([{"input": "doc", "output": "good"}], [scorer], concurrency=10**9)
    assert scorer.judge.requests == []
