"""Verdict probabilities from token log-probabilities: asked of the OpenAI-compatible servers that
return them, read from the verdict token, kept through the reply cache, and never a reason for a run
to fail (a server that refuses them is asked without; one that ignores them gives none).

The reading itself is unit-tested on hand-made tokens; the rest runs over real HTTP on 127.0.0.1
against the protocol-level test server, which returns log-probabilities in OpenAI's shape."""

from __future__ import annotations

import math

import pytest

from sumjudge.summarization.spec import ScorerSpec
from sumjudge import create_summarization_scorer
from sumjudge.judges.base import ModelConfig, TokenLogprob
from sumjudge.judges.cache import CachedJudge
from sumjudge.judges.openai_compat import TOP_LOGPROBS
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.probabilities import value_offsets, verdict_probabilities
from sumjudge.testing.judge_server import JudgeServer, SummarizationBrain

SOURCE = "The council approved 120 new homes on Monday. Construction starts in March."
SUMMARY = "The council approved 120 homes."


def tok(token: str, p: float = 1.0, *top: tuple[str, float]) -> TokenLogprob:
    return TokenLogprob(token=token, logprob=math.log(p), top=tuple((t, math.log(q)) for t, q in top))


# -- reading the verdict token --------------------------------------------------------------------


def test_a_key_or_value_inside_a_string_is_not_a_verdict() -> None:
    text = '{"alignment":[{"claim":"it says \\"supported\\": true","reason":"r: false","supported":false}]}'
    offsets = value_offsets(text, "supported")
    assert len(offsets) == 1 and text[offsets[0] :].startswith("false}")


def test_the_probability_is_p_true_over_true_and_false_at_the_verdict_token() -> None:
    # tokens as a BPE vocabulary cuts them: the value glued to what precedes it, alternatives with and
    # without the space, and one alternative that is neither (left out of both)
    tokens = [
        tok('{"'), tok("supported"), tok('":'),
        tok(" true", 0.6, (" true", 0.6), (" false", 0.2), ("true", 0.1), (' "', 0.1)),
        tok("},{"), tok('"supported'), tok('":false', 0.7, ('":false', 0.7), ('":true', 0.3)), tok("}"),
    ]  # fmt: skip
    got = verdict_probabilities(tokens, "supported", [True, False])
    assert got == pytest.approx([0.7 / 0.9, 0.3], abs=1e-4)


def test_tokens_that_do_not_spell_the_verdicts_give_none() -> None:
    tokens = [tok('{"supported":'), tok("true"), tok("}")]
    assert verdict_probabilities(tokens, "supported", [False]) is None  # the parsed verdict says otherwise
    assert verdict_probabilities(tokens, "supported", [True, True]) is None  # one value for two verdicts


def test_the_other_value_missing_from_the_alternatives_counts_as_zero() -> None:
    tokens = [tok('{"answered":'), tok("false", 0.99, ("false", 0.99), ("null", 0.01)), tok("}")]
    assert verdict_probabilities(tokens, "answered", [False]) == [0.0]


# -- over HTTP --------------------------------------------------------------------------------------


def scorer_for(server: JudgeServer, model: str = "vllm/test-model", **config: object):
    judge = resolve_judge(ModelConfig(id=model, base_url=server.base_url, api_key="test", max_retries=0, **config))
    return judge, create_summarization_scorer(model=judge, options={"max_questions": 4})


async def test_an_openai_compatible_judge_asks_for_logprobs_and_each_verdict_gets_its_probability() -> None:
    # claim 1 is written unsupported, the others supported; each boolean of a reply is written with
    # probability 0.9, 0.8, 0.7, ... in the order it comes
    brain = SummarizationBrain(claims=3, unsupported=1, questions=4, unanswered=1)
    with JudgeServer(brain, logprobs=lambda i: 0.9 - 0.1 * i) as server:
        _, scorer = scorer_for(server)
        result = await scorer.run(input=SOURCE, output=SUMMARY)
        bodies = [r.body for r in server.chat_requests()]
    assert all(b["logprobs"] is True and b["top_logprobs"] == TOP_LOGPROBS for b in bodies)
    claims = result.preprocess_step_result.alignment
    assert [c.supported for c in claims] == [False, True, True]
    assert [c.probability for c in claims] == pytest.approx([1 - 0.9, 0.8, 0.7], abs=1e-4)
    answers = result.analyze_step_result.coverage
    assert [a.answered for a in answers] == [False, True, True, True]
    assert [a.probability for a in answers] == pytest.approx([1 - 0.9, 0.8, 0.7, 0.6], abs=1e-4)
    # stored with the verdict, and the counted axes stay the spec's
    dumped = result.model_dump(mode="json")
    assert dumped["preprocess_step_result"]["alignment"][1]["probability"] == pytest.approx(0.8, abs=1e-4)
    assert result.alignment_score == pytest.approx(2 / 3, abs=1e-4) and result.graded is False


async def test_a_server_that_refuses_logprobs_is_asked_without_them_and_the_run_goes_on() -> None:
    with JudgeServer(SummarizationBrain(), refuse_logprobs=400) as server:
        judge, scorer = scorer_for(server, "openai/gpt-5")  # max_retries=0: only the fallback can save it
        result = await scorer.run(input=SOURCE, output=SUMMARY)
        asked = [bool(r.body.get("logprobs")) for r in server.chat_requests()]
    assert result.score == 1.0
    assert judge.asks_logprobs is False
    # A and B go out at once, each may be refused once (in whatever order a loaded machine sends them);
    # each is then asked again without, and C, after the refusal, never asks: three plain replies
    assert asked[0] is True and asked.count(True) <= 2 and len(asked) == asked.count(True) + 3
    assert all(v.probability is None for v in result.preprocess_step_result.alignment)


async def test_extra_logprobs_false_turns_them_off() -> None:
    with JudgeServer(SummarizationBrain(), logprobs=0.9) as server:
        _, scorer = scorer_for(server, extra={"logprobs": False})
        result = await scorer.run(input=SOURCE, output=SUMMARY)
        assert all(r.body["logprobs"] is False and "top_logprobs" not in r.body for r in server.chat_requests())
    assert all(v.probability is None for v in result.preprocess_step_result.alignment)


async def test_a_server_that_ignores_logprobs_gives_verdicts_without_probabilities() -> None:
    with JudgeServer(SummarizationBrain(claims=2, unsupported=1)) as server:  # returns "logprobs": null
        _, scorer = scorer_for(server)
        result = await scorer.run(input=SOURCE, output=SUMMARY)
    assert result.alignment_score == 0.5
    verdicts = [*result.preprocess_step_result.alignment, *result.analyze_step_result.coverage]
    assert verdicts and all(v.probability is None for v in verdicts)
    assert "probability" not in result.model_dump(mode="json")["preprocess_step_result"]["alignment"][0]


async def test_providers_not_known_to_return_logprobs_are_not_asked() -> None:
    with JudgeServer(SummarizationBrain(), logprobs=0.9) as server:
        _, scorer = scorer_for(server, "lmstudio/test-model")  # accepts the field and returns none (lms#60)
        await scorer.run(input=SOURCE, output=SUMMARY)
        assert not any("logprobs" in r.body for r in server.chat_requests())


async def test_probabilities_survive_the_reply_cache(tmp_path) -> None:
    with JudgeServer(SummarizationBrain(claims=2, unsupported=1), logprobs=0.75) as server:
        judge = resolve_judge(ModelConfig(id="vllm/test-model", base_url=server.base_url))
        cached = CachedJudge(judge, tmp_path / "cache.db")
        first = await create_summarization_scorer(model=cached).run(input=SOURCE, output=SUMMARY)
        calls = len(server.chat_requests())
        again = await create_summarization_scorer(model=CachedJudge(judge, tmp_path / "cache.db")).run(
            input=SOURCE, output=SUMMARY
        )
        assert len(server.chat_requests()) == calls  # every reply came from the cache
    probs = [v.probability for v in first.preprocess_step_result.alignment]
    assert probs == pytest.approx([0.25, 0.75], abs=1e-4)
    # the cache keeps log-probabilities to 4 decimals: the same probabilities, to within 1e-4
    assert [v.probability for v in again.preprocess_step_result.alignment] == pytest.approx(probs, abs=1e-4)
    assert [v.probability for v in again.analyze_step_result.coverage] == pytest.approx(
        [v.probability for v in first.analyze_step_result.coverage], abs=1e-4
    )
    assert all(v.probability is not None for v in again.analyze_step_result.coverage)


def test_the_offline_judge_gives_no_probability() -> None:
    result = create_summarization_scorer(model="offline/lexical").run_sync(input=SOURCE, output=SUMMARY)
    verdicts = [*result.preprocess_step_result.alignment, *result.analyze_step_result.coverage]
    assert verdicts and all(v.probability is None for v in verdicts)


def test_a_cache_made_before_logprobs_were_kept_still_answers(tmp_path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:  # the table as it was, with one reply in it
        db.execute(
            "CREATE TABLE replies (key TEXT PRIMARY KEY, model_id TEXT NOT NULL, step TEXT NOT NULL, output TEXT "
            "NOT NULL, raw TEXT, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, created_at REAL NOT NULL)"
        )
    with JudgeServer(SummarizationBrain(), logprobs=0.75) as server:
        judge = resolve_judge(ModelConfig(id="vllm/test-model", base_url=server.base_url))
        result = create_summarization_scorer(model=CachedJudge(judge, path)).run_sync(input=SOURCE, output=SUMMARY)
        again = create_summarization_scorer(model=CachedJudge(judge, path)).run_sync(input=SOURCE, output=SUMMARY)
    assert result.preprocess_step_result.alignment[0].probability == pytest.approx(0.75, abs=1e-4)
    assert again.preprocess_step_result.alignment[0].probability == pytest.approx(0.75, abs=1e-4)


@pytest.mark.parametrize("status", [400, 403])
async def test_a_refusal_by_400_or_403_naming_logprobs_turns_them_off(status) -> None:
    with JudgeServer(SummarizationBrain(), refuse_logprobs=status) as server:
        judge, scorer = scorer_for(server, "azure/judge-deployment", api_version="2024-10-21")
        result = await scorer.run(input=SOURCE, output=SUMMARY)
    assert result.score == 1.0 and judge.asks_logprobs is False


async def test_logprobs_a_user_put_in_extra_are_the_users_and_a_refusal_of_them_is_an_error() -> None:
    from sumjudge.errors import JudgeError

    with JudgeServer(SummarizationBrain(), refuse_logprobs=400) as server:
        _, scorer = scorer_for(server, "groq/test-model", extra={"logprobs": True, "top_logprobs": 2})
        with pytest.raises(JudgeError, match="logprobs"):
            await scorer.run(input=SOURCE, output=SUMMARY)


@pytest.mark.integration
def test_provider_batch_jobs_carry_the_probabilities_as_live_calls_do(tmp_path, monkeypatch) -> None:
    import json

    from sumjudge.data.datasets import Dataset
    from sumjudge.runs.dataset import RunOutputs, run_dataset_sync
    from sumjudge.runs.provider_batch import BatchMode, ProviderRounds

    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with JudgeServer(SummarizationBrain(claims=2, unsupported=1), logprobs=0.75) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        with Dataset(str(data)) as ds:
            run_dataset_sync(
                ds, ds.validate(), spec=ScorerSpec.make("openai/test-model", {"max_questions": 4, "scale": 1.0}),
                store_path=tmp_path / "runs.db", outputs=RunOutputs(out=str(out), step_summary=False),
                batch=ProviderRounds(BatchMode(poll_interval=0.01)),
            )
        assert not server.chat_requests()  # every request went in a batch job, none live
    line = json.loads(out.read_text().splitlines()[0])
    assert [v["probability"] for v in line["verdicts"]["alignment"]] == pytest.approx([0.25, 0.75], abs=1e-4)
