"""The bundled test judge server itself: protocol, brains, faults, command line."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from pydantic import BaseModel

from sumjudge.judges.structured import strict_json_schema
from sumjudge.summarization.verdicts import AlignmentOutput, CoverageOutput, QuestionsOutput
from sumjudge.testing.judge_server import Fault, JudgeServer, SchemaBrain


def post(server, body, headers=None):
    req = urllib.request.Request(
        server.base_url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read())


def chat(schema_model=None, **extra):
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}
    if schema_model is not None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": schema_model.__name__, "schema": strict_json_schema(schema_model), "strict": True},
        }
    return body


def test_models_endpoint_lists_models():
    with JudgeServer(models={"a", "b"}) as s, urllib.request.urlopen(s.base_url + "/models", timeout=5) as resp:
        data = json.loads(resp.read())
    assert [m["id"] for m in data["data"]] == ["a", "b"]


@pytest.mark.parametrize("model", [AlignmentOutput, QuestionsOutput, CoverageOutput])
def test_schema_brain_writes_valid_objects_for_any_schema(model):
    with JudgeServer(SchemaBrain(items=2)) as s:
        status, _, data = post(s, chat(model))
    assert status == 200
    content = data["choices"][0]["message"]["content"]
    model.model_validate_json(content)
    assert data["usage"]["completion_tokens"] > 0 and data["usage"]["prompt_tokens"] > 0


def test_schema_brain_follows_nested_and_optional_fields():
    class Inner(BaseModel):
        n: int
        tags: list[str]

    class Outer(BaseModel):
        inner: Inner
        maybe: str | None = None
        flag: bool

    with JudgeServer(SchemaBrain()) as s:
        _, _, data = post(s, chat(Outer))
    Outer.model_validate_json(data["choices"][0]["message"]["content"])


def test_requests_are_recorded_with_headers_and_body():
    with JudgeServer() as s:
        post(s, chat(QuestionsOutput), headers={"X-Trace": "abc"})
        (req,) = s.chat_requests()
    assert req.headers["x-trace"] == "abc" and req.body["model"] == "m" and req.step == "questions"


def test_rate_limit_fault_carries_retry_after_and_an_openai_error_body():
    with JudgeServer() as s:
        s.script(Fault.rate_limit(retry_after=3))
        status, headers, body = post(s, chat(QuestionsOutput))
        assert status == 429 and headers["Retry-After"] == "3"
        assert body["error"]["type"] == "rate_limit_error"
        # the script is used once; then the brain answers
        assert post(s, chat(QuestionsOutput))[0] == 200


def test_step_scripts_wait_for_their_step():
    with JudgeServer() as s:
        s.script(Fault.server_error(), step="coverage")
        assert post(s, chat(QuestionsOutput))[0] == 200
        assert post(s, chat(CoverageOutput))[0] == 500
        assert s.pending() == 0


def test_refusing_a_structured_form_like_llama_cpp():
    with JudgeServer(refuse={"json_schema": 500}) as s:
        status, _, body = post(s, chat(QuestionsOutput))
        assert status == 500 and "response_format" in body["error"]["message"]
        ok = chat(None, response_format={"type": "json_object", "schema": strict_json_schema(QuestionsOutput)})
        status, _, body = post(s, ok)
        assert status == 200
        QuestionsOutput.model_validate_json(body["choices"][0]["message"]["content"])


def test_truncated_fault_cuts_the_reply_and_says_length():
    with JudgeServer() as s:
        s.script(Fault.truncated())
        _, _, body = post(s, chat(QuestionsOutput))
    choice = body["choices"][0]
    assert choice["finish_reason"] == "length"
    with pytest.raises(ValueError):
        json.loads(choice["message"]["content"])


def test_command_line_server_answers(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "sumjudge.testing.judge_server", "--port", "0", "--brain", "schema"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert "listening on http://127.0.0.1:" in line
        base = line.split("listening on ", 1)[1].split()[0]
        with urllib.request.urlopen(base + "/models", timeout=5) as resp:
            assert resp.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
