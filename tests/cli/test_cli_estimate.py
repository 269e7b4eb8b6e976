"""`sumjudge estimate`: the calls and tokens of a run, forecast without calling the judge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge import create_summarization_scorer
from sumjudge.cli import main
from sumjudge.judges.base import ModelConfig
from sumjudge.testing.judge_server import JudgeServer, SummarizationBrain

pytestmark = pytest.mark.integration

SOURCES = [
    " ".join(f"Item {k}: the council of town {i} approved {k * 3 + i} homes near the river in spring." for k in range(40))
    for i in range(3)
]


def dataset(tmp_path: Path) -> tuple[Path, list[dict]]:
    rows = [
        {"id": f"{i}-{j}", "source": s, "summary": f"Town {i} approved homes. Version {j} adds that it was spring."}
        for i, s in enumerate(SOURCES)
        for j in range(4)
    ]
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path, rows


def estimate(*args: str) -> dict:
    result = CliRunner().invoke(main, ["estimate", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_forecast_matches_the_calls_and_prompt_tokens_spent(tmp_path: Path) -> None:
    path, rows = dataset(tmp_path)
    with JudgeServer(SummarizationBrain(questions=10)) as server:
        forecast = estimate(str(path), "--model", "openai/test-model")
        assert server.chat_calls == 0  # nothing was sent
        scorer = create_summarization_scorer(model=ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="t"))
        for r in rows:
            scorer.run_sync(input=r["source"], output=r["summary"])
        spent = server.usage
    assert forecast["calls"] == server.chat_calls == 2 * len(rows) + len(SOURCES)
    assert forecast["calls_by_step"] == {"alignment": 12, "coverage": 12, "questions": 3}
    assert abs(forecast["prompt_tokens"] / spent["prompt_tokens"] - 1) < 0.15
    assert forecast["long_sources"] == 0 and forecast["items"] == len(rows)


def test_a_small_window_forecasts_the_long_path(tmp_path: Path) -> None:
    path, _ = dataset(tmp_path)
    forecast = estimate(str(path), "--model", "openai/test-model", "--context-window", "1024")
    assert forecast["long_sources"] == 12 and forecast["context_window"] == 1024
    assert forecast["calls_by_step"]["claims"] == 12 and forecast["calls_by_step"]["questions"] > 3


def test_price_from_the_maintained_table_or_a_note(tmp_path: Path) -> None:
    path, _ = dataset(tmp_path)
    unknown = estimate(str(path), "--model", "openai/test-model")
    assert unknown["price_usd"] is None and unknown["price_note"]
    pytest.importorskip("genai_prices")
    known = estimate(str(path), "--model", "openai/gpt-4o-mini")
    expected = (known["prompt_tokens"] * 0.15 + known["completion_tokens"] * 0.6) / 1e6
    assert known["price_usd"] == pytest.approx(expected, rel=0.01)
    text = CliRunner().invoke(main, ["estimate", str(path), "--model", "openai/gpt-4o-mini"]).output
    assert "judge calls" in text and "$" in text and "prompt tokens" in text
