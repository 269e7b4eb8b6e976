"""The reason names why coverage fell: a question the summary contradicts is not a fact it left out
(the README's own "$9.5 million" summary was said to "leave out facts of the source")."""

from __future__ import annotations

from pathlib import Path

from sumjudge import create_summarization_scorer
from sumjudge.summarization.reason import explain
from sumjudge.summarization.result import SummarizationAnalysis, SummarizationPreprocess
from sumjudge.summarization.verdicts import AlignmentVerdict, CoverageVerdict

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_summary_that_contradicts_a_question_is_said_to_contradict_it() -> None:
    result = create_summarization_scorer("offline/lexical").run_sync(
        input=(EXAMPLES / "report.txt").read_text(), output=(EXAMPLES / "summary.txt").read_text())
    assert "set by coverage" in result.reason and "the summary contradicts facts of the source" in result.reason
    assert "leaves out" not in result.reason
    assert 'Contradicted questions: "Is it true that the building will cost $4.2 million?"' in result.reason


def test_contradicted_and_left_out_questions_are_named_apart() -> None:
    pre = SummarizationPreprocess(
        alignment=[AlignmentVerdict(claim="The bridge opened.", reason="stated", supported=True)],
        questions=["Did it open in 1932?", "Did it cost 4 million?", "Was Ada Lind its architect?"])
    ana = SummarizationAnalysis(coverage=[
        CoverageVerdict(question="Did it open in 1932?", reason="the summary says so", answered=True),
        CoverageVerdict(question="Did it cost 4 million?", reason="The summary contradicts this: 5 million.",
                        answered=False),
        CoverageVerdict(question="Was Ada Lind its architect?", reason="not mentioned", answered=False)])
    reason = explain("source", "summary", pre, ana, 1 / 3)
    assert "the summary contradicts facts of the source and leaves out others" in reason
    assert 'Contradicted questions: "Did it cost 4 million?"' in reason
    assert 'Unanswered questions: "Was Ada Lind its architect?"' in reason
