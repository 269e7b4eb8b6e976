"""The Anthropic judge against a Messages API test server on 127.0.0.1 (real HTTP, the official SDK)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.errors import (
    JudgeOutputError,
    JudgeRequestError,
    JudgeUnavailableError,
    MissingAPIKeyError,
    MissingDependencyError,
)
from sumjudge.judges.anthropic import AnthropicJudge
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.registry import PROVIDERS, resolve_judge
from sumjudge.summarization import prompts
from sumjudge.summarization.verdicts import QuestionsOutput
from sumjudge.testing.anthropic_server import AnthropicFault, AnthropicServer

pytestmark = pytest.mark.integration

SOURCE = "The council voted 7 to 2 to build a library. It will cost 12 million dollars and open in 2027."
SUMMARY = "The council approved a 12 million dollar library."


@pytest.fixture
def server() -> Iterator[AnthropicServer]:
    with AnthropicServer(api_key="test-key") as srv:
        yield srv


def _judge(server: AnthropicServer, **kw: Any) -> AnthropicJudge:
    sleeps: list[float] = []

    async def no_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    config = ModelConfig(id="anthropic/claude-test", base_url=server.url, api_key="test-key", **kw)
    judge = AnthropicJudge(PROVIDERS["anthropic"], "claude-test", config, sleep=no_sleep)
    judge.sleeps = sleeps  # type: ignore[attr-defined]
    return judge


def _questions_request() -> JudgeRequest[QuestionsOutput]:
    return JudgeRequest(
        step="questions",
        messages=prompts.questions_messages(SOURCE, 4),
        output_type=QuestionsOutput,
        inputs=StepInputs(source=SOURCE, max_questions=4),
    )


async def test_scores_through_a_forced_tool_call(server: AnthropicServer) -> None:
    scorer = create_summarization_scorer(model=_judge(server), options={"max_questions": 4})
    result = await scorer.run(input=SOURCE, output=SUMMARY)

    assert len(result.preprocess_step_result.alignment) == 3
    assert len(result.analyze_step_result.coverage) == len(result.preprocess_step_result.questions) == 4
    assert result.score == 1.0
    assert result.usage.calls == 3
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0

    for req in server.message_requests():
        body = req.body
        # The key travels as x-api-key (SDK 0.x) or a bearer token (newer SDKs).
        assert "test-key" in (req.headers.get("x-api-key"), req.headers.get("authorization", "").removeprefix("Bearer "))
        assert "anthropic-version" in req.headers
        [tool] = body["tools"]
        assert body["tool_choice"] == {"type": "tool", "name": tool["name"]}
        schema = tool["input_schema"]
        assert schema["type"] == "object" and len(schema["properties"]) == 1
        assert schema["additionalProperties"] is False
        # The system prompt is its own parameter, never a message.
        assert "evaluator" in body["system"]
        assert {m["role"] for m in body["messages"]} == {"user"}
        assert "temperature" not in body  # newer Claude models refuse it; sent only when set
        assert body["max_tokens"] > 0
    coverage = server.message_requests(step="coverage")
    assert SOURCE not in coverage[0].text  # the coverage call never sees the source


@pytest.mark.parametrize(
    "fault",
    [
        AnthropicFault.rate_limit(retry_after=3),
        AnthropicFault.overloaded(),
        AnthropicFault.api_error(),
        AnthropicFault.drop(),
    ],
    ids=["429", "529", "500", "dropped"],
)
async def test_transient_failures_are_retried(server: AnthropicServer, fault: Any) -> None:
    judge = _judge(server)
    server.script(fault, fault)
    reply = await judge.generate(_questions_request())
    assert isinstance(reply.output, QuestionsOutput)
    assert len(server.message_requests()) == 3
    assert len(judge.sleeps) == 2  # two waits, through our retry loop (the SDK's own retries are off)
    if fault.status == 429:
        assert all(s >= 3 for s in judge.sleeps)  # Retry-After honoured
    assert reply.usage.calls == 1  # failed requests are not billed calls


async def test_transient_failures_stop_at_the_retry_budget(server: AnthropicServer) -> None:
    judge = _judge(server, max_retries=2)
    server.script(*[AnthropicFault.overloaded()] * 5)
    with pytest.raises(JudgeUnavailableError, match="overloaded"):
        await judge.generate(_questions_request())
    assert len(server.message_requests()) == 3


async def test_a_wrong_key_fails_at_once_naming_the_status(server: AnthropicServer) -> None:
    config = ModelConfig(id="anthropic/claude-test", base_url=server.url, api_key="wrong")
    judge = AnthropicJudge(PROVIDERS["anthropic"], "claude-test", config)
    with pytest.raises(JudgeRequestError) as err:
        await judge.generate(_questions_request())
    assert err.value.status == 401
    assert "authentication_error" in str(err.value)
    assert len(server.message_requests()) == 1


async def test_malformed_tool_input_is_re_asked_with_the_error(server: AnthropicServer) -> None:
    judge = _judge(server)
    server.script(AnthropicFault.tool_input({"questions": "Did the council vote?"}))
    reply = await judge.generate(_questions_request())
    assert reply.output.questions  # the second answer, from the brain
    first, second = server.message_requests()
    assert reply.usage.calls == 2
    followup = second.body["messages"]
    assert [m["role"] for m in followup] == ["user", "assistant", "user"]
    assert "questions" in followup[-1]["content"] and "schema" in followup[-1]["content"]


async def test_malformed_every_time_fails_with_step_and_what_came_back(server: AnthropicServer) -> None:
    judge = _judge(server, max_reasks=1)
    server.script(*[AnthropicFault.tool_input({"questions": [1, {"x": 2}]})] * 2)
    with pytest.raises(JudgeOutputError) as err:
        await judge.generate(_questions_request())
    assert err.value.step == "questions"
    assert '"x": 2' in (err.value.returned or "")
    assert len(server.message_requests()) == 2


async def test_a_cut_off_tool_input_is_re_asked(server: AnthropicServer) -> None:
    judge = _judge(server)
    server.script(AnthropicFault.truncated())
    reply = await judge.generate(_questions_request())
    assert reply.output.questions
    second = server.message_requests()[1].body["messages"][-1]["content"]
    assert "cut off" in second


async def test_a_reply_without_the_tool_call_is_read_from_text_or_re_asked(server: AnthropicServer) -> None:
    judge = _judge(server)
    server.script(AnthropicFault.text_only('{"questions": ["Did the council vote 7 to 2?"]}'))
    reply = await judge.generate(_questions_request())
    assert reply.output.questions == ["Did the council vote 7 to 2?"]

    server.script(AnthropicFault.text_only("Sure! Here are some questions."))
    reply = await judge.generate(_questions_request())
    assert reply.usage.calls == 2


def test_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(MissingAPIKeyError, match="ANTHROPIC_API_KEY"):
        resolve_judge("anthropic/claude-test")


async def test_key_and_base_url_come_from_the_environment(
    server: AnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    judge = resolve_judge("anthropic/claude-test")
    reply = await judge.generate(_questions_request())
    assert reply.output.questions
    assert server.message_requests()[0].body["model"] == "claude-test"


async def test_an_explicit_temperature_is_sent(server: AnthropicServer) -> None:
    await _judge(server, temperature=0.0).generate(_questions_request())
    assert server.message_requests()[0].body["temperature"] == 0.0


async def test_extra_headers_are_sent(server: AnthropicServer) -> None:
    judge = _judge(server, headers={"anthropic-beta": "test-beta"})
    await judge.generate(_questions_request())
    assert server.message_requests()[0].headers["anthropic-beta"] == "test-beta"


def test_missing_sdk_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    with pytest.raises(MissingDependencyError, match=r"pip install 'sumjudge\[anthropic\]'"):
        resolve_judge("anthropic/claude-test")


def test_run_sync_reuses_the_judge_across_event_loops(server: AnthropicServer) -> None:
    scorer = create_summarization_scorer(model=_judge(server))
    first = scorer.run_sync(input=SOURCE, output=SUMMARY)
    second = scorer.run_sync(input=SOURCE + " More.", output=SUMMARY)
    assert first.score == second.score == 1.0


async def test_the_source_block_is_marked_for_the_prompt_cache_and_cache_tokens_are_read(
    server: AnthropicServer,
) -> None:
    scorer = create_summarization_scorer(model=_judge(server), options={"max_questions": 2})
    first = await scorer.run(input=SOURCE, output=SUMMARY)
    second = await scorer.run(input=SOURCE, output="The council voted 7 to 2.")
    (a1, a2) = server.message_requests(step="alignment")
    blocks = a1.body["messages"][0]["content"]
    assert isinstance(blocks, list) and blocks[0]["cache_control"] == {"type": "ephemeral"}
    assert SOURCE in blocks[0]["text"] and SUMMARY not in blocks[0]["text"] and SUMMARY in blocks[1]["text"]
    assert first.usage.cache_write_tokens > 0 and first.usage.cached_tokens == 0
    assert second.usage.cached_tokens == first.usage.cache_write_tokens > 0
    assert second.usage.prompt_tokens >= second.usage.cached_tokens  # prompt tokens count the cached ones


async def test_max_tokens_stays_within_the_window_and_above_the_reply_room(server: AnthropicServer) -> None:
    from sumjudge.judges.budget import TokenBudget

    # 200,000 tokens (Claude's window): the default 4096
    await _judge(server).generate(_questions_request())
    assert server.message_requests()[-1].body["max_tokens"] == 4096
    # a small window: what the prompt (and Anthropic's tool-use system prompt) leaves, at least the reply room
    judge = _judge(server, context_window=2048)
    request = JudgeRequest(
        step="questions",
        messages=prompts.questions_messages(SOURCE * 12, 4),
        output_type=QuestionsOutput,
        inputs=StepInputs(source=SOURCE * 12, max_questions=4),
        reply_tokens=300,
    )
    await judge.generate(request)
    sent = server.message_requests()[-1].body["max_tokens"]
    prompt = TokenBudget.of(judge).request_tokens(request)
    assert 300 <= sent < 4096 and prompt + sent <= 2048
