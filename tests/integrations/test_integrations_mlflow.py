"""MLflow 3: ``mlflow.genai.evaluate`` with sumjudge's scorer on the bundled examples, in a local
sqlite tracking store; the feedbacks read back from the store (a fresh client, each row's trace and
its assessments), equal to sumjudge's own results; the run's metrics their means."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from framework_cases import (  # noqa: F401 - fixtures among them
    JUDGE_DOWN,
    example_rows,
    exam_for,
    failing_judge,
    fresh_mlflow,
    mlflow_template,
    no_network,
    own_results,
)

pytest.importorskip("mlflow.genai")
import mlflow  # noqa: E402
import pandas as pd  # noqa: E402

from sumjudge import create_summarization_scorer  # noqa: E402
from sumjudge.errors import ConfigurationError  # noqa: E402
from sumjudge.integrations.mlflow import summarization_scorer  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_network")
NAMES = ("sumjudge", "sumjudge_alignment", "sumjudge_coverage")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mlflow_template: Path) -> str:
    """A local sqlite tracking store (a copy of a migrated empty one), an experiment in it."""
    uri = fresh_mlflow(monkeypatch, mlflow_template, tmp_path / "mlflow.db")
    mlflow.set_experiment("sumjudge-tests")
    yield uri
    mlflow.set_tracking_uri(None)


def read_back(uri: str, run_id: str) -> dict[str, dict[str, Any]]:
    """Each row's source (its trace's inputs) -> the assessments on its trace, by name, from the store."""
    client = mlflow.MlflowClient(tracking_uri=uri)
    experiment = client.get_run(run_id).info.experiment_id
    traces = client.search_traces(locations=[experiment], filter_string=f"metadata.mlflow.sourceRun = '{run_id}'")
    out: dict[str, dict[str, Any]] = {}
    for trace in traces:
        request = json.loads(trace.data.request) if isinstance(trace.data.request, str) else trace.data.request
        summary = trace.data.response
        summary = json.loads(summary) if isinstance(summary, str) and summary.startswith('"') else summary
        key = (request["source"] if isinstance(request, dict) and "source" in request else str(request), summary)
        out[key] = {a.name: a for a in trace.info.assessments if a.name in NAMES}
    return out


def test_the_store_shows_sumjudges_feedback_for_every_row(store: str) -> None:
    rows = example_rows()
    expected = own_results(rows)
    data = pd.DataFrame([{"inputs": {"source": r["source"]}, "outputs": r["summary"]} for r in rows])
    result = mlflow.genai.evaluate(data=data, scorers=[summarization_scorer(model="offline/lexical")])

    stored = read_back(store, result.run_id)
    assert len(stored) == len(rows)
    for r in rows:
        want = expected[r["id"]]
        feedback = stored[(r["source"], r["summary"])]
        assert set(feedback) == set(NAMES)
        assert feedback["sumjudge"].value == want.score
        assert feedback["sumjudge"].rationale == want.reason
        assert feedback["sumjudge_alignment"].value == want.alignment_score
        assert feedback["sumjudge_coverage"].value == want.coverage_score
        assert feedback["sumjudge_coverage"].rationale.startswith(f"coverage {want.coverage_score:.2f}")
        meta = feedback["sumjudge"].metadata
        assert meta["model"] == "offline/lexical"
        assert json.loads(meta["questions"]) == list(want.preprocess_step_result.questions)
        assert [c["supported"] for c in json.loads(meta["alignment"])] == [
            v.supported for v in want.preprocess_step_result.alignment]
        assert feedback["sumjudge"].error is None
    metrics = mlflow.MlflowClient(tracking_uri=store).get_run(result.run_id).data.metrics
    assert metrics["sumjudge/mean"] == pytest.approx(sum(w.score for w in expected.values()) / len(rows))


def test_traces_made_by_predict_fn_are_scored_and_options_pass_through(store: str) -> None:
    rows = [r for r in example_rows() if r["id"].endswith("-half")]
    exam = exam_for(rows)
    expected = own_results(rows, scale=10, questions=exam)
    by_source = {r["source"]: r["summary"] for r in rows}
    judged = create_summarization_scorer("offline/lexical", {"scale": 10, "questions": exam})

    def summarize(source: str) -> str:  # the app under test: each call is traced by MLflow
        return by_source[source]

    result = mlflow.genai.evaluate(data=[{"inputs": {"source": r["source"]}} for r in rows],
                                   predict_fn=summarize, scorers=[summarization_scorer(judged)])
    stored = read_back(store, result.run_id)
    for r in rows:
        feedback = stored[(r["source"], r["summary"])]
        assert feedback["sumjudge"].value == expected[r["id"]].score
        assert feedback["sumjudge"].rationale == expected[r["id"]].reason
        assert json.loads(feedback["sumjudge"].metadata["questions"]) == [exam.entries[0].questions[0]]
    with pytest.raises(ConfigurationError, match="keeps its own options"):
        summarization_scorer(judged, scale=5)


def test_a_failing_judge_is_an_error_in_the_store_not_a_score(store: str) -> None:
    rows = example_rows()[:2]
    data = [{"inputs": {"source": r["source"]}, "outputs": r["summary"]} for r in rows]
    result = mlflow.genai.evaluate(data=data, scorers=[summarization_scorer(model=failing_judge())])
    stored = read_back(store, result.run_id)
    assert len(stored) == len(rows)
    for feedback in stored.values():
        assert set(feedback) == set(NAMES)
        for name in NAMES:
            assert feedback[name].value is None
            assert JUDGE_DOWN in feedback[name].error.error_message
    metrics = mlflow.MlflowClient(tracking_uri=store).get_run(result.run_id).data.metrics
    assert "sumjudge/mean" not in metrics  # no row is counted as a 0
