"""Locating a judge's quote: exact, then normalised, then fuzzy, with offsets into the original text;
the fuzzy step forgives a copying slip, never a changed word or number."""

from __future__ import annotations

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.summarization.quotes import clean_quote, locate

TEXT = "The company said on Monday that it raised more than $105 million.\nIts chief, Ada Lind \u2014 the founder \u2014 spoke."


def test_an_exact_quote_is_found_where_it_is() -> None:
    found = locate("raised more than $105 million", TEXT)
    assert found is not None and found.match == "exact"
    assert TEXT[found.start : found.end] == "raised more than $105 million"


def test_case_whitespace_quotes_and_dashes_are_normalised_and_offsets_are_the_original_texts() -> None:
    found = locate("ada lind - the founder -   SPOKE", TEXT)
    assert found is not None and found.match == "normalised"
    assert TEXT[found.start : found.end] == "Ada Lind \u2014 the founder \u2014 spoke"
    assert locate("\u201cit raised more than $105 million\u201d", TEXT).match == "exact"  # the marks around it trimmed


def test_a_copying_slip_is_found_fuzzily() -> None:
    found = locate("that it raised more than $105 milion", TEXT)
    assert found is not None and found.match == "fuzzy"
    assert "raised more than $105 million" in TEXT[found.start : found.end]


@pytest.mark.parametrize(
    "quote",
    [
        "that it raised less than $105 million",  # a word changed: the meaning is not the source's
        "that it raised more than $106 million",  # a number changed
        "the weather stayed sunny all week long",  # in no text
    ],
)
def test_a_changed_or_invented_quote_is_not_found(quote: str) -> None:
    assert locate(quote, TEXT) is None


def test_none_is_no_quote() -> None:
    assert clean_quote("None") == clean_quote(" n/a ") == clean_quote('""') == ""
    assert locate("", TEXT) is None


def test_the_offline_judge_quotes_its_passage_and_it_is_verified() -> None:
    scorer = create_summarization_scorer("offline/lexical")
    source = "The bridge opened in 1932 and cost 4 million dollars. Its architect was Ada Lind."
    result = scorer.run_sync(input=source, output="The bridge, designed by Ada Lind, opened in 1932.")
    claim = result.preprocess_step_result.alignment[0]
    assert claim.supported and claim.verified and claim.quote
    start, end = claim.quote_offsets
    assert "opened in 1932" in source[start:end]
    answered = [v for v in result.analyze_step_result.coverage if v.answered]
    assert answered and all(v.verified and v.quote_offsets for v in answered)
