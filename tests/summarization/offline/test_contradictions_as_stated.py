"""A contradiction is not reported as stated. Polarity words that reverse a
statement ("still" / "no longer", "unhurt" / "injured"), and the passage chosen by the claim's
whole content, not by the one name it shares with another sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge

ROOT = Path(__file__).resolve().parents[3]
PAIRS = {r["pair_id"]: r for r in map(json.loads, (ROOT / "examples" / "pairs.jsonl").read_text(encoding="utf-8").splitlines())}


def _verdicts(source: str, summary: str):
    return LexicalJudge().align(source, summary).alignment


def test_still_where_the_source_says_no_longer() -> None:
    row = PAIRS["lib-2"]
    (faithful,) = _verdicts(row["source"], row["reference_summary"])
    assert faithful.supported and not faithful.unchecked
    (edited,) = _verdicts(row["source"], row["edited_summary"])  # "can still hold the collection"
    assert not edited.supported
    assert "can no longer hold" in edited.reason and "stated in source" not in edited.reason


def test_the_passage_is_the_one_about_the_hospital() -> None:
    row = PAIRS["res-2"]
    (faithful,) = _verdicts(row["source"], row["reference_summary"])  # "... a hospital in Innsbruck."
    assert faithful.supported and "sentence 4" in faithful.reason
    (edited,) = _verdicts(row["source"], row["edited_summary"])  # "... a hospital in Grauhorn."
    assert not edited.supported
    assert "'Grauhorn'" in edited.reason and "'Innsbruck'" in edited.reason


def test_unhurt_where_the_source_says_injured() -> None:
    source = "The driver was injured when the bus left the road near Dorfen on Monday. Six passengers were taken to a clinic in Erding."
    (claim,) = _verdicts(source, "The driver was unhurt when the bus left the road near Dorfen.")
    assert not claim.supported and "'unhurt' contradicts" in claim.reason
    (claim,) = _verdicts(source, "The driver was injured when the bus left the road near Dorfen.")
    assert claim.supported


def test_a_date_named_before_does_not_pick_the_passage() -> None:
    source = (
        "A man running for governor of Kentucky has changed his name to Gatewood Galbraith. He did so on "
        "Tuesday, a court clerk said. Terrill Newman, who wants to be Governor of Kentucky, has legally "
        "changed his name to honour a late celebrity."
    )
    (claim,) = _verdicts(source, "On Tuesday he legally changed his name to Gatewood Galbraith.")
    assert claim.supported


def test_a_name_that_opens_the_claim_may_be_called_otherwise_in_the_passage() -> None:
    """Rules 45.2: who the claim is about, named just before the passage, is not swapped for the
    passage's other name for it ("The Foxes" for Leicester); a name further on still is (Grauhorn)."""
    source = (
        "Boss Nigel Pearson has urged Leicester to keep their cool and ignore their relegation rivals. "
        "The Foxes host Swansea on Saturday just three points from safety in the Premier League after "
        "back-to-back wins. Last week's win at West Brom handed them a survival lifeline."
    )
    (claim,) = _verdicts(source, "Leicester host Swansea on Saturday just three points from safety.")
    assert claim.supported, claim.reason
    (claim,) = _verdicts(source, "Leicester host Burnley on Saturday just three points from safety.")
    assert not claim.supported


def test_voting_against_building_reverses_a_vote_to_build() -> None:
    source = "The council voted on Tuesday to build a new public pool in Ashford. The pool will cost $4 million."
    (edited,) = _verdicts(source, "The council voted against building a new pool in Ashford.")
    assert not edited.supported and "stated in source" not in edited.reason
    (faithful,) = _verdicts(source, "The council voted to build a new pool in Ashford.")
    assert faithful.supported and not faithful.unchecked
    (noun,) = _verdicts("Four members voted against the plan for a pool in Ashford.", "Four members voted against the plan for a pool.")
    assert noun.supported  # "against the plan": no verb negated


def test_places_in_the_other_order_are_not_stated() -> None:
    source = "Norland Foods will close its factory in Brampton and move production to its plant in Dorsey, cutting 300 jobs."
    (moved,) = _verdicts(source, "Norland Foods will close its factory in Dorsey and move production to Brampton.")
    assert moved.unchecked and "stated in source" not in moved.reason
    assert "'Brampton' before 'Dorsey'" in moved.reason
    (faithful,) = _verdicts(source, "Norland Foods will move production from Brampton to Dorsey, cutting 300 jobs.")
    assert faithful.supported and not faithful.unchecked


def test_a_date_from_another_sentence_is_not_stated() -> None:
    source = "The trial ran from March 3 to May 9. The results were published on June 1."
    (claim,) = _verdicts(source, "The results were published on March 3.")
    assert claim.unchecked and "stated in source" not in claim.reason
    (claim,) = _verdicts(source, "The results were published on June 1.")
    assert claim.supported and not claim.unchecked


def test_a_decision_reversed_in_other_words_is_shown() -> None:
    board = "The planning board approved a plan for 300 new homes in Millford on Thursday."
    (claim,) = _verdicts(board, "The planning board refused a plan for 300 homes in Millford.")
    assert not claim.supported and "'refused' contradicts" in claim.reason
    (claim,) = _verdicts(board, "The planning board approved a plan for 300 homes in Millford.")
    assert claim.supported
    museum = "The museum reopened on Saturday after a two-year renovation that cost 8.5 million euros."
    (claim,) = _verdicts(museum, "The museum closed on Saturday for a two-year renovation.")
    assert not claim.supported and "'closed' contradicts" in claim.reason
    airline = "Nordair said it would stop flying to Bergen from May 1 and move its two jets to Tromso."
    (claim,) = _verdicts(airline, "Nordair will keep flying to Bergen.")
    assert not claim.supported and "'keep' contradicts" in claim.reason
    (claim,) = _verdicts(airline, "Nordair will stop flying to Bergen in May.")
    assert claim.supported
    court = "The jury found the former bank manager guilty of fraud after a six-week trial."
    (claim,) = _verdicts(court, "A former bank manager was acquitted of fraud.")
    assert not claim.supported


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The minister resigned after the vote on the budget, his office said.",
         "The minister resigned before the vote on the budget.", False),
        ("Prices were cut before the holiday weekend.", "Prices were cut after the holiday weekend.", False),
        ("The minister resigned after the vote on the budget.", "The minister resigned after the vote.", True),
        # both orders stand in the source, each between other words: the claim's is there
        ("Talks began before the deadline and ended after the deadline.", "Talks began before the deadline.", True),
        ("The senator voted against the bill, which passed 52 to 48.", "The senator voted for the bill.", False),
        ("The company moved its headquarters from Boston to Austin in 2020.",
         "The company moved its headquarters to Boston in 2020.", False),
        ("Jones, 34, was sentenced to six years in prison on Tuesday.", "Jones was sentenced to six months in prison.", False),
        # after the same count and the same word before it, another span of time
        ("The bridge will stay shut for at least six weeks while engineers assess the damage.",
         "The bridge will stay shut for at least six months after the inspection.", False),
        ("The bridge will stay shut for at least six weeks while engineers assess the damage.",
         "The bridge will stay shut for at least six weeks after the inspection.", True),
        # a span of time is compared only after the same number
        ("The rifle was stolen from his car days before the visit.", "The rifle was stolen one week before the visit.", True),
        # "to" and "from" are opposite only after a verb of moving
        ("Both red cards he has shown this season have been to United players.",
         "Both red cards he has shown this season have been from United players.", True),
    ],
)
def test_a_function_word_turned_to_its_opposite_between_the_same_words_is_unsupported(source: str, summary: str, supported: bool) -> None:
    [v] = _verdicts(source, summary)
    assert v.supported is supported, v.reason
    if not supported:
        assert "contradicts the source's" in v.reason and not v.unchecked, v.reason


def test_a_summary_that_turns_the_order_around_does_not_answer_the_question() -> None:
    [v] = LexicalJudge().cover(
        ["Is it true that the minister resigned after the vote on the budget?"],
        "The minister resigned before the vote on the budget.",
    ).coverage
    assert not v.answered and not v.unchecked and "'before' where the source has 'after'" in v.reason, v.reason


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        ("The council rejected the plan on Tuesday.", "The council did not approve the plan."),
        ("The council did not reject the plan on Tuesday.", "The council approved the plan."),
    ],
)
def test_an_antonym_under_one_negation_agrees_with_the_source(source: str, summary: str) -> None:
    [v] = _verdicts(source, summary)
    assert v.supported, v.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The vaccine was approved for adults but not for children.", "The vaccine was approved for children.", False),
        ("The law applies to cars but not to vans.", "The law applies to vans.", False),
        ("Police say the fire was started deliberately, not by lightning.", "Police say the fire was started by lightning.", False),
        ("The drug is sold in Europe, but not yet in the United States.", "The drug is sold in the United States.", False),
        # the contrasted word is the one of the ellipsis's kind: a place for a place, not the date after it
        ("The summit will be held in Geneva in June, not in Vienna.", "The summit will be held in Vienna in June.", False),
        ("The summit will be held in Geneva in June, not in Vienna.", "The summit moved from Vienna to Geneva.", True),
        # the contrasted side, and the exclusion said with a negation of its own, agree
        ("The vaccine was approved for adults but not for children.", "The vaccine was approved for adults.", True),
        ("The law applies to cars but not to vans.", "The law does not apply to vans.", True),
        # "not only" adds rather than excludes
        ("The law applies to cars and not only to vans.", "The law applies to vans.", True),
    ],
)
def test_a_phrase_the_source_excludes_by_but_not_is_not_stated(source: str, summary: str, supported: bool) -> None:
    [v] = _verdicts(source, summary)
    assert v.supported is supported, v.reason
    if not supported:
        assert v.reason.startswith("negation differs") and not v.unchecked, v.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The mayor lost the election to her rival, Tom Reed.", "The mayor won the election.", False),
        ("Leeds won the final 2-1 after extra time.", "Leeds lost the final.", False),
        ("Leeds won the final 2-1 after extra time.", "Leeds won the final.", True),
        ("She won't stand again, she said.", "She will not stand again.", True),
    ],
)
def test_won_is_a_word_of_its_own_so_a_reversed_outcome_shows(source: str, summary: str, supported: bool) -> None:
    [v] = _verdicts(source, summary)
    assert v.supported is supported, v.reason
    if not supported:
        assert "contradicts" in v.reason and not v.unchecked, v.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The union called off the strike after the company raised its offer.",
         "The union called a strike after the company raised its offer.", False),
        ("The union called off the strike after the company raised its offer.", "The union cancelled the strike.", True),
        ("The union called off the strike after the company raised its offer.", "The union called off the strike.", True),
        # a verb that ends what follows it says what a negation says
        ("The minister no longer supports the plan.", "The minister has withdrawn her support for the plan.", True),
        ("The minister no longer supports the plan.", "The minister still supports the plan.", False),
        ("The storm cut power to about 85,000 homes on Saturday.", "The storm left about 85,000 homes without power.", True),
        ("The storm cut power to about 85,000 homes on Saturday.", "The storm did not cut power to the homes.", False),
    ],
)
def test_called_off_negates_and_a_verb_of_ending_agrees_with_a_negation(source: str, summary: str, supported: bool) -> None:
    [v] = _verdicts(source, summary)
    assert v.supported is supported, v.reason


def test_a_reversed_verdict_in_a_long_claim_with_a_negation_of_its_own_is_shown() -> None:
    """The antonym stands between the claim's name and its date ("Lowe was acquitted on Thursday"),
    where the source has "a jury on Thursday found ... Lowe guilty": the word beside the name is the
    one replaced. A "never" later in the claim bears on what follows it, not on "acquitted"."""
    source = (
        "A jury on Thursday found former hospital manager Gareth Lowe guilty of stealing 1.4 million pounds "
        "over six years. Lowe, 52, set up a fake cleaning company and sent the hospital more than 300 invoices "
        "for work that was never done."
    )
    summary = (
        "Former hospital manager Gareth Lowe was acquitted on Thursday of stealing 1.4 million pounds over six "
        "years by billing the hospital through a fake cleaning firm for work never done."
    )
    (claim,) = _verdicts(source, summary)
    assert not claim.supported and "'acquitted' contradicts" in claim.reason, claim.reason
    (claim,) = _verdicts(source, summary.replace("was acquitted", "was found guilty"))
    assert claim.supported, claim.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        # an antonym with two of the claim word's neighbours around it, though not right beside it
        ("Dr Sara Quinn said the eruption on Mount Tarn was the largest since 1963.",
         "Sara Quinn said the eruption was the smallest since 1963.", False),
        ("Harlow United sacked manager Pete Dunn on Monday.", "Harlow United hired manager Pete Dunn on Monday.", False),
        ("The rover found water ice at the south pole of the Moon.", "The rover found water ice at the north pole of the Moon.", False),
        # another unit of length after the same count, and the same unit spelled otherwise
        ("The ice lies about 40 centimetres down in a crater.", "The ice lies about 40 metres down in a crater.", False),
        ("The wall is six feet high along the road.", "The wall is six foot high along the road.", True),
    ],
)
def test_an_opposite_word_or_unit_in_the_claims_slot_is_shown(source: str, summary: str, supported: bool) -> None:
    [v] = _verdicts(source, summary)
    assert v.supported is supported, v.reason
