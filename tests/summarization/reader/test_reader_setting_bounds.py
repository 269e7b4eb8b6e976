"""Every size and count the reader (and llama.cpp under it) takes has a bound, refused by the key's name
before any model is loaded: ``n_ctx=99999999999`` asked llama.cpp for a key-value cache that grew to
20 GB until the machine killed the process."""

from __future__ import annotations

import pytest

from sumjudge.errors import ConfigurationError
from sumjudge.guards import limits
from sumjudge.summarization.reader.settings import check_options

from cli_invoke import invoke

HUGE = "99999999999"


@pytest.mark.parametrize("key", ["n_ctx", "n_threads", "n_threads_batch", "max_items", "max_string_chars",
                                 "state_cache_mb", "seed", "passages", "window", "max_sentences", "state_disk_mb",
                                 "alternatives"])
def test_a_size_past_its_bound_is_refused_naming_the_key(key: str) -> None:
    with pytest.raises(ConfigurationError, match=rf"\b{key}={HUGE} is out of range"):
        check_options({key: HUGE})


def test_the_bounds_are_the_guards_limits() -> None:
    assert check_options({"n_ctx": str(limits.MAX_CONTEXT_TOKENS)}) == {"n_ctx": limits.MAX_CONTEXT_TOKENS}
    with pytest.raises(ConfigurationError, match=f"512 to {limits.MAX_CONTEXT_TOKENS}"):
        check_options({"n_ctx": str(limits.MAX_CONTEXT_TOKENS + 1)})


@pytest.mark.parametrize("pair, named", [("passages=abc", "passages"), ("threshold=high", "threshold"),
                                         ("n_ctx=4.5", "n_ctx"), ("layout=sideways", "layout"),
                                         ("coverage_threshold=nan", "coverage_threshold"),
                                         ("contrast_margin=nan", "contrast_margin")])
def test_a_bad_value_is_refused_naming_its_key(pair: str, named: str) -> None:
    key, value = pair.split("=")
    with pytest.raises(ConfigurationError, match=rf"setting {named}\b"):
        check_options({key: value})


def test_the_command_refuses_a_huge_context_before_loading_anything(tmp_path) -> None:
    (tmp_path / "s.txt").write_text("The bridge opened in 1932.")
    code, text = invoke("check", "--source", str(tmp_path / "s.txt"), "--summary", str(tmp_path / "s.txt"),
                        "--model", "local/reader", "--judge-option", f"n_ctx={HUGE}")
    assert code == 2 and f"n_ctx={HUGE} is out of range" in text


@pytest.mark.parametrize("field, value", [("max_concurrency", 10**9), ("max_retries", 10**9), ("max_reasks", 10**6),
                                          ("context_window", 10**12), ("max_output_tokens", 10**12)])
def test_a_judges_counts_have_bounds_too(field: str, value: int) -> None:
    from pydantic import ValidationError

    from sumjudge import ModelConfig

    with pytest.raises(ValidationError, match=field):
        ModelConfig(id="openai/gpt-4o-mini", **{field: value})


def test_estimate_refuses_a_window_past_its_bound_in_one_line(tmp_path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text('{"id": "a", "source": "The cat sat on the mat.", "summary": "The cat sat."}\n')
    code, text = invoke("estimate", str(data), "--model", "openai/gpt-4o-mini", "--context-window", HUGE)
    assert code == 2 and "--context-window" in text and f"{limits.MAX_WINDOW_TOKENS}" in text
