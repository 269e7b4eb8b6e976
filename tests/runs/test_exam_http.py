"""Exams that can be kept, over real HTTP: `sumjudge questions` writes each source's questions once;
`score --questions` grades on them without asking the judge for questions, refuses a source the exam
lacks (or draws for it with --draw-missing), records the exam in the store; `compare` says whether two
runs sat the same exam, and warns when they did not. The Python option does the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sumjudge import SummarizationOptions, create_summarization_scorer
from sumjudge.cli import main
from sumjudge.judges.base import ModelConfig
from sumjudge.summarization.exam import Exam, ExamError
from sumjudge.summarization.prompts import PROMPT_VERSION
from sumjudge.store import RunStore
from sumjudge.testing.quoting import QuotingBrain
from sumjudge.testing.recorded import RecordedRequest

from openai_endpoint import openai_endpoint

SOURCES = [
    f"The council of Town{i} approved a budget of {100 + i} million dollars. Mayor Lind{i} opened {i + 3} schools. "
    "Work starts in March."
    for i in range(3)
]


class Redrawing(QuotingBrain):
    """A judge whose questions change with every draw (as a sampled LLM's do)."""

    draws = 0

    def __call__(self, request: RecordedRequest) -> Any:
        answer = super().__call__(request)
        if request.step == "questions":
            Redrawing.draws += 1
            answer["questions"] = [q.replace("?", f" (draw {Redrawing.draws})?") for q in answer["questions"]]
        return answer


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    with openai_endpoint(monkeypatch, Redrawing()) as srv:
        yield srv


def data(tmp: Path, sources: list[str] = SOURCES, name: str = "data.jsonl") -> Path:
    rows = [{"id": f"item-{i}-{j}", "source": s, "summary": s.split(". ")[0] + "."} for i, s in enumerate(sources)
            for j in range(2)]
    path = tmp / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def cli(tmp: Path, *args: str) -> Any:
    return CliRunner().invoke(main, [*args], catch_exceptions=False)


def score(tmp: Path, dataset: Path, out: str, *extra: str) -> Any:
    return cli(tmp, "score", str(dataset), "--model", "openai/test-model", "--store", str(tmp / "runs.db"),
               "--out", str(tmp / out), "--quiet", *extra)


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_questions_writes_one_entry_per_source_with_its_judge_prompt_version_and_seed(tmp_path, server) -> None:
    res = cli(tmp_path, "questions", str(data(tmp_path)), "--model", "openai/test-model", "--out",
              str(tmp_path / "exam.jsonl"), "--max-questions", "2")
    assert res.exit_code == 0, res.output
    entries = lines(tmp_path / "exam.jsonl")
    assert len(entries) == 3 and len(server.chat_requests(step="questions")) == 3  # one draw per distinct source
    assert all(e["judge"] == "openai/test-model" and e["prompt_version"] == PROMPT_VERSION and e["seed"] == 0
               and e["max_questions"] == 2 and len(e["questions"]) == 2 for e in entries)
    assert not server.chat_requests(step="alignment")  # no summary was judged
    assert Exam.read(tmp_path / "exam.jsonl").digest[:12] in res.output


def test_score_with_a_kept_exam_asks_no_questions_uses_the_exams_and_records_its_digest(tmp_path, server) -> None:
    dataset = data(tmp_path)
    assert cli(tmp_path, "questions", str(dataset), "--model", "openai/test-model", "--out",
               str(tmp_path / "exam.jsonl")).exit_code == 0
    exam = Exam.read(tmp_path / "exam.jsonl")
    drawn = len(server.chat_requests(step="questions"))
    res = score(tmp_path, dataset, "out.jsonl", "--questions", str(tmp_path / "exam.jsonl"))
    assert res.exit_code == 0, res.output
    assert len(server.chat_requests(step="questions")) == drawn  # not one more draw
    for line in lines(tmp_path / "out.jsonl"):
        source = next(s for s in SOURCES if s.startswith(line["verdicts"]["questions"][0].split("that ")[1][:20]))
        assert line["verdicts"]["questions"] == exam.get(source).questions
        assert line["options"]["exam"] == exam.digest
    with RunStore(tmp_path / "runs.db") as store:
        assert store.get_run("latest").options["exam"] == exam.digest


def test_a_source_the_exam_lacks_is_refused_before_any_call_or_drawn_with_draw_missing(tmp_path, server) -> None:
    assert cli(tmp_path, "questions", str(data(tmp_path, SOURCES[:2], "two.jsonl")), "--model", "openai/test-model",
               "--out", str(tmp_path / "exam.jsonl")).exit_code == 0
    before = len(server.chat_requests())
    res = score(tmp_path, data(tmp_path), "out.jsonl", "--questions", str(tmp_path / "exam.jsonl"))
    assert res.exit_code == 2 and "not in the exam" in res.output and "'item-2-0'" in res.output
    assert len(server.chat_requests()) == before  # refused before any judge call
    res = score(tmp_path, data(tmp_path), "out.jsonl", "--questions", str(tmp_path / "exam.jsonl"), "--draw-missing")
    assert res.exit_code == 0, res.output
    assert len(server.chat_requests(step="questions")) == 2 + 1  # only the missing source was drawn


def test_compare_says_two_runs_sat_the_same_exam_and_warns_when_they_did_not(tmp_path, server) -> None:
    dataset = data(tmp_path)
    assert cli(tmp_path, "questions", str(dataset), "--model", "openai/test-model", "--out",
               str(tmp_path / "exam.jsonl")).exit_code == 0
    for out in ("kept-a.jsonl", "kept-b.jsonl"):
        assert score(tmp_path, dataset, out, "--questions", str(tmp_path / "exam.jsonl"), "--fresh").exit_code == 0
    assert score(tmp_path, dataset, "drawn.jsonl").exit_code == 0
    same = cli(tmp_path, "compare", str(tmp_path / "kept-a.jsonl"), str(tmp_path / "kept-b.jsonl"))
    assert same.exit_code == 0 and "both runs sat the same exam" in same.stdout and "warning" not in same.output
    other = cli(tmp_path, "compare", str(tmp_path / "kept-a.jsonl"), str(tmp_path / "drawn.jsonl"))
    assert other.exit_code == 0, other.output
    assert "sumjudge: warning: the runs did not sit the same exam" in other.stderr
    assert "6 of 6 paired items were asked other questions" in other.stderr


def test_the_python_option_takes_an_exam_path_and_refuses_a_source_it_lacks(tmp_path, server) -> None:
    assert cli(tmp_path, "questions", str(data(tmp_path)), "--model", "openai/test-model", "--out",
               str(tmp_path / "exam.jsonl")).exit_code == 0
    model = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test")
    scorer = create_summarization_scorer(model=model, options=SummarizationOptions(questions=tmp_path / "exam.jsonl"))
    drawn = len(server.chat_requests(step="questions"))
    result = scorer.run_sync(input=SOURCES[1], output="The council of Town1 approved a budget.")
    assert result.preprocess_step_result.questions == Exam.read(tmp_path / "exam.jsonl").get(SOURCES[1]).questions
    assert len(server.chat_requests(step="questions")) == drawn
    with pytest.raises(ExamError, match="not in the exam"):
        scorer.run_sync(input="A source nobody drew questions for.", output="A summary.")
    drawing = create_summarization_scorer(model=model, options={"questions": str(tmp_path / "exam.jsonl"),
                                                                "drawMissing": True})
    assert drawing.run_sync(input="A source nobody drew questions for.", output="A summary.").preprocess_step_result.questions


def test_the_comparison_page_says_whether_the_runs_sat_the_same_exam(tmp_path, server) -> None:
    dataset = data(tmp_path)
    assert cli(tmp_path, "questions", str(dataset), "--model", "openai/test-model", "--out",
               str(tmp_path / "exam.jsonl")).exit_code == 0
    assert score(tmp_path, dataset, "kept.jsonl", "--questions", str(tmp_path / "exam.jsonl")).exit_code == 0
    assert score(tmp_path, dataset, "drawn.jsonl").exit_code == 0
    res = cli(tmp_path, "compare", str(tmp_path / "kept.jsonl"), str(tmp_path / "drawn.jsonl"), "--report",
              str(tmp_path / "c.html"))
    assert res.exit_code == 0, res.output
    page = (tmp_path / "c.html").read_text(encoding="utf-8")
    assert 'data-exam="differs"' in page and "did not sit the same exam" in page
