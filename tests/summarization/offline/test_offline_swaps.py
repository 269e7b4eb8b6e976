"""A name or number the source has, put where the passage has another; a number inside a hyphenated word.

A name the source has only outside the passage that states the rest of the claim is an error when
a passage name the claim lacks stands in its place: at least two of the claim name's neighbouring
words stand on the same sides of it there ("Jones won the race" where the passage says "Smith won
the race"). A name from elsewhere without such a place stays a note (a summary joins distant facts).
A number the passage has, but beside another number's words, stands in that number's place.
"""

from __future__ import annotations

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.verdicts import AlignmentVerdict, CoverageVerdict

RACE = (
    "On Sunday Smith won the race in Leeds. "
    "The course was wet and the crowd was small. "
    "Organisers said the event raised money for a local hospital. "
    "Next year the race moves to York. "
    "The former winner, Jones, was injured and did not start."
)


def _align(source: str, summary: str) -> list[AlignmentVerdict]:
    return LexicalJudge().align(source, summary).alignment


def _claim_and_question(source: str, summary: str, question: str) -> tuple[AlignmentVerdict, CoverageVerdict]:
    """The one claim of a one-sentence summary, and the verdict on one question answered from it."""
    [v] = _align(source, summary)
    [q] = LexicalJudge().cover([question], summary).coverage
    return v, q


def test_a_name_swapped_in_from_elsewhere_is_shown_with_the_name_it_replaces() -> None:
    [v] = _align(RACE, "Jones won the race in Leeds on Sunday.")
    assert not v.supported and not v.unchecked
    assert "'Jones' is in the source (sentence 5) but not in the passage that states the rest" in v.reason
    assert "which names 'Smith' in its place (sentence 1:" in v.reason


def test_a_name_from_elsewhere_in_no_other_names_place_is_only_unchecked() -> None:
    # "Jones" joined to the first sentence's facts without taking Smith's place: no error shown
    [v] = _align(RACE, "Smith beat Jones in the race in Leeds.")
    assert v.supported and v.unchecked, v.reason
    # the neighbours stand on the other side of the passage's name: a retelling, not a swap
    [w] = _align(RACE, "In Leeds the winner of the race on Sunday was Jones.")
    assert w.supported, w.reason


def test_a_number_beside_another_numbers_words_is_shown_with_that_number() -> None:
    source = "Officers seized 20 boats and arrested 18 men on the coast. The men were charged on Monday."
    [v] = _align(source, "Officers arrested 20 men on the coast.")
    assert not v.supported
    assert "'20' is in the passage, but where the claim puts it the passage says '18'" in v.reason
    [ok] = _align(source, "Officers seized 20 boats and arrested 18 men.")
    assert ok.supported and not ok.unchecked, ok.reason


def test_a_pronoun_of_the_other_gender_is_shown_when_the_passage_states_the_rest() -> None:
    source = (
        "The striker joined the club in May. He scored twice in his first match and thanked the fans. "
        "The club said tickets for the next game had sold out."
    )
    [v] = _align(source, "The striker joined the club in May. She scored twice in her first match.")[1:]
    assert not v.supported
    assert "'She' does not fit the passage that states the rest: it says 'He', never 'she'" in v.reason
    [ok] = _align(source, "The striker joined the club in May. He scored twice in his first match.")[1:]
    assert ok.supported, ok.reason
    # a claim the passage does not state in full may speak of someone else: no error shown
    [other] = _align(source, "The striker joined the club in May. She praised his goals and the fans warmly.")[1:]
    assert other.supported, other.reason


def test_only_a_word_written_as_a_name_can_be_the_name_a_claim_replaced() -> None:
    # "suicidal" shares its stem with the capitalised "Suicide" of "Veterans Suicide Hotline", but the
    # passage writes it in lower case where the claim's "Florida" stands: no swap is shown
    source = (
        "A suicidal Air Force veteran says he was put on hold by the helpline. "
        "He phoned the Veterans Suicide Hotline but got a recorded message. "
        "The charity said calls had doubled this year. "
        "Officials promised a review of the service. "
        "The veteran, who lives in Florida, cares for 60 rescue animals."
    )
    [v] = _align(source, "The Florida Air Force veteran was put on hold by the helpline and got a recorded message.")
    assert v.supported and v.unchecked, v.reason


def test_a_number_inside_a_hyphenated_word_is_the_same_number_spaced_or_not() -> None:
    """Rules 30.3: "Under-17" holds the number 17, as a tokenised "under - 17" does (SummEval's
    summaries are tokenised so), and "last-16" 16: neither is a number the source lacks."""
    source = ("England coach John Peacock has named his squad for the UEFA European Under-17 Championship. "
              "The side went out in the last-16 a year ago.")
    for summary in ("peacock has named his squad for the uefa european under - 17 championship .",
                    "England went out in the last 16 a year ago."):
        [v] = _align(source, summary)
        assert v.supported, v.reason
    [wrong] = _align(source, "Peacock has named his squad for the European Under-19 Championship.")
    assert not wrong.supported and "19" in wrong.reason


def test_a_summary_may_open_with_a_pronoun_where_its_source_does() -> None:
    """Rules 30.3: an opening pronoun points back to no one, unless the source itself opens so (a lead
    that names its subject later); the summary that copies that lead is faithful."""
    source = ("He may not be playing much at Manchester United, but Anders Lindegaard is enjoying the sun. "
              "The goalkeeper was pictured on holiday with his wife.")
    [v, *_] = _align(source, "He may not be playing much at Manchester United.")
    assert v.supported, v.reason
    [w, *_] = _align("Anders Lindegaard is enjoying the sun. He may not be playing much at Manchester United.",
                     "He may not be playing much at Manchester United.")
    assert not w.supported and "points back to no one" in w.reason


MARATHON = (
    "Kenyan runner Faith Chepkoech won the Rotterdam Marathon on Sunday, breaking the course record set by "
    "Ethiopia's Almaz Tesfaye in 2019. Tesfaye finished second. In the men's race, Joshua Kiprop and "
    "Bashir Abdi won the team prize."
)


def test_another_winner_of_the_same_contest_is_unsupported_and_contradicts_the_question() -> None:
    [v] = _align(MARATHON, "Almaz Tesfaye won the Rotterdam Marathon.")
    assert not v.supported and not v.unchecked and "the source says 'Chepkoech' won, not 'Tesfaye'" in v.reason, v.reason
    [c] = LexicalJudge().cover(["Is it true that Faith Chepkoech won the Rotterdam Marathon?"],
                               "Almaz Tesfaye won the Rotterdam Marathon.").coverage
    assert not c.answered and not c.unchecked and "contradicts" in c.reason, c.reason


def test_the_same_winner_joint_winners_or_another_contest_are_no_swap() -> None:
    for summary in ("Faith Chepkoech won the Rotterdam Marathon.", "Bashir Abdi won the team prize.",
                    "Almaz Tesfaye won the Boston Marathon."):
        [v] = _align(MARATHON, summary)
        assert "the source says" not in v.reason, (summary, v.reason)


def test_a_contest_named_by_its_figures_has_one_winner_too() -> None:
    source = "The Kenyan Grace Okafor won the 5,000 metres in 13:02, ahead of Sara Lindqvist."
    [v] = _align(source, "Sara Lindqvist won the 5,000 metres.")
    assert not v.supported and "the source says 'Okafor' won, not 'Lindqvist'" in v.reason, v.reason
    # two winners of the same score: the claim's own is named with the same figures
    [w] = _align("Leeds won 2-1 at Hull, and Chelsea won 2-1 at Spurs.", "Chelsea won 2-1.")
    assert w.supported, w.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("Official figures showed that wages rose faster than prices last year.",
         "Prices rose faster than wages last year.", False),
        ("Apple sold more phones than Samsung in the third quarter.",
         "Samsung sold more phones than Apple in the third quarter.", False),
        # the same comparison, or one turned around with the opposite word: no swap
        ("Official figures showed that wages rose faster than prices last year.",
         "Wages rose faster than prices last year.", True),
        ("Apple sold more phones than Samsung in the third quarter.",
         "Samsung sold fewer phones than Apple in the third quarter.", True),
        ("More than 200 people attended the meeting in the town hall.", "More than 200 people attended the meeting.", True),
    ],
)
def test_a_comparison_turned_around_is_unsupported(source: str, summary: str, supported: bool) -> None:
    [v] = _align(source, summary)
    assert v.supported is supported, v.reason
    if not supported:
        assert "than'" in v.reason and not v.unchecked, v.reason


def test_a_summary_that_turns_a_comparison_around_does_not_answer_the_question() -> None:
    [v] = LexicalJudge().cover(
        ["Is it true that wages rose faster than prices last year?"], "Prices rose faster than wages last year."
    ).coverage
    assert not v.answered and not v.unchecked and "after 'faster than'" in v.reason, v.reason



@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        # a verb that states the same fact either way round is no swap
        ("The bill passed the Senate 61-39 on Thursday.", "The Senate passed the bill on Thursday.", True),
        ("Smith met Jones in Geneva on Friday.", "Jones met Smith in Geneva on Friday.", True),
        # an order that matters still does
        ("Hamilton passed Vettel on the last lap.", "Vettel passed Hamilton on the last lap.", False),
        ("The dog bit the man.", "The man bit the dog.", False),
    ],
)
def test_a_symmetric_verb_keeps_its_fact_either_way_round(source: str, summary: str, supported: bool) -> None:
    [v] = _align(source, summary)
    assert v.supported is supported, v.reason


def test_the_one_a_loser_lost_to_named_as_the_loser_is_unsupported_and_contradicts_the_question() -> None:
    source = "The mayor lost the election to her rival, Tom Reed."
    [v] = _align(source, "Tom Reed lost the election.")
    assert not v.supported and "'mayor' lost, not 'Reed'" in v.reason, v.reason
    [same] = _align(source, "The mayor lost the election to Tom Reed.")
    assert same.supported, same.reason
    [q] = LexicalJudge().cover(["Is it true that the mayor lost the election to her rival, Tom Reed?"], "Tom Reed lost the election.").coverage
    assert not q.answered and not q.unchecked and "'Reed' lost" in q.reason, q.reason


TRANSFER = (
    "Norland striker Emil Sandvik has joined Italian club Fiorenza from Bergen City for a fee of 38 million "
    "euros, both clubs said on Thursday. The 23-year-old signed a five-year contract."
)


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        # the source's club he came from, given as where he went
        ("Emil Sandvik has moved to Bergen City for 38 million euros.", False),
        ("Emil Sandvik has moved to Fiorenza for 38 million euros.", True),
        ("Emil Sandvik has left Bergen City for Fiorenza.", True),
    ],
)
def test_a_place_given_as_where_one_went_that_the_source_gives_as_where_one_came_from_is_unsupported(
    summary: str, supported: bool
) -> None:
    [v] = _align(TRANSFER, summary)
    assert v.supported is supported, v.reason
    if not supported:
        assert "'to' contradicts the source's 'from'" in v.reason, v.reason


def test_a_direction_the_source_also_gives_the_claims_way_is_no_contradiction() -> None:
    source = "The firm moved its offices from Boston to Denver in 2019, and moved back to Boston in 2023."
    [v] = _align(source, "The firm moved its offices back to Boston in 2023.")
    assert v.supported, v.reason


def test_a_summary_that_turns_a_direction_around_does_not_answer_the_question() -> None:
    q = "Is it true that Emil Sandvik has joined Fiorenza from Bergen City for a fee of 38 million euros?"
    [v] = LexicalJudge().cover([q], "Fiorenza striker Emil Sandvik has moved to Bergen City for 38 million euros.").coverage
    assert not v.answered and "contradicts" in v.reason, v.reason


FIRE = (
    "A wildfire near Pine Hollow had burned about 3,200 hectares by Saturday. No deaths have been reported, but "
    "14 homes and a primary school were destroyed in the village of Cresswell, on the fire's eastern edge. "
    "About 400 firefighters were battling the blaze. Evacuees are being housed at the Pine Hollow sports centre. "
    "The main highway between Pine Hollow and Dunmore remains closed."
)


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        # the place of the passage's fact, moved to another place the source names
        ("The fire destroyed 14 homes and a school in Dunmore.", False),
        ("The fire destroyed 14 homes and a school in Cresswell.", True),
        # a place within a place says where the first one is, not where the fact happened
        ("The fire destroyed 14 homes and a school in Cresswell in Dunmore.", True),
    ],
)
def test_a_fact_moved_to_another_place_the_source_names_is_unsupported(summary: str, supported: bool) -> None:
    verdicts = _align(FIRE, summary)
    assert all(v.supported for v in verdicts) is supported, [v.reason for v in verdicts]
    if not supported:
        assert any("which puts it in 'Cresswell'" in v.reason for v in verdicts), [v.reason for v in verdicts]


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        ("A Nordair flight from Lisbon to Oslo was diverted to Bordeaux.", False),
        ("A Nordair flight from Oslo to Lisbon was diverted to Bordeaux.", True),
    ],
)
def test_a_route_turned_around_is_unsupported_and_contradicts_the_question(summary: str, supported: bool) -> None:
    v, q = _claim_and_question(
        "A Nordair flight from Oslo to Lisbon was diverted to Bordeaux on Wednesday after smoke was reported.", summary,
        "Is it true that a Nordair flight from Oslo to Lisbon was diverted to Bordeaux?")
    assert v.supported is supported, v.reason
    assert q.answered is supported, q.reason


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        ("Estavia won the Nations Cup by beating Norland 27-24 on Saturday.", False),
        ("Norland won the Nations Cup by beating Estavia 27-24 on Saturday.", True),
    ],
)
def test_the_beaten_side_named_as_the_winner_is_unsupported_and_contradicts_the_question(summary: str, supported: bool) -> None:
    v, q = _claim_and_question("Norland beat Estavia 27-24 in Halvik on Saturday to win the Nations Cup.", summary,
                               "Is it true that Norland beat Estavia 27-24 to win the Nations Cup?")
    assert v.supported is supported, v.reason
    if not supported:
        assert "the source says 'Estavia' was beaten, not 'Norland'" in v.reason, v.reason
    assert q.answered is supported, q.reason


def test_a_result_the_source_gives_both_ways_round_is_no_swap() -> None:
    source = "Estavia beat Norland in the group stage. Norland beat Estavia 27-24 in the final."
    [v] = _align(source, "Estavia beat Norland in the group stage.")
    assert v.supported, v.reason
