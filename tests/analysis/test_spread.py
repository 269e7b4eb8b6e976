"""Where a sampled score's spread comes from: samples on a fixed draw of the questions against samples
that redraw it. The split itself on made-up samples, then runs over real HTTP: --question-draws shares
draws among the samples, a kept exam holds them fixed, and without either the run says it cannot split."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sumjudge import create_summarization_scorer
from sumjudge.analysis.spread import spread_split
from sumjudge.cli import main
from sumjudge.judges.base import ModelConfig
from sumjudge.store.records import SampleOutcome, ScoredItem, Verdicts
from sumjudge.testing.brains import NoisyBrain
from sumjudge.testing.judge_server import JudgeServer
from sumjudge.testing.quoting import QuotingBrain
from sumjudge.testing.recorded import RecordedRequest


def item(*groups: tuple[str, list[float]]) -> ScoredItem:
    samples = [
        SampleOutcome(index=i, score=score, alignment_score=1.0, coverage_score=score, reason="r",
                      verdicts=Verdicts(alignment=[], questions=[question], coverage=[]))
        for i, (question, score) in enumerate((q, s) for q, scores in groups for s in scores)
    ]
    return ScoredItem(id="x", score=0.5, alignment_score=1, coverage_score=0.5, reason="r", samples=samples,
                      reducer="mean", score_spread=0.1)


def test_scores_that_move_only_with_the_questions_are_all_from_the_questions() -> None:
    split = spread_split([item(("Q1?", [0.5, 0.5]), ("Q2?", [1.0, 1.0]))])
    assert split is not None and split.question_share == 1.0 and split.verdicts == 0.0
    assert "100% from the questions drawn, 0% from the verdicts" in split.line()


def test_scores_that_move_only_with_the_verdicts_are_all_from_the_verdicts() -> None:
    split = spread_split([item(("Q1?", [0.4, 0.6]), ("Q2?", [0.4, 0.6]))])
    assert split is not None and split.question_share == 0.0 and split.verdicts == pytest.approx(0.02)


def test_one_exam_puts_it_all_on_the_verdicts_and_own_draws_cannot_be_split() -> None:
    fixed = spread_split([item(("Q1?", [0.4, 0.6, 0.5]))])
    assert fixed is not None and "all of it from the verdicts" in fixed.line()
    own = spread_split([item(("Q1?", [0.4]), ("Q2?", [0.6]), ("Q3?", [0.5]))])
    assert own is not None and own.question_share is None and "cannot be split" in own.line()


class Redrawing(QuotingBrain):
    """Questions that change with every draw: each a different share of them answered."""

    def __init__(self) -> None:
        super().__init__(questions=3)
        self.draws = 0

    def __call__(self, request: RecordedRequest) -> Any:
        answer = super().__call__(request)
        if request.step == "questions":
            self.draws += 1
            answer["questions"] = [f"{q} (draw {self.draws})" for q in answer["questions"]][: 1 + self.draws % 3]
        return answer


SOURCE = "The council approved a budget. The mayor opened three schools. Work starts in March."
ROWS = [{"id": f"i{i}", "source": SOURCE.replace("three", str(i + 3)), "summary": "The council approved a budget."}
        for i in range(3)]


def run_score(tmp: Path, server: JudgeServer, monkeypatch: pytest.MonkeyPatch, *extra: str) -> Any:
    data = tmp / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    return CliRunner().invoke(main, ["score", str(data), "--model", "openai/test-model", "--store",
                                     str(tmp / "runs.db"), "--samples", "4", *extra], catch_exceptions=False)


def test_question_draws_share_draws_among_samples_and_the_run_says_where_the_spread_comes_from(tmp_path, monkeypatch):
    with JudgeServer(NoisyBrain(Redrawing(), flip=0.3, seed=1)) as server:
        res = run_score(tmp_path, server, monkeypatch, "--question-draws", "2")
        assert res.exit_code == 0, res.output
        assert len(server.chat_requests(step="questions")) == 2 * len(ROWS)  # 2 draws per source, not 4
    assert "from the questions drawn" in res.output and "from the verdicts (2 draws of questions" in res.output


def test_without_draws_held_fixed_the_run_says_it_cannot_split(tmp_path, monkeypatch):
    with JudgeServer(NoisyBrain(Redrawing(), flip=0.3, seed=1)) as server:
        res = run_score(tmp_path, server, monkeypatch)
    assert res.exit_code == 0, res.output
    assert "cannot be split into questions and verdicts" in res.output


def test_a_kept_exam_puts_the_whole_spread_on_the_verdicts(tmp_path, monkeypatch):
    with JudgeServer(NoisyBrain(Redrawing(), flip=0.3, seed=1)) as server:
        data = tmp_path / "data.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        assert CliRunner().invoke(main, ["questions", str(data), "--model", "openai/test-model", "--out",
                                         str(tmp_path / "exam.jsonl")]).exit_code == 0
        res = run_score(tmp_path, server, monkeypatch, "--questions", str(tmp_path / "exam.jsonl"))
    assert res.exit_code == 0, res.output
    assert "all of it from the verdicts: every sample sat the same questions" in res.output


def test_the_python_option_shares_draws(monkeypatch) -> None:
    with JudgeServer(Redrawing()) as server:
        model = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test")
        scorer = create_summarization_scorer(model=model, options={"samples": 4, "questionDraws": 2})
        result = scorer.run_sync(input=SOURCE, output="The council approved a budget.")
        assert len(server.chat_requests(step="questions")) == 2
    asked = [tuple(s.preprocess_step_result.questions) for s in result.samples]
    assert asked[0] == asked[2] and asked[1] == asked[3] and asked[0] != asked[1]
