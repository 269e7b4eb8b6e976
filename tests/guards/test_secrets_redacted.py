"""Hostile use, over real HTTP on 127.0.0.1: the redactor knows every
form of the secrets the process holds (plain, URL-encoded, base64 of ``user:password`` as a gateway
echoes it in ``Basic ...``); a judge that puts a key into its reply has it hidden before the reply is
stored, cached, written or shown; ``user:password`` in the base URL beside an API key sent as a Bearer
token is refused with one line (HTTP would send only one of them)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from sumjudge import ModelConfig, create_summarization_scorer
from sumjudge.errors import ConfigurationError
from sumjudge.guards.redact import MASK, redact
from sumjudge.testing.brains import SummarizationBrain
from sumjudge.testing.judge_server import Fault, JudgeServer

from cli_invoke import invoke

pytestmark = pytest.mark.integration

SOURCE = "The council approved 120 homes on Tuesday. Building starts in May."
SUMMARY = "The council approved 120 homes."
PASSWORD = "s3cret@pw-42"  # "@" makes its URL-encoded form differ from it
BASIC = base64.b64encode(f"admin:{PASSWORD}".encode()).decode()


def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n")
    return path


def everything_written(tmp_path: Path, text: str) -> str:
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    return text + "".join(p.read_bytes().decode("utf-8", "replace") for p in files)


# -- point 5: every form of the secrets the process holds ---------------------------------------------


def test_the_basic_credential_a_gateway_echoes_is_hidden_in_every_output(tmp_path: Path) -> None:
    with JudgeServer() as server:
        host = server.base_url.replace("http://", "")
        url = f"http://admin:{quote(PASSWORD, safe='')}@{host}"
        server.brain = lambda request: Fault.status(
            401, f"refused Authorization: Basic {BASIC} (password {quote(PASSWORD, safe='')}, {PASSWORD})")
        code, text = invoke("score", str(data_file(tmp_path)), "--model", "vllm/test-model", "--store",
                            str(tmp_path / "runs.db"), "--out", str(tmp_path / "out.jsonl"), "--report",
                            str(tmp_path / "r.html"), "--timeout", "5", env={"VLLM_BASE_URL": url})
        sent = server.requests[0].headers["authorization"]
    assert sent == f"Basic {BASIC}"  # what httpx made of the URL's user:password
    assert code == 1 and "401" in (tmp_path / "out.jsonl").read_text()
    shown = everything_written(tmp_path, text)
    for form in (BASIC, PASSWORD, quote(PASSWORD, safe=""), BASIC.rstrip("=")):
        assert form not in shown, form


def test_the_redactor_hides_each_form_of_a_known_secret() -> None:
    key = "plain-configured-secret-42"
    forms = [key, quote(key + "/x", safe=""), base64.b64encode(key.encode()).decode(),
             base64.urlsafe_b64encode(key.encode()).decode().rstrip("=")]
    for form in forms:
        secret = key + "/x" if "%2F" in form else key
        assert redact(f"said: {form}.", [secret], environment=False) == f"said: {MASK}.", form
    assert redact(f"Authorization: Basic {BASIC}", environment=False) == f"Authorization: Basic {MASK}"
    assert redact("Basic facts are kept", environment=False) == "Basic facts are kept"


def test_a_judge_knows_its_url_password_and_header_values_as_secrets() -> None:
    from sumjudge.guards.redact import secrets_of

    config = ModelConfig(id="vllm/m", base_url=f"http://admin:{quote(PASSWORD, safe='')}@127.0.0.1:9/v1",
                         headers={"X-Gateway-Key": "gateway-secret-77"})
    known = secrets_of(create_summarization_scorer(model=config).judge)
    assert PASSWORD in known and f"admin:{PASSWORD}" in known and "gateway-secret-77" in known


def test_a_url_password_in_the_environment_is_hidden_everywhere(monkeypatch) -> None:
    monkeypatch.setenv("SOME_GATEWAY_URL", f"https://admin:{quote(PASSWORD, safe='')}@gw.example/v1")
    assert redact(f"echo {BASIC} and {PASSWORD}") == f"echo {MASK} and {MASK}"


# -- point 6: secrets a judge puts into its reply ------------------------------------------------------


def _leaky(brain: SummarizationBrain, key: str) -> Any:
    def answer(request: Any) -> Any:
        reply = brain(request)
        for name in ("alignment", "coverage"):
            for verdict in reply.get(name, []):
                verdict["reason"] = f"{verdict['reason']} (my key is {key})"
        if "alignment" in reply:
            reply["alignment"][0]["claim"] += f" {key}"
        return reply

    return answer


def test_a_key_in_the_judges_reasons_and_claims_is_hidden_before_it_is_stored_cached_or_shown(tmp_path: Path) -> None:
    key = "my-gateway-token-31415926"  # not key-shaped: only known to the process (its environment)
    with JudgeServer(api_key=key) as server:
        server.brain = _leaky(SummarizationBrain(), key)
        env = {"VLLM_BASE_URL": server.base_url, "VLLM_API_KEY": key}
        code, text = invoke("score", str(data_file(tmp_path)), "--model", "vllm/test-model", "--store",
                            str(tmp_path / "runs.db"), "--out", str(tmp_path / "out.jsonl"), "--report",
                            str(tmp_path / "r.html"), "--junit", str(tmp_path / "j.xml"), "--cache-path",
                            str(tmp_path / "cache.db"), "--timeout", "5", env=env)
        assert code == 0, text
        line = json.loads((tmp_path / "out.jsonl").read_text())
        assert MASK in json.dumps(line)  # the texts are kept, with the key hidden
        assert key not in everything_written(tmp_path, text)
        again = invoke("runs", "export", "latest", "--store", str(tmp_path / "runs.db"), env=env)[1]
        assert key not in again


async def test_a_library_judge_hides_its_configured_key_from_its_reply() -> None:
    key = "configured-only-secret-2718"
    with JudgeServer(api_key=key) as server:
        server.brain = _leaky(SummarizationBrain(), key)
        config = ModelConfig(id="vllm/test-model", base_url=server.base_url, api_key=key, timeout=5)
        result = await create_summarization_scorer(model=config).run(input=SOURCE, output=SUMMARY)
    dumped = result.model_dump_json()
    assert key not in dumped and MASK in dumped


# -- point 7: user:password in the base URL beside a Bearer key ----------------------------------------


def test_a_url_password_beside_a_bearer_key_is_refused_with_one_line(tmp_path: Path) -> None:
    with JudgeServer() as server:
        host = server.base_url.replace("http://", "")
        env = {"OPENAI_BASE_URL": f"http://admin:{quote(PASSWORD, safe='')}@{host}", "OPENAI_API_KEY": "sk-abc"}
        code, text = invoke("score", str(data_file(tmp_path)), "--model", "openai/test-model", "--store",
                            str(tmp_path / "runs.db"), "--quiet", env=env)
        assert server.requests == []  # nothing was sent without the key
    assert code == 2 and "user:password" in text and "Bearer" in text and len(set(text.strip().splitlines())) == 1
    assert PASSWORD not in text
    with pytest.raises(ConfigurationError, match="Basic auth"):
        create_summarization_scorer(model=ModelConfig(id="vllm/m", base_url="http://a:b@127.0.0.1:9/v1", api_key="k"))


def test_without_a_key_the_url_credentials_are_sent_as_basic_auth() -> None:
    with JudgeServer() as server:
        url = server.base_url.replace("http://", f"http://admin:{quote(PASSWORD, safe='')}@")
        scorer = create_summarization_scorer(model=ModelConfig(id="vllm/test-model", base_url=url, timeout=5))
        assert scorer.run_sync(input=SOURCE, output=SUMMARY).score is not None
        assert {r.headers.get("authorization") for r in server.requests} == {f"Basic {BASIC}"}


def test_azure_sends_its_api_key_header_beside_the_urls_basic_auth() -> None:
    with JudgeServer(api_key="azure-key") as server:
        url = server.url.replace("http://", "http://admin:gatewaypw@")
        config = ModelConfig(id="azure/judge-deploy", base_url=url, api_key="azure-key", api_version="2024-10-21")
        create_summarization_scorer(model=config).run_sync(input=SOURCE, output=SUMMARY)
        request = server.chat_requests()[0]
    assert request.headers["api-key"] == "azure-key"
    assert request.headers["authorization"] == "Basic " + base64.b64encode(b"admin:gatewaypw").decode()
