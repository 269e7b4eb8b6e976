"""The summarization scorer through the OpenAI-compatible judge, over real HTTP.

Asserts what was sent: who sees what, how many calls, the question cap, the one re-ask on a
verdict count mismatch, and texts in any language passing through unchanged.
"""

from __future__ import annotations

import json

import pytest

from sumjudge import ModelConfig, SummarizationOptions, create_summarization_scorer
from sumjudge.testing.judge_server import Fault, JudgeServer, SummarizationBrain

SOURCE = (
    "The Orbis 3 telescope was launched on 12 March 2024 from Kourou. It cost 410 million euros. "
    "Its mirror is 2.4 metres wide. It will map dust clouds in the Milky Way for five years."
)
SUMMARY = "Orbis 3, a 410-million-euro telescope with a 2.4 m mirror, launched in March 2024."


def scorer_for(server, **options):
    model = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test")
    return create_summarization_scorer(model=model, options=SummarizationOptions(**options) if options else None)


@pytest.fixture
def server():
    with JudgeServer(SummarizationBrain(claims=3, unsupported=1, questions=4, unanswered=1)) as s:
        yield s


async def test_a_fresh_evaluation_is_three_calls_and_each_sees_only_its_texts(server):
    scorer = scorer_for(server)
    result = await scorer.run(input=SOURCE, output=SUMMARY)
    calls = server.chat_requests()
    assert len(calls) == 3
    assert sorted(r.step for r in calls) == ["alignment", "coverage", "questions"]
    (alignment,) = server.chat_requests("alignment")
    (questions,) = server.chat_requests("questions")
    (coverage,) = server.chat_requests("coverage")
    assert SOURCE in alignment.prompt and SUMMARY in alignment.prompt
    assert SOURCE in questions.prompt and SUMMARY not in questions.prompt
    assert SUMMARY in coverage.prompt and SOURCE not in coverage.prompt
    for sentence in SOURCE.split(". "):  # not even a part of the source reaches coverage
        assert sentence.rstrip(".") not in coverage.prompt
    # the brain's answers make the score: 2 of 3 claims supported, 3 of 4 questions answered
    assert result.alignment_score == pytest.approx(2 / 3)
    assert result.coverage_score == pytest.approx(3 / 4)
    assert result.score == 0.67
    # usage is the sum of what the server reported
    assert result.usage.calls == 3
    assert result.usage.prompt_tokens == server.usage["prompt_tokens"]
    assert result.usage.completion_tokens == server.usage["completion_tokens"]


async def test_questions_are_cached_so_a_second_summary_costs_two_calls(server):
    scorer = scorer_for(server)
    await scorer.run(input=SOURCE, output=SUMMARY)
    server.reset()
    await scorer.run(input=SOURCE, output="Orbis 3 launched from Kourou in 2024.")
    assert sorted(r.step for r in server.chat_requests()) == ["alignment", "coverage"]


async def test_at_most_max_questions_reach_the_coverage_call():
    with JudgeServer(SummarizationBrain(questions=12)) as s:
        result = await scorer_for(s, max_questions=5).run(input=SOURCE, output=SUMMARY)
        (coverage,) = s.chat_requests("coverage")
        asked = SummarizationBrain.questions_in(coverage)
        assert asked == [f"Does the source state fact {i}?" for i in range(1, 6)]
        assert "fact 6?" not in coverage.prompt
        assert len(result.preprocess_step_result.questions) == 5
        assert len(result.analyze_step_result.coverage) == 5


async def test_a_wrong_verdict_count_causes_exactly_one_reask(server):
    server.script(Fault.wrong_count(-1), step="coverage")
    result = await scorer_for(server).run(input=SOURCE, output=SUMMARY)
    coverage_calls = server.chat_requests("coverage")
    assert len(coverage_calls) == 2
    reask = coverage_calls[1]
    said = json.loads(reask.messages[-2]["content"])
    assert reask.messages[-2]["role"] == "assistant" and len(said["coverage"]) == 3
    assert reask.messages[-1]["role"] == "user"
    assert len(result.analyze_step_result.coverage) == 4
    assert len(server.chat_requests()) == 4


async def test_a_wrong_count_twice_is_not_asked_a_third_time(server):
    server.script(Fault.wrong_count(-2), Fault.wrong_count(+1), step="coverage")
    result = await scorer_for(server).run(input=SOURCE, output=SUMMARY)
    assert len(server.chat_requests("coverage")) == 2
    assert len(result.analyze_step_result.coverage) == 4  # extras dropped, denominator = questions asked


async def test_faults_on_the_way_still_give_the_same_score(server):
    server.script(Fault.rate_limit(retry_after=0), step="alignment")
    server.script(Fault.server_error(503), Fault.invalid_json(), step="questions")
    server.script(Fault.truncated(), step="coverage")
    result = await scorer_for(server).run(input=SOURCE, output=SUMMARY)
    assert result.score == 0.67
    assert server.pending() == 0
    # the invalid and the truncated replies were paid for, and counted
    assert result.usage.calls == 5


async def test_korean_source_and_summary_go_through_byte_for_byte(server):
    source = (
        "서울특별시는 대한민국의 수도이며 인구는 약 940만 명이다. 한강이 도시를 가로질러 흐른다. "
        "1988년에 하계 올림픽을 개최했다."
    )
    summary = "서울은 한국의 수도로, 인구가 약 940만 명이고 1988년 올림픽을 열었다."
    result = await scorer_for(server).run(input=source, output=summary)
    assert result.score > 0
    (alignment,) = server.chat_requests("alignment")
    (questions,) = server.chat_requests("questions")
    (coverage,) = server.chat_requests("coverage")
    for request, texts in ((alignment, [source, summary]), (questions, [source]), (coverage, [summary])):
        sent = request.text  # the bytes on the wire, decoded as UTF-8
        decoded = json.loads(sent)
        joined = "\n".join(m["content"] for m in decoded["messages"])
        for text in texts:
            assert text in joined
            assert text.encode("utf-8") in request.raw  # raw UTF-8, not re-encoded or escaped
    assert summary not in questions.prompt and source not in coverage.prompt


async def test_an_empty_summary_spends_no_calls(server):
    result = await scorer_for(server).run(input=SOURCE, output="   ")
    assert result.score == 0 and server.chat_requests() == []


def test_run_sync_twice_reuses_the_judge_across_fresh_loops(server):
    scorer = scorer_for(server)
    a = scorer.run_sync(input=SOURCE, output=SUMMARY)
    b = scorer.run_sync(input=SOURCE, output=SUMMARY)
    assert a.score == b.score == 0.67
    assert len(server.chat_requests()) == 5  # 3 + 2 (questions cached)
