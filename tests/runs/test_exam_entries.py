"""Hostile use: an exam written or edited by hand that no run
could sit as meant (an entry with no questions, blank questions, more than the 100 a source may have,
``max_questions: -5``, ``seed: -1``) is refused with one line and exit 2 before any judge call, by every
command that reads one and by the library; ``questions`` bounds its flags as ``score`` does."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from scripted import ScriptedJudge

from sumjudge.summarization.spec import ScorerSpec
from sumjudge import SummarizationOptions
from sumjudge.cli import main
from sumjudge.data.datasets import Dataset
from sumjudge.errors import JudgeOutputError
from sumjudge.guards.limits import MAX_CONCURRENCY, MAX_QUESTIONS
from sumjudge.summarization.exam import Exam, ExamError, source_sha256
from sumjudge.summarization.prompts import PROMPT_VERSION
from sumjudge.summarization.verdicts import QUESTIONS_STEP
from sumjudge.runs.exam import draw_exam

SOURCE = "The council approved 120 homes on Tuesday. Building starts in May."
SUMMARY = "The council approved 120 homes."


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    text = result.output + (getattr(result, "stderr", "") or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), text
    assert "Traceback" not in text, text
    return result.exit_code, text


def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n")
    return path


def entry(**change: Any) -> dict[str, Any]:
    return {"source_sha256": source_sha256(SOURCE), "questions": ["Did the council approve 120 homes?"],
            "judge": "offline/lexical", "prompt_version": PROMPT_VERSION, "seed": 0, "max_questions": 10, **change}


def exam_file(tmp_path: Path, **change: Any) -> Path:
    path = tmp_path / "exam.jsonl"
    path.write_text(json.dumps(entry(**change)) + "\n", encoding="utf-8")
    return path


BAD = [
    ({"questions": []}, "no questions"),
    ({"questions": [""]}, "question 1 is blank"),
    ({"questions": ["Did it?", "   "]}, "question 2 is blank"),
    ({"questions": ["\u0000"]}, "control character"),
    ({"questions": ["Did it?\u0000"]}, "control character"),
    ({"questions": [f"Did fact {i} hold?" for i in range(5000)], "max_questions": 10}, f"the {MAX_QUESTIONS}"),
    ({"questions": [f"Did fact {i} hold?" for i in range(11)], "max_questions": 10}, "more than its max_questions"),
    ({"questions": ["Did it?", "\u200b\u200b \ufeff"]}, "question 2 is blank"),
    ({"questions": ["Did it hold?", "did it  hold"]}, "question 2 repeats question 1"),
    ({"questions": ["?"]}, "question 1 has no word"),
    ({"questions": ["Did it?", "\u0301\u0308 ?"]}, "question 2 has no word"),
    ({"questions": ["Did " + "it " * 40_000 + "hold?"]}, "a question may have"),
    ({"max_questions": -5}, "max_questions is from 1"),
    ({"max_questions": 10**6}, "max_questions is from 1"),
    ({"seed": -1}, "seed is 0 or more"),
]


@pytest.mark.parametrize(("change", "said"), BAD)
def test_score_refuses_an_exam_no_run_could_sit_with_one_line_and_exit_2(tmp_path: Path, change: dict[str, Any],
                                                                         said: str) -> None:
    store = tmp_path / "runs.db"
    code, text = invoke("score", str(data_file(tmp_path)), "--model", "offline/lexical", "--store", str(store),
                        "--questions", str(exam_file(tmp_path, **change)), "--quiet")
    assert code == 2, text
    assert said in text and "line 1" in text, text
    assert len(set(text.strip().splitlines())) == 1, text
    assert not store.exists() or "scored" not in invoke("runs", "list", "--store", str(store))[1]


@pytest.mark.parametrize(("change", "said"), BAD)
def test_the_library_refuses_the_same_exams(tmp_path: Path, change: dict[str, Any], said: str) -> None:
    with pytest.raises(ExamError, match=said.replace("(", r"\(")):
        SummarizationOptions(questions=exam_file(tmp_path, **change))


def test_a_good_exam_still_reads_and_scores(tmp_path: Path) -> None:
    assert Exam.read(exam_file(tmp_path)).entries[0].questions == ["Did the council approve 120 homes?"]
    code, text = invoke("score", str(data_file(tmp_path)), "--model", "offline/lexical", "--store",
                        str(tmp_path / "runs.db"), "--questions", str(exam_file(tmp_path)), "--quiet")
    assert code == 0, text


@pytest.mark.parametrize(("flag", "value"), [("--concurrency", "100000000"), ("--concurrency", str(MAX_CONCURRENCY + 1)),
                                             ("--max-questions", str(MAX_QUESTIONS + 1)), ("--max-questions", "0"),
                                             ("--seed", "-1")])
def test_questions_bounds_its_flags_before_any_work(tmp_path: Path, flag: str, value: str) -> None:
    out = tmp_path / "exam.jsonl"
    code, text = invoke("questions", str(data_file(tmp_path)), "--model", "offline/lexical", "--out", str(out),
                        flag, value)
    assert code == 2 and flag in text, text
    assert not out.exists()


def test_questions_at_the_documented_bound_is_taken(tmp_path: Path) -> None:
    out = tmp_path / "exam.jsonl"
    code, text = invoke("questions", str(data_file(tmp_path)), "--model", "offline/lexical", "--out", str(out),
                        "--concurrency", str(MAX_CONCURRENCY))
    assert code == 0, text
    assert Exam.read(out).entries[0].questions


def test_a_draw_that_gives_no_questions_writes_no_exam(tmp_path: Path) -> None:
    judge = ScriptedJudge(**{QUESTIONS_STEP: {"questions": ["  ", ""]}})
    with Dataset(str(data_file(tmp_path))) as dataset, pytest.raises(JudgeOutputError, match="no questions for the source of item 'a'"):
        asyncio.run(draw_exam(dataset, spec=ScorerSpec("scripted/judge", SummarizationOptions.coerce({"max_questions": 2})),
                              judge_factory=lambda: judge))


def test_max_questions_holds_with_an_exam(tmp_path: Path) -> None:
    exam = exam_file(tmp_path, questions=["Did the council approve 120 homes?", "Does building start in May?"])
    out = tmp_path / "out.jsonl"
    code, text = invoke("score", str(data_file(tmp_path)), "--model", "offline/lexical", "--store",
                        str(tmp_path / "runs.db"), "--questions", str(exam), "--max-questions", "1", "--out", str(out),
                        "--quiet")
    assert code == 0, text
    line = json.loads(out.read_text())
    assert line["verdicts"]["questions"] == ["Did the council approve 120 homes?"] and line["options"]["max_questions"] == 1


def test_drawn_questions_are_cleaned_cut_and_kept_once(tmp_path: Path) -> None:
    from sumjudge.guards.limits import MAX_QUESTION_CHARS

    long = "Did " + "the council say " * 2000 + "yes?"
    drawn = ["Did\u0000 the council \u001b[31mapprove 120 homes?", "DID the  council [31mapprove 120 homes", "\u200b \u200b",
             long]
    judge = ScriptedJudge(**{QUESTIONS_STEP: {"questions": drawn}})
    with Dataset(str(data_file(tmp_path))) as dataset:
        exam, _ = asyncio.run(draw_exam(dataset, spec=ScorerSpec("scripted/judge", SummarizationOptions.coerce({"max_questions": 5})),
                                     judge_factory=lambda: judge))
    kept = exam.entries[0].questions
    assert kept[0] == "Did the council [31mapprove 120 homes?" and len(kept) == 2
    assert len(kept[1]) <= MAX_QUESTION_CHARS and kept[1].endswith("say?")


def test_questions_says_in_one_line_when_the_judge_draws_only_a_nul(tmp_path: Path) -> None:
    from sumjudge.testing.judge_server import JudgeServer

    out = tmp_path / "exam.jsonl"
    with JudgeServer(lambda request: {"questions": ["\u0000", "\u200b"]}) as server:
        result = CliRunner().invoke(main, ["questions", str(data_file(tmp_path)), "--model", "vllm/test-model",
                                           "--out", str(out), "--timeout", "5"], env={"VLLM_BASE_URL": server.base_url})
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "drew no questions" in result.output and "validation error" not in result.output.lower(), result.output
    assert not out.exists()


def test_questions_never_writes_its_exam_over_what_a_run_of_the_store_reads(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the default store, .sumjudge/runs.db, is here
    first = data_file(tmp_path)
    assert invoke("score", str(first), "--model", "offline/lexical", "--quiet")[0] == 0
    other = tmp_path / "e.jsonl"
    other.write_text(first.read_text())
    kept = first.read_bytes()
    code, text = invoke("questions", str(other), "--model", "offline/lexical", "--out", str(first))
    assert code == 2 and "the data file of run" in text, text
    assert first.read_bytes() == kept


def test_an_exam_line_with_a_line_separator_inside_a_question_is_one_entry(tmp_path: Path) -> None:
    path = tmp_path / "exam.jsonl"
    question = "Did the council\u2028approve\u0085the homes?"
    path.write_text(json.dumps(entry(questions=[question]), ensure_ascii=False) + "\r\n", encoding="utf-8")
    (kept,) = SummarizationOptions(questions=path).questions.entries  # type: ignore[union-attr]
    assert kept.questions == [question]
