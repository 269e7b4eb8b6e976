"""A question is never answered by a claim the source does not support: a summary with an invented
sentence added never scores above its faithful twin by what it invents."""

from __future__ import annotations

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.unsupported_answers import RESTS_ON_UNSUPPORTED, answers_on_unsupported_claims
from sumjudge.summarization.verdicts import AlignmentVerdict, CoverageVerdict, Difference

SOURCE = (
    "The city council of Marlow voted on Tuesday to close the Birch Street pool. "
    "Repairs to the pool would cost 2 million dollars, the council said. "
    "The pool opened in 1964 and drew 40,000 swimmers last summer. "
    "Mayor Hale said a new pool would be built near the river by 2027."
)
FAITHFUL = (
    "Marlow's council voted to close the Birch Street pool, saying repairs would cost 2 million dollars. "
    "Mayor Hale promised a new pool by the river by 2027. The pool drew 40,000 swimmers last summer."
)
INVENTED = "Governor Ruiz said the pool opened in 1964."


def test_an_invented_sentence_answers_no_question_and_never_lifts_the_score_above_the_faithful_twin():
    scorer = create_summarization_scorer(LexicalJudge())
    faithful = scorer.run_sync(input=SOURCE, output=FAITHFUL)
    added = scorer.run_sync(input=SOURCE, output=f"{FAITHFUL} {INVENTED}")
    assert [v.supported for v in added.preprocess_step_result.alignment if INVENTED in v.claim] == [False]
    opened = next(v for v in added.analyze_step_result.coverage if "1964" in v.question)
    assert not opened.answered and opened.reason.startswith(RESTS_ON_UNSUPPORTED)
    assert added.score <= faithful.score


SUMMARY = "The pool closed. Governor Ruiz said it opened in 1964, and it drew 40,000 swimmers."


def _claim(text: str, supported: bool) -> AlignmentVerdict:
    return AlignmentVerdict(claim=text, reason="", supported=supported)


def _answer(quote: str, **kw: object) -> CoverageVerdict:
    at = SUMMARY.index(quote)
    return CoverageVerdict(question="q?", quote=quote, reason="said", answered=True, quote_offsets=[at, at + len(quote)], **kw)


def test_an_answer_quoting_a_supported_claim_beside_an_unsupported_one_still_counts():
    claims = [_claim("The pool closed.", True), _claim("Governor Ruiz said it opened in 1964", False),
              _claim("it drew 40,000 swimmers.", True)]
    whole = _answer("Governor Ruiz said it opened in 1964, and it drew 40,000 swimmers.")
    alone = _answer("Governor Ruiz said it opened in 1964", probability=0.8)
    out = answers_on_unsupported_claims(claims, [whole, alone], SUMMARY)
    assert out[0] is whole
    assert not out[1].answered and out[1].probability is None


def test_an_unchecked_verdict_is_not_an_answer_its_nearest_sentence_stands_for():
    claims = [_claim("The pool closed.", True), _claim("Governor Ruiz said it opened in 1964", False)]
    guess = _answer("Governor Ruiz said it opened in 1964", unchecked=True, probability=0.57)
    assert answers_on_unsupported_claims(claims, [guess], SUMMARY) == [guess]


def test_nothing_is_re_decided_where_a_supported_claim_cannot_be_placed_in_the_summary():
    claims = [_claim("The municipal pool was shut down.", True), _claim("Governor Ruiz said it opened in 1964", False)]
    alone = _answer("Governor Ruiz said it opened in 1964")
    assert answers_on_unsupported_claims(claims, [alone], SUMMARY) == [alone]


def test_a_claim_wrong_only_in_a_detail_its_passage_states_otherwise_still_answers_what_it_gets_right():
    detail = _claim("Governor Ruiz said it opened in 1964", False).model_copy(update={
        "differs": [Difference(claim="1964", source="1962", claim_offsets=[49, 53], source_offsets=[10, 14])]})
    unshown = detail.model_copy(update={"differs": [Difference(claim="1964", source="1962", claim_offsets=[49, 53])]})
    alone = _answer("Governor Ruiz said it opened in 1964")
    assert answers_on_unsupported_claims([detail], [alone], SUMMARY) == [alone]
    assert not answers_on_unsupported_claims([unshown], [alone], SUMMARY)[0].answered


SCHOOL = (
    "The Marlow school board voted 5 to 4 on Wednesday to keep two primary schools open, rejecting a plan by "
    "superintendent Diane Carver to merge them. The board asked Carver to present a new budget plan in January."
)
SCHOOL_FAITHFUL = "The Marlow school board voted to keep two primary schools open, and a new budget plan is due in January."
SCHOOL_ADDED = "Superintendent Diane Carver resigned in 2019."


# the offline judge shows "resigned in 2019" unsupported; it cannot show "said she would resign" wrong and
# leaves it unchecked, but none of its words but the names is the source's: neither 'Carver' answers
@pytest.mark.parametrize("sentence, unchecked", [(SCHOOL_ADDED, False), ("Diane Carver said she would resign.", True)])
def test_a_name_only_an_invented_sentence_gives_lends_it_to_no_answer(sentence: str, unchecked: bool):
    scorer = create_summarization_scorer(LexicalJudge())
    faithful = scorer.run_sync(input=SCHOOL, output=SCHOOL_FAITHFUL)
    added = scorer.run_sync(input=SCHOOL, output=f"{SCHOOL_FAITHFUL} {sentence}")
    (invented,) = [v for v in added.preprocess_step_result.alignment if "Carver" in v.claim]
    assert invented.supported is unchecked and invented.unchecked is unchecked
    asked = next(v for v in added.analyze_step_result.coverage if "Carver to present" in v.question)
    assert not asked.answered and "'Carver'" in asked.reason
    assert added.score <= faithful.score


def test_a_name_a_supported_claim_gives_still_answers():
    summary = "A new budget plan is due in January. Superintendent Diane Carver spoke last."
    claims = [_claim("A new budget plan is due in January.", True),
              _claim("Superintendent Diane Carver spoke last.", True)]
    quote = "A new budget plan is due in January."
    at = summary.index(quote)
    answer = CoverageVerdict(question="Is it true that the board asked Carver to present a new budget plan in January?",
                             quote=quote, reason="said", answered=True, quote_offsets=[at, at + len(quote)])
    assert answers_on_unsupported_claims(claims, [answer], summary) == [answer]
    invented = [claims[0], claims[1].model_copy(update={"supported": False})]
    (out,) = answers_on_unsupported_claims(invented, [answer], summary)
    assert not out.answered and "'Carver'" in out.reason


def test_an_unchecked_claim_that_shares_the_source_s_words_still_gives_its_name():
    # "merge" and "schools" are the source's words (not the question's): a paraphrase, not an invention
    summary = "A new budget plan is due in January. Carver had wanted to merge the schools."
    claims = [_claim("A new budget plan is due in January.", True),
              _claim("Carver had wanted to merge the schools.", True).model_copy(update={"unchecked": True})]
    quote = "A new budget plan is due in January."
    at = summary.index(quote)
    answer = CoverageVerdict(question="Is it true that the board asked Carver to present a new budget plan in January?",
                             quote=quote, reason="said", answered=True, quote_offsets=[at, at + len(quote)])
    assert answers_on_unsupported_claims(claims, [answer], summary, SCHOOL) == [answer]
    apart = [claims[0], claims[1].model_copy(update={"claim": "Carver will resign."})]
    summary_apart = "A new budget plan is due in January. Carver will resign."
    (out,) = answers_on_unsupported_claims(apart, [answer], summary_apart, SCHOOL)
    assert not out.answered and "'Carver'" in out.reason
