"""Crossings: a claim whose words all stand in one source sentence but join parts of different
clauses there is never "stated": it stays unchecked (supported, flagged) and its note says why."""

from __future__ import annotations

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge

RELATIVE = "in another clause than"
OBJECT = "may join them otherwise"


@pytest.mark.parametrize(
    ("source", "summary", "note"),
    [
        # a relative clause's verb with the main clause's anchor, or the other way round
        ("The ban, which began in March, was lifted on Friday.", "The ban began on Friday.", RELATIVE),
        ("The ban, which began in March, was lifted on Friday.", "The ban was lifted in March.", RELATIVE),
        ("Jones, who trained in Paris, now works in Berlin.", "Jones trained in Berlin.", RELATIVE),
        ("The singer, who was born in Lagos, now lives in London.", "The singer was born in London.", RELATIVE),
        ("The singer, who was born in Lagos, now lives in London.", "The singer was born in Lagos.", None),
        ("The ban, which began in March, was lifted on Friday.", "The ban began in March.", None),
        ("Jones, who trained in Paris, now works in Berlin.", "Jones trained in Paris and works in Berlin.", None),
        ("The resident, who was known as Newman, says he expects to lose.", "Newman says he expects to lose.", None),
        ("They were met by police, who took them to the capital, Irbil, an official said.",
         "They were met by police, who took them to Irbil.", None),
        # a verb with the object of another verb of the sentence
        ("The airline cancelled 40 flights but kept its London routes.", "The airline cancelled its London routes.", OBJECT),
        ("Police arrested two men and released a woman without charge.", "Police arrested a woman.", OBJECT),
        ("Police arrested two men and released a woman without charge.", "Police arrested two men.", None),
        ("The airline cancelled 40 flights but kept its London routes.", "The airline kept its London routes.", None),
        # a verb of one coordinated clause with the name, number or date of the other
        ("The exhibition opens in May and closes in September.", "The exhibition opens in September.", RELATIVE),
        ("The team was founded in Leeds but now plays in York.", "The team now plays in Leeds.", RELATIVE),
        ("The company will keep its Paris office and close the one in Lyon.", "The company will close its Paris office.", RELATIVE),
        ("The exhibition opens in May and closes in September.", "The exhibition opens in May.", None),
        ("The storm hit Florida on Monday and moved into Georgia on Tuesday.", "The storm hit Florida and Georgia.", None),
        # the claim keeps the verb's number but takes the other clause's name: a name for a name
        ("Jones was born in Cardiff in 1970 and moved to London in 1995.", "Jones moved to Cardiff in 1995.", RELATIVE),
        ("The storm killed 12 people in Texas and injured 40 in Oklahoma.", "The storm killed 12 people in Oklahoma.", RELATIVE),
        # an anchor of a clause the claim's verb introduces is that clause's own
        ("The designer revealed in February that he would not show at the Sydney event, and he left Milan.",
         "The designer revealed in February that he would not show at the Sydney event.", None),
        ("Liverpool are four points behind City, and Arsenal trail by six.", "Liverpool are four points behind City.", None),
        # no clause on one side: names joined by "and", a list of roles
        ("Residents of Leeds and York were told to stay indoors.", "Residents of York were told to stay indoors.", None),
        ("She works as a coach, a writer for The Post and an author of The Guide.", "She works as an author of The Guide.", None),
    ],
)
def test_words_joined_across_the_clauses_of_a_sentence_are_never_stated(source: str, summary: str, note: str | None) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported, v.reason
    assert ("stated in source" in v.reason) is (note is None), v.reason
    if note is not None:
        assert v.unchecked and note in v.reason, v.reason


BUDGET = (
    "The city council approved a budget of 450 million dollars on Monday. The mayor, Ana Ruiz, said the plan "
    "would add 200 police officers. Opposition members said the budget cut library funding by 12%."
)


@pytest.mark.parametrize(
    ("summary", "crossed"),
    [
        ("The budget cut police funding by 12%.", "'police'"),
        ("The mayor said the budget cut library funding by 12%.", "'mayor'"),
        ("Opposition members said library funding was cut by 12%.", None),
        ("Opposition members said the budget cut library funding by 12%.", None),
    ],
)
def test_a_word_set_into_the_next_sentences_statement_is_not_stated(summary: str, crossed: str | None) -> None:
    [v] = LexicalJudge().align(BUDGET, summary).alignment
    assert v.supported, v.reason
    if crossed:
        assert v.unchecked and f"has {crossed} in another sentence than the rest" in v.reason, v.reason
    else:
        assert "another sentence" not in v.reason, v.reason



FINAL = (
    "In the final on Sunday, Spain beat Portugal 3-1 after extra time. Portugal had led at half-time through "
    "a goal by Rui Costa. Spain's coach, Luis Ortega, was sent off in the 70th minute."
)


@pytest.mark.parametrize(
    ("summary", "earlier"),
    [
        ("Spain led at half-time.", "'Spain'"),
        ("Portugal's coach was sent off.", "\"Portugal's\""),
        ("Portugal had led at half-time.", None),
        ("Spain's coach was sent off.", None),
    ],
)
def test_a_name_from_before_the_passage_in_another_names_place_is_not_stated(summary: str, earlier: str | None) -> None:
    [v] = LexicalJudge().align(FINAL, summary).alignment
    assert v.supported, v.reason
    if earlier:
        assert v.unchecked and f"names {earlier} only before this passage" in v.reason, v.reason
    else:
        assert "only before this passage" not in v.reason, v.reason


def test_a_date_in_the_place_of_a_name_from_before_is_no_other_party() -> None:
    source = (
        "Boss Nigel Pearson has urged Leicester to keep their cool. The Foxes host Swansea on Saturday "
        "just three points from safety after back-to-back wins."
    )
    [v] = LexicalJudge().align(source, "Leicester are just three points from safety after back-to-back wins.").alignment
    assert v.supported and "only before this passage" not in v.reason, v.reason


@pytest.mark.parametrize(
    ("source", "summary", "dated"),
    [
        ("Police arrested a man on Tuesday after a fire destroyed a warehouse. The blaze started late on Monday.",
         "The fire started on Tuesday.", ("'Tuesday'", "'Monday'")),
        ("The trial ran from March 3 to May 9. The results were published in June.",
         "The results were published in March.", ("'March'", "'June'")),
        # each sentence gives its own verb its own date: the claim repeats one of them
        ("The festival started on Friday. Ticket sales started on Monday.", "The festival started on Friday.", None),
    ],
)
def test_a_date_given_to_the_verb_of_another_sentence_is_not_stated(source: str, summary: str, dated: tuple[str, str] | None) -> None:
    [v] = LexicalJudge().align(source, summary).alignment
    assert v.supported, v.reason
    if dated:
        assert v.unchecked and f"has {dated[0]} in another sentence than the claim's verb, which has {dated[1]}" in v.reason, v.reason
    else:
        assert "stated in source" in v.reason, v.reason
