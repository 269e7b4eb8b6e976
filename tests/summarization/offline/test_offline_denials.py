"""The offline judge and denials by reference: a frame around what the source states ("It is false that
...") and a sentence that denies what came before ("None of this is true.") are shown unsupported."""

from __future__ import annotations

from pathlib import Path

import pytest

from sumjudge import create_summarization_scorer

SOURCE = (Path(__file__).resolve().parents[3] / "examples" / "report.txt").read_text(encoding="utf-8")
FIRST = "The town council of Millbrook voted on Tuesday to build a new public library on Elm Street."


@pytest.fixture(scope="module")
def scorer():
    return create_summarization_scorer("offline/lexical")


@pytest.mark.parametrize("denial", ["None of this is true.", "This is all false.", "None of it happened."])
def test_a_sentence_that_denies_what_came_before_is_unsupported(scorer, denial: str) -> None:
    result = scorer.run_sync(input=SOURCE, output=f"{FIRST} {denial}")
    verdicts = result.preprocess_step_result.alignment
    assert [v.supported for v in verdicts] == [True, False]
    assert "denies what the summary said before it" in verdicts[1].reason
    assert result.unsupported_claims == 1


@pytest.mark.parametrize("frame", ["It is false that", "It is not true that", "It is a myth that"])
def test_a_frame_that_denies_what_the_source_states_is_unsupported(scorer, frame: str) -> None:
    result = scorer.run_sync(input=SOURCE, output=f"{frame} the building will cost $4.2 million.")
    (verdict,) = result.preprocess_step_result.alignment
    assert not verdict.supported and verdict.reason.startswith("it denies what the source states")
    assert result.alignment_score == 0.0


def test_denying_a_statement_the_source_contradicts_is_left_unchecked_not_shown_wrong(scorer) -> None:
    (verdict,) = scorer.run_sync(input=SOURCE, output="It is false that the building will cost $9 million.").preprocess_step_result.alignment
    assert verdict.supported and verdict.unchecked


def test_a_source_that_itself_denies_lets_the_summary_repeat_it(scorer) -> None:
    source = "Rumours said the mayor would resign on Friday. None of this is true, her office said."
    result = scorer.run_sync(input=source, output="The mayor would resign on Friday. None of this is true.")
    assert result.preprocess_step_result.alignment[-1].supported


def test_a_frame_the_source_itself_uses_is_not_a_denial_of_it(scorer) -> None:
    source = "It is false that the bridge was closed on Monday, the city said. Traffic ran as usual."
    (verdict,) = scorer.run_sync(input=source, output="It is false that the bridge was closed on Monday.").preprocess_step_result.alignment
    assert verdict.supported
