"""DeepEval: ``evaluate()`` with sumjudge's metric on the bundled examples, the test results read back
both from what ``evaluate`` returns and from the test-run file DeepEval exports
(``DisplayConfig(results_folder=...)``), equal to sumjudge's own results; ``assert_test`` fails a
summary below the threshold; a failing judge is an error, never a score. Telemetry is off
(tests/conftest.py) and the network guard fails any connection beyond 127.0.0.1."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from framework_cases import JUDGE_DOWN, example_rows, failing_judge, no_network, own_results

pytest.importorskip("deepeval")
from deepeval import assert_test, evaluate  # noqa: E402
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig  # noqa: E402
from deepeval.test_case import LLMTestCase  # noqa: E402

from sumjudge.integrations.deepeval import SumjudgeSummarizationMetric, summarization_metric  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_network")
NAME = "Summarization (sumjudge)"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # DeepEval keeps its .deepeval/ folder in the working directory


def cases(rows: list[dict[str, Any]]) -> list[LLMTestCase]:
    return [LLMTestCase(input=r["source"], actual_output=r["summary"], name=r["id"]) for r in rows]


def quiet(folder: Path | None = None) -> dict[str, Any]:
    return {"display_config": DisplayConfig(print_results=False, show_indicator=False,
                                            results_folder=str(folder) if folder else None),
            "cache_config": CacheConfig(write_cache=False, use_cache=False)}


@pytest.mark.parametrize("run_async", [True, False])
def test_the_test_results_show_sumjudges_score_and_reason(tmp_path: Path, run_async: bool) -> None:
    rows = example_rows()
    expected = own_results(rows)
    metric = summarization_metric(threshold=0.5, model="offline/lexical")
    result = evaluate(test_cases=cases(rows), metrics=[metric], async_config=AsyncConfig(run_async=run_async),
                      **quiet(tmp_path / "results"))

    assert isinstance(metric, SumjudgeSummarizationMetric)
    assert {t.name for t in result.test_results} == set(expected)
    for test in result.test_results:
        want = expected[test.name]
        (data,) = test.metrics_data
        assert data.name == NAME and data.error is None
        assert data.score == want.score and data.reason == want.reason
        assert data.success is (want.score >= 0.5) and test.success is data.success
        assert data.evaluation_model == "offline/lexical"
        for v in want.preprocess_step_result.alignment:
            assert v.claim in data.verbose_logs
    # the copies DeepEval makes of the metric share its one scorer: each source's questions asked once
    assert len(metric.scorer._questions._done) == len({r["source"] for r in rows})

    (exported,) = (tmp_path / "results").rglob("*.json")
    saved = json.loads(exported.read_text(encoding="utf-8"))
    saved_cases = saved.get("testCases") or saved.get("test_cases")
    assert len(saved_cases) == len(rows)
    for case in saved_cases:
        want = expected[case["name"]]
        (data,) = case.get("metricsData") or case.get("metrics_data")
        assert data["score"] == want.score and data["reason"] == want.reason


def test_assert_test_passes_a_faithful_summary_and_fails_a_half_one() -> None:
    rows = {r["id"]: r for r in example_rows()}
    expected = own_results(list(rows.values()))
    metric = summarization_metric(threshold=0.9, model="offline/lexical")
    good = max(expected, key=lambda i: expected[i].score)
    bad = min(expected, key=lambda i: expected[i].score)
    assert expected[good].score >= 0.9 > expected[bad].score
    assert_test(cases([rows[good]])[0], [metric], run_async=False)
    with pytest.raises(AssertionError, match="Summarization"):
        assert_test(cases([rows[bad]])[0], [metric], run_async=False)


def test_measure_directly_sets_score_reason_and_breakdown() -> None:
    (row,) = [r for r in example_rows() if r["id"] == "library-half"]
    want = own_results([row])["library-half"]
    metric = summarization_metric(model="offline/lexical")
    assert metric.measure(cases([row])[0]) == want.score
    assert (metric.score, metric.reason) == (want.score, want.reason)
    assert metric.score_breakdown == {"alignment": want.alignment_score, "coverage": want.coverage_score}
    assert metric.result.score == want.score


@pytest.mark.parametrize("run_async", [True, False])
def test_a_failing_judge_is_an_error_on_the_test_result_not_a_score(run_async: bool) -> None:
    rows = example_rows()[:2]
    metric = summarization_metric(model=failing_judge())
    with pytest.raises(Exception, match=re.escape(JUDGE_DOWN)):
        evaluate(test_cases=cases(rows), metrics=[metric], async_config=AsyncConfig(run_async=run_async), **quiet())
    result = evaluate(test_cases=cases(rows), metrics=[metric], async_config=AsyncConfig(run_async=run_async),
                      error_config=ErrorConfig(ignore_errors=True), **quiet())
    for test in result.test_results:
        (data,) = test.metrics_data
        assert JUDGE_DOWN in data.error
        assert data.score is None and data.success is False and test.success is False
