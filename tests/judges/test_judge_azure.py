"""Azure OpenAI over real HTTP against the bundled server: deployment path, api-version, api-key header,
structured output, retries; and max_completion_tokens where OpenAI's API wants it."""

from __future__ import annotations

import pytest

from sumjudge import ModelConfig, create_summarization_scorer
from sumjudge.errors import ConfigurationError, JudgeRequestError, MissingAPIKeyError
from sumjudge.judges.azure import DEFAULT_API_VERSION, AzureOpenAIJudge
from sumjudge.judges.registry import resolve_judge
from sumjudge.testing.judge_server import Fault, JudgeServer

pytestmark = pytest.mark.integration

SOURCE = "The bridge opened in 1932. It cost 4 million dollars. Ada Lind designed it."
SUMMARY = "Ada Lind's bridge opened in 1932."


@pytest.fixture(autouse=True)
def no_azure_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "OPENAI_API_VERSION"):
        monkeypatch.delenv(var, raising=False)


def test_requests_go_to_the_deployment_with_api_version_and_api_key_header() -> None:
    with JudgeServer(api_key="azure-key") as server:
        config = ModelConfig(id="azure/judge-deploy", base_url=server.url, api_key="azure-key", api_version="2024-10-21")
        scorer = create_summarization_scorer(model=config)
        result = scorer.run_sync(input=SOURCE, output=SUMMARY)
        requests = server.chat_requests()

    assert result.score == 1.0 and result.usage.calls == 3  # the server's brain: every claim and question holds
    assert len(requests) == 3
    for r in requests:
        assert r.method == "POST"
        assert r.path == "/openai/deployments/judge-deploy/chat/completions"
        assert r.query == "api-version=2024-10-21"
        assert r.headers["api-key"] == "azure-key"
        assert "authorization" not in r.headers
        assert r.response_format["type"] == "json_schema" and r.response_format["json_schema"]["strict"] is True


def test_settings_come_from_the_azure_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    with JudgeServer(api_key="env-key") as server:
        monkeypatch.setenv("AZURE_OPENAI_API_KEY", "env-key")
        monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", server.url)
        monkeypatch.setenv("OPENAI_API_VERSION", "2025-01-01-preview")
        create_summarization_scorer(model="azure/from-env").run_sync(input=SOURCE, output=SUMMARY)
        (first, *_) = server.chat_requests()
    assert first.path == "/openai/deployments/from-env/chat/completions"
    assert first.query == "api-version=2025-01-01-preview" and first.headers["api-key"] == "env-key"


def test_without_a_version_a_recent_ga_one_is_sent() -> None:
    judge = resolve_judge(ModelConfig(id="azure/d", base_url="https://example.openai.azure.com", api_key="k"))
    assert isinstance(judge, AzureOpenAIJudge) and judge.api_version == DEFAULT_API_VERSION


def test_a_missing_key_or_endpoint_fails_at_once_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(MissingAPIKeyError, match="AZURE_OPENAI_API_KEY"):
        resolve_judge(ModelConfig(id="azure/d", base_url="https://example.openai.azure.com"))
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "k")
    with pytest.raises(ConfigurationError, match="AZURE_OPENAI_ENDPOINT"):
        resolve_judge("azure/d")


def test_rate_limits_are_retried_and_a_wrong_key_fails_without_retrying() -> None:
    with JudgeServer(api_key="right") as server:
        server.script(Fault.rate_limit(retry_after=0), Fault.server_error(503), step="alignment")
        config = ModelConfig(id="azure/d", base_url=server.url, api_key="right", max_retries=3)
        result = create_summarization_scorer(model=config).run_sync(input=SOURCE, output=SUMMARY)
        assert result.score == 1.0
        assert len(server.chat_requests(step="alignment")) == 3

        server.reset()
        wrong = ModelConfig(id="azure/d", base_url=server.url, api_key="wrong", max_retries=3)
        with pytest.raises(JudgeRequestError, match="401"):
            create_summarization_scorer(model=wrong).run_sync(input=SOURCE, output=SUMMARY)
        assert len(server.chat_requests(step="alignment")) == 1


@pytest.mark.parametrize(
    ("model", "field"),
    [("azure/d", "max_completion_tokens"), ("openai/o3-mini", "max_completion_tokens"), ("vllm/qwen", "max_tokens")],
)
def test_the_reply_cap_is_sent_in_the_field_each_api_takes(model: str, field: str) -> None:
    other = {"max_completion_tokens": "max_tokens", "max_tokens": "max_completion_tokens"}[field]
    with JudgeServer() as server:
        base = server.url if model.startswith("azure/") else server.base_url
        config = ModelConfig(id=model, base_url=base, api_key="x", max_output_tokens=900)
        create_summarization_scorer(model=config).run_sync(input=SOURCE, output=SUMMARY)
        bodies = [r.body for r in server.chat_requests()]
    assert bodies and all(b[field] == 900 and other not in b for b in bodies)
