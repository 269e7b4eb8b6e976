"""Quoted evidence, located, over real HTTP: a judge that quotes the source is verified and its quote's
offsets point at the passage; one that invents quotes, quotes the summary back, or says yes with no
quote is marked unverified; strict evidence counts those against the summary, and says so."""

from __future__ import annotations

from typing import Any

from sumjudge import create_summarization_scorer
from sumjudge.judges.base import ModelConfig
from sumjudge.testing.judge_server import JudgeServer
from sumjudge.testing.quoting import QuotingBrain

SOURCE = (
    "The company raised more than $105 million in its latest round. "
    "Its founder, Ada Lind, said the money would pay for two new factories. "
    "The first factory opens in Lyon in 2027."
)
SUMMARY = "The company raised less than $105 million. Ada Lind will build two new factories."


def _score(brain: QuotingBrain, source: str = SOURCE, summary: str = SUMMARY, **options: Any) -> Any:
    with JudgeServer(brain) as server:
        model = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test")
        scorer = create_summarization_scorer(model=model, options=options)
        return scorer.run_sync(input=source, output=summary)


def test_a_faithful_quote_is_verified_and_its_offsets_point_at_the_source_passage() -> None:
    result = _score(QuotingBrain(alignment=("faithful",), coverage=("faithful",)))
    claims = result.preprocess_step_result.alignment
    assert [c.verified for c in claims] == [True, True]
    start, end = claims[1].quote_offsets
    assert SOURCE[start:end] == "Its founder, Ada Lind, said the money would pay for two new factories"  # edges trimmed
    answered = [v for v in result.analyze_step_result.coverage if v.answered]
    assert answered and all(v.verified for v in answered)
    for v in answered:
        start, end = v.quote_offsets
        assert SUMMARY[start:end] == v.quote.rstrip(".")  # offsets into the summary for a question's quote


def test_quoting_the_summary_instead_of_the_source_is_unverified() -> None:
    # the case: "less than" in the summary for the source's "more than", each reason quoting the summary
    result = _score(QuotingBrain(alignment=("summary",)))
    claims = result.preprocess_step_result.alignment
    assert all(c.supported for c in claims)
    assert [c.verified for c in claims] == [False, False]
    assert all(c.quote_offsets is None for c in claims)


def test_an_invented_quote_is_unverified_for_claims_and_questions() -> None:
    result = _score(QuotingBrain(alignment=("invented",), coverage=("invented",)))
    assert not any(c.verified for c in result.preprocess_step_result.alignment)
    assert not any(v.verified for v in result.analyze_step_result.coverage)


def test_a_judge_that_says_yes_with_no_quote_contradicts_itself_and_is_unverified() -> None:
    result = _score(QuotingBrain(alignment=("contradicts", "unsupported"), coverage=("contradicts", "unanswered")))
    first, second = result.preprocess_step_result.alignment
    assert (first.supported, first.verified) == (True, False)
    assert (second.supported, second.verified) == (False, True)  # no, with nothing quoted: nothing to check
    cov = result.analyze_step_result.coverage
    assert (cov[0].answered, cov[0].verified) == (True, False)
    assert (cov[1].answered, cov[1].verified) == (False, True)


def test_strict_evidence_counts_unverified_verdicts_against_the_summary_and_says_so() -> None:
    brain = QuotingBrain(alignment=("faithful", "summary"), coverage=("faithful",))
    lenient = _score(brain)
    strict = _score(brain, strict_evidence=True)
    assert lenient.alignment_score == 1.0 and not lenient.strict_evidence
    assert strict.alignment_score == 0.5 and strict.strict_evidence
    flipped = strict.preprocess_step_result.alignment[1]
    assert not flipped.supported and not flipped.verified and "strict evidence" in flipped.reason
    assert "Strict evidence: 1 unverified verdict(s)" in strict.reason


def test_the_quote_fields_are_in_the_result_json() -> None:
    data = _score(QuotingBrain()).model_dump(mode="json")
    claim = data["preprocess_step_result"]["alignment"][0]
    assert {"quote", "quote_offsets", "verified"} <= set(claim)
    assert {"quote", "quote_offsets", "verified"} <= set(data["analyze_step_result"]["coverage"][0])


def test_the_judge_is_asked_for_a_quote_in_the_schema_and_the_prompt() -> None:
    with JudgeServer(QuotingBrain()) as server:
        model = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test")
        create_summarization_scorer(model=model).run_sync(input=SOURCE, output=SUMMARY)
        sent = {r.step: r for r in server.chat_requests()}
    for step in ("alignment", "coverage"):
        assert '"quote"' in sent[step].text and "verbatim" in sent[step].prompt
