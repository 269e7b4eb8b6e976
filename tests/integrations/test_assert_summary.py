"""``assert_summary`` with a scripted judge: bounds, the failure message, bad input caught before any
judge call, recording on the running test, and use outside pytest."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from scripted import answers, claims, judge, questions

from sumjudge.errors import ConfigurationError, InputError
from sumjudge.integrations.assertions import DEFAULT_MIN_SCORE, ScorerPool
from sumjudge.testing import assert_summary, assert_summary_async

SOURCE = "The bridge opened in 1932. It cost 4 million dollars. Ada Lind designed it."
SUMMARY = "The bridge opened in 1932. It cost 9 million dollars."
WEAK = "a b c"
"""Claims a, b and c: a summary that makes them (a judge's claims are the summary's own)."""


def half_right():
    """Alignment 0.5 (one invented figure), coverage 0.5 (the architect left out)."""
    return judge(
        claims(("The bridge opened in 1932.", True), ("It cost 9 million dollars.", False)),
        questions("Did the bridge open in 1932?", "Did Ada Lind design the bridge?"),
        answers(True, False),
    )


def test_passing_returns_the_result_and_failing_names_figures_bounds_claims_questions_and_judge():
    result = assert_summary(SOURCE, SUMMARY, min_score=0.5, model=half_right())
    assert result.score == 0.5

    with pytest.raises(AssertionError) as err:
        assert_summary(SOURCE, SUMMARY, min_score=0.4, min_alignment=0.8, model=half_right())
    message = str(err.value)
    assert message.splitlines()[0] == "summary failed on alignment (judge: scripted/judge)"
    assert "score     0.50  >= min_score 0.4" in message
    assert "alignment 0.50  <  min_alignment 0.8" in message and "FAILED" in message
    assert "coverage  0.50  (no bound)" in message
    assert 'unsupported claims (1 of 2):\n  - "It cost 9 million dollars.": not in the source' in message
    assert 'unanswered questions (1 of 2):\n  - "Did Ada Lind design the bridge?": r' in message


def test_with_no_bound_the_score_must_reach_half_the_scale():
    assert DEFAULT_MIN_SCORE == 0.5
    assert assert_summary(SOURCE, SUMMARY, model=half_right()).score == 0.5
    assert assert_summary(SOURCE, SUMMARY, model=half_right(), scale=10).score == 5.0
    weak = judge(claims(("a", True), ("b", False), ("c", False)), questions("q?"), answers(True))
    with pytest.raises(AssertionError, match=r"score     0\.33  <  min_score 0\.5 \(default\)"):
        assert_summary(SOURCE, WEAK, model=weak)


def test_a_bound_on_coverage_alone_replaces_the_default():
    weak = judge(claims(("a", True), ("b", False), ("c", False)), questions("q?"), answers(True))
    result = assert_summary(SOURCE, WEAK, min_coverage=1.0, model=weak)
    assert result.score == 0.33


def test_scorer_options_pass_through_samples_included():
    result = assert_summary(SOURCE, SUMMARY, model=half_right(), samples=2, reducer="min", max_questions=2)
    assert result.score == 0.5 and len(result.samples) == 2


def test_long_lists_are_cut_and_counted():
    many = judge(
        claims(*[(f"claim {i}", False) for i in range(14)]),
        questions("q?"),
        answers(True),
    )
    with pytest.raises(AssertionError) as err:
        assert_summary(SOURCE, " ".join(f"claim {i}" for i in range(14)), model=many)
    assert "unsupported claims (14 of 14):" in str(err.value) and "  ... and 4 more" in str(err.value)
    assert '"claim 9"' in str(err.value) and '"claim 10"' not in str(err.value)


def test_an_empty_summary_fails_with_the_scorers_reason():
    with pytest.raises(AssertionError) as err:
        assert_summary(SOURCE, "  ", model=half_right())
    assert "unsupported claims (0 of 0): none" in str(err.value)
    assert "reason: Score 0: the summary is empty" in str(err.value)


@pytest.mark.parametrize(
    ("kwargs", "error", "says"),
    [
        ({"min_score": 1.5}, ConfigurationError, r"min_score must be in \[0, 1\], got 1.5"),
        ({"min_score": -0.1}, ConfigurationError, r"min_score must be in \[0, 1\], got -0.1"),
        ({"min_score": 12, "scale": 10}, ConfigurationError, r"min_score must be in \[0, 10\], got 12"),
        ({"min_alignment": 1.2}, ConfigurationError, r"min_alignment must be in \[0, 1\]"),
        (
            {"min_coverage": "0.5"},
            ConfigurationError,
            r"min_coverage must be a number in \[0, 1\], got '0.5'",
        ),
        ({"min_score": True}, ConfigurationError, r"min_score must be a number"),
        ({"min_score": float("nan")}, ConfigurationError, r"min_score must be a number"),
        (
            {"max_question": 3},
            ConfigurationError,
            r"unknown option\(s\) max_question; known: max_questions, scale",
        ),
        ({"source_extractor": len}, ConfigurationError, r"unknown option\(s\) source_extractor"),
        ({"max_questions": 0}, ConfigurationError, r"max_questions must be an integer >= 1"),
        ({"scale": 0}, ConfigurationError, r"scale must be a number > 0"),
    ],
)
def test_bad_arguments_fail_at_the_call_before_any_judge_call(kwargs, error, says):
    scripted = half_right()
    with pytest.raises(error, match=says):
        assert_summary(SOURCE, "summary", model=scripted, **kwargs)
    with pytest.raises(error, match=says):
        asyncio.run(assert_summary_async(SOURCE, "summary", model=scripted, **kwargs))
    assert scripted.requests == []


@pytest.mark.parametrize("bad", [42, None, [{"role": "user", "content": "text"}], b"bytes"])
def test_a_source_or_summary_that_is_not_a_string_is_an_input_error(bad):
    scripted = half_right()
    with pytest.raises(InputError, match=f"source must be a str, got {type(bad).__name__}"):
        assert_summary(bad, "summary", model=scripted)
    with pytest.raises(InputError, match=f"summary must be a str, got {type(bad).__name__}"):
        assert_summary(SOURCE, bad, model=scripted)
    assert scripted.requests == []


def test_a_scorer_passed_as_model_is_used_as_it_is(sumjudge_scorer):
    from sumjudge import create_summarization_scorer

    scorer = create_summarization_scorer(half_right(), {"scale": 2})
    assert assert_summary(SOURCE, SUMMARY, model=scorer, min_score=1.0).score == 1.0
    with pytest.raises(ConfigurationError, match="give options to the scorer"):
        assert_summary(SOURCE, SUMMARY, model=scorer, scale=3)


def test_each_check_is_recorded_on_the_running_test(request):
    assert_summary(SOURCE, SUMMARY, model=half_right())
    with pytest.raises(AssertionError):
        assert_summary(SOURCE, SUMMARY, model=half_right(), min_coverage=0.9)
    recorded = [(k, v) for k, v in request.node.user_properties if k.startswith("sumjudge_")]
    assert recorded == [
        ("sumjudge_score", 0.5),
        ("sumjudge_alignment", 0.5),
        ("sumjudge_coverage", 0.5),
        ("sumjudge_judge", "scripted/judge"),
        ("sumjudge_passed", True),
        ("sumjudge_scale", 1),
        ("sumjudge_unsupported_claims", 1),
        ("sumjudge_score", 0.5),
        ("sumjudge_alignment", 0.5),
        ("sumjudge_coverage", 0.5),
        ("sumjudge_judge", "scripted/judge"),
        ("sumjudge_passed", False),
        ("sumjudge_scale", 1),
        ("sumjudge_unsupported_claims", 1),
    ]


async def test_the_async_form_records_and_fails_like_the_sync_one(request):
    result = await assert_summary_async(SOURCE, SUMMARY, model=half_right())
    assert result.alignment_score == 0.5
    with pytest.raises(AssertionError, match="alignment 0.50  <  min_alignment 0.9"):
        await assert_summary_async(SOURCE, SUMMARY, model=half_right(), min_alignment=0.9)
    assert [v for k, v in request.node.user_properties if k == "sumjudge_passed"] == [True, False]


def test_the_pool_keeps_one_scorer_per_judge_and_options():
    pool = ScorerPool("offline/lexical")
    scripted = half_right()
    assert pool.get(None, {}) is pool.get("offline/lexical", {}) is not pool.get(None, {"max_questions": 3})
    assert pool.get(scripted, {}) is pool.get(scripted, {})
    assert pool.get(scripted, {}).judge is scripted
    assert pool.get(None, {}).judge.model_id == "offline/lexical"


def test_outside_pytest_it_works_alone_and_importing_sumjudge_testing_does_not_import_pytest():
    code = f"""
import sys
import sumjudge.testing
assert "pytest" not in sys.modules, "sumjudge.testing imported pytest"
from sumjudge.testing import assert_summary
assert_summary({SOURCE!r}, {SOURCE!r}, model="offline/lexical", min_score=1.0)
try:
    assert_summary({SOURCE!r}, "The bridge opened in 1975.", model="offline/lexical", min_alignment=1.0)
except AssertionError as err:
    print(err)
assert "pytest" not in sys.modules
"""
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "summary failed on alignment (judge: offline/lexical)" in done.stdout
    assert "1975" in done.stdout


def test_a_failure_prints_the_summarys_terminal_escapes_as_text():
    hostile = "The bridge \x1b[2Jopened in 1932. It cost 9 million dollars.\x07"
    escaped = judge(
        claims(("The bridge \x1b[2Jopened in 1932.", True), ("It cost 9 million dollars.\x07", False)),
        questions("Did the bridge open in 1932?"), answers(False),
    )
    with pytest.raises(AssertionError) as err:
        assert_summary(SOURCE, hostile, min_score=0.9, model=escaped)
    message = str(err.value)
    assert "\x1b" not in message and "\x07" not in message
    assert "\\x07" in message  # shown as its escape, the claim still readable
