"""A summary's claims are its own words: a clause too short to stand alone stays joined to its
neighbour with the comma and conjunction the summary wrote there, never glued to it ("...Birch
Street pool Hale has conceded." is a sentence the summary did not write)."""

from __future__ import annotations

import pytest

from sumjudge.summarization.language.clauses import split_clauses
from sumjudge.summarization.offline.lexical import LexicalJudge

SUMMARY = (
    "Tom Reyes won the recount by 412 votes after 30 ballots turned up at the Birch Street pool, "
    "and Hale has conceded."
)
SOURCE = (
    "Tom Reyes won the mayoral recount by 412 votes after 30 uncounted ballots turned up at the Birch "
    "Street pool on Monday. Maria Hale has conceded."
)


def test_a_short_clause_keeps_the_words_that_join_it() -> None:
    assert split_clauses(SUMMARY, "en") == [SUMMARY]


@pytest.mark.parametrize(
    "sentence",
    [
        "The council approved the budget; it passed.",
        "The plant will close in March, but jobs stay.",
        "Reyes won, and Hale conceded the race on Tuesday night.",
        "' But the recount, which began on Monday, found 30 more ballots at the pool.",
    ],
)
def test_every_claim_is_a_span_of_the_summary(sentence: str) -> None:
    for clause in split_clauses(sentence, "en"):
        assert clause in sentence, clause


def test_the_judge_checks_the_claim_the_summary_wrote() -> None:
    claims = [v.claim for v in LexicalJudge().align(SOURCE, SUMMARY).alignment]
    assert claims == [SUMMARY]
