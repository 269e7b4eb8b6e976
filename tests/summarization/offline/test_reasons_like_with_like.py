"""A reason sets a number against a number of the same kind (a year against a
year, money against money, a count of the same thing), or says what is missing without a false pair."""

from __future__ import annotations

import json
from pathlib import Path

from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.language.number_kinds import number_kind

ROOT = Path(__file__).resolve().parents[3]
LIBRARY = json.loads((ROOT / "examples" / "pairs.jsonl").read_text(encoding="utf-8").splitlines()[0])["source"]


def test_numbers_have_kinds() -> None:
    text = "It cost $4.2 million, was built in 1958, grew 12% by 4pm, came 9th, and has 40 computers and £16m."
    assert [number_kind(text, f) for f in ("4.2", "1958", "12", "4", "9", "40", "16")] == [
        "money", "year", "percent", "time", "ordinal", "count", "money",
    ]


def test_coverage_reason_sets_no_year_against_a_price() -> None:
    judge = LexicalJudge()
    summary = "Mayor Helen Ortiz said the old library, built in 1958, can no longer hold the collection."
    questions = judge.questions(LIBRARY, 10).questions
    reasons = [v.reason for v in judge.cover(questions, summary).coverage]
    assert not any("'1958' where the source has '4.2'" in r for r in reasons), reasons
    asked = [r for q, r in zip(questions, reasons) if "4.2" in q]
    assert asked and "1958" not in asked[0]


def test_alignment_reason_sets_money_against_money() -> None:
    judge = LexicalJudge()
    (verdict,) = judge.align(LIBRARY, "The old library, built for $2 million, can no longer hold the collection.").alignment
    assert not verdict.supported
    assert "it says '1958'" not in verdict.reason and "it says '4.2'" in verdict.reason


def test_a_count_of_another_thing_is_no_pair() -> None:
    judge = LexicalJudge()
    (verdict,) = judge.align(LIBRARY, "The library will have a children's wing and 55 cafés.").alignment
    assert not verdict.supported
    assert "'55' does not occur in the source" in verdict.reason and "it says '40'" not in verdict.reason
    (verdict,) = judge.align(LIBRARY, "The library will have 55 computers.").alignment
    assert "it says '40'" in verdict.reason  # the same thing counted: the pair stands


VOTE = (
    "The city council voted seven to two to reject the plan for 240 flats at the old mill. "
    "The developer had promised that 60 of the flats would be rented below market rates."
)


def test_a_tally_of_votes_is_no_count_of_flats() -> None:
    judge = LexicalJudge()
    question = "Is it true that Developer Marcus Oyelaran of Riverline Homes had promised that 60 of the units would be rented below market rates?"
    summary = "Grenshaw's council turned down, by seven votes to two, Riverline Homes' plan for 240 apartments at the old Hollis mill."
    (verdict,) = judge.cover([question], summary).coverage
    assert not verdict.answered
    assert "'60'" in verdict.reason and "'two'" not in verdict.reason
    (claim,) = judge.align(VOTE, "The council rejected the plan by seven votes to two.").alignment
    assert claim.supported  # the tally where the source has the count of flats: no error shown
    (claim,) = judge.align(VOTE, "The council rejected the plan for 60 flats.").alignment
    assert not claim.supported and "it says '240'" in claim.reason.replace("the passage says", "it says")


def test_four_figures_after_a_verb_or_quantifier_and_before_a_plural_are_a_count() -> None:
    assert number_kind("The firm employs 1998 people.", "1998") == "count"
    assert number_kind("About 2000 fans came.", "2000") == "count"
    assert number_kind("In 1998 sales rose.", "1998") == "year"
    assert number_kind("The High Hedges Act 2013 allows complaints.", "2013") == "year"
    assert number_kind("The 2015 elections were close.", "2015") == "year"


def test_the_name_a_wrong_name_stands_for_is_the_nearest_in_its_place() -> None:
    source = "Trade talks between the United States and Canada ended on Monday without a deal."
    [v] = LexicalJudge().align(source, "Talks between the U.S. and Mexico ended on Monday.").alignment
    assert not v.supported and "names 'Canada'" in v.reason and "'States'" not in v.reason, v.reason
