"""A coverage question is contradicted only by a number that measures what the fact's number does.
A margin is not a vote count, a part is not the whole it is part of, and a number of tonnes or of
swimmers is not a number of dryers or of days: beside such a number the question is simply not
answered (its number is missing), never contradicted."""

from __future__ import annotations

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge


def _reason(question: str, summary: str) -> str:
    [v] = LexicalJudge().cover([question], summary).coverage
    assert not v.answered
    return v.reason


@pytest.mark.parametrize(
    ("question", "summary"),
    [
        (  # a margin against a total
            "Is it true that Maria Hale won the mayoral race with 5,138 votes?",
            "Maria Hale won the mayoral race by 412 votes over Tom Reyes.",
        ),
        (
            "Is it true that Maria Hale won the mayoral race with 5,138 votes?",
            "Maria Hale won the mayoral race with a margin of 412 votes.",
        ),
        (  # a part against the whole
            "Is it true that 38 of the reports to the safety commission involved burns?",
            "Of 109 reports to the safety commission, some involved burns.",
        ),
        (  # the whole against a part of it
            "Is it true that Brightway Appliances is recalling about 84,000 dryers?",
            "Brightway Appliances is recalling some of the 1.7 million dryers it sold.",
        ),
        (  # another thing counted, beyond a comma or a preposition
            "Is it true that Brightway Appliances is recalling about 84,000 dryers sold in the United States?",
            "Brightway Appliances is recalling dryers that weigh 1.7 tonnes, sold in the United States.",
        ),
        (
            "Is it true that the Birch Street pool closed for 38 days?",
            "The Birch Street pool closed, affecting 109 swimmers for days.",
        ),
        (
            "Is it true that Brightway Appliances received 38 reports of dryers overheating?",
            "Brightway Appliances received reports of 109 dryers overheating.",
        ),
    ],
)
def test_a_number_of_another_kind_is_no_contradiction(question: str, summary: str) -> None:
    reason = _reason(question, summary)
    assert "contradicts" not in reason, reason


@pytest.mark.parametrize(
    ("question", "summary"),
    [
        (
            "Is it true that Maria Hale won the mayoral race by 412 votes?",
            "Maria Hale won the mayoral race by 214 votes.",
        ),
        (
            "Is it true that Maria Hale won the mayoral race with 5,138 votes?",
            "Maria Hale won the mayoral race with 5,183 votes.",
        ),
        (
            "Is it true that Brightway Appliances is recalling about 84,000 dryers?",
            "Brightway Appliances is recalling about 48,000 dryers.",
        ),
        (
            "Is it true that 38 of the reports to the safety commission involved burns?",
            "83 of the reports to the safety commission involved burns.",
        ),
    ],
)
def test_a_number_of_the_same_kind_still_contradicts(question: str, summary: str) -> None:
    assert "contradicts" in _reason(question, summary)
