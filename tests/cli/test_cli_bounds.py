"""Hostile use: a count flag that asks for the impossible, a
``nan`` where a number is compared, a codec that is not a text encoding: exit 2 with one line, before
any file is read, any store made or any judge called."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.errors import ConfigurationError
from sumjudge.guards.limits import MAX_CLAIMS, MAX_QUESTIONS, MAX_SAMPLES
from sumjudge.summarization import SummarizationOptions

HUGE = str(10**20)


def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "source": "The cat sat on the mat.", "summary": "The cat sat."}) + "\n")
    return path


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    text = result.output + (getattr(result, "stderr", "") or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), text
    assert "Traceback" not in text, text
    return result.exit_code, text


SCORE_FLAGS = [("--max-questions", HUGE), ("--concurrency", str(10**9)), ("--samples", str(10**6)),
               ("--workers", str(10**6)), ("--poll-interval", "1e12"), ("--poll-interval", "nan"),
               ("--fail-under", "nan"), ("--min-item-score", "nan"), ("--sample-temperature", "nan"),
               ("--timeout", "nan")]


@pytest.mark.parametrize(("flag", "value"), SCORE_FLAGS)
def test_score_refuses_an_impossible_flag_before_any_work(tmp_path: Path, flag: str, value: str) -> None:
    store = tmp_path / "runs.db"
    code, text = invoke("score", str(data_file(tmp_path)), "--model", "offline/lexical", "--store", str(store),
                        "--quiet", flag, value)
    assert code == 2 and flag in text, text
    assert not store.exists()


@pytest.mark.parametrize("args", [
    ("estimate", "{data}", "--max-claims", HUGE), ("estimate", "{data}", "--max-questions", HUGE),
    ("estimate", "{data}", "--samples", HUGE), ("estimate", "{data}", "--probe", "all", "--per-kind", HUGE),
    ("probe", "{data}", "--per-kind", HUGE), ("probe", "{data}", "--concurrency", HUGE),
    ("probe", "{data}", "--max-questions", HUGE), ("probe", "{data}", "--timeout", "nan"),
    ("check", "--source", "The cat sat on the mat.", "--summary", "The cat sat.", "--max-questions", HUGE),
    ("check", "--source", "The cat sat on the mat.", "--summary", "The cat sat.", "--sample-temperature", "nan"),
])
def test_every_command_bounds_its_count_flags(tmp_path: Path, args: tuple[str, ...]) -> None:
    code, text = invoke(*(a.format(data=data_file(tmp_path)) for a in args), "--model", "offline/lexical")
    assert code == 2 and args[-2] in text, text


def test_agreement_bounds_concurrency_and_questions(tmp_path: Path) -> None:
    for flag in ("--concurrency", "--max-questions"):
        code, text = invoke("agreement", str(data_file(tmp_path)), flag, HUGE)
        assert code == 2 and flag in text, text


def test_the_maxima_are_in_the_help() -> None:
    code, text = invoke("score", "--help")
    assert code == 0
    assert f"at most {MAX_QUESTIONS}" in text and f"at most {MAX_SAMPLES}" in text and "at most 1024" in text


@pytest.mark.parametrize(("name", "maximum"), [("max_questions", MAX_QUESTIONS), ("max_claims", MAX_CLAIMS),
                                               ("samples", MAX_SAMPLES)])
def test_the_library_options_have_the_same_maxima(name: str, maximum: int) -> None:
    SummarizationOptions(**{name: maximum})
    with pytest.raises(ConfigurationError, match=f"<= {maximum}"):
        SummarizationOptions(**{name: 10**20})


@pytest.mark.parametrize("codec", ["rot13", "base64", "zlib"])
def test_a_codec_that_is_not_a_text_encoding_is_one_line(tmp_path: Path, codec: str) -> None:
    store = tmp_path / "runs.db"
    code, text = invoke("score", str(data_file(tmp_path)), "--model", "offline/lexical", "--store", str(store),
                        "--encoding", codec)
    assert code == 2 and "not a text encoding" in text and "LookupError" not in text, text
    code, text = invoke("estimate", str(data_file(tmp_path)), "--encoding", codec)
    assert code == 2 and "not a text encoding" in text, text


@pytest.mark.parametrize("args", [("runs", "list", "--limit", HUGE), ("runs", "show", "latest", "--worst", HUGE),
                                  ("runs", "show", "latest", "--best", HUGE)])
def test_a_listing_count_past_its_bound_is_refused_not_a_traceback(tmp_path: Path, args: tuple[str, ...]) -> None:
    code, text = invoke(*args, "--store", str(tmp_path / "runs.db"))
    assert code == 2 and args[-2] in text and "1000000" in text, text
