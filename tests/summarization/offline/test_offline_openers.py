"""What faithful human references showed the offline judge proving wrongly.

SummEval's references (written by people from the article; no rule was chosen on them before this
round) failed on: a common word that opens a sentence taken for a name ("Several visitors ...",
"Luckily , ..."), one name joined or spelled another way ("X-Factor" for "X Factor", "Teammate" for
"team-mate", "Russia" where the passage says "Russian"), a count of the people a summary names ("the
two men"), and a possessive that points ahead to the name ("After her seventh miscarriage , Dawn ...").
Each case keeps its real error beside it.
"""

from __future__ import annotations

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.verdicts import AlignmentVerdict

ZOO = (
    "Zoo visitor Michael Lurie was at the cheetah exhibit when he heard the child scream. "
    "The boy's parents pulled him out of the pit within seconds. "
    "Paul Merson and Andros Townsend have been rowing on Twitter since the England match. "
    "The singer found fame on The X Factor in 2012 with her team-mate Ella Henderson. "
    "Dawn Kerr lost her seventh baby in March and saved money for a headstone."
)


def _align(summary: str, source: str = ZOO) -> list[AlignmentVerdict]:
    return LexicalJudge().align(source, summary).alignment


@pytest.mark.parametrize("summary", [
    "Several visitors were at the cheetah exhibit when they heard a child scream.",
    "Luckily, the parents pulled the boy out of the pit within seconds.",
    "Shortly after, the parents pulled the boy out of the pit.",
])
def test_a_common_word_that_opens_a_sentence_is_no_name(summary: str) -> None:
    [v] = _align(summary)
    assert v.supported, v.reason


def test_a_name_that_opens_a_sentence_in_a_names_place_is_still_an_error() -> None:
    # "Ryanair flight" where the passage has "Loganair flight": the opening word stands in a name's place
    source = "A Loganair flight from Glasgow landed safely on Monday after a bird strike."
    [v] = _align("Ryanair flight from Glasgow landed safely on Monday.", source)
    assert not v.supported
    assert "'Ryanair' does not occur in the source; the passage names 'Loganair'" in v.reason


@pytest.mark.parametrize("summary", [
    "The singer found fame on the X-Factor in 2012.",
    "Teammate Ella Henderson found fame on The X Factor.",
])
def test_one_name_joined_or_split_another_way_is_the_same_name(summary: str) -> None:
    [v] = _align(summary)
    assert v.supported, v.reason


def test_a_misspelt_name_is_still_shown() -> None:
    [v] = _align("The singer found fame on The X Factor with Ella Hendersen.")
    assert not v.supported
    assert "'Hendersen' does not occur in the source" in v.reason


def test_a_passage_that_writes_the_claims_name_in_another_form_is_no_swap() -> None:
    source = (
        "Moscow said the plane was flying toward the Russian border with its transponder off. "
        "Russia has protested to the US."
    )
    [v] = _align("Russia says the plane was flying toward the border with its transponder off.", source)
    assert v.supported, v.reason


def test_a_count_of_the_people_named_is_no_number_fact() -> None:
    [v] = _align("The back and forth between the two men has continued on Twitter since the England match.")
    assert v.supported, v.reason
    [w] = _align("Seven men have been rowing on Twitter since the England match.")
    assert not w.supported
    assert "'Seven' does not occur in the source" in w.reason


def test_a_possessive_that_points_ahead_to_the_name_is_no_dangling_pronoun() -> None:
    [v] = _align("After her seventh baby, Dawn Kerr saved money for a headstone.")
    assert v.supported, v.reason
    [w] = _align("Her seventh baby was lost in March.")
    assert not w.supported
    assert "'Her' points back to no one" in w.reason


@pytest.mark.parametrize("source, summary", [
    ("Japanese photographer Yûki Aoyama shot the series in Tokyo.",
     "Photographer Yuki Aoyama shot the series in Tokyo."),
    ("Granado is a maths teacher at MacArthur High School in Irving.",
     "Granado teaches maths at Mac Arthur High School."),
    ("A U.S. plane was intercepted over the Baltic Sea on Tuesday.",
     "An American plane was intercepted over the Baltic Sea."),
    ("Former Holland forward Patrick Kluivert won his first match.",
     "Former Dutch forward Patrick Kluivert won his first match."),
])
def test_one_name_written_with_accents_apart_or_as_its_people_is_known(source: str, summary: str) -> None:
    [v] = _align(summary, source)
    assert v.supported, v.reason


def test_a_name_in_the_place_of_its_own_place_or_compound_is_no_swap() -> None:
    source = (
        "First blood to United after their Under 18s saw off City 1-0 in the mini-derby. "
        "For a start, no less than 13 out of the 22 players on show at kick-off were English. "
        "Just before the hour mark England Under 17 star Callum Gribbin made the breakthrough for United."
    )
    [v] = _align("An hour into the match, English star Callum Gribbin made the breakthrough for United.", source)
    assert v.supported, v.reason


def test_a_model_number_of_two_figures_is_no_moved_number() -> None:
    source = (
        "The custom-built Boeing 747 is believed to have cost its owner £400million. "
        "Luxury: This is the lounge on board a custom-built Boeing 747-8, as depicted in an artist's impression. "
        "The plane can normally hold up to 600 people."
    )
    [v] = _align("Boeing 747 can normally hold up to 600 people.", source)
    assert v.supported, v.reason
    [w] = _align("The Boeing 747-8 can hold up to 700 people.", source)
    assert not w.supported


def test_words_in_capitals_are_no_names_but_an_acronym_still_is() -> None:
    source = "Isis released a video that warns America will burn. NASA said the probe reached Mars."
    shouted, claim = _align("WARNING : GRAPHIC CONTENT . Isis released a video that warns America will burn.", source)
    assert shouted.supported and claim.supported, shouted.reason
    [v] = _align("The FBI said the probe reached Mars.", source)
    assert not v.supported
    assert "'FBI' does not occur in the source" in v.reason
