"""A judge that answers about questions or claims it was not asked is invalid: its
verdicts are not scored as if they judged what was asked. The step is asked once more, saying which
verdicts strayed; a reply that strays again fails the item, and the run counts it among its errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from scripted import answers, claims, judge, questions
from long_sources import NEEDLE, TOWNS, long_source, passage_judge

from sumjudge.summarization.spec import ScorerSpec
from sumjudge import create_summarization_scorer
from sumjudge.data.datasets import Dataset
from sumjudge.errors import JudgeOutputError
from sumjudge.runs.dataset import RunOutputs, run_dataset_sync
from sumjudge.summarization.stray_verdicts import same_text, strays
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, COVERAGE_STEP
from sumjudge.testing.brains import SummarizationBrain
from sumjudge.testing.judge_server import JudgeServer

SOURCE = "The cat sat on the mat all day."
SUMMARY = "The cat sat. The dog ran."


def other_questions(request: Any) -> dict[str, Any]:
    """Verdicts at the asked positions, about other questions, all answered."""
    n = len(request.inputs.questions or [])
    return {"coverage": [{"question": f"Did the dog run {i}?", "answered": True, "reason": "yes"} for i in range(n)]}


def test_texts_match_after_whitespace_and_case_and_as_a_reader_reads_them() -> None:
    assert same_text("Did the cat sit?", "  did THE  cat\nsit? ")
    assert same_text("Did the cat sit?", "Did the cat sit")  # a dropped "?"
    assert not same_text("Did the cat sit?", "Did the dog sit?")
    assert strays(["A?", "B?", "C?"], ["a?", "X?", "C?", "extra"]) == [1]


async def test_coverage_about_questions_not_asked_is_asked_again_then_fails_the_step() -> None:
    j = judge(claims(("The cat sat.", True)), questions("Did the cat sit on the mat?"), other_questions)
    with pytest.raises(JudgeOutputError, match="questions it was not asked") as err:
        await create_summarization_scorer(model=j).run(input=SOURCE, output=SUMMARY)
    assert err.value.step == COVERAGE_STEP and "Did the dog run 0?" in str(err.value)
    first, again = j.calls(COVERAGE_STEP)
    said = again.messages[-1].content
    assert "Did the cat sit on the mat?" in said and "Did the dog run 0?" in said


async def test_a_re_ask_that_answers_what_was_asked_is_scored() -> None:
    j = judge(claims(("The cat sat.", True)), questions("Did the cat sit?", "Was it on the mat?"),
              [other_questions, answers(True, False)])
    result = await create_summarization_scorer(model=j).run(input=SOURCE, output="The cat sat.")
    assert len(j.calls(COVERAGE_STEP)) == 2
    assert [(v.question, v.answered) for v in result.analyze_step_result.coverage] == [
        ("Did the cat sit?", True), ("Was it on the mat?", False)]


async def test_a_verdict_copied_with_other_spacing_and_case_is_accepted_at_once() -> None:
    def shouted(request: Any) -> dict[str, Any]:
        return {"coverage": [{"question": "  " + q.upper(), "answered": True, "reason": "r"}
                             for q in request.inputs.questions or []]}

    j = judge(claims(("The cat sat.", True)), questions("Did the cat sit?"), shouted)
    result = await create_summarization_scorer(model=j).run(input=SOURCE, output="The cat sat.")
    assert len(j.calls(COVERAGE_STEP)) == 1 and result.coverage_score == 1.0
    assert result.analyze_step_result.coverage[0].question == "Did the cat sit?"  # the question asked, kept


async def test_a_long_sources_check_about_claims_not_given_fails_after_one_re_ask() -> None:
    def own_claims(request: Any) -> dict[str, Any]:
        return {"alignment": [{"claim": f"Something else {i}.", "supported": True, "reason": "r"}
                              for i, _ in enumerate(request.inputs.claims or [])]}

    claimed = [NEEDLE, f"The council of {TOWNS[0]} inspected wells."]
    j = passage_judge(claimed, window=2048, **{ALIGNMENT_STEP: own_claims})
    with pytest.raises(JudgeOutputError, match="claims it was not asked"):
        await create_summarization_scorer(model=j).run(input=long_source(800), output=" ".join(claimed))
    checks = j.calls(ALIGNMENT_STEP)
    assert len(checks) >= 2 and "Something else 0." in checks[-1].messages[-1].content


class StrayBrain:
    """The bundled judge server's brain, except that coverage answers questions about a dog, all yes."""

    def __init__(self) -> None:
        self.inner = SummarizationBrain()

    def __call__(self, request: Any) -> Any:
        answer = self.inner(request)
        if request.step == "coverage":
            for i, verdict in enumerate(answer["coverage"]):
                verdict.update(question=f"Did the dog run {i}?", answered=True)
        return answer


@pytest.mark.integration
def test_a_run_records_the_stray_items_as_failed_and_counts_them(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n", encoding="utf-8")
    with JudgeServer(StrayBrain()) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        out = tmp_path / "out.jsonl"
        with Dataset(str(data)) as ds:
            result = run_dataset_sync(ds, ds.validate(), spec=ScorerSpec.make("openai/test-model", {"max_questions": 3}),
                                    store_path=tmp_path / "runs.db",
                                    outputs=RunOutputs(out=str(out), step_summary=False))
    (line,) = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert line["score"] is None and "not asked" in line["error"]
    assert result.stats.errors == 1 and result.stats.count == 0


# -- claims the summary does not make --------------------------------------------------------------------


def test_a_claim_is_the_summarys_as_a_reader_reads_it() -> None:
    from sumjudge.summarization.own_claims import held_by

    summary = "The council approved 120 homes on Tuesday, and building starts in May."
    for claim in ("The council approved 120 homes.", "Building starts in May", "the council APPROVES 120 homes",
                  "The homes were approved by the council.", "  “Building starts in May.”  "):
        assert held_by(summary, claim), claim
    for claim in ("The council approved 500 homes.", "The council rejected 120 homes.",
                  "The council did not approve 120 homes.", "The mayor praised the plan.", "The summary states point 1."):
        assert not held_by(summary, claim), claim
    assert held_by("서울시가 2024년 3월 도서관을 열었고 책은 12만 권이다.", "서울시가 2024년 3월 도서관을 열었다")
    # a denial dropped is another claim; a denial of another word is not
    denied = "The council approved 120 homes but did not approve the park. The plan, which was not popular, passed."
    for claim in ("The council approved 120 homes", "The council did not approve the park", "The plan passed"):
        assert held_by(denied, claim), claim
    for summary, claim in (("The council did not approve the homes.", "The council approved the homes."),
                           ("The bridge wasn't built in 1932.", "The bridge was built in 1932."),
                           (denied, "The plan was popular.")):
        assert not held_by(summary, claim), claim


def test_a_claim_with_the_summarys_words_in_swapped_roles_is_not_the_summarys() -> None:
    from sumjudge.summarization.own_claims import held_by

    for summary, claim in (("Alice paid Bob 5 dollars on Monday.", "Bob paid Alice 5 dollars on Monday."),
                           ("Alice paid Bob 5 dollars on Monday.", "Alice was paid by Bob 5 dollars."),
                           ("Shares fell after they rose.", "Shares rose after they fell."),
                           ("Flights go from Rome to Paris.", "Flights go from Paris to Rome.")):
        assert not held_by(summary, claim), claim
    # a passive, a fronted phrase, a clause moved, a verb of saying keep who does what
    for summary, claim in (("Alice paid Bob 5 dollars on Monday.", "Bob was paid 5 dollars by Alice."),
                           ("The bridge, designed by Ada Lind, opened in 1932.", "Ada Lind designed the bridge."),
                           ("The council approved 120 homes on Tuesday.", "On Tuesday, the council approved 120 homes."),
                           ("The road was closed, police said.", "Police said the road was closed.")):
        assert held_by(summary, claim), claim


def test_a_claim_that_drops_a_denial_other_than_not_is_not_the_summarys() -> None:
    from sumjudge.summarization.own_claims import held_by

    for summary, claim in (("The council refused to approve the homes.", "The council approved the homes."),
                           ("The council failed to approve the homes.", "The council approved the homes."),
                           ("It is false that the bridge opened in 1932.", "The bridge opened in 1932."),
                           ("It is not true that the bridge opened in 1932.", "The bridge opened in 1932."),
                           ("The toy is not safe for children, but safe for adults.", "The toy is safe for children."),
                           ("Critics claimed the bridge opened in 1932, but it opened in 1935.", "The bridge opened in 1932.")):
        assert not held_by(summary, claim), claim
    for summary, claim in (("The toy is not safe for children, but safe for adults.", "The toy is safe for adults."),
                           ("The council refused to approve the homes.", "The council refused to approve the homes."),
                           ("The bridge opened in 1932. It is false that it cost 4 million.", "The bridge opened in 1932.")):
        assert held_by(summary, claim), claim


def test_a_claim_that_is_the_summarys_text_however_spaced_is_the_summarys() -> None:
    """SummEval's tokenised summaries: a denial in one sentence does not cover the next, and the
    summary's own words spaced otherwise are its own."""
    from sumjudge.summarization.own_claims import held_by

    summary = ("Japan 's military has never seen an alien , and apparently never will . Image : AP This article "
               "originally published at The Daily Dot here")
    for claim in ("Image : AP This article originally published at The Daily Dot here",
                  "Image: AP This article originally published at The Daily Dot here",
                  "Japan's military has never seen an alien"):
        assert held_by(summary, claim), claim
    assert held_by("The fee is 4 , 000 dollars .", "The fee is 4,000 dollars.")


async def test_a_claim_the_summary_does_not_make_is_asked_again_then_fails_the_step() -> None:
    source = "The council approved 120 homes on Tuesday. Building starts in May."
    taken = claims(("The council approved 120 homes on Tuesday.", True), ("Building starts in May.", True))
    j = judge([taken, taken], questions("Did the council approve 120 homes?"), answers(True))
    with pytest.raises(JudgeOutputError, match="claims the summary does not make") as err:
        await create_summarization_scorer(model=j).run(input=source, output="The council rejected 500 homes on Friday.")
    assert err.value.step == ALIGNMENT_STEP and "The council approved 120 homes on Tuesday." in str(err.value)
    first, again = j.calls(ALIGNMENT_STEP)
    assert "is not in the summary" in again.messages[-1].content
    own = claims(("The council rejected 500 homes on Friday.", False))
    j = judge([taken, own], questions("Did the council approve 120 homes?"), answers(False))
    result = await create_summarization_scorer(model=j).run(input=source, output="The council rejected 500 homes on Friday.")
    assert result.score == 0.0 and len(j.calls(ALIGNMENT_STEP)) == 2  # the re-ask's own claims are judged


class SourceClaimsBrain:
    """The bundled brain, except that alignment lists the source's sentences as claims, all supported."""

    def __init__(self) -> None:
        self.inner = SummarizationBrain(questions=1)

    def __call__(self, request: Any) -> Any:
        if request.step == "alignment":
            return {"alignment": [{"claim": s, "quote": s, "supported": True, "reason": "The source says so."}
                                  for s in ("The cat sat on the mat all day.",)]}
        return self.inner(request)


@pytest.mark.integration
def test_a_false_summary_is_not_scored_on_claims_the_judge_took_from_the_source(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": "The dog barked at night."}) + "\n",
                    encoding="utf-8")
    with JudgeServer(SourceClaimsBrain()) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        out = tmp_path / "out.jsonl"
        with Dataset(str(data)) as ds:
            result = run_dataset_sync(ds, ds.validate(), spec=ScorerSpec.make("openai/test-model", {"max_questions": 1}),
                                    store_path=tmp_path / "runs.db",
                                    outputs=RunOutputs(out=str(out), step_summary=False))
    (line,) = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert line["score"] is None and "claims the summary does not make" in line["error"]
    assert result.stats.errors == 1 and result.stats.count == 0


async def test_a_long_sources_claim_list_the_summary_does_not_make_fails_after_one_re_ask() -> None:
    from sumjudge.summarization.verdicts import CLAIMS_STEP

    j = passage_judge([NEEDLE], window=2048)
    with pytest.raises(JudgeOutputError, match="claims the summary does not make"):
        await create_summarization_scorer(model=j).run(input=long_source(800), output="The dog barked at night.")
    assert len(j.calls(CLAIMS_STEP)) == 2 and "is not in the summary" in j.calls(CLAIMS_STEP)[1].messages[-1].content


async def test_a_re_ask_about_claims_shows_a_long_reply_back_only_in_part_and_never_overflows() -> None:
    """A small model may fill its window with claims the summary does not make: the re-ask names them
    without showing the whole reply back, and one that the judge finds too large fails the step as
    the judge's claims, never as a context overflow."""
    from sumjudge.errors import ContextOverflowError

    source = "The council approved 120 homes on Tuesday. Building starts in May."
    many = claims(*[(f"The council approved {100 + i} homes on Tuesday.", True) for i in range(200)])
    own = claims(("The council rejected 500 homes on Friday.", False))
    j = judge([many, own], questions("Did the council approve 120 homes?"), answers(False))
    result = await create_summarization_scorer(model=j).run(input=source, output="The council rejected 500 homes on Friday.")
    first, again = j.calls(ALIGNMENT_STEP)
    assert len(again.messages) == len(first.messages) + 1  # the correction alone: the long reply not echoed
    assert result.score == 0.0

    class Overflowing:
        """Refuses every re-ask as too large for its window, as a judge of 4,096 tokens did."""

        def __init__(self, inner: Any) -> None:
            self.inner, self.model_id = inner, inner.model_id

        async def generate(self, request: Any) -> Any:
            if request.step == ALIGNMENT_STEP and "is not in the summary" in request.messages[-1].content:
                raise ContextOverflowError("the alignment request", needed=5000, prompt_tokens=4700, reply_tokens=300,
                                           context_window=4096, model="m", counted_by="estimate")
            return await self.inner.generate(request)

    short = claims(("The council approved 120 homes on Tuesday.", True))
    j = judge([short, short], questions("Did the council approve 120 homes?"), answers(True))
    with pytest.raises(JudgeOutputError, match="claims the summary does not make"):
        await create_summarization_scorer(model=Overflowing(j)).run(input=source, output="The council rejected 500 homes on Friday.")
