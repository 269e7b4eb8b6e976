"""``local/reader`` where words can prove: a claim the offline judge shows wrong is unsupported whatever
the model says (its probability scaled down), and a question the summary's words already settle is not put
to the model. The model here is scripted (its P(yes) chosen per prompt), so the rules are tested
without llama.cpp; tests/summarization/reader/test_reader_judge.py runs the real model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sumjudge.errors import ConfigurationError
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.next_token import YesNoAnswer
from sumjudge.summarization.reader.judge import ReaderJudge
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, COVERAGE_STEP, AlignmentOutput, CoverageOutput

SOURCE = (
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
    "The library will cost 12 million dollars and is due to open in 2027. "
    "Mayor Ana Lopez said it would serve about 40,000 residents."
)


class ScriptedModel:
    """Answers every prompt with ``p_yes(user prompt)``; keeps the prompts it was asked."""

    def __init__(self, p_yes: Callable[[str], float]) -> None:
        self.p_yes = p_yes
        self.asked: list[str] = []

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        self.asked += [user for _, user in prompts]
        return [YesNoAnswer(p_yes=self.p_yes(user), prompt_tokens=10, evaluated=10) for _, user in prompts]


def _judge(tmp_path: Path, p_yes: Callable[[str], float], **extra: object) -> tuple[ReaderJudge, ScriptedModel]:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    model = ScriptedModel(p_yes)
    judge = ReaderJudge(f"reader:{gguf}", ModelConfig(id=f"local/reader:{gguf}", extra=dict(extra)), llm=model)  # type: ignore[arg-type]
    return judge, model


def _align(judge: ReaderJudge, summary: str) -> AlignmentOutput:
    request = JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                           inputs=StepInputs(source=SOURCE, summary=summary))
    return judge.answer(request).output


def _cover(judge: ReaderJudge, summary: str, questions: list[str]) -> CoverageOutput:
    request = JudgeRequest(step=COVERAGE_STEP, messages=[], output_type=CoverageOutput,
                           inputs=StepInputs(summary=summary, questions=questions))
    return judge.answer(request).output


def test_a_number_the_source_states_otherwise_is_unsupported_though_the_model_says_yes(tmp_path: Path) -> None:
    judge, _ = _judge(tmp_path, lambda user: 0.9)
    (verdict,) = _align(judge, "The library will cost 90 million dollars.").alignment
    assert not verdict.supported
    assert verdict.probability == pytest.approx(0.09)  # the model's 0.9 times proof_scale, 0.1 by default
    assert "shown by words" in verdict.reason and "12" in verdict.reason  # the source's number, shown
    assert "P(supported) = 0.90" in verdict.reason  # and what the model read, kept beside it
    assert verdict.decided_by == "words"


def test_the_model_alone_decides_with_proof_scale_1(tmp_path: Path) -> None:
    judge, _ = _judge(tmp_path, lambda user: 0.9, proof_scale=1)
    (verdict,) = _align(judge, "The library will cost 90 million dollars.").alignment
    assert verdict.supported and verdict.probability == pytest.approx(0.9)


def test_a_faithful_claim_keeps_the_models_probability(tmp_path: Path) -> None:
    judge, _ = _judge(tmp_path, lambda user: 0.1 if "Claim: The library will cost 12" in user else 0.8)
    low, high = _align(judge, "The library will cost 12 million dollars. Ana Lopez is the mayor.").alignment
    assert not low.supported and low.probability == pytest.approx(0.1)  # below the threshold .15: the model's no
    assert "shown by words" not in low.reason and low.decided_by is None  # the threshold decided
    assert high.supported and high.probability == pytest.approx(0.8)


def test_questions_the_summarys_words_settle_are_not_put_to_the_model(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, lambda user: 0.7)
    summary = "Springfield's new library will cost 12 million dollars."
    questions = [
        "Is it true that the library will cost 12 million dollars?",  # the model reads it
        "Is it true that the library will open in 2027?",  # its year is nowhere in the summary
        "Is it true that the council voted 7 to 2 on Tuesday?",  # its numbers are not there either
        "Is it true that Mayor Ana Lopez said it would serve residents?",  # no word in common
    ]
    read, year, vote, mayor = _cover(judge, summary, questions).coverage
    assert read.answered and read.probability == pytest.approx(0.7)
    for settled in (year, vote, mayor):
        assert not settled.answered and settled.probability is None
        assert settled.reason.startswith("not answered, shown by words")
    assert "2027" in year.reason
    assert [q for q in questions if any(q in user for user in model.asked)] == questions[:1]


def test_a_summary_with_another_number_contradicts_the_question(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, lambda user: 0.9)
    (verdict,) = _cover(judge, "The new library will cost 90 million dollars.",
                        ["Is it true that the library will cost 12 million dollars?"]).coverage
    assert not verdict.answered and "contradicts" in verdict.reason and model.asked == []


def test_with_word_gaps_0_the_model_reads_every_question(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, lambda user: 0.2, word_gaps=0)
    out = _cover(judge, "The library will cost 12 million dollars.", ["Is it true that it opens in 2027?"]).coverage
    assert out[0].probability == pytest.approx(0.2) and len(model.asked) == 1


def test_the_proof_scale_and_the_word_gaps_are_part_of_the_judges_identity(tmp_path: Path) -> None:
    prints = {_judge(tmp_path, lambda user: 0.5, **extra)[0].fingerprint
              for extra in ({}, {"proof_scale": 1}, {"word_gaps": 0})}
    assert len(prints) == 3


@pytest.mark.parametrize("extra", [{"proof_scale": 1.5}, {"proof_scale": -0.1}, {"word_gaps": 2}, {"proof_scale": "high"}])
def test_settings_out_of_range_are_refused_by_name(tmp_path: Path, extra: dict[str, object]) -> None:
    with pytest.raises(ConfigurationError, match=f"reader setting {next(iter(extra))}"):
        _judge(tmp_path, lambda user: 0.5, **extra)


def test_a_spelled_ordinal_is_left_to_the_model(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, lambda user: 0.6)
    (verdict,) = _cover(judge, "Springfield will build a new public library.",
                        ["Is it true that it is the first public library in Springfield?"]).coverage
    assert verdict.probability == pytest.approx(0.6) and len(model.asked) == 1  # "first" may be a way of saying


def test_an_opening_pronoun_with_no_one_before_it_is_shown(tmp_path: Path) -> None:
    judge, _ = _judge(tmp_path, lambda user: 0.8)
    (verdict,) = _align(judge, "She said the library would serve about 40,000 residents.").alignment
    assert not verdict.supported and "points back to no one" in verdict.reason
    assert verdict.probability == pytest.approx(0.08)


def test_where_the_words_and_the_model_disagree_the_reason_says_so(tmp_path: Path) -> None:
    judge, _ = _judge(tmp_path, lambda user: 0.9)
    (shown,) = _align(judge, "The library will cost 90 million dollars.").alignment
    assert not shown.supported and "the words and the model disagree" in shown.reason
    judge, _ = _judge(tmp_path, lambda user: 0.1)
    (stated,) = _align(judge, "The library will cost 12 million dollars.").alignment
    assert not stated.supported  # the model decides where the words find nothing wrong
    assert "the words and the model disagree: the words find it stated in source sentence 2" in stated.reason
    (agreed,) = _align(judge, "The library will cost 90 million dollars.").alignment
    assert "disagree" not in agreed.reason


def test_a_question_the_model_is_unsure_of_counts_as_its_probability(tmp_path: Path) -> None:
    from sumjudge.summarization.axes import coverage_value

    questions = ["Is it true that the library will cost 12 million dollars?", "Is it true that Ana Lopez is the mayor?"]
    summary = "The new library will cost 12 million dollars and Ana Lopez leads the city."
    judge, _ = _judge(tmp_path, lambda user: 0.64 if "cost" in user.rsplit("Question", 1)[-1] else 0.95, unsure_margin=0.1)
    sure, unsure = sorted(_cover(judge, summary, questions).coverage, key=lambda v: v.unchecked)
    assert unsure.unchecked and unsure.answered and "the model is unsure" in unsure.reason
    assert not sure.unchecked and sure.answered
    assert coverage_value([sure, unsure], 2) == pytest.approx((0.95 * 0 + 1 + 0.64) / 2)
    judge, _ = _judge(tmp_path, lambda user: 0.64, unsure_margin=0)
    assert not any(v.unchecked for v in _cover(judge, summary, questions).coverage)


def test_with_claims_sentences_each_summary_sentence_is_asked_plainly(tmp_path: Path) -> None:
    judge, model = _judge(tmp_path, lambda user: 0.9, claims="sentences")
    summary = "The council voted to build a library downtown, and it will cost 12 million dollars. Ana Lopez is the mayor."
    verdicts = _align(judge, summary).alignment
    assert [v.claim for v in verdicts] == ["The council voted to build a library downtown, and it will cost 12 million dollars.",
                                           "Ana Lopez is the mayor."]
    assert all("Is this sentence supported by the article?" in user for user in model.asked)
    (wrong,) = _align(judge, "The library will cost 90 million dollars.").alignment
    assert not wrong.supported  # the word proofs hold for a sentence as for a clause
    with pytest.raises(ConfigurationError):
        _judge(tmp_path, lambda user: 0.9, claims="words")


def test_the_reason_shows_the_probability_the_verdict_carries_rounded_once(tmp_path: Path) -> None:
    """0.825004 rounded to 4 places is the float 0.825, which prints as 0.82: printed from p_yes itself
    the reason said 0.83 beside check's "p=0.82"."""
    from sumjudge.figures.written import verdict_probability

    judge, _ = _judge(tmp_path, lambda user: 0.825004)
    (claim,) = _align(judge, "The city council voted on Tuesday to build a library.").alignment
    assert verdict_probability(claim.probability) == "p=0.82" and "P(supported) = 0.82 " in claim.reason
    (answer,) = _cover(judge, "The city council voted to build a library.",
                       ["Is it true that the council voted to build a library?"]).coverage
    assert verdict_probability(answer.probability) == "p=0.82" and "P(yes) = 0.82 " in answer.reason
