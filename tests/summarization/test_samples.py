"""Repeated samples: k independent evaluations per summary, reduced to one score with its spread;
one sample is exactly today's result and cost; the cache replays all k; bad k is refused."""

from __future__ import annotations

import json
import statistics

import pytest
from click.testing import CliRunner
from scripted import answers, claims, judge, questions

from sumjudge import ModelConfig, SummarizationOptions, create_summarization_scorer
from sumjudge.cli import main
from sumjudge.errors import ConfigurationError
from sumjudge.summarization.samples import DEFAULT_SAMPLE_TEMPERATURE, SampledSummarizationResult
from sumjudge.summarization.result import SummarizationResult
from sumjudge.testing.judge_server import JudgeServer, NoisyBrain, SummarizationBrain

SOURCE = "The council approved 42 new homes on Monday. Work starts in May."
SUMMARY = "The council approved 42 homes."


def varying_judge():
    """Sample i's alignment: i + 1 of 3 claims supported (alignment 1/3, 2/3, 1 ...), coverage all yes."""

    def alignment(request):
        n = request.sample % 3 + 1
        return claims(*((part, j < n) for j, part in enumerate(("The council approved 42 homes", "42 homes", "The council"))))

    return judge(alignment, questions("Q1?", "Q2?"), answers(True, True))


async def test_one_sample_is_todays_result_at_todays_cost():
    j = varying_judge()
    result = await create_summarization_scorer(j).run(input=SOURCE, output=SUMMARY)
    assert type(result) is SummarizationResult
    assert "samples" not in result.model_dump() and "score_spread" not in result.model_dump()
    assert len(j.requests) == 3
    assert all(r.sample == 0 and r.temperature is None for r in j.requests)


async def test_k_samples_are_independent_evaluations_reduced_to_one_score():
    j = varying_judge()
    scorer = create_summarization_scorer(j, SummarizationOptions(samples=3))
    result = await scorer.run(input=SOURCE, output=SUMMARY)
    assert isinstance(result, SampledSummarizationResult)
    # Each sample asks its own alignment, its own questions and its own coverage.
    for step in ("alignment", "questions", "coverage"):
        assert sorted(r.sample for r in j.calls(step)) == [0, 1, 2]
    # A scripted judge has no temperature setting: samples are drawn at the default sampling temperature.
    assert {r.temperature for r in j.requests} == {DEFAULT_SAMPLE_TEMPERATURE}
    scores = [s.score for s in result.samples]
    assert scores == [0.33, 0.67, 1.0]
    assert result.score == round(statistics.fmean(scores), 2) == 0.67
    assert result.score_spread == pytest.approx(statistics.stdev(scores), abs=1e-4)
    assert result.alignment_score == pytest.approx(statistics.fmean([1 / 3, 2 / 3, 1.0]))
    assert result.coverage_score == 1.0
    assert result.usage.calls == 9
    assert "mean of 3 samples" in result.reason
    # Every sample's verdicts are kept; the top-level verdicts are those of the sample nearest the score.
    assert [sum(c.supported for c in s.preprocess_step_result.alignment) for s in result.samples] == [1, 2, 3]
    assert result.preprocess_step_result == result.samples[1].preprocess_step_result
    # The questions of each sample are cached for that sample: scoring the source again asks none.
    await scorer.run(input=SOURCE, output="The council approved 42 homes. Work starts in May.")
    assert len(j.calls("questions")) == 3


@pytest.mark.parametrize(("reducer", "expected"), [("median", 0.67), ("min", 0.33), ("mean", 0.67)])
async def test_the_reducer_is_selectable(reducer, expected):
    scorer = create_summarization_scorer(varying_judge(), {"samples": 3, "reducer": reducer})
    assert (await scorer.run(input=SOURCE, output=SUMMARY)).score == expected


async def test_a_judge_set_above_zero_keeps_its_own_temperature():
    j = varying_judge()

    class Configured:
        model_id = j.model_id
        config = ModelConfig(id="openai/x", temperature=0.3)
        generate = j.generate

    await create_summarization_scorer(Configured(), {"samples": 2, "sample_temperature": 1.1}).run(
        input=SOURCE, output=SUMMARY)
    assert {r.temperature for r in j.requests} == {None}
    j2 = varying_judge()
    await create_summarization_scorer(j2, {"samples": 2, "sampleTemperature": 1.1}).run(input=SOURCE, output=SUMMARY)
    assert {r.temperature for r in j2.requests} == {1.1}


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "3"])
def test_a_bad_sample_count_is_refused(bad):
    with pytest.raises(ConfigurationError, match="samples must be an integer >= 1"):
        SummarizationOptions(samples=bad)


def test_a_bad_reducer_or_temperature_is_refused():
    with pytest.raises(ConfigurationError, match="reducer must be one of mean, median, min"):
        SummarizationOptions(samples=3, reducer="max")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="sample_temperature"):
        SummarizationOptions(samples=3, sample_temperature=0)


@pytest.mark.parametrize("value", ["0", "-2"])
def test_the_cli_refuses_zero_or_negative_samples_like_max_questions(tmp_path, value):
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"source": SOURCE, "summary": SUMMARY}) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["score", str(data), "--samples", value, "--store", str(tmp_path / "r.db")])
    ref = CliRunner().invoke(main, ["score", str(data), "--max-questions", value, "--store", str(tmp_path / "r.db")])
    assert res.exit_code == ref.exit_code == 2
    assert f"Invalid value for '--samples': {value} is not in the range 1<=x<=100" in res.output


def test_the_cli_writes_every_sample_and_one_sample_lines_keep_their_shape(tmp_path):
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n", encoding="utf-8")
    out1, out3 = tmp_path / "one.jsonl", tmp_path / "three.jsonl"
    for out, extra in ((out1, []), (out3, ["--samples", "3", "--reducer", "min"])):
        res = CliRunner().invoke(main, ["score", str(data), "--model", "offline/lexical", "--out", str(out), "--quiet",
                                        "--store", str(tmp_path / "r.db"), *extra])
        assert res.exit_code == 0, res.output
    one = json.loads(out1.read_text())
    three = json.loads(out3.read_text())
    assert "samples" not in one and "score_spread" not in one
    assert three["reducer"] == "min" and len(three["samples"]) == 3
    # The offline judge is deterministic: its samples agree, and the spread says so.
    assert three["score_spread"] == 0.0 and three["score"] == one["score"]
    assert three["samples"][2]["verdicts"]["questions"] == one["verdicts"]["questions"]
    page = tmp_path / "r.html"
    CliRunner().invoke(main, ["score", str(data), "--model", "offline/lexical", "--quiet", "--samples", "3",
                              "--reducer", "min", "--store", str(tmp_path / "r.db"), "--report", str(page)])
    assert "<strong>3 samples</strong> (min of " in page.read_text(encoding="utf-8")
    runs = CliRunner().invoke(main, ["runs", "list", "--json", "--store", str(tmp_path / "r.db")]).stdout.splitlines()
    assert [json.loads(r)["options"].get("samples") for r in runs] == [3, None]  # newest first


# -- over HTTP, against the noisy judge server ------------------------------------------------------


def scorer_for(server: JudgeServer, samples: int, cache=None):
    cfg = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="x")
    return create_summarization_scorer(cfg, {"samples": samples}, cache=cache)


@pytest.mark.integration
async def test_the_cache_replays_all_k_samples_with_zero_calls(tmp_path):
    with JudgeServer(NoisyBrain(SummarizationBrain(claims=6, questions=6), flip=0.3, seed=1)) as server:
        first = await scorer_for(server, 4, cache=tmp_path / "c.db").run(input=SOURCE, output=SUMMARY)
        calls = len(server.chat_requests())
        assert calls == 4 * 3
        again = await scorer_for(server, 4, cache=tmp_path / "c.db").run(input=SOURCE, output=SUMMARY)
        assert len(server.chat_requests()) == calls, "a cached re-run reached the judge"
    skip = {"run_id": True, "usage": True, "samples": {"__all__": {"usage"}}}
    assert again.model_dump(exclude=skip) == first.model_dump(exclude=skip)
    assert again.usage.calls == 0
    # The server's draws are seeded: whatever order the samples' requests arrive in, the four
    # alignment answers are the same four, and at this seed they differ.
    assert len({s.alignment_score for s in first.samples}) > 1, "the noisy server should make the samples differ"


@pytest.mark.integration
async def test_the_spread_across_reruns_falls_as_samples_grow():
    reruns = 20
    spread = {}
    with JudgeServer(NoisyBrain(SummarizationBrain(claims=8, questions=8), flip=0.2, seed=0)) as server:
        for k in (1, 9):
            scores = [(await scorer_for(server, k).run(input=SOURCE, output=SUMMARY)).score for _ in range(reruns)]
            spread[k] = statistics.stdev(scores)
    # Averaging k independent samples divides the spread by about sqrt(k) = 3 at k = 9 (measured: 2.9-3.9
    # in three trials of 20 re-runs); 0.7 leaves room for the noise of a spread estimated from 20 re-runs.
    assert spread[9] < 0.7 * spread[1], spread


@pytest.mark.integration
async def test_samples_reach_the_servers_at_the_sampling_temperature():
    from sumjudge.judges.anthropic import AnthropicJudge
    from sumjudge.judges.providers import PROVIDERS
    from sumjudge.testing.anthropic_server import AnthropicServer

    with JudgeServer(SummarizationBrain()) as server:
        await scorer_for(server, 1).run(input=SOURCE, output=SUMMARY)
        assert {r.body["temperature"] for r in server.chat_requests()} == {0.0}  # one sample: the judge's own
        server.reset()
        await scorer_for(server, 2).run(input=SOURCE, output=SUMMARY)
        assert {r.body["temperature"] for r in server.chat_requests()} == {DEFAULT_SAMPLE_TEMPERATURE}
    with AnthropicServer(api_key="k") as server:
        cfg = ModelConfig(id="anthropic/claude-test", base_url=server.url, api_key="k")
        judge = AnthropicJudge(PROVIDERS["anthropic"], "claude-test", cfg)
        await create_summarization_scorer(judge, {"samples": 2}).run(input=SOURCE, output=SUMMARY)
        assert {r.body.get("temperature") for r in server.message_requests()} == {DEFAULT_SAMPLE_TEMPERATURE}
