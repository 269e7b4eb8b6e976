"""Graded axes (``SummarizationOptions(graded=True)``, ``--graded``): each axis the mean probability
of its verdicts, a verdict without one counting as its yes or no; the spec's counted formula stays
the default, and the result, its reason and the run's options say which was used. The scorer with a
scripted judge; the CLI (score, check, gates, compare, probe) over real HTTP on 127.0.0.1 to the test
server, whose verdict tokens carry the probability a test chooses."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from scripted import judge, questions

from sumjudge import SummarizationOptions, create_summarization_scorer
from sumjudge.cli import main
from sumjudge.errors import ConfigurationError
from sumjudge.testing.judge_server import JudgeServer, SummarizationBrain

SOURCE = "The council approved 120 new homes on Monday. Construction starts in March. The mayor is Ana Ruiz."
SUMMARY = "The council approved 120 homes; work starts in May."


def reader_like_judge():
    """A judge that sets probabilities itself (as the reader does): two of three claims and both
    answers carry one; the third claim (supported) has none."""
    alignment = {"alignment": [
        {"claim": "The council approved 120 homes.", "supported": True, "reason": "r", "probability": 0.9},
        {"claim": "Work starts in May.", "supported": False, "reason": "r", "probability": 0.2},
        {"claim": "It was the council.", "supported": True, "reason": "r"},
    ]}  # fmt: skip

    def coverage(request):
        qs = request.inputs.questions
        return {"coverage": [
            {"question": qs[0], "answered": True, "reason": "r", "probability": 0.6},
            {"question": qs[1], "answered": False, "reason": "r", "probability": 0.1},
        ]}  # fmt: skip

    return judge(alignment, questions("Were 120 homes approved?", "Does work start in March?"), coverage)


def test_graded_axes_are_mean_probabilities_with_the_boolean_where_a_verdict_has_none() -> None:
    result = create_summarization_scorer(reader_like_judge(), {"graded": True}).run_sync(SOURCE, SUMMARY)
    assert result.graded is True
    assert result.alignment_score == pytest.approx((0.9 + 0.2 + 1.0) / 3, abs=1e-4)
    assert result.coverage_score == pytest.approx((0.6 + 0.1) / 2, abs=1e-4)
    assert result.score == 0.35
    assert "graded: mean verdict probabilities, 4 of 5 verdicts have one" in result.reason
    assert result.model_dump(mode="json")["graded"] is True


def test_the_default_keeps_the_counted_formula_even_when_verdicts_have_probabilities() -> None:
    result = create_summarization_scorer(reader_like_judge()).run_sync(SOURCE, SUMMARY)
    assert result.graded is False
    assert result.alignment_score == pytest.approx(2 / 3, abs=1e-4) and result.coverage_score == 0.5 and result.score == 0.5
    assert "graded" not in result.reason
    # the probabilities are kept all the same (coverage verdicts are matched to the questions by position)
    assert [a.probability for a in result.analyze_step_result.coverage] == [0.6, 0.1]


def test_samples_are_graded_too() -> None:
    scorer = create_summarization_scorer(reader_like_judge(), SummarizationOptions(graded=True, samples=2))
    result = scorer.run_sync(SOURCE, SUMMARY)
    assert result.graded and all(s.graded for s in result.samples)
    assert result.alignment_score == pytest.approx(0.7, abs=1e-4) and result.score == 0.35


def test_graded_must_be_a_bool() -> None:
    with pytest.raises(ConfigurationError, match="graded"):
        SummarizationOptions(graded="yes")  # type: ignore[arg-type]


# -- the CLI, over HTTP ------------------------------------------------------------------------------


@pytest.fixture
def server(monkeypatch):
    # every verdict is yes, each written with probability 0.8: counted 1.0, graded 0.8
    with JudgeServer(SummarizationBrain(claims=2, questions=3), logprobs=0.8) as srv:
        monkeypatch.setenv("VLLM_BASE_URL", srv.base_url)
        monkeypatch.delenv("SUMJUDGE_MODEL", raising=False)
        yield srv


def rows(path: Path, n: int = 3) -> Path:
    data = [{"id": f"doc-{i}", "source": f"Source {i}: the council approved {i} homes.", "summary": f"S {i}."}
            for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
    return path


def cli(tmp: Path, *args: str):
    return CliRunner().invoke(main, [*args, "--store", str(tmp / "runs.db")], catch_exceptions=False)


def run_ids(tmp: Path) -> list[str]:
    with sqlite3.connect(tmp / "runs.db") as db:
        return [r[0] for r in db.execute("SELECT id FROM runs ORDER BY created_at")]


@pytest.mark.integration
def test_score_graded_writes_graded_scores_and_says_so_in_the_options(tmp_path, server) -> None:
    data = rows(tmp_path / "d.jsonl")
    out = tmp_path / "graded.jsonl"
    res = cli(tmp_path, "score", str(data), "--model", "vllm/test-model", "--graded", "--out", str(out), "-q")
    assert res.exit_code == 0, res.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(line["options"]["graded"] is True for line in lines)
    assert all(line["score"] == 0.8 and line["alignment_score"] == pytest.approx(0.8, abs=1e-4) for line in lines)
    assert all(v["probability"] == pytest.approx(0.8, abs=1e-4) for line in lines for v in line["verdicts"]["alignment"])
    # the option is part of the run's key: the same command without it is another run, counted
    plain = tmp_path / "plain.jsonl"
    res = cli(tmp_path, "score", str(data), "--model", "vllm/test-model", "--out", str(plain), "-q")
    assert res.exit_code == 0, res.output
    assert len(run_ids(tmp_path)) == 2
    assert all(json.loads(line)["score"] == 1.0 and "graded" not in json.loads(line)["options"]
               for line in plain.read_text().splitlines())
    # and runs export writes what --out wrote
    graded_run = run_ids(tmp_path)[0]
    exported = cli(tmp_path, "runs", "export", graded_run)
    first = json.loads(exported.stdout.splitlines()[0])
    assert first["options"]["graded"] is True and first["verdicts"]["coverage"][0]["probability"] == pytest.approx(0.8, abs=1e-4)


@pytest.mark.integration
def test_a_gate_holds_against_the_graded_score(tmp_path, server) -> None:
    data = rows(tmp_path / "d.jsonl")
    args = ["score", str(data), "--model", "vllm/test-model", "--fail-under", "0.9", "-q"]
    assert cli(tmp_path, *args).exit_code == 0  # counted: 1.0
    graded = cli(tmp_path, *args, "--graded")
    assert graded.exit_code == 1 and "0.8" in graded.output


@pytest.mark.integration
def test_compare_pairs_graded_runs_and_refuses_a_graded_run_beside_a_counted_one(tmp_path, server) -> None:
    data = rows(tmp_path / "d.jsonl")
    for extra in (["--graded"], ["--graded", "--max-questions", "10", "--fresh"], []):
        assert cli(tmp_path, "score", str(data), "--model", "vllm/test-model", "-q", *extra).exit_code == 0
    graded_a, graded_b, counted = run_ids(tmp_path)
    same = cli(tmp_path, "compare", graded_a, graded_b)
    assert same.exit_code == 0, same.output
    assert "3 paired items" in same.stdout
    mixed = cli(tmp_path, "compare", graded_a, counted)
    assert mixed.exit_code == 2 and "graded" in mixed.output


@pytest.mark.integration
def test_check_graded_prints_and_returns_the_graded_result(server) -> None:
    args = ["check", "--source", "The council approved 12 homes.", "--summary", "It approved homes.",
            "--model", "vllm/test-model"]
    res = CliRunner().invoke(main, [*args, "--graded", "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    result = json.loads(res.stdout)
    assert result["graded"] is True and result["score"] == 0.8
    shown = CliRunner().invoke(main, [*args, "--graded"], catch_exceptions=False)
    assert "(graded: mean verdict probabilities)" in shown.stdout and "yes p=0.80" in shown.stdout


@pytest.mark.integration
def test_probe_runs_graded_and_records_the_option(tmp_path, server) -> None:
    from probe_rows import ROWS

    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r.model_dump()) + "\n" for r in ROWS if r.id != "arabic"), encoding="utf-8")
    res = cli(tmp_path, "probe", str(data), "--model", "vllm/test-model", "--graded", "--per-kind", "1", "--json", "-q")
    assert res.exit_code == 0, res.output
    table = json.loads(res.stdout)
    assert table  # the table came out of graded runs
    with sqlite3.connect(tmp_path / "runs.db") as db:
        options = [json.loads(r[0]) for r in db.execute("SELECT options FROM runs")]
    assert options and all(o.get("graded") is True for o in options)
