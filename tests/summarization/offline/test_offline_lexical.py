"""The offline lexical judge, asked directly through the judge interface (no scorer)."""

from __future__ import annotations

import pytest

from sumjudge.errors import ConfigurationError, JudgeError
from sumjudge.judges.base import JudgeModel, JudgeRequest, StepInputs
from sumjudge.summarization.offline import create_offline_judge
from sumjudge.summarization.offline.lexical import fact_of_question
from sumjudge.summarization.language.segment import detect_language, split_sentences
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.verdicts import (
    ALIGNMENT_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    CoverageOutput,
    QuestionsOutput,
)

SOURCE = (
    "The town council of Millbrook voted on Tuesday to build a new public library on Elm Street. "
    "The building will cost $4.2 million and is expected to open in September 2026. "
    "Mayor Helen Ortiz said 95% of residents support the plan. "
    "The new library will have a children's wing, a café and 40 computers for public use."
)
KO_SOURCE = (
    "부산시는 3일 도시철도 5호선 건설 계획을 발표했다. 새 노선은 총 길이 12킬로미터이며 정거장 10곳을 지난다. "
    "박형준 시장은 이 노선이 동부산의 교통 혼잡을 크게 줄일 것이라고 말했다."
)


@pytest.fixture
def judge() -> JudgeModel:
    return create_offline_judge("lexical")


async def align(judge: JudgeModel, source: str, summary: str) -> AlignmentOutput:
    req = JudgeRequest(ALIGNMENT_STEP, [], AlignmentOutput, StepInputs(source=source, summary=summary))
    reply = await judge.generate(req)
    assert reply.usage.calls == 1 and reply.usage.total_tokens == 0
    return reply.output


async def questions(judge: JudgeModel, source: str, n: int = 10) -> list[str]:
    req = JudgeRequest(QUESTIONS_STEP, [], QuestionsOutput, StepInputs(source=source, max_questions=n))
    return (await judge.generate(req)).output.questions


async def cover(judge: JudgeModel, qs: list[str], summary: str) -> CoverageOutput:
    req = JudgeRequest(COVERAGE_STEP, [], CoverageOutput, StepInputs(questions=qs, summary=summary))
    return (await judge.generate(req)).output


def test_registry_resolves_offline_lexical_and_rejects_unknown_names() -> None:
    assert resolve_judge("offline/lexical").model_id == "offline/lexical"
    with pytest.raises(ConfigurationError, match="offline/lexical"):
        create_offline_judge("semantic")


async def test_unknown_step_is_a_judge_error(judge: JudgeModel) -> None:
    with pytest.raises(JudgeError, match="reason"):
        await judge.generate(JudgeRequest("reason", [], AlignmentOutput, StepInputs(source="a", summary="b")))


async def test_faithful_claims_are_supported_with_a_quote(judge: JudgeModel) -> None:
    out = await align(judge, SOURCE, "Millbrook's council voted to build a new library on Elm Street.")
    assert [v.supported for v in out.alignment] == [True]
    assert "Elm Street" in out.alignment[0].reason


async def test_a_changed_number_is_named_with_the_source_figure(judge: JudgeModel) -> None:
    out = await align(judge, SOURCE, "Mayor Helen Ortiz said 99% of residents support the plan.")
    (verdict,) = out.alignment
    assert not verdict.supported
    assert "'99%' does not occur in the source; it says '95%'" in verdict.reason


async def test_number_words_and_percent_words_match_digits(judge: JudgeModel) -> None:
    out = await align(judge, SOURCE, "Mayor Helen Ortiz said 95 percent of residents support the plan.")
    assert out.alignment[0].supported, out.alignment[0].reason


async def test_a_wrong_name_is_unsupported_even_when_the_rest_matches(judge: JudgeModel) -> None:
    out = await align(judge, SOURCE, "Mayor Helen Carter said 95% of residents support the plan.")
    assert not out.alignment[0].supported
    assert "'Carter' does not occur in the source" in out.alignment[0].reason


async def test_an_invented_fact_is_unchecked_and_names_the_missing_words(judge: JudgeModel) -> None:
    # words the source lacks contradict nothing it says: supported, flagged, said plainly
    out = await align(judge, SOURCE, "The library will also host a rooftop observatory for astronomers.")
    assert out.alignment[0].supported and out.alignment[0].unchecked
    assert out.alignment[0].reason.startswith("no contradiction found") and "observatory" in out.alignment[0].reason
    assert "unchecked" in out.alignment[0].model_dump()


async def test_compound_sentences_become_separate_claims(judge: JudgeModel) -> None:
    out = await align(
        judge,
        SOURCE,
        "The building will cost $4.2 million and open in September 2026, but the town will build a stadium too.",
    )
    assert len(out.alignment) == 2
    assert [(v.supported, v.unchecked) for v in out.alignment] == [(True, False), (True, True)]
    assert "unchecked" not in out.alignment[0].model_dump()  # dropped when False, like probability


async def test_empty_summary_has_no_claims(judge: JudgeModel) -> None:
    assert (await align(judge, SOURCE, "   ")).alignment == []


async def test_questions_carry_the_fact_and_respect_the_cap(judge: JudgeModel) -> None:
    qs = await questions(judge, SOURCE, n=2)
    assert len(qs) == 2
    assert qs[0].startswith("Is it true that") and qs[0].endswith("?")
    assert "Millbrook" in qs[0]  # the lead sentence comes first
    every = await questions(judge, SOURCE)
    # a 60-word source has few key points: max_questions (10) is a ceiling, not a quota
    assert len(every) == 3
    # the weekday is detail a summary may leave out: the question asks without it
    assert every[0] == "Is it true that the town council of Millbrook voted to build a new public library on Elm Street?"
    assert "Is it true that the building will cost $4.2 million?" in every


async def test_coverage_is_judged_from_the_question_text_and_the_summary(judge: JudgeModel) -> None:
    qs = await questions(judge, SOURCE)
    summary = "Millbrook's town council voted on Tuesday to build a new public library on Elm Street."
    out = await cover(judge, qs, summary)
    assert [v.question for v in out.coverage] == qs
    answered = [v.answered for v in out.coverage]
    assert answered[0] is True and answered.count(True) == 1
    assert (await cover(judge, qs, "")).coverage[0].answered is False


async def test_korean_questions_are_phrased_in_korean_and_answerable(judge: JudgeModel) -> None:
    qs = await questions(judge, KO_SOURCE)
    assert qs and all(q.endswith("사실입니까?") or q.startswith("다음 내용이 사실입니까?") for q in qs)
    assert fact_of_question(qs[0]).startswith("부산시는")
    out = await cover(judge, qs, "부산시는 3일 도시철도 5호선 건설 계획을 발표했다.")
    assert [v.answered for v in out.coverage][0] is True
    assert not all(v.answered for v in out.coverage)


async def test_korean_claims_check_names_and_numbers(judge: JudgeModel) -> None:
    good = await align(judge, KO_SOURCE, "박형준 시장은 이 노선이 동부산의 교통 혼잡을 줄일 것이라고 말했다.")
    assert good.alignment[0].supported, good.alignment[0].reason
    bad = await align(judge, KO_SOURCE, "새 노선은 총 길이 25킬로미터이며 정거장 10곳을 지난다.")
    assert not bad.alignment[0].supported and "'25" in bad.alignment[0].reason


async def test_answers_are_deterministic(judge: JudgeModel) -> None:
    other = create_offline_judge("lexical")
    summary = "The council voted. The mayor said 90% support it."
    assert (await align(judge, SOURCE, summary)) == (await align(other, SOURCE, summary))
    assert (await questions(judge, SOURCE)) == (await questions(other, SOURCE))


def test_sentences_split_at_abbreviations_correctly_and_at_cjk_stops() -> None:
    assert split_sentences("Mr. Smith paid $3.5 million on Jan. 5. He left.") == [
        "Mr. Smith paid $3.5 million on Jan. 5.",
        "He left.",
    ]
    assert split_sentences("今天天气很好。我们去公园散步了！") == ["今天天气很好。", "我们去公园散步了！"]
    assert split_sentences("the team 's 2-1 win . it was great .") == ["the team 's 2-1 win .", "it was great ."]


def test_sentences_of_later_paragraphs_are_cut_where_they_start() -> None:
    # syntok counts offsets from each paragraph's start; the sentences are cut from the whole text.
    text = "The bridge opened in 1932. It cost 4 million dollars.\n\nIts architect was Ada Lind. She died in 1970."
    assert split_sentences(text) == [
        "The bridge opened in 1932.",
        "It cost 4 million dollars.",
        "Its architect was Ada Lind.",
        "She died in 1970.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Mr. Smith paid $3.5 million on Jan. 5. He left (see Fig. 2) at 5 p.m. and said: \"No.\" Then he went home.",
        "The study (A. Author et al.) was shown a few months ago. It was wrong! Was it? Yes; it was.",
        "He said \"It is over.\" She disagreed. (This is a whole sentence in brackets.) The end.",
        "Die Sitzung am 3. Oktober 2024 war kurz. Dr. Meier sprach zuerst. Sie endete um 18 Uhr.",
        "the team 's 2-1 win over u.s. rivals . it was great ... really great ! no 1 seed next .",
        " ".join(["Words without any stop at all run on and on"] * 12) + ". Then one.",
    ],
)
def test_sentence_starts_are_syntoks_own(text: str) -> None:
    # The judge hands syntok long stretches of plain words as one token; the sentences must be the
    # ones syntok finds token by token.
    from syntok import segmenter

    starts = [s[0].offset for p in segmenter.process(text) for s in p if s]
    expected = [text[a:b].strip() for a, b in zip(starts, [*starts[1:], len(text)])]
    assert [s for s in split_sentences(text)] == [p for e in expected for p in _spaced(e)]


def _spaced(sentence: str) -> list[str]:
    # split_sentences also splits at a stand-alone " . " (tokenized corpora)
    import regex

    return [p.strip() for p in regex.split(r"(?<=\s[.!?])\s+", sentence) if p.strip()]


def test_language_detection_by_script_and_function_words() -> None:
    assert detect_language(KO_SOURCE) == "ko"
    assert detect_language(SOURCE) == "en"
    assert detect_language("Der Rat hat am Dienstag beschlossen, dass die Bibliothek gebaut wird.") == "de"
    assert detect_language("今天天气很好。") == "zh"


def test_long_sources_ask_about_whole_sentences_and_short_ones_about_each_fact() -> None:
    from sumjudge.summarization.offline.lexical import LexicalJudge

    sentence = "The council approved the plan and rejected the budget."
    judge = LexicalJudge()
    assert judge.questions(sentence, 10).questions == [
        "Is it true that the council approved the plan?",
        "Is it true that the council rejected the budget?",
    ]
    # more sentences than questions: each question asks about one whole sentence
    people = "Anna Boris Clara David Emma Felix Greta Hugo Irene Jonas Karla Lukas".split()
    things = "boats cars drums farms guitars houses lamps mills pianos radios sheep trucks".split()
    places = "Oslo Lima Rome Kyiv Doha Bern Riga Baku Lome Suva Male Apia".split()
    long_source = " ".join(
        f"{p} bought {t} in {c} and sold them later." for p, t, c in zip(people, things, places)
    )
    qs = judge.questions(long_source, 10).questions
    # 96 words: the three questions a short source gets, however many max_questions allows
    assert len(qs) == 3 and all(" and sold them later?" in q for q in qs)
    assert qs[0].lower() == "is it true that anna bought boats in oslo and sold them later?"  # the opening first
    longer = " ".join([long_source] * 5)
    assert len(judge.questions(longer, 10).questions) <= 10  # max_questions stays the ceiling
