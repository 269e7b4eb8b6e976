"""The offline judge says only what it can prove.

A claim is unsupported only when the judge shows the error (its word, the source's word, the
passage); a claim whose words it cannot find but that contradicts nothing is supported and flagged
``unchecked``, and that flag travels: the stored record, the exports, the HTML report, the viewer's
item page and the run's figures ("12% of claims unchecked").
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.cli.progress import summary_table
from sumjudge.summarization.offline.lexical import LexicalJudge
from sumjudge.summarization.verdicts import AlignmentVerdict, CoverageVerdict
from sumjudge.store.database import RunStore

MUSEUM = (
    "The city museum reopened on Friday after a two-year renovation. Its director, forty-three, opened it. "
    "The new hall has 250 seats. Manchester United sent a team to the opening. Visitors came from across Asia."
)


def _align(source: str, summary: str) -> list[AlignmentVerdict]:
    return LexicalJudge().align(source, summary).alignment


def test_the_flag_is_left_out_of_the_serialised_verdict_when_false() -> None:
    plain = AlignmentVerdict(claim="c", reason="r", supported=True)
    flagged = AlignmentVerdict(claim="c", reason="r", supported=True, unchecked=True)
    assert "unchecked" not in plain.model_dump() and flagged.model_dump()["unchecked"] is True
    assert "unchecked" not in CoverageVerdict(question="q", reason="r", answered=True).model_dump()
    assert "unchecked" not in AlignmentVerdict.model_json_schema()["properties"]  # never asked of a model


def test_forms_of_a_number_or_name_are_the_same_fact() -> None:
    for summary in (
        "The city museum reopened after two years of renovation.",
        "Its director, 43, opened it.",
        "Man Utd sent a team to the opening.",
        "Asian visitors came.",
    ):
        [verdict] = _align(MUSEUM, summary)
        assert verdict.supported, verdict.reason


def test_a_different_number_or_an_invented_name_is_shown_as_the_error() -> None:
    [age] = _align(MUSEUM, "Its 44-year-old director opened it.")
    assert not age.supported and not age.unchecked
    assert age.reason.startswith("'44' does not occur in the source; it says 'forty-three'"), age.reason
    [name] = _align(MUSEUM, "Chelsea sent a team to the opening.")
    assert not name.supported and name.reason.startswith("'Chelsea' does not occur in the source; the passage names")


def test_a_claim_it_cannot_check_is_supported_unchecked_with_a_reason_that_says_so() -> None:
    [claim] = _align(MUSEUM, "The city museum reopened with a dazzling glass atrium.")
    assert claim.supported and claim.unchecked
    assert claim.reason.startswith("no contradiction found; 3 of 6 content words not in the source: 'dazzling'")
    assert claim.reason.endswith("a paraphrase cannot be checked by words")


def test_another_number_for_the_fact_contradicts_it() -> None:
    judge = LexicalJudge()
    q = "Is it true that the new hall has 250 seats?"
    [wrong] = judge.cover([q], "The museum's new hall has 520 seats.").coverage
    assert not wrong.answered and wrong.reason.startswith("the summary contradicts it: it says '520'"), wrong.reason
    [right] = judge.cover([q], "The museum's new hall has 250 seats, its director said.").coverage
    assert right.answered, right.reason


def test_questions_skip_captions_and_bylines_and_read_as_questions() -> None:
    source = (
        "By . Sarah Griffiths . PUBLISHED: . 08:48 EST, 3 February 2014 . "
        "Scroll down for video A mother of three was rescued from a flooded car on Monday. "
        "Firefighters reached the car after twenty minutes. The river had risen by two metres overnight."
    )
    questions = LexicalJudge().questions(source, 10).questions
    assert questions and not any("scroll" in q.lower() or "PUBLISHED" in q or "Griffiths" in q for q in questions)
    assert "Is it true that a mother of three was rescued from a flooded car?" in questions  # the weekday is detail
    assert not any("EST" in q for q in questions)  # a date line shows no verb: no fact


def test_a_korean_fact_in_the_formal_style_is_asked_grammatically() -> None:
    [q] = LexicalJudge().questions("새 다리는 1932년에 개통되었습니다.", 10).questions
    assert q == "새 다리는 1932년에 개통되었다는 것이 사실입니까?"


def test_unchecked_claims_are_stored_exported_reported_and_counted(tmp_path: Path) -> None:
    data = tmp_path / "data.jsonl"
    rows = [
        {"id": "a", "source": MUSEUM, "summary": "The city museum reopened with a dazzling glass atrium."},
        {"id": "b", "source": MUSEUM, "summary": "The city museum reopened on Friday after a two-year renovation."},
    ]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    store, report, csv = tmp_path / "runs.db", tmp_path / "report.html", tmp_path / "out.csv"
    run = CliRunner().invoke(main, ["score", str(data), "--store", str(store), "--report", str(report), "-q"],
                             catch_exceptions=False)
    assert run.exit_code == 0, run.output
    with RunStore(str(store)) as runs:
        run_id = runs.get_run("latest").id
        items = {i.outcome.id: i.outcome for i in runs.iter_items(run_id)}
        stats = runs.stats(run_id)
    assert items["a"].verdicts.alignment[0].unchecked and not items["b"].verdicts.alignment[0].unchecked
    assert (stats.claims, stats.unchecked_claims, stats.unchecked_share) == (2, 1, 0.5)
    assert stats.as_dict()["unchecked_claims"] == 1
    table = summary_table(stats)
    assert "unchecked claims" in list(table.columns[0].cells) and "50% (1 of 2)" in list(table.columns[1].cells)
    html = report.read_text()
    assert "? unchecked (supported: nothing contradicts it)" in html and 'data-figure="unchecked claims">50% (1 of 2)' in html
    done = CliRunner().invoke(main, ["runs", "export", "latest", "--format", "csv", "--out", str(csv), "--store", str(store)],
                              catch_exceptions=False)
    assert done.exit_code == 0, done.output
    header, *lines = csv.read_text().splitlines()
    assert "claims_unchecked" in header.split(",")
    at = header.split(",").index("claims_unchecked")
    assert sorted(line.split(",")[at] for line in lines) == ["0", "1"]


def test_a_long_source_reason_numbers_the_sentence_in_the_whole_source() -> None:
    from sumjudge import create_summarization_scorer

    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november".split()
    filler = [f"The {words[i % 14]} team met the {words[(i * 5 + 3) % 14]} group near the {words[(i * 3 + 1) % 14]} hall."
              for i in range(400)]
    filler[300] = "The old bridge cost 4 million dollars to build."
    judge = LexicalJudge()
    judge.context_window = 2048  # type: ignore[attr-defined]  # too small for the source: the long-source path
    scorer = create_summarization_scorer(model=judge, options={"max_questions": 5})  # ten do not fit 2,048 tokens
    result = scorer.run_sync(input=" ".join(filler), output="The old bridge cost 9 million dollars to build.")
    [verdict] = result.preprocess_step_result.alignment
    assert verdict.evidence, "the long-source path was not taken"
    assert not verdict.supported and "(sentence 301:" in verdict.reason, verdict.reason


def test_an_english_question_drops_an_opening_conjunction_and_a_capital_that_is_no_title() -> None:
    from sumjudge.summarization.language.questions import phrase_question

    assert phrase_question("But she also said the plan works.", "en") == "Is it true that she also said the plan works?"
    assert phrase_question("In November, officials seized 250 kilograms.", "en", frozenset({"november"})) == (
        "Is it true that in November, officials seized 250 kilograms?"
    )
    assert phrase_question("Mayor Helen Ortiz said 95% support it.", "en") == "Is it true that Mayor Helen Ortiz said 95% support it?"


def test_a_negated_claim_whose_every_word_the_passage_states_without_a_negation_is_shown_wrong() -> None:
    # the cue bears on "plastic", which the phrase of the source that shares most of the claim lacks
    source = "Staff thought his pudding was Semtex, the plastic explosive."
    [verdict] = _align(source, "Staff thought his pudding was not the plastic explosive, Semtex.")
    assert not verdict.supported and verdict.reason.startswith("negation differs"), verdict.reason


def test_a_korean_copula_is_quoted_as_a_question_grammatically() -> None:
    """The case: "예정이다" is quoted "예정이라는 것이 사실입니까?", not "예정이다는"; the
    question still gives back its fact."""
    from sumjudge.summarization.language.questions import fact_of_question, phrase_question

    q = phrase_question("공사는 2027년에 시작해 2032년에 개통할 예정이다.", "ko")
    assert q == "공사는 2027년에 시작해 2032년에 개통할 예정이라는 것이 사실입니까?"
    assert fact_of_question(q) == "공사는 2027년에 시작해 2032년에 개통할 예정이다"
    assert phrase_question("그는 의사가 아니다.", "ko") == "그는 의사가 아니라는 것이 사실입니까?"
    assert fact_of_question("그는 의사가 아니라는 것이 사실입니까?") == "그는 의사가 아니다"
    # after a vowel the copula's 이 drops: "12킬로미터라는"
    q2 = phrase_question("새 노선은 총 길이 12킬로미터이다", "ko")
    assert q2 == "새 노선은 총 길이 12킬로미터라는 것이 사실입니까?"
    assert fact_of_question(q2) == "새 노선은 총 길이 12킬로미터이다"
    assert phrase_question("새 다리는 1932년에 개통되었다.", "ko") == "새 다리는 1932년에 개통되었다는 것이 사실입니까?"


def test_graded_an_unchecked_claim_counts_as_the_share_of_its_words_found() -> None:
    from sumjudge import create_summarization_scorer

    stated, odd = _align(MUSEUM, "The city museum reopened on Friday. The museum hall glowed with purple lanterns.")
    assert stated.supported and not stated.unchecked and stated.probability is None  # counts 1
    assert odd.supported and odd.unchecked  # the boolean verdict is unchanged
    assert odd.probability is not None and 0 < odd.probability < 1  # "museum", "hall" found; the rest not
    summary = "The city museum reopened on Friday. The museum hall glowed with purple lanterns."
    counted = create_summarization_scorer(model="offline/lexical").run_sync(input=MUSEUM, output=summary)
    graded = create_summarization_scorer(model="offline/lexical", options={"graded": True}).run_sync(
        input=MUSEUM, output=summary)
    assert counted.alignment_score == 1.0
    assert graded.alignment_score == (1.0 + odd.probability) / 2
