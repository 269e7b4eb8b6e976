"""Re-asks stay within the judge's context window, over real HTTP (no request over the budget).

The bundled server refuses any request over its ``context_limit`` (HTTP 400, ``context_length_exceeded``)
and records the largest it saw. A request sized just under the window draws a long malformed first reply:
re-asking with that reply echoed back would go over the window, so the judge re-asks in a form that fits
(the correction alone after the first request, or the first request again) and gets a valid verdict.
"""

from __future__ import annotations

import asyncio

import pytest

from sumjudge.errors import ContextOverflowError
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.budget import TokenBudget
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization import prompts
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput
from sumjudge.testing.judge_server import JudgeServer

WINDOW = 2048
REPLY_ROOM = 200
SUMMARY = "The council approved the new budget on Tuesday."
MALFORMED = "I think the summary is mostly right, but let me explain at length. " * 58  # ~3,900 chars, not JSON


def sentence(i: int) -> str:
    return f"The committee met for session number {i} and discussed the budget, the roads and the schools."


def alignment_request(n_sentences: int) -> JudgeRequest[AlignmentOutput]:
    source = " ".join(sentence(i) for i in range(n_sentences))
    return JudgeRequest(
        step=ALIGNMENT_STEP,
        messages=prompts.alignment_messages(source, SUMMARY),
        output_type=AlignmentOutput,
        inputs=StepInputs(source=source, summary=SUMMARY),
        reply_tokens=REPLY_ROOM,
    )


def just_under_the_window(budget: TokenBudget) -> JudgeRequest[AlignmentOutput]:
    """The longest alignment request that still fits the window with its reply room."""
    n = 1
    while budget.fits(alignment_request(n + 1)):
        n += 1
    request = alignment_request(n)
    assert budget.request_tokens(request) + REPLY_ROOM > WINDOW - 40  # just under: one more sentence does not fit
    return request


def config_for(server: JudgeServer, **kw: object) -> ModelConfig:
    return ModelConfig(
        id="openai/test-model", base_url=server.base_url, api_key="t", context_window=WINDOW, max_reasks=2, **kw
    )


@pytest.mark.parametrize("refuse", [{}, {"json_schema": 500}], ids=["json_schema", "fallback-to-schema-in-prompt"])
def test_a_malformed_reply_near_the_window_is_reasked_within_it(refuse: dict[str, int]) -> None:
    with JudgeServer(context_limit=WINDOW, refuse=refuse) as server:
        judge = resolve_judge(config_for(server))
        request = just_under_the_window(TokenBudget.of(judge))
        server.script(MALFORMED, step=ALIGNMENT_STEP)

        try:
            reply = asyncio.run(judge.generate(request))
        except ContextOverflowError as exc:  # the other acceptable outcome: a clear error naming the sizes
            assert str(WINDOW) in str(exc) and "tokens" in str(exc)
            reply = None

        assert server.context.over_limit == 0, "a request over the server's context limit was sent"
        assert 0 < server.context.largest_request <= WINDOW
        answered = [r for r in server.chat_requests() if r.structured_form != "json_schema" or not refuse]
        assert reply is not None and reply.output.alignment, "a valid verdict after the re-ask"
        assert len(answered) == 2  # the first ask and one re-ask
        reask = answered[1].prompt
        assert MALFORMED[:200] not in reask  # the echo would not fit: it was left out
        assert reply.usage.calls == 2


def test_the_reask_keeps_the_bad_reply_when_the_window_has_room() -> None:
    with JudgeServer(context_limit=WINDOW) as server:
        judge = resolve_judge(config_for(server))
        server.script("not json at all", step=ALIGNMENT_STEP)
        reply = asyncio.run(judge.generate(alignment_request(3)))
        assert reply.output.alignment
        first, reask = server.chat_requests()
        assert "not json at all" in reask.prompt and "not valid JSON" in reask.prompt
        assert reask.prompt.startswith(first.prompt[:200])


def test_a_request_over_the_window_is_never_sent() -> None:
    with JudgeServer(context_limit=WINDOW) as server:
        judge = resolve_judge(config_for(server))
        too_long = alignment_request(200)
        with pytest.raises(ContextOverflowError) as caught:
            asyncio.run(judge.generate(too_long))
        message = str(caught.value)
        assert f"takes {WINDOW}" in message and f"+ {REPLY_ROOM} reserved for the reply" in message
        assert server.chat_requests() == []


def test_a_max_tokens_that_does_not_fit_the_window_is_refused_before_sending() -> None:
    with JudgeServer(context_limit=WINDOW) as server:
        judge = resolve_judge(config_for(server, max_output_tokens=WINDOW))
        with pytest.raises(ContextOverflowError, match=f"\\+ {WINDOW} reserved for the reply"):
            asyncio.run(judge.generate(alignment_request(3)))
        assert server.chat_requests() == []
