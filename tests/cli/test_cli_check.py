"""`sumjudge check`: one pair from the shell, and the demo's output (item 12)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from sumjudge.cli import main

SOURCE = "The bridge opened in 1932 and cost 4 million dollars. Its architect was Ada Lind."
ROOT = Path(__file__).resolve().parents[2]


def check(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, ["check", "--model", "offline/lexical", *args], input=input)
    return result.exit_code, result.output


def test_texts_or_files_give_the_score_the_axes_every_verdict_and_the_reason(tmp_path: Path) -> None:
    src = tmp_path / "doc.txt"
    src.write_text(SOURCE, encoding="utf-8")
    summary = "The bridge opened in 1932 and cost 9 million dollars."
    code, out = check("--source", str(src), "--summary", summary)
    assert code == 0, out
    assert out.startswith("score ") and "alignment" in out and "coverage" in out
    assert "9 million dollars" in out  # the unsupported claim is shown, in full
    assert "NO " in out
    code_json, out_json = check("--source", SOURCE, "--summary", summary, "--json")
    data = json.loads(out_json)
    assert code_json == 0
    assert {"score", "alignment_score", "coverage_score", "reason", "preprocess_step_result"} <= set(data)
    assert any(not c["supported"] for c in data["preprocess_step_result"]["alignment"])
    assert f"score      {data['score']:.2f}" in out  # the same result, two forms


def test_standard_input_and_fail_under(tmp_path: Path) -> None:
    code, out = check("--source", "-", "--summary", "The bridge opened in 1932.", "--json", input=SOURCE)
    assert code == 0
    score = json.loads(out)["score"]
    assert check("--source", SOURCE, "--summary", "The bridge opened in 1932.", "--fail-under",
                 str(score + 0.01))[0] == 1
    assert check("--source", "-", "--summary", "-")[0] == 2


def test_a_bad_model_is_exit_2_with_the_reason() -> None:
    result = CliRunner().invoke(main, ["check", "--model", "nosuch/x", "--source", SOURCE, "--summary", "x"])
    assert result.exit_code == 2
    assert "nosuch" in result.output


def test_the_demo_shows_whole_verdicts_and_names_the_next_commands(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py"), "--out", str(tmp_path / "d.jsonl")],
                          capture_output=True, text=True, timeout=300, env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    unsupported = [v["claim"] for r in records for v in r["result"]["preprocess_step_result"]["alignment"]
                   if not v["supported"]]
    assert unsupported
    for claim in unsupported:  # every unsupported claim appears whole, however long
        assert f"unsupported claim: {claim}" in done.stdout
    assert "sumjudge score" in done.stdout and "--report" in done.stdout and "--model" in done.stdout


def test_an_ansi_escape_in_the_texts_is_printed_as_text_never_obeyed(tmp_path):
    import json

    from click.testing import CliRunner

    from sumjudge.cli import main

    summary = "The council approved 120 homes.\x1b[2J\x1b]0;owned\x07"
    result = CliRunner().invoke(main, ["check", "--model", "offline/lexical", "--source",
                                       "The council approved 120 homes.", "--summary", summary])
    assert result.exit_code in (0, 1), result.output
    assert "\x1b" not in result.output and "\\x1b[2J" in result.output
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": "The council approved 120 homes.", "summary": summary}) + "\n")
    store = str(tmp_path / "runs.db")
    assert CliRunner().invoke(main, ["score", str(data), "--model", "offline/lexical", "--store", store,
                                     "--quiet"]).exit_code in (0, 1)
    shown = CliRunner().invoke(main, ["runs", "show", "latest", "--worst", "1", "--store", store])
    assert shown.exit_code == 0 and "\x1b" not in shown.output and "\\x1b" in shown.output, shown.output


def test_graded_with_the_offline_judge_shows_word_support_never_a_p_value():
    from click.testing import CliRunner

    from sumjudge.cli import main

    result = CliRunner().invoke(main, ["check", "--graded", "--model", "offline/lexical", "--source",
                                       "The council approved 120 homes on Tuesday. Work starts in May.", "--summary",
                                       "The council approved 120 homes in spring, said the mayor."])
    assert result.exit_code in (0, 1), result.output
    assert "p=" not in result.output and "words=0." in result.output, result.output


def test_inline_text_longer_than_a_file_name_is_judged_as_text() -> None:
    long_summary = "The bridge opened in 1932 and its architect was Ada Lind. " * 8  # over 255 bytes, no file
    code, out = check("--source", SOURCE * 6, "--summary", long_summary)
    assert code == 0, out
    assert "File name too long" not in out and out.startswith("score ")
