"""One number in its many spellings is one fact; two values are never one.

The offline judge calls a claim unsupported when its number is not in the source. A human summary
writes the source's "10,000" as "ten thousand", its "$1,500" as "fifteen hundred dollars", its "ninth
minute" as "9th minute", its "1970s and 80s" as "the seventies" or "1980s": each of these once failed
a faithful SummEval reference ("'ten' does not occur in the source; it says '10,000'").
"""

from __future__ import annotations

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.language.numbers import number_keys

SOURCE = (
    "More than 10,000 migrants reached Italy in the first three months of 2015. "
    "A man took off with up to $1,500 from the till. "
    "Sterling opened the scoring in the ninth minute at Anfield. "
    "The kick-off is at 4pm on Sunday. "
    "Police are investigating abuse by a paedophile ring in the 1970s and 80s. "
    "The dress sold for £137,000 and the hat for £52,500 after a bid of £42.5million was refused. "
    "It was the second season of Sterling at the club."
)


def _verdict(summary: str):  # type: ignore[no-untyped-def]
    [v] = LexicalJudge().align(SOURCE, summary).alignment
    return v


@pytest.mark.parametrize("summary", [
    "Over ten thousand migrants reached Italy.",
    "A man took off with fifteen hundred dollars from the till.",
    "Sterling opened the scoring in the 9th minute at Anfield.",
    "The kick-off is at 4:00PM on Sunday.",
    "Police are investigating abuse in the seventies.",
    "Police are investigating abuse by a paedophile ring in the 1970s and 1980s.",
    "The dress sold for 137 thousand pounds.",
    "The hat sold for 52 500 pounds.",
    "A bid of forty two point five million pounds was refused.",
])
def test_the_source_number_in_another_spelling_is_no_error(summary: str) -> None:
    v = _verdict(summary)
    assert v.supported, v.reason


@pytest.mark.parametrize("summary, shown", [
    ("Over eleven thousand migrants reached Italy.", "'eleven' does not occur in the source"),
    ("The dress sold for 237 thousand pounds.", "'237' does not occur in the source"),
    ("Sterling opened the scoring in the 8th minute at Anfield.", "'8' does not occur in the source"),
    ("Police are investigating abuse in the sixties.", "'sixties' does not occur in the source"),
])
def test_another_value_in_any_spelling_is_still_an_error(summary: str, shown: str) -> None:
    v = _verdict(summary)
    assert not v.supported
    assert shown in v.reason


def test_an_ordinal_is_no_cardinal() -> None:
    # "his second season" says nothing of "two seasons"
    v = _verdict("Sterling had two seasons at the club.")
    assert not v.supported
    assert "'two' does not occur in the source" in v.reason


def test_keys_of_a_compound_and_a_plain_number_that_is_no_decade() -> None:
    keys = number_keys("ten thousand and 20 people", {"10": "ten", "1000": "thousand", "20": "20"})
    assert "10000" in keys["10"] and "10000" in keys["1000"]
    assert keys["20"] == frozenset({"20"})  # not the 1920s


def test_coverage_reads_the_fact_number_in_another_spelling() -> None:
    judge = LexicalJudge()
    [fact] = judge.questions("More than 10,000 migrants reached Italy by boat this spring.", 1).questions
    [answered] = judge.cover([fact], "Over ten thousand migrants reached Italy by boat this spring.").coverage
    assert answered.answered, answered.reason
    [other] = judge.cover([fact], "Over eleven thousand migrants reached Italy by boat this spring.").coverage
    assert not other.answered


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The concert starts at 7.30pm on Friday at the city hall.", "The concert starts at 19:30 at the city hall.", True),
        ("The polls close at 10 p.m. on Thursday.", "The polls close at 22:00 on Thursday.", True),
        ("The last train leaves at 23:15 every night.", "The last train leaves at 11.15pm every night.", True),
        ("The concert starts at 7.30pm on Friday at the city hall.", "The concert starts at 17:30 at the city hall.", False),
        ("The last train leaves at 23:15 every night.", "The last train leaves at 10.15pm every night.", False),
    ],
)
def test_a_time_of_day_on_either_clock_is_the_same_number(source: str, summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        ("The company laid off 200 workers in May.", False),
        ("The company hired 200 workers in May.", True),
        ("The company laid off 50 managers in May.", True),
    ],
)
def test_a_number_given_to_another_verb_of_the_same_sentence_is_shown(summary: str, supported: bool) -> None:
    source = "The company hired 200 workers and laid off 50 managers in May, a spokesman said."
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason
    if not supported:
        assert "where the claim puts it the passage says" in v.reason, v.reason
    if supported:
        assert "stated in source" in v.reason, v.reason


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        ("Smith became chief executive in 2015.", True),
        ("Smith became chief executive in 2016.", False),
        ("Smith left the bank in 2008.", True),
    ],
)
def test_a_year_reached_by_counting_from_the_sources_year_is_no_invented_number(summary: str, supported: bool) -> None:
    source = ("Smith, 45, joined the company in 2010, two years after she left the bank, and became chief "
              "executive five years later.")
    verdicts = LexicalJudge().align(source, summary).alignment
    assert all(v.supported for v in verdicts) is supported, [v.reason for v in verdicts]


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("Seven in ten voters backed the plan in the referendum.", "70 percent of voters backed the plan.", True),
        ("Seven in ten voters backed the plan in the referendum.", "60 percent of voters backed the plan.", False),
        ("The deal is worth 1.5bn euros, the company said.", "The deal is worth 1.5 billion euros.", True),
        ("The deal is worth 1.5bn euros, the company said.", "The deal is worth 1.5 million euros.", False),
        ("Temperatures hit 40C in Seville on Monday.", "Temperatures hit 40 degrees Celsius in Seville.", True),
    ],
)
def test_a_ratio_a_scale_and_a_temperature_are_read_as_written_either_way(source: str, summary: str, supported: bool) -> None:
    verdicts = LexicalJudge().align(source, summary).alignment
    assert all(v.supported for v in verdicts) is supported, [v.reason for v in verdicts]


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        # a year's figures reused as a count stand in the count's place
        ("The firm, founded in 1998, employs 450 people in Leeds.", "The firm employs 1998 people in Leeds.", False),
        ("The club, formed in 1878, sold 2000 season tickets.", "The club sold 1878 season tickets.", False),
        # the year where the source has it stays a year
        ("The firm, founded in 1998, employs 450 people in Leeds.", "The firm was founded in 1998.", True),
    ],
)
def test_a_years_figures_counting_people_are_a_count(source: str, summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason
    if not supported:
        assert "where the claim puts it the passage says" in v.reason, v.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The flight was delayed by two hours because of fog.", "The flight was delayed by one hour.", False),
        ("The meeting lasted three hours.", "The meeting lasted one hour.", False),
        ("The ferry takes one hour to cross.", "The ferry takes one hour to cross the bay.", True),
        ("He was suspended for a week after the video emerged.", "He was suspended for one week.", True),
        ("Muto. Appearances: 37 Goals: 16 International goals: 1", "Muto has one goal for his country.", True),
        ("One of the men, Tom Reed, hopes to one day run a marathon.", "Tom Reed hopes to run a marathon one day.", True),
    ],
)
def test_one_before_a_unit_is_a_count_checked_against_the_same_unit(source: str, summary: str, supported: bool) -> None:
    verdicts = LexicalJudge().align(source, summary).alignment
    assert all(v.supported for v in verdicts) is supported, [v.reason for v in verdicts]
    if not supported:
        assert "one hour' does not occur in the source" in verdicts[0].reason, verdicts[0].reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("Unemployment fell by 0.2 points to 4.1% in March.", "Unemployment fell by 4.1% in March.", False),
        ("Unemployment fell by 0.2 points to 4.1% in March.", "Unemployment fell to 4.1% in March.", True),
        ("Sales rose by 5% to 2.4 billion dollars.", "Sales rose by 2.4 billion dollars.", False),
        ("Sales rose by 5% to 2.4 billion dollars.", "Sales rose 5% to 2.4 billion dollars.", True),
        ("The bank cut its main rate by 0.25 points.", "The bank cut its main rate to 0.25 points.", False),
        ("Inflation fell 3% last year.", "Inflation fell by 3% last year.", True),
    ],
)
def test_a_change_given_as_a_level_or_a_level_as_a_change_is_shown(source: str, summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason
    if not supported:
        assert "where the passage says" in v.reason, v.reason


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        ("All 40 students passed the exam.", False),
        ("Three of the 40 students passed the exam.", True),
    ],
)
def test_all_of_a_number_the_source_gives_only_a_part_of_is_shown(summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align("Only three of the 40 students passed the exam.", summary).alignment
    assert v.supported is supported, v.reason


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        ("The bridge reopened in 2019.", False),
        ("The bridge reopened in 2024.", True),
        ("The bridge had been closed since 2019.", True),
    ],
)
def test_a_year_given_to_the_verb_of_its_since_is_shown(summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align("The bridge, closed since 2019, reopened in 2024.", summary).alignment
    assert v.supported is supported, v.reason


def test_a_level_reached_after_a_change_in_words_is_no_change() -> None:
    source = "The drug cut deaths by a third, from 9% to 6%."
    [v] = LexicalJudge().align(source, "The drug cut deaths by 6%.").alignment
    assert not v.supported and "'to 6%'" in v.reason, v.reason
    [w] = LexicalJudge().align(source, "With the drug, deaths fell to 6%.").alignment
    assert w.supported, w.reason


MUSEUM = (
    "The museum reopened on Saturday after a two-year renovation that cost 8.5 million euros. Visitor numbers "
    "are expected to reach 300,000 a year, the director said. The museum was founded in 1894."
)


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        # the year keeps its own words ("founded in"): that sentence's fact, joined to this one
        ("The museum, founded in 1894, reopened after a renovation costing 8.5 million euros.", True),
        # the year in the place of the renovation's length, or of its cost: moved
        ("The museum reopened on Saturday after a 1894-year renovation.", False),
        ("The renovation cost 1894 euros.", False),
    ],
)
def test_a_number_joined_with_its_own_words_is_no_number_moved(summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align(MUSEUM, summary).alignment
    assert v.supported is supported, v.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The council expects the ban to cut air pollution by a quarter.", "The ban should cut pollution by 25%.", True),
        ("Two-thirds of the members voted for the merger.", "67% of the members voted for the merger.", True),
        ("Sales halved after the recall.", "Sales fell 50% after the recall.", True),
        ("The bank raised its rate by a quarter of a percentage point to 4.5%.", "The bank raised its rate by 0.25 points to 4.5%.", True),
        ("The bank raised its rate by a quarter of a percentage point to 4.5%.", "The bank raised its rate by 0.2 points to 4.5%.", False),
        ("The council expects the ban to cut air pollution by a quarter.", "The ban should cut pollution by 40%.", False),
        # a fraction says a share, not a count: "half" is no 50 people
        ("About half of the staff were sent home.", "About 50 staff were sent home.", False),
        # a count of decades is its years
        ("Brandt, who died aged 81, recorded 23 albums over six decades.", "Brandt made 23 albums in 60 years.", True),
        ("Brandt, who died aged 81, recorded 23 albums over six decades.", "Brandt made 23 albums in 50 years.", False),
    ],
)
def test_a_share_or_a_count_of_decades_in_words_is_its_number(source: str, summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        ("Ash reached a height of 11 kilometres over the mountain.", "Ash reached a height of 11 km over the mountain."),
        ("The ice lies about 40 centimetres down in a crater.", "The ice lies about 40 cm down in a crater."),
        ("The tower is 300 meters tall.", "The tower is 300 metres tall."),
    ],
)
def test_a_unit_abbreviated_or_spelled_the_american_way_is_the_same_unit(source: str, summary: str) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported and not v.unchecked, v.reason  # stated: no word is missing
    [q] = LexicalJudge().cover([f"Is it true that {source[0].lower()}{source[1:-1]}?"], summary).coverage
    assert q.answered, q.reason


def test_a_months_abbreviation_is_the_month() -> None:
    source = "The company said like-for-like sales fell 3.2% in the 12 weeks to Jan. 26."
    [v] = LexicalJudge().align(source, "Like-for-like sales fell 3.2% in the 12 weeks to late January.").alignment
    assert v.supported and "does not occur" not in v.reason, v.reason
    [q] = LexicalJudge().cover(["Is it true that like-for-like sales fell 3.2% in the 12 weeks to Jan. 26?"],
                               "Like-for-like sales dropped 3.2% in the 12 weeks to late January.").coverage
    assert q.answered, q.reason


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        ("The earthquake killed at least 300 people and injured over 23.", False),
        ("The earthquake killed at least 23 people and injured over 300.", True),
    ],
)
def test_two_numbers_swapped_between_their_places_are_shown(summary: str, supported: bool) -> None:
    source = "The earthquake struck early on Tuesday, killing at least 23 people and injuring more than 300."
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason
    if not supported:
        assert "where the claim puts it the passage says '23'" in v.reason, v.reason


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        # one side of the swap paraphrased ("museum funding" for "funding for the city's museums")
        ("The council passed the budget, raising property tax by 12 percent and cutting museum funding by 4 percent.", False),
        ("The council passed the budget, raising property tax by 4 percent and cutting museum funding by 12 percent.", True),
    ],
)
def test_two_numbers_swapped_are_shown_where_one_keeps_a_single_neighbour(summary: str, supported: bool) -> None:
    source = ("Harwick's city council approved a 2.1 billion crown budget on Monday, raising property tax by 4 percent "
              "while cutting funding for the city's museums by 12 percent.")
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason


DINOSAUR = (
    "Palaeontologists in Argentina have found the fossil of a long-necked dinosaur about 30 metres long. "
    "The remains were dug up over three years near the town of Zapala. "
    "The species lived about 95 million years ago. "
    "Team leader Lucia Ferreyra said the bones suggested the animal weighed between 55 and 70 tonnes."
)


@pytest.mark.parametrize(
    ("summary", "supported"),
    [
        # the weight's number with another unit of weight, in a claim whose passage is the first sentence
        ("Palaeontologists in Argentina found a long-necked dinosaur that was about 30 metres long and weighed 55 to 70 kilograms.", False),
        ("Palaeontologists in Argentina found a long-necked dinosaur that was about 30 metres long and weighed 55 to 70 tonnes.", True),
    ],
)
def test_a_length_or_weight_in_another_unit_than_the_sources_is_shown_wherever_the_source_gives_it(
    summary: str, supported: bool
) -> None:
    verdicts = LexicalJudge().align(DINOSAUR, summary).alignment
    assert all(v.supported for v in verdicts) is supported, [v.reason for v in verdicts]
    if not supported:
        # the reason names the sentence that gives the weight, not the passage of the claim's other words
        assert any("'kilograms' contradicts the source's 'tonnes'" in v.reason and "(sentence 4)" in v.reason
                   for v in verdicts), [v.reason for v in verdicts]


def test_a_number_the_source_gives_in_both_units_is_no_contradiction() -> None:
    source = "The bridge is 40 metres long. Its deck sits 40 feet above the river."
    [v] = LexicalJudge().align(source, "The bridge is 40 feet above the river and 40 metres long.").alignment
    assert v.supported, v.reason


@pytest.mark.parametrize("source, summary, supported", [
    ("The bank cut its growth forecast from 1.9% to 1.8% this year.", "The bank cut its growth forecast to 1.8%.", True),
    ("한은은 올해 경제성장률 전망치를 1.9%에서 1.8%로 낮췄다.", "한은은 올해 성장률 전망을 1.8%로 내렸다.", True),
    ("The bank cut its growth forecast from 1.9% to 1.8% and kept inflation at 2.1%.",
     "The bank cut its growth forecast to 2.1%.", False),
])
def test_the_value_a_change_ended_at_stands_where_the_claim_puts_it(source: str, summary: str, supported: bool) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported is supported, v.reason
