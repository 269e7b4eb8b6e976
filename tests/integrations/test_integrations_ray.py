"""Ray Data on a local 2-CPU Ray instance: the scores of run_evals, failures recorded per row, the job finishes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sumjudge import ModelConfig, create_summarization_scorer, run_evals_sync
from sumjudge.data.tables import ROW_COLUMNS
from sumjudge.testing.judge_server import Fault, JudgeServer, RecordedRequest, SummarizationBrain

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
from sumjudge.integrations.ray import score_dataset  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.integration]

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR") or ROOT.parent / "shared" / "data")


@pytest.fixture(scope="module")
def local_ray() -> Any:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway local instance: no token needed
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=256 * 1024**2, log_to_driver=False)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    try:
        yield ray
    finally:
        ray.shutdown()


def example_rows() -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (ROOT / "examples" / "summaries.jsonl").read_text().splitlines() if line.strip()]
    rows = [{"id": r["id"], "source": r["source"], "summary": r["summary"]} for r in rows]
    rows.append({"id": "empty-source", "source": "", "summary": "A summary of nothing."})
    return rows


def scores_by_id(rows: list[dict[str, Any]], model: Any) -> dict[str, float]:
    scorer = create_summarization_scorer(model=model)
    result = run_evals_sync([{"id": r["id"], "input": r["source"], "output": r["summary"]} for r in rows], [scorer])
    frame = result.to_pandas()
    return dict(zip(frame["id"], frame["score"]))


def test_offline_judge_gives_the_scores_of_run_evals_and_records_bad_rows(local_ray: Any) -> None:
    rows = example_rows()
    expected = scores_by_id(rows, "offline/lexical")
    bad = {"id": "no-summary", "source": "A source.", "summary": None}
    ds = ray.data.from_items([*rows, bad], override_num_blocks=4)

    out = score_dataset(ds, model="offline/lexical", concurrency=2, batch_size=8).to_pandas()

    assert len(out) == len(rows) + 1
    assert set(ROW_COLUMNS) <= set(out.columns) and {"source", "summary"} <= set(out.columns)
    by_id = out.set_index("id")
    assert {i: by_id.loc[i, "score"] for i in expected} == expected
    assert by_id.loc["empty-source", "score"] == 0.0 and "source is empty" in by_id.loc["empty-source", "reason"]
    assert "column 'summary' must be text, got a missing value" in by_id.loc["no-summary", "error"]
    assert by_id.loc[[i for i in expected], "error"].isna().all()


@pytest.mark.skipif(not (DATA / "summeval_summaries.jsonl").exists(), reason="SummEval data not found (set SUMJUDGE_DATA_DIR)")
def test_summeval_rows_score_as_run_evals_does(local_ray: Any) -> None:
    docs = {d["doc_id"]: d["source"] for d in map(json.loads, (DATA / "summeval_docs.jsonl").read_text().splitlines())}
    summaries = [json.loads(line) for line in (DATA / "summeval_summaries.jsonl").read_text().splitlines()[:160]]
    rows = [{"id": f"{s['doc_id']}/{s['system_id']}", "source": docs[s["doc_id"]], "summary": s["summary"]} for s in summaries]
    expected = scores_by_id(rows, "offline/lexical")
    out = score_dataset(ray.data.from_items(rows, override_num_blocks=2), model="offline/lexical", concurrency=2).to_pandas()
    assert dict(zip(out["id"], out["score"])) == expected
    assert out["error"].isna().all()


def test_a_judge_call_that_keeps_failing_is_recorded_for_its_row_and_the_job_finishes(local_ray: Any) -> None:
    brain = SummarizationBrain()

    def faulty(request: RecordedRequest) -> Any:
        return Fault.server_error(503) if "POISONED" in request.prompt else brain(request)

    rows = [{"id": f"r{i}", "source": f"Source number {i} states a fact.", "summary": f"Summary {i}."} for i in range(12)]
    rows[5]["summary"] = "POISONED summary."
    with JudgeServer(faulty) as server:
        config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="x", max_retries=1, max_retry_time=5)
        out = score_dataset(ray.data.from_items(rows, override_num_blocks=2), model=config, concurrency=2,
                            batch_size=4).to_pandas()
        served = server.chat_calls

    by_id = out.set_index("id")
    assert len(out) == 12
    assert "503" in by_id.loc["r5", "error"] and by_id.loc[["r5"], "score"].isna().all()
    others = by_id.drop(index="r5")
    assert others["error"].isna().all()
    # the brain's verdicts: 3 claims all supported, 4 questions all answered
    assert (others["score"] == 1.0).all() and (others["question_count"] == 4).all()
    assert served >= 3 * 11
