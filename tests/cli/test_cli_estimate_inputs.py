"""`sumjudge estimate` reads what `score` reads, with the same flags, says which context window it
assumed and why, scales with --samples, and knows the offline judge spends nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main

ROWS = [
    {"id": str(i), "source": f"The council of town {i} approved {i + 3} homes near the river in spring. " * 3,
     "summary": f"Town {i} approved {i + 3} homes."}
    for i in range(4)
]


def _estimate(*args: str) -> dict:
    result = CliRunner().invoke(main, ["estimate", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _csv(path: Path, delimiter: str, encoding: str) -> Path:
    lines = [delimiter.join(["id", "source", "summary"])]
    lines += [delimiter.join([r["id"], r["source"], r["summary"]]) for r in ROWS]
    path.write_text("\n".join(lines) + "\n", encoding=encoding)
    return path


def test_tsv_parquet_encoding_and_delimiter_forecast_like_jsonl(tmp_path: Path) -> None:
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    base = _estimate(str(jsonl), "--model", "openai/gpt-4o-mini")
    tsv = _csv(tmp_path / "d.tsv", "\t", "utf-8")
    semicolons = _csv(tmp_path / "d.csv", ";", "cp1252")
    assert _estimate(str(tsv), "--model", "openai/gpt-4o-mini")["calls"] == base["calls"]
    got = _estimate(str(semicolons), "--model", "openai/gpt-4o-mini", "--encoding", "cp1252", "--delimiter", ";")
    assert got["items"] == 4 and got["calls"] == base["calls"]
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    parquet = tmp_path / "d.parquet"
    pd.DataFrame(ROWS).to_parquet(parquet)
    assert _estimate(str(parquet), "--model", "openai/gpt-4o-mini")["prompt_tokens"] == base["prompt_tokens"]


def test_samples_multiply_calls_and_tokens(tmp_path: Path) -> None:
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    one = _estimate(str(jsonl), "--model", "openai/gpt-4o-mini")
    three = _estimate(str(jsonl), "--model", "openai/gpt-4o-mini", "--samples", "3")
    assert three["calls"] == 3 * one["calls"]
    assert three["prompt_tokens"] == 3 * one["prompt_tokens"]
    assert three["calls_by_step"] == {k: 3 * v for k, v in one["calls_by_step"].items()}


def test_the_offline_judge_spends_no_tokens_and_costs_nothing(tmp_path: Path) -> None:
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    got = _estimate(str(jsonl), "--model", "offline/lexical")
    # it calls no model and has no context window; it said "judge calls 273" and a window
    assert (got["calls"], got["context_window"], got["context_window_note"]) == (0, None, None)
    assert (got["prompt_tokens"], got["completion_tokens"], got["price_usd"]) == (0, 0, 0.0)
    text = CliRunner().invoke(main, ["estimate", str(jsonl), "--model", "offline/lexical"]).output
    assert "unknown" not in text and "cost               nothing" in text
    assert "context window  " not in text and "judge calls" not in text and "tokens counted" not in text


def test_the_window_and_where_it_came_from_are_shown(tmp_path: Path) -> None:
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    ollama = _estimate(str(jsonl), "--model", "ollama/qwen2.5:7b")
    assert (ollama["context_window"], ollama["context_window_origin"]) == (4096, "provider default")
    assert "Ollama" in ollama["context_window_note"]
    told = _estimate(str(jsonl), "--model", "ollama/qwen2.5:7b", "--context-window", "32768")
    assert (told["context_window"], told["context_window_origin"]) == (32768, "context_window")
    text = CliRunner().invoke(main, ["estimate", str(jsonl), "--model", "ollama/qwen2.5:7b"]).output
    assert "context window     4,096 tokens (provider default: Ollama" in text


@pytest.mark.parametrize("command", ["score", "check", "compare", "estimate"])
def test_help_lists_exit_codes_and_every_option_has_help(command: str) -> None:
    import click

    from sumjudge.cli import main as group

    text = CliRunner().invoke(main, [command, "--help"], terminal_width=120).output
    assert "Exit codes:" in text and "  0 " in text and "  2 " in text
    cmd = group.get_command(None, command)
    undocumented = [p.name for p in cmd.params if isinstance(p, click.Option) and not p.help]
    if command in ("score", "estimate"):
        assert undocumented == []


def test_score_help_names_every_format_it_reads() -> None:
    text = " ".join(CliRunner().invoke(main, ["score", "--help"], terminal_width=200).output.split())
    for ext in (".jsonl", ".json", ".csv", ".tsv", ".parquet"):
        assert ext in text, ext
    estimate_text = " ".join(CliRunner().invoke(main, ["estimate", "--help"], terminal_width=200).output.split())
    assert ".tsv" in estimate_text and ".parquet" in estimate_text and "--encoding" in estimate_text


def test_a_model_on_your_own_hardware_has_no_price_but_its_tokens(tmp_path: Path) -> None:
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    got = _estimate(str(jsonl), "--model", "ollama/qwen2.5:7b")
    assert got["prompt_tokens"] > 0 and got["price_usd"] == 0.0
