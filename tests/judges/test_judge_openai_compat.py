"""OpenAICompatJudge over real HTTP against the bundled test server on 127.0.0.1.

Every fault the issue names: healed by a retry, or failed at once with a clear message.
Sleeps are injected (nothing waits for a Retry-After for real).
"""

from __future__ import annotations

import base64

import asyncio
import json
import threading
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

import pytest

from sumjudge.errors import JudgeOutputError, JudgeRequestError, JudgeUnavailableError, MissingAPIKeyError
from sumjudge.judges.base import ChatMessage, JudgeRequest, ModelConfig
from sumjudge.judges.openai_compat import PLACEHOLDER_API_KEY, OpenAICompatJudge
from sumjudge.judges.registry import PROVIDERS, resolve_judge
from sumjudge.summarization.verdicts import AlignmentOutput, CoverageOutput, QuestionsOutput
from sumjudge.testing.judge_server import LLAMA_CPP_REFUSAL, Fault, JudgeServer, Reply


@pytest.fixture
def server():
    with JudgeServer() as s:
        yield s


class Sleeps:
    """An injected sleep: records what the judge would wait, waits nothing."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def make_judge(server, provider="openai", sleeps=None, **config):
    config.setdefault("api_key", "test")
    config.setdefault("timeout", 5)
    cfg = ModelConfig(id=f"{provider}/test-model", base_url=server.base_url, **config)
    return OpenAICompatJudge(PROVIDERS[provider], "test-model", cfg, sleep=sleeps or Sleeps())


def questions_request(text="The source text."):
    return JudgeRequest(
        step="questions",
        messages=[ChatMessage(role="system", content="You write questions."), ChatMessage(role="user", content=text)],
        output_type=QuestionsOutput,
    )


def ask(judge, request=None):
    return judge.generate(request or questions_request())


# -- a healthy call --------------------------------------------------------------------------------


async def test_a_call_sends_strict_json_schema_temperature_0_and_records_usage(server):
    judge = make_judge(server)
    reply = await ask(judge)
    assert reply.output.questions[0] == "Does the source state fact 1?"
    (sent,) = server.chat_requests()
    body = sent.body
    assert body["model"] == "test-model" and judge.model_id == "openai/test-model"
    assert body["temperature"] == 0
    rf = body["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
    assert rf["json_schema"]["schema"]["required"] == ["questions"]
    assert rf["json_schema"]["schema"]["additionalProperties"] is False
    assert sent.headers["authorization"] == "Bearer test"
    # usage is what the server reported for that one call
    assert reply.usage.calls == 1
    assert reply.usage.prompt_tokens == server.usage["prompt_tokens"] > 0
    assert reply.usage.completion_tokens == server.usage["completion_tokens"] > 0


async def test_temperature_max_tokens_and_extra_headers_are_sent(server):
    judge = make_judge(server, temperature=0.3, max_output_tokens=321, headers={"X-Team": "evals"})
    await ask(judge)
    (sent,) = server.chat_requests()
    # OpenAI's own API takes the cap as max_completion_tokens (o-series and newer models reject max_tokens)
    assert sent.body["temperature"] == 0.3 and sent.body["max_completion_tokens"] == 321
    assert "max_tokens" not in sent.body
    assert sent.headers["x-team"] == "evals"


# -- faults that heal -------------------------------------------------------------------------------


async def test_429_is_retried_after_the_seconds_of_retry_after(server):
    sleeps = Sleeps()
    server.script(Fault.rate_limit(retry_after=7))
    reply = await ask(make_judge(server, sleeps=sleeps))
    assert reply.output.questions
    assert len(server.chat_requests()) == 2
    assert len(sleeps.waits) == 1 and sleeps.waits[0] >= 7


async def test_429_with_an_http_date_retry_after(server):
    sleeps = Sleeps()
    when = datetime.now(timezone.utc) + timedelta(seconds=40)
    server.script(Fault.rate_limit(retry_after=format_datetime(when, usegmt=True)))
    await ask(make_judge(server, sleeps=sleeps))
    assert 30 <= sleeps.waits[0] <= 41


@pytest.mark.parametrize("status", [500, 502, 503])
async def test_5xx_is_retried(server, status):
    server.script(Fault.server_error(status), Fault.server_error(status))
    reply = await ask(make_judge(server))
    assert reply.output.questions and len(server.chat_requests()) == 3


async def test_a_hang_past_the_timeout_is_retried(server):
    server.script(Fault.hang(10))
    reply = await ask(make_judge(server, timeout=0.3))
    assert reply.output.questions and len(server.chat_requests()) == 2


async def test_a_dropped_connection_is_retried(server):
    server.script(Fault.drop())
    reply = await ask(make_judge(server))
    assert reply.output.questions and len(server.chat_requests()) == 2


async def test_transient_failures_give_up_after_max_retries(server):
    server.script(*[Fault.server_error(503, "overloaded")] * 5)
    with pytest.raises(JudgeUnavailableError) as info:
        await ask(make_judge(server, max_retries=2))
    assert len(server.chat_requests()) == 3
    assert "503" in str(info.value) and "overloaded" in str(info.value)
    assert info.value.step == "questions"


async def test_a_server_that_is_not_there_is_unavailable_not_a_crash():
    with JudgeServer() as gone:
        url = gone.base_url
    cfg = ModelConfig(id="openai/test-model", base_url=url, api_key="k", max_retries=1)
    judge = OpenAICompatJudge(PROVIDERS["openai"], "test-model", cfg, sleep=Sleeps())
    with pytest.raises(JudgeUnavailableError, match="connection"):
        await ask(judge)


# -- faults that never heal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (400, "Invalid value for 'messages'"),
        (401, "Incorrect API key provided"),
        (403, "You are not allowed to use this model"),
        (404, "The model `test-model` does not exist"),
    ],
)
async def test_non_retryable_statuses_fail_at_once_with_status_and_message(server, status, message):
    sleeps = Sleeps()
    server.script(Fault.status(status, message))
    with pytest.raises(JudgeRequestError) as info:
        await ask(make_judge(server, sleeps=sleeps))
    assert len(server.chat_requests()) == 1 and sleeps.waits == []
    assert info.value.status == status
    assert str(status) in str(info.value) and message in str(info.value)


async def test_wrong_key_is_a_401_from_the_server():
    with JudgeServer(api_key="right") as s:
        with pytest.raises(JudgeRequestError, match="401"):
            await ask(make_judge(s, api_key="wrong"))
        assert (await ask(make_judge(s, api_key="right"))).output.questions


async def test_unknown_model_is_a_404_naming_the_model():
    with JudgeServer(models={"other-model"}) as s:
        with pytest.raises(JudgeRequestError) as info:
            await ask(make_judge(s))
    assert info.value.status == 404 and "test-model" in str(info.value)


# -- replies that are not the object asked for ------------------------------------------------------


async def test_invalid_json_is_reasked_with_the_error_and_usage_covers_both_calls(server):
    server.script(Fault.invalid_json("Sure! Here are questions: [oops"))
    reply = await ask(make_judge(server))
    assert reply.output.questions
    first, second = server.chat_requests()
    assert second.messages[-2] == {"role": "assistant", "content": "Sure! Here are questions: [oops"}
    assert "not valid JSON" in second.messages[-1]["content"]
    assert reply.usage.calls == 2
    assert reply.usage.prompt_tokens == server.usage["prompt_tokens"]
    assert reply.usage.completion_tokens == server.usage["completion_tokens"]


async def test_truncated_reply_is_reasked(server):
    server.script(Fault.truncated())
    reply = await ask(make_judge(server))
    assert reply.output.questions
    second = server.chat_requests()[1]
    assert "cut off" in second.messages[-1]["content"]


async def test_schema_mismatch_is_reasked_naming_the_field(server):
    server.script(Reply(content={"alignment": [{"claim": "c", "supported": "perhaps", "reason": "r"}]}))
    request = JudgeRequest(step="alignment", messages=[ChatMessage(role="user", content="x")], output_type=AlignmentOutput)
    reply = await make_judge(server).generate(request)
    assert reply.output.alignment
    assert "alignment.0.supported" in server.chat_requests()[1].messages[-1]["content"]


async def test_output_that_stays_invalid_fails_with_what_came_back(server):
    server.script(*[Fault.invalid_json("no JSON here")] * 3)
    with pytest.raises(JudgeOutputError) as info:
        await ask(make_judge(server, max_reasks=2))
    assert len(server.chat_requests()) == 3
    assert info.value.step == "questions" and info.value.returned == "no JSON here"


async def test_a_reply_in_a_json_fence_is_accepted(server):
    server.script('```json\n{"questions": ["Is it?"]}\n```')
    reply = await ask(make_judge(server))
    assert reply.output.questions == ["Is it?"] and len(server.chat_requests()) == 1


# -- structured-output forms and the fallback -------------------------------------------------------


async def test_refused_json_schema_falls_back_without_spending_retries():
    # llama-cpp-python's server answers json_schema with HTTP 500 and a validation message.
    with JudgeServer(refuse={"json_schema": 500}) as s:
        judge = make_judge(s, max_retries=0)
        reply = await ask(judge)
        assert reply.output.questions
        refused, accepted = s.chat_requests()
        assert refused.structured_form == "json_schema"
        assert accepted.structured_form == "json_object_schema"
        assert accepted.body["response_format"]["schema"]["required"] == ["questions"]
        # remembered for this judge: the next call goes straight to the form that works
        await ask(judge)
        assert [r.structured_form for r in s.chat_requests()][2:] == ["json_object_schema"]
        assert judge.structured_mode == "json_object_schema"
        # ...and only for this judge
        fresh = make_judge(s)
        assert fresh.structured_mode == "json_schema"


async def test_fallback_down_to_json_mode_with_the_schema_in_the_prompt():
    with JudgeServer(refuse={"json_schema": 400, "json_object_schema": 400}) as s:
        reply = await ask(make_judge(s, max_retries=0))
        forms = [r.structured_form for r in s.chat_requests()]
        assert forms == ["json_schema", "json_object_schema", "json_object"]
        assert reply.output.questions
        last = s.chat_requests()[-1]
        system = last.messages[0]["content"]
        assert system.startswith("You write questions.") and '"questions"' in system and "JSON" in system


async def test_a_400_about_something_else_does_not_fall_back(server):
    server.script(Fault.status(400, "This model's maximum context length is 8192 tokens"))
    judge = make_judge(server)
    with pytest.raises(JudgeRequestError, match="maximum context length"):
        await ask(judge)
    assert len(server.chat_requests()) == 1 and judge.structured_mode == "json_schema"


async def test_a_500_without_a_refusal_is_retried_not_a_fallback(server):
    server.script(Fault.server_error(500, "CUDA out of memory"))
    judge = make_judge(server)
    await ask(judge)
    assert judge.structured_mode == "json_schema"
    assert [r.structured_form for r in server.chat_requests()] == ["json_schema", "json_schema"]


async def test_llamacpp_provider_asks_with_json_object_and_schema(server):
    judge = make_judge(server, provider="llamacpp", api_key=None)
    await ask(judge)
    (sent,) = server.chat_requests()
    assert sent.body["response_format"] == {"type": "json_object", "schema": sent.schema}
    assert sent.schema["required"] == ["questions"]


async def test_grammar_servers_get_a_bounded_schema_with_one_verdict_per_question(server):
    from sumjudge.judges.base import ReplyBounds, StepInputs

    judge = make_judge(server, provider="llamacpp", api_key=None)
    qs = ["Q1?", "Q2?", "Q3?"]
    request = JudgeRequest(
        step="coverage",
        messages=[ChatMessage(role="user", content="Answer from the summary.")],
        output_type=CoverageOutput,
        inputs=StepInputs(summary="A summary.", questions=qs),
        bounds=ReplyBounds.exactly(len(qs)),
    )
    await judge.generate(request)
    (sent,) = server.chat_requests()
    grammar = sent.body["response_format"]["schema"]
    assert grammar["properties"]["coverage"]["minItems"] == grammar["properties"]["coverage"]["maxItems"] == 3
    item = grammar["properties"]["coverage"]["items"]["properties"]
    assert item["reason"]["maxLength"] == 400
    # a strict json_schema server gets the schema as pydantic states it: no bounds it may refuse
    strict = make_judge(server)
    await strict.generate(request)
    sent_strict = server.chat_requests()[-1].body["response_format"]["json_schema"]["schema"]
    assert "maxItems" not in sent_strict["properties"]["coverage"]


async def test_the_scorer_states_each_steps_bounds_and_the_grammar_server_gets_them(server):
    from sumjudge import create_summarization_scorer

    judge = make_judge(server, provider="llamacpp", api_key=None)
    await create_summarization_scorer(model=judge, options={"max_questions": 6}).run(
        input="The council approved 42 homes. Work starts in May.", output="The council approved homes."
    )

    def top(step):
        (sent,) = server.chat_requests(step=step)
        arr = sent.body["response_format"]["schema"]["properties"][step]
        return arr["minItems"], arr["maxItems"]

    assert top("alignment") == (1, 40)  # at least one claim; the judge's own cap above
    assert top("questions") == (1, 6)  # at most max_questions
    assert top("coverage") == (4, 4)  # one verdict per question the brain wrote


async def test_the_one_shot_refusal_fault_is_like_llama_cpp(server):
    server.script(Fault.refuse_json_schema())
    judge = make_judge(server, max_retries=0)
    await ask(judge)
    assert judge.structured_mode == "json_object_schema"
    assert LLAMA_CPP_REFUSAL.startswith("1 validation error")


# -- keys, base URLs and providers ------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["openai", "groq", "mistral", "openrouter"])
def test_a_hosted_provider_without_a_key_fails_at_construction_naming_the_variable(monkeypatch, provider):
    var = f"{provider.upper()}_API_KEY"
    monkeypatch.delenv(var, raising=False)
    with pytest.raises(MissingAPIKeyError) as info:
        resolve_judge(f"{provider}/some-model")
    assert var in str(info.value)


def test_the_key_comes_from_the_provider_variable(monkeypatch, server):
    monkeypatch.setenv("GROQ_API_KEY", "gsk-from-env")
    monkeypatch.setenv("GROQ_BASE_URL", server.base_url)
    judge = resolve_judge("groq/test-model")
    asyncio.run(ask(judge))
    (sent,) = server.chat_requests()
    assert sent.headers["authorization"] == "Bearer gsk-from-env"
    assert judge.model_id == "groq/test-model"


@pytest.mark.parametrize("provider", ["ollama", "vllm", "llamacpp", "lmstudio"])
def test_local_servers_need_no_key(monkeypatch, server, provider):
    monkeypatch.delenv(f"{provider.upper()}_API_KEY", raising=False)
    monkeypatch.setenv(f"{provider.upper()}_BASE_URL", server.base_url)
    judge = resolve_judge(f"{provider}/test-model")
    asyncio.run(ask(judge))
    (sent,) = server.chat_requests()
    assert sent.headers["authorization"] == f"Bearer {PLACEHOLDER_API_KEY}"


def test_default_base_urls_come_from_the_registry(monkeypatch):
    monkeypatch.delenv("OLLAMA_BASE_URL", raising=False)
    judge = resolve_judge("ollama/qwen2.5")
    assert judge.base_url == "http://localhost:11434/v1"


# -- concurrency and event loops --------------------------------------------------------------------


async def test_many_concurrent_calls_share_one_judge(server):
    judge = make_judge(server)
    replies = await asyncio.gather(*(ask(judge, questions_request(f"text {i}")) for i in range(20)))
    assert len(replies) == 20 and all(r.output.questions for r in replies)
    assert len(server.chat_requests()) == 20
    assert len(judge._clients) == 0  # the loop's client was closed with the last call


def test_one_judge_serves_fresh_event_loops_and_threads(server):
    judge = make_judge(server)
    assert asyncio.run(ask(judge)).output.questions
    assert asyncio.run(ask(judge)).output.questions  # a second loop: no 'attached to a different loop'
    errors: list[BaseException] = []

    def in_thread(i):
        try:
            asyncio.run(ask(judge, questions_request(f"thread {i}")))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=in_thread, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(server.chat_requests()) == 6
    assert len(judge._clients) == 0


async def test_non_ascii_text_goes_through_unchanged(server):
    korean = "서울의 인구는 약 940만 명이다. \"따옴표\"와 이모지 🙂도 그대로."
    await ask(make_judge(server), questions_request(korean))
    (sent,) = server.chat_requests()
    assert sent.messages[1]["content"] == korean
    assert korean in json.loads(sent.raw.decode("utf-8"))["messages"][1]["content"]


async def test_coverage_schema_round_trip(server):
    request = JudgeRequest(
        step="coverage",
        messages=[ChatMessage(role="user", content="1. Does the source state fact 1?\n2. Does the source state fact 2?")],
        output_type=CoverageOutput,
    )
    reply = await make_judge(server).generate(request)
    assert [v.question for v in reply.output.coverage] == ["Does the source state fact 1?", "Does the source state fact 2?"]


# -- the HTTP transport ------------------------------------------------------------------

def without_aiohttp(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "aiohttp", None)  # `import aiohttp` now raises ImportError


async def test_calls_go_through_aiohttp_and_work_the_same_over_httpx_without_it(server, monkeypatch):
    import openai

    fast = make_judge(server)
    assert fast._http_client_class is openai.DefaultAioHttpClient
    without_aiohttp(monkeypatch)
    plain = make_judge(server)
    assert plain._http_client_class is openai.DefaultAsyncHttpxClient
    for judge in (fast, plain):
        reply = await ask(judge)
        assert reply.output.questions and reply.usage.calls == 1
    assert len(server.chat_requests()) == 2


async def test_a_base_url_with_credentials_keeps_httpx_which_accepts_them(server):
    import openai

    url = server.base_url.replace("http://", "http://user:secret@")
    cfg = ModelConfig(id="vllm/test-model", base_url=url, timeout=5)  # no key: Basic auth is all it sends
    judge = OpenAICompatJudge(PROVIDERS["vllm"], "test-model", cfg, sleep=Sleeps())
    assert judge._http_client_class is openai.DefaultAsyncHttpxClient
    assert (await ask(judge)).output.questions
    assert server.requests[-1].headers["authorization"] == "Basic " + base64.b64encode(b"user:secret").decode()


async def test_a_refused_connection_is_named_a_connection_failure_over_either_transport(monkeypatch):
    with JudgeServer() as gone:
        url = gone.base_url
    for transport in ("aiohttp", "httpx"):
        if transport == "httpx":
            without_aiohttp(monkeypatch)
        cfg = ModelConfig(id="openai/test-model", base_url=url, api_key="k", max_retries=0)
        judge = OpenAICompatJudge(PROVIDERS["openai"], "test-model", cfg, sleep=Sleeps())
        with pytest.raises(JudgeUnavailableError) as info:
            await ask(judge)
        assert "connection failed" in str(info.value) and "timeout" not in str(info.value), transport


def test_a_reply_sent_as_text_is_read_as_json_and_garbage_is_an_empty_reply(server):
    judge = make_judge(server)
    prepared = judge.prepare(questions_request())
    body = {"choices": [{"message": {"content": "{}"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 2}}
    read = judge.parse_reply(json.dumps(body), prepared)  # what the SDK hands back for text/plain
    assert (read.text, read.finish_reason, read.usage.prompt_tokens, read.usage.completion_tokens) == ("{}", "stop", 7, 2)
    empty = judge.parse_reply("<html>502 Bad Gateway</html>", prepared)
    assert empty.text is None and empty.usage.calls == 1


@pytest.mark.parametrize("url", ["::::", "http://[::1", "http://user:secret@[::1"])
def test_a_base_url_the_sdk_refuses_fails_when_the_judge_is_built_naming_it_without_the_password(url):
    from sumjudge.errors import ConfigurationError

    cfg = ModelConfig(id="openai/test-model", base_url=url, api_key="k")
    with pytest.raises(ConfigurationError, match="base URL") as info:
        OpenAICompatJudge(PROVIDERS["openai"], "test-model", cfg, sleep=Sleeps())
    assert "secret" not in str(info.value)


class _HugeUsageServer(JudgeServer):
    """Reports a usage no call has: 1e20 completion tokens, infinite and negative prompt tokens."""

    def _completion(self, request, text, finish, headers, delay):  # type: ignore[no-untyped-def]
        status, headers, body, delay = super()._completion(request, text, finish, headers, delay)
        payload = json.loads(body)
        payload["usage"].update(completion_tokens=1e20, prompt_tokens=-5, total_tokens=1e300)
        return status, headers, json.dumps(payload).replace("1e+300", "Infinity").encode(), delay


def test_usage_figures_past_any_call_count_as_zero_and_the_run_finishes(tmp_path):
    from click.testing import CliRunner

    from sumjudge.cli import main
    from sumjudge.judges.base import MAX_REPORTED_TOKENS, reported_count

    assert [reported_count(v) for v in (1e20, float("inf"), float("nan"), -5, True, "7", 12, 12.0)] == [
        0, 0, 0, 0, 0, 0, 12, 12]
    assert reported_count(MAX_REPORTED_TOKENS) == MAX_REPORTED_TOKENS
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": "The bridge opened in 1932.", "summary": "It opened in 1932."}) + "\n")
    with _HugeUsageServer() as server:
        result = CliRunner().invoke(main, ["score", str(data), "--model", "vllm/test-model", "--store",
                                           str(tmp_path / "runs.db"), "--out", str(tmp_path / "o.jsonl"), "--quiet"],
                                    env={"VLLM_BASE_URL": server.base_url})
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    line = json.loads((tmp_path / "o.jsonl").read_text())
    assert line["error"] is None and line["usage"]["completion_tokens"] == 0
    shown = CliRunner().invoke(main, ["runs", "list", "--json", "--store", str(tmp_path / "runs.db")])
    assert json.loads(shown.output.splitlines()[0])["status"] == "finished"
