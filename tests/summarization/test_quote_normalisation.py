"""A quote is located as a reader reads it (Unicode
normalisation: NFC against NFD, fullwidth letters), so ``strict_evidence`` does not zero a correct claim;
and a verdict that copies the question back as hosted judges do (typographic quotes, a dropped "?", an
escaped character, a fixed typo, a space inside quotes) answers what was asked, at once, while a verdict
about another text (another item's question, a claim of the judge's own) is still refused."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from scripted import claims, judge, questions

from sumjudge import create_summarization_scorer
from sumjudge.errors import JudgeOutputError
from sumjudge.summarization.stray_verdicts import same_text, strays
from sumjudge.summarization.quotes import locate
from sumjudge.summarization.verdicts import COVERAGE_STEP

NFD_SOURCE = unicodedata.normalize("NFD", "Le café a ouvert à Genève en 1990. Il sert du thé.")
NFC_QUOTE = unicodedata.normalize("NFC", "Le café a ouvert à Genève en 1990")


# -- point 7: quotes located with Unicode normalisation ----------------------------------------------


def test_an_nfc_quote_is_found_in_an_nfd_source_with_offsets_of_the_source() -> None:
    assert NFD_SOURCE != unicodedata.normalize("NFC", NFD_SOURCE) and NFC_QUOTE not in NFD_SOURCE
    found = locate(NFC_QUOTE, NFD_SOURCE)
    assert found is not None and found.match == "normalised"
    assert unicodedata.normalize("NFC", NFD_SOURCE[found.start:found.end]) == NFC_QUOTE
    # the other way round, and a quote that ends on an accented letter ends after its combining mark
    nfd_quote = unicodedata.normalize("NFD", "à Genève")
    found = locate(nfd_quote, unicodedata.normalize("NFC", NFD_SOURCE))
    assert found is not None
    found = locate("a ouvert à", NFD_SOURCE)
    assert found is not None and unicodedata.combining(NFD_SOURCE[found.end - 1])


def test_fullwidth_letters_and_digits_are_found() -> None:
    found = locate("Ｔｈｅ ｃｏｕｎｃｉｌ approved １２０ homes", "The council approved 120 homes on Tuesday.")
    assert found is not None and (found.start, found.end) == (0, 30)


def test_a_changed_accent_or_number_is_still_not_found() -> None:
    assert locate("Le café a ouvert à Genève en 1991", NFD_SOURCE) is None


@pytest.mark.parametrize("quote", [NFC_QUOTE, "Ｌｅ ｃａｆé a ouvert à Genève en １９９０"])
async def test_strict_evidence_keeps_a_correct_claim_whose_quote_differs_only_in_unicode_form(quote: str) -> None:
    alignment = {"alignment": [{"claim": "A café opened in Geneva in 1990.", "quote": quote, "reason": "stated",
                                "supported": True}]}
    qs = "Did a café open in Geneva?"

    def coverage(request: Any) -> dict[str, Any]:
        return {"coverage": [{"question": qs, "quote": "A café opened in Geneva", "reason": "r", "answered": True}]}

    j = judge(alignment, questions(qs), coverage)
    scorer = create_summarization_scorer(model=j, options={"strict_evidence": True})
    result = await scorer.run(input=NFD_SOURCE, output="A café opened in Geneva in 1990.")
    claim = result.preprocess_step_result.alignment[0]
    assert claim.verified is True and claim.supported is True
    assert result.score == 1.0


# -- a verdict answers what was asked, as a reader reads it -------------------------------------------

ASKED = 'Did the council approve the "Riverside" plan for 120 homes?'
COPIED = [
    "Did the council approve the \u201cRiverside\u201d plan for 120 homes?",  # typographic quotes
    'Did the council approve the "Riverside" plan for 120 homes',  # the "?" dropped
    'Did the council approve the \\"Riverside\\" plan for 120 homes?',  # an escaped character
    'Did the council approve the "Riverside" plan for 120 homes? ',  # a trailing space
    '"Did the council approve the "Riverside" plan for 120 homes? "',  # a space inside quotes
    'did the Council approve the "Riverside" plan for 120 homes.',  # case, another final mark
    'Did the councel approve the "Riverside" plan for 120 homes?',  # a typo
    "Did the council approve the \uff02Riverside\uff02 plan for \uff11\uff12\uff10 homes\uff1f",  # fullwidth (NFKC)
]


@pytest.mark.parametrize("said", COPIED)
def test_the_asked_text_copied_back_as_judges_copy_it_is_the_asked_text(said: str) -> None:
    assert same_text(ASKED, said), said


def test_a_typo_the_judge_fixed_in_the_asked_text_is_the_asked_text() -> None:
    assert same_text("Did the councl approve the plan?", "Did the council approve the plan?")
    assert same_text("Is the bridge in Zürich?", unicodedata.normalize("NFD", "Is the bridge in Zürich?"))
    assert same_text("Was it R&D spending?", "Was it R&amp;D spending?")


OTHER = [
    'Did the council approve the "Riverside" plan for 210 homes?',  # a number changed
    'Did the council reject the "Riverside" plan for 120 homes?',  # a word changed
    'Did the council not approve the "Riverside" plan for 120 homes?',  # a word added
    'Did the council approve the "Riverside" plan?',  # words dropped
    "Did building start in May?",  # another item's question
    "The summary states point 1.",  # a claim of the judge's own
    "",
]


@pytest.mark.parametrize("said", OTHER)
def test_another_text_is_not_the_asked_text(said: str) -> None:
    assert not same_text(ASKED, said), said


def test_strays_names_only_the_verdicts_about_other_texts() -> None:
    asked = ["Did the cat sit?", "Was it on the mat?", "Did it sleep?"]
    said = ["Did the cat sit", "Was it on the \u201cmat\u201d?", "Did the dog run?"]
    assert strays(asked, said) == [2]


async def test_coverage_copied_back_with_typographic_quotes_and_no_question_mark_is_scored_at_once() -> None:
    qs = [ASKED, "Does building start in May?"]

    def copied(request: Any) -> dict[str, Any]:
        return {"coverage": [
            {"question": COPIED[0], "reason": "r", "answered": True},
            {"question": "does building start in May", "reason": "r", "answered": False},
        ]}

    j = judge(claims(("The council approved the plan.", True)), questions(*qs), copied)
    result = await create_summarization_scorer(model=j).run(
        input='The council approved the "Riverside" plan for 120 homes. Building starts in May.',
        output='The council approved the "Riverside" plan for 120 homes.')
    assert len(j.calls(COVERAGE_STEP)) == 1  # no re-ask
    assert [(v.question, v.answered) for v in result.analyze_step_result.coverage] == [(qs[0], True), (qs[1], False)]


async def test_coverage_about_another_items_questions_is_still_refused() -> None:
    def others(request: Any) -> dict[str, Any]:
        return {"coverage": [{"question": "Did the mayor open 4 schools?", "reason": "r", "answered": True}]}

    j = judge(claims(("The council approved the plan.", True)), questions(ASKED), others)
    with pytest.raises(JudgeOutputError, match="questions it was not asked"):
        await create_summarization_scorer(model=j).run(input="The council approved the plan.",
                                                       output="The council approved the plan.")
    assert len(j.calls(COVERAGE_STEP)) == 2  # asked once more, then refused
