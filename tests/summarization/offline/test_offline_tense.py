"""A claim that states as done what the source only plans or expects is never "stated": every word
is there, but the fact is not, so the claim stays unchecked and says why."""

from __future__ import annotations

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge


@pytest.mark.parametrize(
    ("source", "summary", "stated"),
    [
        ("The bridge will reopen in June after repairs.", "The bridge reopened in June after repairs.", False),
        ("The company plans to close the plant in May.", "The company closed the plant in May.", False),
        ("The plant is expected to be sold next year.", "The plant was sold next year.", False),
        ("The council could approve the plan on Monday.", "The council approved the plan on Monday.", False),
        ("The company closed the plant and will reopen it in May.", "The company closed the plant.", True),
        ("Officials said the bridge would reopen in June.", "Officials said the bridge would reopen in June.", True),
        ("The plant is expected to be sold next year.", "The plant is expected to be sold next year.", True),
        ("The bridge reopened in June.", "The bridge reopened in June.", True),
        # what a verb of asking wants was not given
        ("A court cleared Paulo Ramos on Wednesday. Prosecutors, who had sought an eight-year sentence, said they "
         "would appeal.", "Ramos was sentenced to eight years.", False),
        ("Ramos was sentenced to eight years on Wednesday.", "Ramos was sentenced to eight years.", True),
    ],
)
def test_a_plan_stated_as_done_is_unchecked_with_its_reason(source: str, summary: str, stated: bool) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported, v.reason
    assert ("stated in source" in v.reason) is stated, v.reason
    if not stated:
        assert v.unchecked and "only as planned, asked for or possible" in v.reason, v.reason


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        ("The plant will close next year, the company said.", "The plant closed last year."),
        ("The drug cut deaths by a third compared with placebo.", "The drug raised deaths by a third compared with placebo."),
        ("Sales were reduced by 10 percent in May.", "Sales were increased by 10 percent in May."),
    ],
)
def test_the_other_direction_or_the_other_side_of_now_is_shown(source: str, summary: str) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert not v.supported and "contradicts" in v.reason, v.reason

