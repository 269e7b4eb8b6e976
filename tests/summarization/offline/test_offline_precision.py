"""The offline judge's negation and role-swap proofs: an error is shown only where the passage states
the same predicate ("the offline judge says only what it can prove").

Each rule has a faithful retelling that must stay supported (on main it was "proved" wrong) and a real
error that must stay unsupported. The faithful cases are shaped like SummEval's human references the
proofs used to fail.
"""

from __future__ import annotations

import pytest

from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.verdicts import AlignmentVerdict


def _align(source: str, summary: str) -> list[AlignmentVerdict]:
    return LexicalJudge().align(source, summary).alignment


def _one(source: str, summary: str) -> AlignmentVerdict:
    [v] = _align(source, summary)
    return v


def _kept_and_shown(source: str, faithful: str, error_source: str, error: str) -> None:
    """``faithful`` stays supported against ``source``; ``error`` is shown a negation against
    ``error_source``."""
    v = _one(source, faithful)
    assert v.supported, v.reason
    w = _one(error_source, error)
    assert not w.supported and "negation differs" in w.reason, w.reason


def test_one_shared_word_is_no_evidence_of_a_negation() -> None:
    # "She doesn't care" shares only "care" with the claim: another statement, not its negation
    source = "Gemma's mother Debbie is now looking after her children. 'She doesn't care.'"
    # the real negation shares the predicate and its subject
    source2 = "Gemma's mother Debbie is caring for her children. She lives in Leeds."
    _kept_and_shown(
        source,
        "Gemma's mother Debbie is caring for her children.",
        source2,
        "Gemma's mother Debbie is not caring for her children.",
    )


RESCUE = (
    "More than 400 migrants were rescued from the Mediterranean Sea on Sunday. Rescuers searched the "
    "water for hours, but found no survivors, nor bodies."
)


def test_nor_in_a_list_does_not_negate_an_unrelated_phrase() -> None:
    _kept_and_shown(
        RESCUE,
        "The Mediterranean Sea is the body of water migrants were rescued from.",
        RESCUE,
        "Migrants were not rescued from the Mediterranean Sea.",
    )


def test_an_infinitive_is_not_contradicted_by_another_infinitive() -> None:
    # "risks failing to qualify" and "under pressure ..., to qualify": neither says it qualified
    source = "The club risks failing to qualify for the Champions League."
    # "failed to qualify" against a plain statement is still shown
    source2 = "The club qualified for the Champions League this season after a win in May."
    _kept_and_shown(
        source,
        "The manager is under pressure, to qualify for the Champions League.",
        source2,
        "The club failed to qualify for the Champions League this season.",
    )


def test_a_condition_or_a_question_states_no_fact_to_negate() -> None:
    source = "It remains to be seen whether Van der Wiel has any choice in staying with the club."
    source2 = "Van der Wiel has a choice in staying with the club, his agent said."
    _kept_and_shown(
        source,
        "Van der Wiel does not have a choice in staying with the club.",
        source2,
        "Van der Wiel does not have a choice in staying with the club.",
    )


PASSPORTS = (
    "Families paid extra to get their passports quickly. Ministers refused to give a blanket refund to "
    "the desperate families. At the same time, managers at the passport agency received bonuses."
)


def test_refused_to_negates_what_it_governs() -> None:
    # "refused to give a refund": no refund was given, which the claim says
    _kept_and_shown(
        PASSPORTS,
        "Ministers haven't given refunds to the families.",
        PASSPORTS,
        "Ministers gave a blanket refund to the families.",
    )


def test_words_from_all_over_a_sentence_do_not_state_a_negated_phrase() -> None:
    # "time" (from "at the same time") and "passport" (of "the passport agency"): not the claim's phrase
    source = (
        "Families paid extra for fast passports. At the same time, managers at the passport agency "
        "received bonuses."
    )
    summary = "Families paid extra for fast passports. Even so, they didn't get their passports in time."
    v = _align(source, summary)[1]
    assert v.supported, v.reason
    # the negated phrase in the passage's own words and order: shown
    source2 = "Managers at the passport agency received bonuses in May."
    w = _one(source2, "Managers at the passport agency did not receive bonuses.")
    assert not w.supported and "negation differs" in w.reason


SQUAD = (
    "The coach named three new players on Monday. 'The full Jamaican team list for the competition will "
    "be announced shortly.' The team plays its first match in June."
)


def test_what_will_happen_is_not_contradicted_by_what_has_not_yet() -> None:
    _kept_and_shown(
        SQUAD,
        "The full team list has yet to be announced.",
        SQUAD,
        "The full Jamaican team list for the competition will not be announced.",
    )


def test_a_negation_that_says_when_contradicts_neither_the_event_nor_its_absence() -> None:
    # "not ... until" dates the reopening; a plain negation still contradicts a plain claim
    _kept_and_shown(
        "The school will not reopen until September, the council said.",
        "The school will reopen in September.",
        "The school will not reopen this year, the council said.",
        "The school will reopen this year.",
    )
    assert _one("She decided not to cash the ticket in until April 6.", "She decided not to cash the ticket in.").supported


MATCH = "Smith defeated Jones in the final on Sunday. The crowd was small."


def _swap_shown(source: str, summary: str) -> bool:
    return any("swap roles" in v.reason and not v.supported for v in _align(source, summary))


def test_a_role_swap_needs_a_verb_between_the_two_words() -> None:
    # "Arsenal playmaker Mesut Ozil": a compound, no one did anything to anyone
    source = "Arsenal playmaker Mesut Ozil received a new watch on Sunday."
    assert not _swap_shown(source, "Mesut Ozil, playmaker for Arsenal, received a new watch on Sunday.")
    assert _swap_shown(MATCH, "Jones defeated Smith in the final on Sunday.")


def test_a_list_is_no_role_swap() -> None:
    source = "The smoke filters out blue, yellow and purple light, leaving a red sunset."
    assert not _swap_shown(source, "The smoke filters out light such as purple, yellow and blue.")
    source2 = "The postman said the dog bit the man on Monday morning."
    assert _swap_shown(source2, "The postman said the man bit the dog on Monday morning.")


def test_a_role_marked_by_a_preposition_or_an_agent_is_no_swap() -> None:
    # "given to babies" and "babies given antibiotics" say the same; "produced by Copa90" is passive
    source = "Babies given antibiotics in the first months of life are more likely to be obese."
    assert not _swap_shown(source, "Antibiotics given to babies may contribute to obesity.")
    source2 = "The video, produced by Copa90, shows every goal Harry Kane scored this season."
    assert not _swap_shown(source2, "Copa90 produced the video of Harry Kane.")
    # the same preposition on both sides: the order decides, and a swap is shown
    source3 = "Smith was defeated by Jones in the final on Sunday."
    assert _swap_shown(source3, "Jones was defeated by Smith in the final on Sunday.")


def test_a_negation_written_apart_as_is_n_t_is_the_sources_isn_t() -> None:
    # tokenised text writes "isn't" as "is n ’ t": the "n ’ t" still negates (a REALSumm reference)
    source = "From all I have been told there isn ’ t a jot of evidence that the blaze was started deliberately."
    same = _one(source, "There is n ’ t a jot of evidence that the blaze was started deliberately.")
    assert same.supported, same.reason
    flipped = _one(source, "There is a jot of evidence that the blaze was started deliberately.")
    assert not flipped.supported


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("The firm, which is based in London, makes toys.", "The London-based firm makes toys.", True),
        ("The Paris-based group was founded in 1990.", "The group, based in Paris, was founded in 1990.", True),
        ("The firm, which is based in London, makes toys.", "The Paris-based firm makes toys.", False),
        ("Relegation-threatened Ceahlaul have sacked their coach.", "relegation-threatened ceahlaul have sacked their coach.", True),
        ("The club, threatened with relegation, sacked its coach.", "The relegation-threatened club sacked its coach.", True),
    ],
)
def test_a_name_joined_to_a_participle_is_the_name_and_the_word(source: str, summary: str, supported: bool) -> None:
    v = _one(source, summary)
    assert v.supported is supported, v.reason
    if supported:
        assert "does not occur" not in v.reason and "not in the source" not in v.reason, v.reason


@pytest.mark.parametrize(
    ("source", "summary", "supported"),
    [
        ("About 300 people were evacuated, but no one was hurt.", "About 300 people were hurt.", False),
        ("Nothing was taken from the house, police said.", "Thieves took jewellery from the house.", False),
        ("About 300 people were evacuated, but no one was hurt.", "No one was hurt.", True),
        ("Nobody was injured in the first blast, but two men were hurt in the second.",
         "Two men were hurt in the second blast.", True),
    ],
)
def test_a_negation_that_is_the_subject_needs_only_its_predicate_shared(source: str, summary: str, supported: bool) -> None:
    v = _one(source, summary)
    assert v.supported is supported, v.reason
    if not supported:
        assert v.reason.startswith("negation differs"), v.reason

