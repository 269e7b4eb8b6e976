"""Scoring through llama.cpp's OpenAI-compatible server over real HTTP, and in process.

The server is ``python -m llama_cpp.server`` (llama-cpp-python[server] 0.3.x) with SmolLM2-135M,
started once per session by :func:`llamacpp_fixtures.llamacpp_server` on 127.0.0.1. This server
refuses ``response_format: {"type": "json_schema"}`` with HTTP 500 and a validation message
and accepts ``{"type": "json_object", "schema": {...}}``; the registry records that form for
``llamacpp``, and a judge told to start with ``json_schema`` falls back without spending a retry.
"""

from __future__ import annotations

import dataclasses
import json
import urllib.error
import urllib.request

import pytest
from llamacpp_fixtures import llamacpp_process, llamacpp_server  # noqa: F401 - pytest fixtures

from sumjudge import create_summarization_scorer
from sumjudge.errors import JudgeOutputError
from sumjudge.judges.base import JudgeRequest, ModelConfig, ReplyBounds, StepInputs
from sumjudge.judges.registry import PROVIDERS, resolve_judge
from sumjudge.summarization import prompts
from sumjudge.summarization.verdicts import QuestionsOutput

pytestmark = pytest.mark.integration

SOURCE = (
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
    "The library will cost 12 million dollars and is due to open in 2027."
)
SUMMARY = "Springfield's council approved a new downtown library that will cost 12 million dollars."


def _post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def test_registry_records_the_form_this_server_takes() -> None:
    assert PROVIDERS["llamacpp"].structured == "json_object_schema"
    assert PROVIDERS["llamacpp"].requires_key is False


def test_server_refuses_json_schema_and_accepts_json_object_with_schema(llamacpp_server: str) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 8}}, "required": ["a"]}
    base = {"model": "smollm2", "messages": [{"role": "user", "content": "Say hi."}], "max_tokens": 40}

    status, body = _post(
        f"{llamacpp_server}/v1/chat/completions",
        {**base, "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}},
    )
    assert status == 500  # a refusal dressed as a server error
    message = body["error"]["message"]
    assert "response_format" in message and "json_object" in message

    status, body = _post(
        f"{llamacpp_server}/v1/chat/completions",
        {**base, "response_format": {"type": "json_object", "schema": schema}},
    )
    assert status == 200
    reply = json.loads(body["choices"][0]["message"]["content"])
    assert set(reply) == {"a"} and len(reply["a"]) <= 8


@pytest.mark.parametrize(
    "where", ["server", pytest.param("in-process", marks=pytest.mark.in_subprocess(what="llama.cpp"))]
)
async def test_scoring_through_llamacpp_gives_a_valid_result(request: pytest.FixtureRequest, where: str) -> None:
    if where == "server":
        llamacpp_server = request.getfixturevalue("llamacpp_server")
        model = ModelConfig(id="llamacpp/smollm2", base_url=f"{llamacpp_server}/v1", timeout=300)
    else:  # llama.cpp in this process: run in a child process (tests/isolation.py), no server needed
        pytest.importorskip("llama_cpp", reason="install the local extra (pip install 'sumjudge[local]')")
        # short replies: the path through llama.cpp is tested, not the reply length (seconds a call on one busy CPU)
        model = ModelConfig(id="local/smollm2", extra={"max_items": 3, "max_string_chars": 60})
    scorer = create_summarization_scorer(model=model, options={"max_questions": 3})
    try:
        result = await scorer.run(input=SOURCE, output=SUMMARY)
    except JudgeOutputError as exc:  # SmolLM2-135M's claims that the summary does not make: refused, never scored
        assert "claims the summary does not make" in str(exc), exc
        return

    questions = result.preprocess_step_result.questions
    assert len(questions) <= 3
    assert len(result.analyze_step_result.coverage) == len(questions)
    assert all(isinstance(v.supported, bool) for v in result.preprocess_step_result.alignment)
    assert 0.0 <= result.score <= 1.0
    assert result.usage.calls >= 2


async def test_a_judge_that_starts_with_json_schema_falls_back_without_spending_retries(
    llamacpp_server: str,
) -> None:
    from sumjudge.judges.openai_compat import OpenAICompatJudge

    spec = dataclasses.replace(PROVIDERS["llamacpp"], structured="json_schema")
    # No retries at all: the only way to succeed is to recognise the 500 as a refusal of the form.
    config = ModelConfig(id="llamacpp/smollm2", base_url=f"{llamacpp_server}/v1", max_retries=0, timeout=300)
    judge = OpenAICompatJudge(spec, "smollm2", config)
    request = JudgeRequest(
        step="questions",
        messages=prompts.questions_messages(SOURCE, 2),
        output_type=QuestionsOutput,
        inputs=StepInputs(source=SOURCE, max_questions=2),
        bounds=ReplyBounds(min_items=1, max_items=2),
        max_output_tokens=256,
    )
    reply = await judge.generate(request)
    assert isinstance(reply.output, QuestionsOutput)
    assert judge.structured_mode == "json_object_schema"


def test_the_default_llamacpp_judge_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLAMACPP_API_KEY", raising=False)
    judge = resolve_judge(ModelConfig(id="llamacpp/smollm2", base_url="http://127.0.0.1:9/v1"))
    assert judge.model_id == "llamacpp/smollm2"


async def test_verdict_probabilities_are_read_from_the_servers_token_logprobs(llamacpp_server: str) -> None:
    # llama-cpp-python's server (logits_all on, its default) answers `logprobs: true, top_logprobs: N`
    # with the distribution at every token of the grammar-bound JSON; each verdict's probability is read
    # there. The llamacpp provider does not ask by default (it costs this server ~0.1 s a token): asked
    # here through extra, on a coverage step kept short (two verdicts, reasons of 60 characters at most).
    from sumjudge.summarization.probabilities import with_probabilities
    from sumjudge.summarization.verdicts import CoverageOutput

    config = ModelConfig(id="llamacpp/smollm2", base_url=f"{llamacpp_server}/v1", timeout=600,
                         extra={"logprobs": True, "top_logprobs": 5})
    judge = resolve_judge(config)
    asked = ["Did the council vote 7 to 2?", "Will the library open in 2027?"]
    request = JudgeRequest(
        step="coverage",
        messages=prompts.coverage_messages(SUMMARY, asked),
        output_type=CoverageOutput,
        inputs=StepInputs(summary=SUMMARY, questions=asked),
        bounds=ReplyBounds(min_items=2, max_items=2, max_string_chars=60),
    )
    reply = await judge.generate(request)
    assert reply.logprobs, "the server returned no token log-probabilities"
    assert len(reply.logprobs) >= 10 and all(t.top for t in reply.logprobs)  # every token with its alternatives
    verdicts = with_probabilities(reply).output.coverage
    probabilities = [v.probability for v in verdicts]
    assert len(verdicts) == 2 and all(p is not None and 0.0 <= p <= 1.0 for p in probabilities), probabilities
