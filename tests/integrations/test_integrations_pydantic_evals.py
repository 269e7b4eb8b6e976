"""pydantic-evals: ``Dataset.evaluate`` with sumjudge's evaluator on the bundled examples, read back
from the report (its cases' scores and the table it prints), equal to sumjudge's own results."""

from __future__ import annotations

from typing import Any

import pytest
from framework_cases import JUDGE_DOWN, example_rows, exam_for, failing_judge, own_results

pytest.importorskip("pydantic_evals")
from pydantic_evals import Case, Dataset  # noqa: E402

from sumjudge import create_summarization_scorer  # noqa: E402
from sumjudge.errors import ConfigurationError  # noqa: E402
from sumjudge.integrations.pydantic_evals import SummarizationEvaluator, summarization_evaluator  # noqa: E402


def dataset(rows: list[dict[str, Any]], evaluator: Any) -> Dataset:
    cases = [Case(name=r["id"], inputs={"source": r["source"], "id": r["id"]}) for r in rows]
    return Dataset(name="examples", cases=cases, evaluators=[evaluator])


def summaries(rows: list[dict[str, Any]]) -> Any:
    by_id = {r["id"]: r["summary"] for r in rows}

    async def summarize(inputs: dict[str, str]) -> str:  # the task under test: here, the bundled summaries
        return by_id[inputs["id"]]

    return summarize


def test_the_report_shows_sumjudges_score_and_reasons_for_every_case() -> None:
    rows = example_rows()
    expected = own_results(rows)
    evaluator = summarization_evaluator(model="offline/lexical")
    report = dataset(rows, evaluator).evaluate_sync(summaries(rows), progress=False)

    assert isinstance(evaluator, SummarizationEvaluator)
    assert {c.name for c in report.cases} == set(expected) and not report.failures
    for case in report.cases:
        want = expected[case.name]
        assert case.evaluator_failures == []
        assert case.scores["sumjudge"].value == want.score
        assert case.scores["sumjudge"].reason == want.reason
        assert case.scores["sumjudge_alignment"].value == want.alignment_score
        assert case.scores["sumjudge_coverage"].value == want.coverage_score
        unsupported = [v.claim for v in want.preprocess_step_result.alignment if not v.supported]
        assert all(claim in case.scores["sumjudge_alignment"].reason for claim in unsupported[:5])
        unanswered = [v.question for v in want.analyze_step_result.coverage if not v.answered]
        assert all(q in case.scores["sumjudge_coverage"].reason for q in unanswered[:5])
    # the questions of each source were asked once, by the one scorer the evaluator keeps
    assert len(evaluator.scorer._questions._done) == len({r["source"] for r in rows})

    table = report.render(include_reasons=True, width=400)
    assert "sumjudge_coverage" in table and expected["library-half"].reason.split(":")[0] in table
    spec = report.cases[0].scores["sumjudge"].source
    assert spec.arguments["model"] == "offline/lexical"


def test_options_and_a_kept_exam_pass_through() -> None:
    rows = [r for r in example_rows() if r["id"].startswith("library-")]
    exam = exam_for(rows)
    expected = own_results(rows, scale=10, questions=exam)
    report = dataset(rows, summarization_evaluator(model="offline/lexical", scale=10, questions=exam)).evaluate_sync(
        summaries(rows), progress=False)
    for case in report.cases:
        assert case.scores["sumjudge"].value == expected[case.name].score
        assert case.scores["sumjudge"].reason == expected[case.name].reason
        assert expected[case.name].preprocess_step_result.questions in ([], [exam.entries[0].questions[0]])


def test_a_scorer_made_already_is_used_as_it_is_and_refuses_other_options() -> None:
    scorer = create_summarization_scorer("offline/lexical", {"max_questions": 3})
    assert summarization_evaluator(scorer).scorer is scorer
    with pytest.raises(ConfigurationError, match="keeps its own options"):
        summarization_evaluator(scorer, max_questions=5)
    with pytest.raises(ConfigurationError, match="unknown options"):
        summarization_evaluator("offline/lexical", max_question=5)


def test_a_failing_judge_is_an_evaluator_failure_in_the_report_not_a_score() -> None:
    rows = example_rows()[:2]
    report = dataset(rows, summarization_evaluator(model=failing_judge())).evaluate_sync(summaries(rows), progress=False)
    for case in report.cases:
        assert case.scores == {}
        (failure,) = case.evaluator_failures
        assert JUDGE_DOWN in failure.error_message
    assert "RuntimeError" in report.render(include_errors=True, width=300) or JUDGE_DOWN in report.render(
        include_errors=True, width=300)


def test_a_source_that_is_not_text_fails_the_case_naming_it() -> None:
    report = Dataset(name="bad", cases=[Case(name="n", inputs={"source": 42})],
                     evaluators=[summarization_evaluator(model="offline/lexical")]).evaluate_sync(
        lambda inputs: "A summary.", progress=False)
    (failure,) = report.cases[0].evaluator_failures
    assert "must be text" in failure.error_message and "'source'" in failure.error_message
