"""The OpenAI-compatible family over real HTTP: where each provider's requests differ.

Every provider is pointed at the test judge server with its ``<PROVIDER>_BASE_URL`` variable;
what the server receives shows the key (or none), the model name and the structured-output form.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from sumjudge.errors import MissingAPIKeyError
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.registry import PROVIDERS, resolve_base_url, resolve_judge
from sumjudge.summarization import prompts
from sumjudge.summarization.verdicts import QuestionsOutput
from sumjudge.testing.judge_server import JudgeServer

pytestmark = pytest.mark.integration

HOSTED = ["openai", "openrouter", "groq", "together", "deepseek", "mistral", "xai", "fireworks", "google"]
LOCAL_SERVERS = ["ollama", "vllm", "lmstudio", "llamacpp"]
FAMILY = HOSTED + LOCAL_SERVERS
SOURCE = "The council voted 7 to 2 to build a library that opens in 2027."


@pytest.fixture
def server() -> Iterator[JudgeServer]:
    with JudgeServer() as srv:
        yield srv


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key or endpoint from the machine running the tests."""
    for spec in PROVIDERS.values():
        for var in (spec.key_env, spec.base_url_env, *spec.key_env_aliases):
            monkeypatch.delenv(var, raising=False)


def _request() -> JudgeRequest[QuestionsOutput]:
    return JudgeRequest(
        step="questions",
        messages=prompts.questions_messages(SOURCE, 3),
        output_type=QuestionsOutput,
        inputs=StepInputs(source=SOURCE, max_questions=3),
    )


@pytest.mark.parametrize("provider", HOSTED)
async def test_hosted_providers_send_their_key_to_the_base_url_from_the_environment(
    provider: str, server: JudgeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = PROVIDERS[provider]
    monkeypatch.setenv(spec.key_env, f"key-for-{provider}")
    monkeypatch.setenv(spec.base_url_env, server.base_url)
    judge = resolve_judge(f"{provider}/some-org/some-model")
    reply = await judge.generate(_request())

    assert reply.output.questions
    [sent] = server.chat_requests()
    assert sent.headers["authorization"] == f"Bearer key-for-{provider}"
    assert sent.body["model"] == "some-org/some-model"  # everything after the first slash
    assert sent.structured_form == spec.structured


@pytest.mark.parametrize("provider", LOCAL_SERVERS)
async def test_local_servers_need_no_key(provider: str, server: JudgeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROVIDERS[provider].base_url_env, server.base_url)
    judge = resolve_judge(f"{provider}/qwen2.5:7b")
    await judge.generate(_request())
    [sent] = server.chat_requests()
    # The SDK insists on some key; a local server gets a placeholder, never a real one.
    auth = sent.headers.get("authorization", "")
    assert auth in ("", "Bearer sk-no-key-required")
    assert sent.body["model"] == "qwen2.5:7b"


async def test_a_local_server_started_with_a_key_gets_it(server: JudgeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_API_KEY", "vllm-secret")
    monkeypatch.setenv("VLLM_BASE_URL", server.base_url)
    await resolve_judge("vllm/meta-llama/Llama-3.1-8B-Instruct").generate(_request())
    assert server.chat_requests()[0].headers["authorization"] == "Bearer vllm-secret"


@pytest.mark.parametrize("provider", HOSTED)
def test_a_missing_key_names_the_variable(provider: str) -> None:
    with pytest.raises(MissingAPIKeyError) as err:
        resolve_judge(f"{provider}/some-model")
    assert PROVIDERS[provider].key_env in str(err.value)


async def test_gemini_reads_gemini_api_key_too(server: JudgeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(MissingAPIKeyError, match="GOOGLE_API_KEY or GEMINI_API_KEY"):
        resolve_judge("google/gemini-2.5-flash")
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-key")
    monkeypatch.setenv("GOOGLE_BASE_URL", server.base_url)
    await resolve_judge("google/gemini-2.5-flash").generate(_request())
    assert server.chat_requests()[0].headers["authorization"] == "Bearer gemini-key"


async def test_config_beats_the_environment(server: JudgeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROQ_API_KEY", "from-env")
    monkeypatch.setenv("GROQ_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens there
    config = ModelConfig(id="groq/llama-3.3-70b-versatile", api_key="from-config", base_url=server.base_url)
    await resolve_judge(config).generate(_request())
    assert server.chat_requests()[0].headers["authorization"] == "Bearer from-config"


async def test_headers_are_sent_only_when_configured(server: JudgeServer) -> None:
    plain = ModelConfig(id="openrouter/openai/gpt-4o-mini", api_key="k", base_url=server.base_url)
    await resolve_judge(plain).generate(_request())
    assert "http-referer" not in server.chat_requests()[0].headers  # no attribution unless asked

    attributed = plain.model_copy(update={"headers": {"HTTP-Referer": "https://example.org", "X-Title": "my app"}})
    await resolve_judge(attributed).generate(_request())
    sent = server.chat_requests()[1].headers
    assert sent["http-referer"] == "https://example.org" and sent["x-title"] == "my app"


@pytest.mark.parametrize("provider", FAMILY)
def test_default_base_urls_are_used_without_configuration(provider: str) -> None:
    spec = PROVIDERS[provider]
    assert resolve_base_url(spec, ModelConfig(id=f"{provider}/m")) == spec.base_url
    assert spec.base_url and spec.base_url.startswith("https://" if provider in HOSTED else "http://localhost:")


def test_the_providers_table_in_the_docs_matches_the_registry() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "providers.md").read_text(encoding="utf-8")
    rows = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and re.fullmatch(r"`[a-z]+`", cells[0]):
            rows[cells[0].strip("`")] = cells
    assert set(FAMILY) <= set(rows)
    for provider in FAMILY:
        spec = PROVIDERS[provider]
        _, base_url, key_var, base_var, form = rows[provider][:5]
        assert spec.base_url in base_url, provider
        assert spec.key_env in key_var, provider
        assert spec.base_url_env in base_var, provider
        assert spec.structured in form, provider
