"""Which context window a judge gets, and where it came from: a local server's own default beats the
model table (Ollama cuts a longer prompt silently), unless the user says the server loads more."""

from __future__ import annotations

import pytest

from sumjudge.judges.base import ModelConfig
from sumjudge.judges.budget import TokenBudget, context_window_of, window_for
from sumjudge.judges.registry import resolve_judge


@pytest.mark.parametrize(
    "model_id",
    ["ollama/qwen2.5:7b", "ollama/llama-3.1:8b", "llamacpp/qwen2.5-7b-instruct", "lmstudio/qwen2.5-7b-instruct"],
)
def test_a_local_server_gets_its_default_window_not_the_model_table(model_id: str) -> None:
    # qwen2.5 and llama-3.1 are 32k and 128k models, but the server loads them with 4,096 by default:
    # a request sized for the model's window would be cut (Ollama) or refused by the server.
    assert context_window_of(resolve_judge(model_id)) == 4096
    window = window_for(model_id)
    assert (window.tokens, window.origin) == (4096, "provider default")
    assert "context_window" in window.describe()  # says how to get more


def test_the_users_context_window_wins_over_the_provider_default() -> None:
    config = ModelConfig(id="ollama/qwen2.5:7b", context_window=32_768)
    assert context_window_of(resolve_judge(config)) == 32_768
    budget = TokenBudget.for_config(config)
    assert budget.context_window == 32_768
    assert budget.window is not None and budget.window.origin == "context_window"


def test_vllm_and_hosted_models_take_the_model_table_and_unknown_models_the_fallback() -> None:
    # vLLM serves the model's own window (--max-model-len) and refuses longer requests
    assert window_for("vllm/Qwen/Qwen2.5-7B-Instruct").tokens == 32_768
    assert window_for("vllm/Qwen/Qwen2.5-7B-Instruct").origin == "model table"
    assert window_for("openai/gpt-4o-mini").origin == "model table"
    assert window_for("anthropic/some-future-model").origin == "provider default"
    unknown = window_for("vllm/some-model")
    assert (unknown.tokens, unknown.origin) == (8192, "fallback")
    assert "fallback" in unknown.describe()


def test_a_budget_without_a_judge_uses_the_same_window_as_the_judge() -> None:
    for model_id in ("ollama/qwen2.5:7b", "lmstudio/llama-3.3-70b", "openai/gpt-4o-mini"):
        judge_window = context_window_of(resolve_judge(ModelConfig(id=model_id, api_key="k")))
        assert TokenBudget.for_config(ModelConfig(id=model_id)).context_window == judge_window
