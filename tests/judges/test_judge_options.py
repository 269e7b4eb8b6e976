"""``--judge-option KEY=VALUE`` and ``$SUMJUDGE_JUDGE_OPTIONS``: a judge's settings from the shell, checked
once before any work. The reader's model is scripted here (its P(yes) fixed), so no model runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.errors import ConfigurationError
from sumjudge.judges.base import ModelConfig
from sumjudge.judges.next_token import YesNoAnswer
from sumjudge.judges.options import OPTIONS_ENV_VAR, judge_options
from sumjudge.summarization import reader
from sumjudge.summarization.reader.judge import ReaderJudge

SOURCE = "The bridge opened in 1932 and cost 4 million dollars. Its architect was Ada Lind."


class Scripted:
    def __init__(self, p: float) -> None:
        self.p = p

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        return [YesNoAnswer(p_yes=self.p, prompt_tokens=10, evaluated=10) for _ in prompts]


@pytest.fixture
def gguf(tmp_path: Path) -> Path:
    path = tmp_path / "model.gguf"
    path.write_bytes(b"GGUF")
    return path


@pytest.fixture
def configs(monkeypatch: pytest.MonkeyPatch) -> list[ModelConfig]:
    """The reader made with a scripted model (P(yes) = 0.6); the configs it was made with."""
    made: list[ModelConfig] = []

    def create(name: str, config: ModelConfig) -> ReaderJudge:
        made.append(config)
        return ReaderJudge(name, config, llm=Scripted(0.6))  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "create_reader_judge", create)
    return made


def _check(gguf: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, ["check", "--model", f"local/reader:{gguf}", "--source", SOURCE,
                                     "--summary", "The bridge opened in 1932.", "--max-questions", "1", *args], env=env)


def test_the_options_reach_the_judge_typed(gguf: Path, configs: list[ModelConfig]) -> None:
    plain = _check(gguf)
    assert plain.exit_code == 0, plain.output
    assert "yes p=0.60" in plain.output and "threshold 0.50" in plain.output
    stricter = _check(gguf, "--judge-option", "threshold=0.7", "--judge-option", "n_threads=1")
    assert stricter.exit_code == 0, stricter.output
    assert "NO  p=0.60" in stricter.output and "threshold 0.70" in stricter.output
    assert configs[-1].extra == {"threshold": 0.7, "n_threads": 1}


def test_the_environment_gives_options_and_a_flag_wins(gguf: Path, configs: list[ModelConfig]) -> None:
    result = _check(gguf, env={OPTIONS_ENV_VAR: "threshold=0.3, n_threads=2"})
    assert result.exit_code == 0, result.output
    assert "threshold 0.30" in result.output and configs[-1].extra == {"threshold": 0.3, "n_threads": 2}
    _check(gguf, "--judge-option", "threshold=0.2", env={OPTIONS_ENV_VAR: "threshold=0.3"})
    assert configs[-1].extra == {"threshold": 0.2}


@pytest.mark.parametrize("option", ["bogus=1", "threshold=abc", "threshold=2", "n_threads=0", "n_threads=1.5",
                                    "layout=sideways", "no-equals-sign"])
def test_an_unknown_key_or_a_bad_value_is_one_line_naming_the_known_keys_and_exit_2(
    gguf: Path, configs: list[ModelConfig], option: str,
) -> None:
    result = _check(gguf, "--judge-option", option)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sumjudge: error:")
    if "=" in option:
        assert "known keys:" in lines[0] and "n_threads" in lines[0] and "threshold" in lines[0]
    assert configs == []  # refused before the judge was made


def test_a_bad_option_in_the_environment_is_refused_too(gguf: Path, configs: list[ModelConfig]) -> None:
    result = _check(gguf, env={OPTIONS_ENV_VAR: "n_thread=2"})
    assert result.exit_code == 2 and "n_thread" in result.output and "known keys:" in result.output
    assert configs == []


@pytest.mark.parametrize("command", [
    ["score", "DATA"], ["probe", "DATA"], ["questions", "DATA", "--out", "exam.jsonl"],
    ["agreement", "DATA", "--human-field", "h"],
])
def test_every_command_that_judges_takes_the_options(tmp_path: Path, command: list[str]) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text('{"source": "a b c.", "summary": "a b.", "h": 1}\n', encoding="utf-8")
    args = [str(data) if a == "DATA" else str(tmp_path / a) if a.endswith(".jsonl") else a for a in command]
    result = CliRunner().invoke(main, [*args, "--model", "offline/lexical", "--judge-option", "n_threads=2"])
    assert result.exit_code == 2, result.output
    assert "an offline judge takes none" in result.output and "known keys: none" in result.output
    assert not (tmp_path / ".sumjudge").exists()


def test_the_keys_by_kind_of_judge(gguf: Path) -> None:
    assert judge_options("local/smollm2", ["n_ctx=2048"], environ={}) == {"n_ctx": 2048}
    with pytest.raises(ConfigurationError, match="known keys: max_items, max_string_chars, n_ctx, n_threads"):
        judge_options("local/smollm2", ["threshold=0.3"], environ={})
    # over HTTP any key goes on to the provider, a value that reads as JSON as that value
    assert judge_options("openai/gpt-4o-mini", ["top_k=5", "stop=[\"x\"]", "user=me"], environ={}) == {
        "top_k": 5, "stop": ["x"], "user": "me"}
    assert judge_options(f"local/reader:{gguf}", [], environ={}) == {}


def test_options_that_name_the_request_fields_or_are_not_finite_are_refused_in_one_line(tmp_path: Path) -> None:
    for given, named in ((["model=gpt-other"], "model"), (['messages=[{"role": "user", "content": "x"}]'], "messages"),
                         (['response_format={"type": "text"}'], "response_format"), (["tools=[]"], "tools")):
        with pytest.raises(ConfigurationError, match=f"^judge options for openai/gpt-4o-mini: {named} cannot be set"):
            judge_options("openai/gpt-4o-mini", given, environ={})
    for value in ("NaN", "Infinity", "-Infinity", "[1, NaN]"):
        with pytest.raises(ConfigurationError, match="NaN and infinity are not values a judge takes"):
            judge_options("openai/gpt-4o-mini", [f"temperature={value}"], environ={})
    for extra in ({"Model": "gpt-other"}, {"messages": []}, {"temperature": float("nan")}):  # the library's boundary
        with pytest.raises(ValueError, match="cannot be set as an option|NaN and infinity"):
            ModelConfig(id="openai/gpt-4o-mini", extra=extra)
    data = tmp_path / "d.jsonl"
    data.write_text('{"source": "a b c.", "summary": "a b."}\n', encoding="utf-8")
    for option in ("model=gpt-other", "temperature=NaN"):
        result = CliRunner().invoke(main, ["score", str(data), "--model", "vllm/test-model", "--store",
                                           str(tmp_path / "runs.db"), "--judge-option", option],
                                    env={"VLLM_BASE_URL": "http://127.0.0.1:9/v1"})
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    assert not (tmp_path / "runs.db").exists()


def test_a_run_is_resumed_only_under_the_same_judge_options(tmp_path: Path) -> None:
    from sumjudge.testing.brains import SummarizationBrain
    from sumjudge.testing.judge_server import JudgeServer

    data = tmp_path / "d.jsonl"
    data.write_text('{"id": "a", "source": "The bridge opened in 1932.", "summary": "The bridge opened in 1932."}\n',
                    encoding="utf-8")

    def run(server: JudgeServer, *options: str) -> Any:
        flags = [f for o in options for f in ("--judge-option", o)]
        return CliRunner().invoke(main, ["score", str(data), "--model", "vllm/test-model", "--store",
                                         str(tmp_path / "runs.db"), "--quiet", "--timeout", "5", *flags],
                                  env={"VLLM_BASE_URL": server.base_url})

    with JudgeServer(SummarizationBrain(claims=1, questions=1)) as server:
        assert run(server).exit_code == 0
        first = server.chat_calls
        assert run(server).exit_code == 0 and server.chat_calls == first  # the same command: resumed, no call
        assert run(server, "temperature=1.5").exit_code == 0
        assert server.chat_calls > first  # other settings: a run of its own, every item asked again
        asked = [r.body.get("temperature") for r in server.chat_requests()[first:]]
        assert asked and all(t == 1.5 for t in asked)
    import sqlite3

    with sqlite3.connect(tmp_path / "runs.db") as db:
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2
