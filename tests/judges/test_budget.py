"""Context windows and token counts: what a judge takes, and what a request needs."""

from __future__ import annotations

import pytest
from scripted import ScriptedJudge

from sumjudge.errors import ContextOverflowError
from sumjudge.judges.base import ChatMessage, JudgeRequest, ModelConfig
from sumjudge.judges.budget import (
    DEFAULT_CONTEXT_WINDOW,
    TokenBudget,
    conservative_tokens,
    context_window_of,
    counter_for,
    estimate_tokens,
    known_context_window,
)
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.verdicts import QuestionsOutput


def test_known_models_provider_defaults_and_the_conservative_default() -> None:
    assert known_context_window("openai/gpt-4o-mini") == 128_000
    assert known_context_window("openai/gpt-4") == 8192 and known_context_window("openai/gpt-4-turbo") == 128_000
    assert known_context_window("openrouter/openai/gpt-4o") == 128_000
    assert known_context_window("anthropic/claude-sonnet-4-5") == 200_000
    assert known_context_window("ollama/qwen3:8b") == 4096  # Ollama's default num_ctx
    assert known_context_window("vllm/some-model") is None
    assert context_window_of(ScriptedJudge(model_id="vllm/some-model")) == DEFAULT_CONTEXT_WINDOW


def test_the_config_wins_over_the_table() -> None:
    judge = resolve_judge(ModelConfig(id="openai/gpt-4o-mini", api_key="k", context_window=16_000))
    assert context_window_of(judge) == 16_000
    assert context_window_of(resolve_judge(ModelConfig(id="openai/gpt-4o-mini", api_key="k"))) == 128_000
    with pytest.raises(ValueError):
        ModelConfig(id="openai/x", context_window=10)


def test_estimates_err_towards_sending_less() -> None:
    english = "The bridge opened in 1932 and cost four million dollars. " * 20
    assert conservative_tokens(english) > estimate_tokens(english) > 0
    korean = "서울시는 2024년 3월에 새 도서관을 열었다." * 10
    assert conservative_tokens(korean) >= len([c for c in korean if ord(c) > 127])
    counter = counter_for(ScriptedJudge())
    assert not counter.exact and counter.upper(english) == conservative_tokens(english)
    assert counter.central(english) == estimate_tokens(english)


def test_a_judge_with_its_own_tokenizer_is_counted_exactly() -> None:
    judge = ScriptedJudge()
    judge.count_tokens = lambda text: len(text.split())  # type: ignore[attr-defined]
    judge.context_window = 600  # type: ignore[attr-defined]
    budget = TokenBudget.of(judge)
    assert budget.counter.exact and budget.text_tokens("a b c") == 3 and budget.context_window == 600


def test_an_over_budget_request_fails_naming_the_sizes() -> None:
    budget = TokenBudget(1000, counter_for(ScriptedJudge()), "scripted/judge")
    request = JudgeRequest(
        step="questions", messages=[ChatMessage(role="user", content="word " * 1000)], output_type=QuestionsOutput
    )
    assert not budget.fits(request, 100)
    with pytest.raises(ContextOverflowError) as info:
        budget.check(request, 100)
    err = info.value
    assert err.context_window == 1000 and err.reply_tokens == 100 and err.needed == err.prompt_tokens + 100
    assert "1000" in str(err) and str(err.prompt_tokens) in str(err) and "context_window" in str(err)


def test_tiktoken_is_used_only_with_its_encoding_on_disk(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("tiktoken")
    from sumjudge.judges.budget import tiktoken_counter

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # empty: nothing is downloaded, the estimate stays
    assert tiktoken_counter("gpt-4o-mini") is None
    assert counter_for(ScriptedJudge(model_id="openai/gpt-4o-mini")).name == "estimate"
