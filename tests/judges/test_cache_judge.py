"""The judge reply cache: a re-run costs no calls and gives the same verdicts; other settings miss."""

from __future__ import annotations

import pytest
from scripted import answers, claims, judge, questions

from sumjudge import ModelConfig, create_summarization_scorer
from sumjudge.judges.base import ChatMessage, JudgeRequest, StepInputs
from sumjudge.judges.cache import SETTINGS_NOT_IN_KEY, CachedJudge, request_key, settings_of, with_cache
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.verdicts import QuestionsOutput
from sumjudge.testing.judge_server import JudgeServer

SOURCE = "The council approved 42 new homes on Monday. Work starts in May."
SUMMARY = "The council approved 42 homes."


def scripted():
    return judge(
        lambda request: claims((request.inputs.summary, True)),
        questions("Did the council approve 42 homes?", "Does work start in May?"),
        answers(True, False),
    )


async def test_a_rerun_costs_no_calls_and_gives_the_same_verdicts(tmp_path):
    inner = scripted()
    first = await create_summarization_scorer(model=CachedJudge(inner, tmp_path / "c.db")).run(
        input=SOURCE, output=SUMMARY
    )
    calls = len(inner.requests)
    assert calls == 3
    # A new scorer and a new cache object on the same file, as a second process would have.
    again = CachedJudge(inner, tmp_path / "c.db")
    second = await create_summarization_scorer(model=again).run(input=SOURCE, output=SUMMARY)
    assert len(inner.requests) == calls, "the re-run reached the judge"
    assert again.hits == 3 and again.misses == 0
    assert second.score == first.score == 0.5
    assert second.preprocess_step_result == first.preprocess_step_result
    assert second.analyze_step_result == first.analyze_step_result
    assert second.usage.calls == 0  # a cached reply cost nothing


async def test_other_texts_or_another_model_are_not_answered_from_the_cache(tmp_path):
    inner = scripted()
    await create_summarization_scorer(model=CachedJudge(inner, tmp_path / "c.db")).run(input=SOURCE, output=SUMMARY)
    before = len(inner.requests)
    cached = CachedJudge(inner, tmp_path / "c.db")
    await create_summarization_scorer(model=cached).run(input=SOURCE, output="Work starts in May.")
    # Same source: the questions come from the cache; alignment and coverage see a new summary.
    assert len(inner.requests) - before == 2 and cached.hits == 1

    other = judge(claims(("42 homes", True)), questions("q?"), answers(True), model_id="scripted/other")
    await create_summarization_scorer(model=CachedJudge(other, tmp_path / "c.db")).run(input=SOURCE, output=SUMMARY)
    assert len(other.requests) == 3


def _request(text: str, fence: str) -> JudgeRequest[QuestionsOutput]:
    return JudgeRequest(
        step="questions",
        messages=[
            ChatMessage(role="system", content=f"texts sit between markers with the token {fence}."),
            ChatMessage(role="user", content=f"<<<SOURCE {fence}>>>\n{text}\n<<<END SOURCE {fence}>>>"),
        ],
        output_type=QuestionsOutput,
        inputs=StepInputs(source=text, max_questions=5),
    )


def test_the_key_ignores_the_random_fence_but_not_the_text_or_settings():
    a = request_key("openai/m", _request("same text", "0123456789abcdef"), {})
    b = request_key("openai/m", _request("same text", "fedcba9876543210"), {})
    assert a == b
    assert request_key("openai/m", _request("other text", "0123456789abcdef"), {}) != a
    assert request_key("openai/m2", _request("same text", "0123456789abcdef"), {}) != a
    assert request_key("openai/m", _request("same text", "0123456789abcdef"), {"temperature": 0.7}) != a


def test_settings_come_from_the_wrapped_judges_config(tmp_path):
    class Configured:
        def __init__(self, temperature: float) -> None:
            self.config = ModelConfig(id="openai/m", temperature=temperature)

        model_id = "openai/m"

        async def generate(self, request):  # pragma: no cover - never called here
            raise AssertionError

    cold = CachedJudge(Configured(0.0), tmp_path / "c.db")
    warm = CachedJudge(Configured(0.9), tmp_path / "c.db")
    req = _request("t", "0123456789abcdef")
    assert request_key(cold.model_id, req, cold._settings) != request_key(warm.model_id, req, warm._settings)


def test_with_cache_takes_true_a_path_or_nothing(tmp_path, monkeypatch):
    inner = scripted()
    assert with_cache(inner, None) is inner and with_cache(inner, False) is inner
    monkeypatch.chdir(tmp_path)
    wrapped = with_cache(inner, True)
    assert isinstance(wrapped, CachedJudge) and wrapped.path == tmp_path.joinpath(".sumjudge", "cache.db").relative_to(tmp_path)
    assert with_cache(inner, tmp_path / "x.db").path == tmp_path / "x.db"
    assert with_cache(wrapped, True) is wrapped


async def test_the_library_takes_cache_in_create_summarization_scorer(tmp_path):
    inner = scripted()
    first = await create_summarization_scorer(model=inner, cache=tmp_path / "c.db").run(input=SOURCE, output=SUMMARY)
    second = await create_summarization_scorer(model=inner, cache=tmp_path / "c.db").run(input=SOURCE, output=SUMMARY)
    assert len(inner.requests) == 3
    assert second.score == first.score and second.preprocess_step_result == first.preprocess_step_result
    # Without cache= nothing is kept.
    await create_summarization_scorer(model=inner).run(input=SOURCE, output=SUMMARY)
    assert len(inner.requests) == 6


@pytest.mark.integration
async def test_a_real_judge_with_another_temperature_or_extra_setting_is_not_answered_from_the_cache(tmp_path):
    """One bundled server, one cache file: each setting changed alone makes the calls again."""
    db = tmp_path / "c.db"
    with JudgeServer() as server:

        async def score(**settings) -> CachedJudge:
            config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test", **settings)
            cached = CachedJudge(resolve_judge(config), db)
            await create_summarization_scorer(model=cached).run(input=SOURCE, output=SUMMARY)
            return cached

        first = await score(temperature=0.0)
        assert (first.hits, first.misses, server.chat_calls) == (0, 3, 3)

        hotter = await score(temperature=0.9)
        assert hotter.hits == 0, "temperature 0.9 was answered with the verdicts of temperature 0.0"
        assert server.chat_calls == 6
        assert {r.body["temperature"] for r in server.chat_requests()[3:]} == {0.9}

        with_extra = await score(temperature=0.0, extra={"top_p": 0.5})
        assert with_extra.hits == 0, "extra={'top_p': 0.5} was answered from the cache"
        assert server.chat_calls == 9
        assert {r.body.get("top_p") for r in server.chat_requests()[6:]} == {0.5}

        # What cannot change an answer stays out of the key: the first settings hit again.
        same = await score(temperature=0.0, timeout=5.0, max_retries=1, max_concurrency=2, headers={"X-Trace": "1"})
        assert (same.hits, same.misses, server.chat_calls) == (3, 0, 9)


def test_the_built_in_http_judges_expose_their_settings_as_config():
    config = ModelConfig(id="openai/test-model", base_url="http://127.0.0.1:9/v1", api_key="test", temperature=0.3)
    built = resolve_judge(config)
    assert built.config == config
    assert settings_of(built)["temperature"] == 0.3
    assert not set(settings_of(built)) & SETTINGS_NOT_IN_KEY
