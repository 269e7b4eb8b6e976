"""A company's name without its generic last word is its name: "Brightway" for "Brightway
Appliances", "Calder" for "Calder Foods Inc." A summary that says it lacks no name; one that names
another company ("Kelmore", "Brightway Electronics") still does."""

from __future__ import annotations

from sumjudge.summarization.offline.lexical import LexicalJudge

FACT = "Is it true that Brightway Appliances will replace the dryers for free?"


def _verdict(summary: str, question: str = FACT):  # type: ignore[no-untyped-def]
    [v] = LexicalJudge().cover([question], summary).coverage
    return v


def test_a_company_named_without_its_generic_word_answers_the_question() -> None:
    v = _verdict("Brightway will replace the dryers for free, the safety commission said.")
    assert v.answered and not v.unchecked, v.reason
    q = "Is it true that Calder Foods Inc. has closed its plant in Dunmore?"
    v = _verdict("Calder has closed its plant in Dunmore.", q)
    assert v.answered and not v.unchecked, v.reason


def test_another_company_or_the_generic_word_alone_is_not_the_name() -> None:
    v = _verdict("Kelmore will replace the dryers for free.")
    assert not (v.answered and not v.unchecked), v.reason
    v = _verdict("Brightway Electronics will replace the dryers for free.")
    assert not (v.answered and not v.unchecked), v.reason
