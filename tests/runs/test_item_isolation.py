"""One item's failure never touches another: items 1 and 3.

Five summaries share one source, so their runs share one question request. When the first
alignment call is refused (HTTP 400), that item fails, and the run that was asking for the
shared questions is cancelled with it. The other four must still be scored (they ask for the
questions themselves), in the library and in the batch command, and nothing exits 130.
"""

from __future__ import annotations

import json
import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge import ModelConfig, create_summarization_scorer, run_evals, run_evals_sync
from sumjudge.evals import EvalResult
from sumjudge.cli import main
from sumjudge.testing.judge_server import Fault, JudgeServer

pytestmark = pytest.mark.integration

SOURCE = "The council approved 120 homes on Tuesday. Building starts in May. The plan cost 3 million euros."
SUMMARIES = [f"The council approved {n} homes." for n in (120, 121, 122, 123, 124)]


def model_for(server: JudgeServer, **settings) -> ModelConfig:
    return ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test", **settings)


@pytest.mark.parametrize("attempt", range(6))  # the failure raced the shared request in most runs
def test_a_refused_call_fails_only_its_own_item(attempt: int) -> None:
    with JudgeServer() as server:
        server.script(Fault.status(400, "This request is refused"), step="alignment")
        scorer = create_summarization_scorer(model=model_for(server, max_retries=0))
        data = [{"input": SOURCE, "output": s} for s in SUMMARIES]
        result = run_evals_sync(data, [scorer], concurrency=5, on_error="record")
    assert result.summary.total_items == 5
    failed = [item for item in result.items if item.error]
    assert len(failed) == 1
    assert "HTTP 400" in failed[0].error and "refused" in failed[0].error
    scored = [item for item in result.items if not item.error]
    assert len(scored) == 4
    for item in scored:
        res = item.results["summarization-scorer"]
        assert res.preprocess_step_result.questions  # each got its questions, asked again if need be


def test_the_batch_command_records_the_others_and_does_not_say_interrupted(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{i}", "source": SOURCE, "summary": s}) + "\n"
                            for i, s in enumerate(SUMMARIES)), encoding="utf-8")
    with JudgeServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        server.script(Fault.status(400, "This request is refused"), step="alignment")
        out = tmp_path / "out.jsonl"
        result = CliRunner().invoke(
            main,
            ["score", str(data), "--model", "openai/test-model", "--concurrency", "5",
             "--out", str(out), "--store", str(tmp_path / "runs.db"), "--allow-errors", "1"],
            catch_exceptions=False,
        )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in lines] == [f"s{i}" for i in range(5)]
    assert sum(r["error"] is not None for r in lines) == 1
    assert all(r["score"] is not None for r in lines if r["error"] is None)


def test_a_long_retry_after_fails_only_the_call_that_got_it(tmp_path: Path) -> None:
    """A 429 asking for an hour: that call fails at once, and the others are not paused for it."""
    with JudgeServer() as server:
        server.script(Fault.rate_limit(retry_after=3600), step="alignment")
        scorer = create_summarization_scorer(model=model_for(server, max_concurrency=4, max_retry_time=5))
        data = [{"input": f"{SOURCE} Item {i}.", "output": SUMMARIES[0]} for i in range(8)]

        async def bounded() -> EvalResult:  # a frozen batch fails here instead of hanging the suite
            return await asyncio.wait_for(run_evals(data, [scorer], concurrency=4, on_error="record"), 60)

        result = asyncio.run(bounded())
    failed = [item for item in result.items if item.error]
    assert len(failed) == 1
    assert "3600" in failed[0].error and "budget" in failed[0].error
    assert result.summary.total_items - len(failed) == 7
