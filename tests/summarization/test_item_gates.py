"""Gates beyond the score: an invented claim that the lower coverage axis hides is still caught."""

from __future__ import annotations

import pytest
from scripted import answers, judge, questions, sentence_claims

from sumjudge import create_summarization_scorer
from sumjudge.errors import ConfigurationError
from sumjudge.summarization.item_gates import ItemGates

SOURCE = "The bridge opened in 1932. It cost 4 million dollars. Its architect was Ada Lind. It spans the Rhine."
FAITHFUL = "The bridge opened in 1932."
INVENTED = "The bridge opened in 1932. It was painted red."


def _scorer():
    # four questions, one answered: coverage 0.25 sits below either summary's alignment
    return create_summarization_scorer(judge(sentence_claims("red"), questions("Q1?", "Q2?", "Q3?", "Q4?"),
                                             answers(True, False, False, False)))


def test_an_invented_claim_ties_its_faithful_twin_on_the_score_but_breaks_max_unsupported() -> None:
    scorer = _scorer()
    faithful = scorer.run_sync(input=SOURCE, output=FAITHFUL)
    invented = scorer.run_sync(input=SOURCE, output=INVENTED)
    assert invented.score == faithful.score == 0.25  # min() hides the invented claim
    assert (faithful.unsupported_claims, invented.unsupported_claims) == (0, 1)
    gates = ItemGates(max_unsupported=0)
    assert gates.breaks(faithful) == []
    broken = gates.breaks(invented)
    assert [b.gate for b in broken] == ["max_unsupported"]
    assert '"It was painted red."' in broken[0].text() and "1 of 2 claims" in broken[0].text()
    assert broken[0].text("--max-unsupported").endswith("(--max-unsupported 0)")
    assert ItemGates(max_unsupported=1).breaks(invented) == []


def test_each_axis_has_a_floor_of_its_own() -> None:
    invented = _scorer().run_sync(input=SOURCE, output=INVENTED)
    broken = ItemGates(min_alignment=0.9, min_coverage=0.5).breaks(invented)
    assert [b.gate for b in broken] == ["min_alignment", "min_coverage"]
    assert broken[0].text().startswith("alignment 0.50 is below")
    assert ItemGates(min_alignment=0.5, min_coverage=0.25).breaks(invented) == []


def test_the_result_carries_its_count_of_unsupported_claims_in_its_json() -> None:
    invented = _scorer().run_sync(input=SOURCE, output=INVENTED)
    assert invented.model_dump(mode="json")["unsupported_claims"] == 1


@pytest.mark.parametrize("bad", [
    {"max_unsupported": -1}, {"max_unsupported": True}, {"max_unsupported": 1.5}, {"max_unsupported": 10**9},
    {"min_alignment": 1.5}, {"min_coverage": -0.1}, {"min_alignment": float("nan")}, {"min_coverage": "0.5"},
])
def test_a_gate_that_cannot_mean_anything_is_refused(bad: dict) -> None:
    with pytest.raises(ConfigurationError):
        ItemGates(**bad)
