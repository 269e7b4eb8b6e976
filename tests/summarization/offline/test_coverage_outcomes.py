"""Coverage has three outcomes: answered, shown missing, and unchecked where words cannot tell. An
unchecked question counts as how often such a fact is present, so a paraphrase is not scored as an
omission and an omission the words show is."""

from __future__ import annotations

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.summarization.axes import coverage_value
from sumjudge.summarization.offline.lexical import LexicalJudge, LexicalSettings

FACT = "Is it true that the council voted to reject the plan for 240 apartments at the old mill?"


def _verdict(summary: str, question: str = FACT, judge: LexicalJudge | None = None):  # type: ignore[no-untyped-def]
    [v] = (judge or LexicalJudge()).cover([question], summary).coverage
    return v


def test_a_fact_the_summary_states_is_answered() -> None:
    v = _verdict("The council voted to reject the plan for 240 apartments at the old mill.")
    assert v.answered and not v.unchecked


@pytest.mark.parametrize(
    ("summary", "why"),
    [
        ("The weather was fine and the river rose.", "does not mention"),
        ("The council voted on the plan for the old mill.", "lacks the fact's number '240'"),
        ("The council voted to reject the plan for 420 apartments at the old mill.", "contradicts"),
    ],
)
def test_an_absence_the_words_show_is_missing_not_unchecked(summary: str, why: str) -> None:
    v = _verdict(summary)
    assert not v.answered and not v.unchecked and why in v.reason, v.reason


def test_a_paraphrase_with_every_number_is_unchecked_and_counts_as_its_probability() -> None:
    judge = LexicalJudge(LexicalSettings(unsettled_presence=0.3))
    v = _verdict("Councillors turned down the scheme to build 240 apartments.", judge=judge)
    assert v.unchecked and not v.answered and v.probability == 0.3
    assert "words cannot tell" in v.reason
    # the axis counts it as its probability, with or without graded
    assert coverage_value([v], 1) == pytest.approx(0.3)
    assert coverage_value([v], 1, graded=True) == pytest.approx(0.3)
    assert v.model_dump()["unchecked"] is True


def test_a_duration_written_as_a_clock_answers_the_same_duration_in_words() -> None:
    q = "Is it true that Faith Chepkoech won the marathon in 2 hours 17 minutes and 41 seconds?"
    assert _verdict("Faith Chepkoech won the marathon in 2:17:41.", q).answered
    wrong = _verdict("Faith Chepkoech won the marathon in 2:19:41.", q)
    assert not wrong.answered


def test_one_part_of_a_date_dates_the_fact_and_a_missing_date_is_shown() -> None:
    q = "Is it true that Faith Chepkoech won the Rotterdam Marathon on Sunday, April 13?"
    assert _verdict("Faith Chepkoech won Sunday's Rotterdam Marathon.", q).answered
    assert _verdict("On April 13 Faith Chepkoech won the Rotterdam Marathon.", q).answered


def test_the_word_gaps_the_reader_trusts_never_call_missing_what_the_offline_judge_answers() -> None:
    q = "Is it true that Faith Chepkoech won the Rotterdam Marathon on Sunday, April 13?"
    judge = LexicalJudge()
    assert judge.coverage_gaps([q], "Faith Chepkoech won Sunday's Rotterdam Marathon.") == [None]
    [gap] = judge.coverage_gaps([q], "Faith Chepkoech won the Rotterdam Marathon.")
    assert gap is not None, "no part of the date is given"
    [gap] = judge.coverage_gaps(["Is it true that the injection cut the risk by 21 percent?"],
                                "The injection cut the risk by a fifth.")
    assert gap is not None and "'21'" in gap, gap


@pytest.mark.parametrize(
    ("question", "summary"),
    [
        ("Is it true that Faith Chepkoech won the Rotterdam Marathon?",
         "Almaz Tesfaye won the Rotterdam Marathon, pulling away from Faith Chepkoech."),
        (FACT, "The council voted to approve the plan for 240 apartments at the old mill."),
    ],
)
def test_the_word_gaps_show_every_contradiction_the_offline_judge_shows(question: str, summary: str) -> None:
    judge = LexicalJudge()
    [gap] = judge.coverage_gaps([question], summary)
    [v] = judge.cover([question], summary).coverage
    assert gap is not None and "contradicts" in gap and gap == v.reason, (gap, v.reason)


def test_an_unchecked_reason_says_which_names_the_summary_lacks() -> None:
    q = "Is it true that Faith Chepkoech pulled away from the field in the Rotterdam Marathon after 30 kilometres?"
    v = _verdict("The Rotterdam Marathon was decided after 30 kilometres.", q)
    assert v.unchecked and "lacks none of its numbers or names" not in v.reason, v.reason
    assert "1 of its 3 names" in v.reason, v.reason  # "Faith Chepkoech", "Rotterdam", "Marathon"


def test_a_missing_name_is_left_to_the_reader() -> None:
    q = "Is it true that Mayor Hugo Brandt said the city would lose $1.1 million a year in taxes?"
    assert LexicalJudge().coverage_gaps([q], "The mayor said the city would lose $1.1 million a year in taxes.") == [None]


def test_a_spelled_ordinal_is_no_key_number() -> None:
    q = "Is it true that the injection cut the risk of a second heart attack by 21 percent?"
    v = _verdict("The injection cut the risk of a repeat heart attack by 21 percent.", q)
    assert "lacks the fact's number" not in v.reason and (v.answered or v.unchecked), v.reason


@pytest.mark.parametrize(
    ("summary", "missing"),
    [
        # when, counted from another event, is detail: the sacking is there without "two days after"
        ("Harlow United fired manager Pete Dunn after a 4-0 home defeat by Castleford.", False),
        # a duration is the fact's own number
        ("Harlow United fired manager Pete Dunn after a 3-0 home defeat by Castleford.", True),
    ],
)
def test_a_count_of_time_from_another_event_is_no_key_number(summary: str, missing: bool) -> None:
    q = "Is it true that Harlow United sacked manager Pete Dunn two days after a 4-0 home defeat by Castleford?"
    v = _verdict(summary, q)
    assert ("lacks the fact's number" in v.reason or "contradicts" in v.reason) is missing, v.reason
    dur = _verdict("The speed camera has not worked since every device was switched off.",
                   "Is it true that the speed camera has not worked for two years after every device was switched off?")
    assert "lacks the fact's number 'two'" in dur.reason, dur.reason


def test_a_summary_without_the_main_event_scores_below_one_with_it() -> None:
    source = (
        "The Grenshaw city council voted 7 to 2 on Tuesday to reject a plan for 240 apartments at the old mill. "
        "The developer had promised 60 affordable units. Opponents said the site floods. "
        "The mayor said the city would lose $1.1 million a year in taxes."
    )
    scorer = create_summarization_scorer()
    tail = " The mayor said the city would lose $1.1 million a year in taxes."
    good = scorer.run_sync(input=source, output="The Grenshaw council voted 7 to 2 to reject the plan for 240 apartments." + tail)
    none = scorer.run_sync(input=source, output="The old mill has stood empty for years." + tail)
    assert good.score > none.score, (good.reason, none.reason)
    assert none.analyze_step_result.coverage[0].answered is False  # the main event is asked first


def test_unchecked_questions_are_named_in_the_reason() -> None:
    source = "The Grenshaw city council voted 7 to 2 on Tuesday to reject a plan for 240 apartments at the old mill."
    result = create_summarization_scorer().run_sync(
        input=source, output="Grenshaw councillors split 7 to 2 against the 240-apartment scheme."
    )
    [v] = result.analyze_step_result.coverage
    assert v.unchecked
    assert "Unchecked questions (1 of 1" in result.reason, result.reason


def test_a_reversed_decision_and_a_swapped_winner_are_shown_not_answered() -> None:
    judge = LexicalJudge()
    q = "Is it true that the council voted 7 to 2 to reject the plan for 240 apartments?"
    v = _verdict("The council approved, by seven votes to two, the plan for 240 apartments.", q, judge)
    assert not v.answered and not v.unchecked and "'approved'" in v.reason, v.reason
    q = "Is it true that Faith Chepkoech won the Rotterdam Marathon?"
    v = _verdict("Almaz Tesfaye won the Rotterdam Marathon after pulling away from Faith Chepkoech.", q, judge)
    assert not v.answered and "Tesfaye" in v.reason and "contradicts" in v.reason, v.reason
    assert _verdict("Faith Chepkoech won the Rotterdam Marathon, ahead of Almaz Tesfaye.", q, judge).answered


def test_a_swapped_winner_is_an_unsupported_claim_and_another_winner_never_stated() -> None:
    source = "Faith Chepkoech won the Rotterdam Marathon on Sunday. Almaz Tesfaye finished second, 54 seconds back."
    summary = "Almaz Tesfaye won the Rotterdam Marathon after pulling away from Faith Chepkoech."
    [claim] = LexicalJudge().align(source, summary).alignment
    assert not claim.supported and "'Faith'" not in claim.reason and "Chepkoech" in claim.reason, claim.reason
    # the winner not named beside: another winner of the same contest is still shown
    [claim] = LexicalJudge().align(source, "Almaz Tesfaye won the Rotterdam Marathon.").alignment
    assert not claim.supported and "the source says 'Chepkoech' won" in claim.reason, claim.reason
    # the same verb with another subject, not a contest's one winner: unchecked, never "stated"
    [claim] = LexicalJudge().align("Faith Chepkoech finished the race in Rotterdam on Sunday.",
                                   "Almaz Tesfaye finished the race in Rotterdam.").alignment
    assert "stated" not in claim.reason, claim.reason
    [ok] = LexicalJudge().align(source, "Faith Chepkoech won the Rotterdam Marathon.").alignment
    assert ok.supported


def test_a_clock_time_claim_is_the_duration_the_source_writes_in_words() -> None:
    source = "Faith Chepkoech won the marathon in 2 hours 17 minutes and 41 seconds."
    [claim] = LexicalJudge().align(source, "Faith Chepkoech won the marathon in 2:17:41.").alignment
    assert claim.supported, claim.reason
    [wrong] = LexicalJudge().align(source, "Faith Chepkoech won the marathon in 2:19:41.").alignment
    assert not wrong.supported, wrong.reason


def test_a_run_counts_its_unchecked_questions_where_it_counts_unchecked_claims(tmp_path) -> None:
    import json
    import sqlite3

    from click.testing import CliRunner

    from sumjudge.cli import main
    from sumjudge.store.run_stats import read_run_stats

    source = "The Grenshaw city council voted 7 to 2 on Tuesday to reject a plan for 240 apartments at the old mill."
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": source, "summary": "Grenshaw councillors split 7 to 2 against the 240-apartment scheme."}) + "\n")
    store = tmp_path / "runs.db"
    res = CliRunner().invoke(main, ["score", str(data), "--store", str(store), "--report", str(tmp_path / "r.html")])
    assert res.exit_code in (0, 1), res.output
    assert "unchecked questions" in res.output and "100% (1 of 1)" in res.output
    with sqlite3.connect(store) as db:
        (run_id,) = db.execute("SELECT id FROM runs").fetchone()
        stats = read_run_stats(db, run_id)
    assert (stats.questions, stats.unchecked_questions) == (1, 1)
    assert stats.as_dict()["unchecked_questions"] == 1
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "unchecked questions" in html and "1 unchecked)" in html


@pytest.mark.parametrize(
    ("question", "summary"),
    [
        ("Is it true that the team lifted the trophy in 2010?",
         "The team lifted the trophy in 2010. Having not lifted a trophy since, the team sacked its coach."),
        ("Is it true that top finishers qualify automatically for the Champions League?",
         "Top finishers qualify automatically for the Champions League. "
         "The fourth team does not qualify automatically for the Champions League."),
    ],
)
def test_a_fact_the_summary_states_plainly_is_answered_beside_a_negated_sentence(question: str, summary: str) -> None:
    [v] = LexicalJudge().cover([question], summary).coverage
    assert v.answered and not v.unchecked, v.reason


def test_two_amounts_that_share_only_their_unit_are_no_contradiction() -> None:
    judge = LexicalJudge()
    [other] = judge.cover(
        ["Is it true that the state had offered Velden 150 million euros in support last year?"],
        "Velden pointed to the roughly 600 million euros needed to convert the site.",
    ).coverage
    assert not other.answered and "contradicts" not in other.reason and "'150'" in other.reason, other.reason
    [wrong] = judge.cover(
        ["Is it true that the state had offered Velden 150 million euros in support last year?"],
        "The state had offered Velden 600 million euros in support last year.",
    ).coverage
    assert not wrong.answered and "contradicts" in wrong.reason, wrong.reason


def test_a_level_answered_as_a_change_contradicts_the_question() -> None:
    judge = LexicalJudge()
    question = ["Is it true that inflation rose to 3.2% in March?"]
    [v] = judge.cover(question, "Inflation rose by 3.2% in March.").coverage
    assert not v.answered and not v.unchecked and "it says 'by 3.2%' where the source has 'to 3.2%'" in v.reason, v.reason
    [w] = judge.cover(question, "Inflation rose to 3.2% in March.").coverage
    assert w.answered, w.reason


@pytest.mark.parametrize(("summary", "named"), [("the WHO said", True), ("the UN said", False)])
def test_a_name_the_summary_gives_by_its_initials_is_there(summary: str, named: bool) -> None:
    q = "Is it true that the World Health Organization said measles cases in Europe rose to 127,000 last year?"
    v = _verdict(f"Measles cases in Europe hit 127,000 last year, {summary}.", q)
    assert v.answered is named and ("lacks the fact's name 'World'" in v.reason) is not named, v.reason


def test_a_fact_with_one_of_its_numbers_there_is_unchecked_and_with_none_missing() -> None:
    q = "Is it true that Verhoef will pay 31 euros a share, a premium of 28 percent over Albrink's closing price?"
    part = _verdict("Verhoef will pay 31 euros a share for its rival Albrink.", q)
    assert part.unchecked and not part.answered and "lacks its number '28'" in part.reason, part.reason
    none = _verdict("Verhoef will buy its rival Albrink for cash.", q)
    assert not none.answered and not none.unchecked and "lacks the fact's number" in none.reason, none.reason
    wrong = _verdict("Verhoef will pay 31 euros a share, a premium of 24 percent over Albrink's closing price.", q)
    assert not wrong.answered and not wrong.unchecked and "contradicts" in wrong.reason, wrong.reason


@pytest.mark.parametrize(
    ("summary", "answered"),
    [
        ("The board voted five to four to keep both primary schools open.", True),
        ("The board voted five to four to keep the primary schools open.", False),
    ],
)
def test_both_is_a_count_of_two(summary: str, answered: bool) -> None:
    q = "Is it true that the board voted 5 to 4 to keep the town's two smallest primary schools open?"
    v = _verdict(summary, q)
    assert v.answered is answered and ("number 'two'" not in v.reason) is answered, v.reason
