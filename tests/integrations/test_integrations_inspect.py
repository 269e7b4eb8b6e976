"""Inspect AI: a ``Task`` scored by sumjudge's scorer on the bundled examples, the summaries coming
from Inspect's own ``mockllm/model``; the scores read back from the log file Inspect writes, equal to
sumjudge's own results. Every mock output carries its usage, so Inspect counts no tokens (it would
fetch tiktoken's encoding otherwise); the network guard fails any connection beyond 127.0.0.1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from framework_cases import JUDGE_DOWN, example_rows, exam_for, failing_judge, no_network, own_results

pytest.importorskip("inspect_ai")
from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402

from sumjudge import create_summarization_scorer  # noqa: E402
from sumjudge.integrations.inspect_ai import summarization_scorer  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_network")


def mock_model(summary_for: Any) -> Any:
    """Inspect's mockllm/model answering each sample's prompt with ``summary_for(prompt)``."""

    def reply(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm/model", content=summary_for(messages[-1].text))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=reply)


def run(task: Task, model: Any, log_dir: Path, **kwargs: Any) -> Any:
    (log,) = eval(task, model=model, log_dir=str(log_dir), display="none", log_format="eval", **kwargs)
    assert Path(log.location).is_file()
    return read_eval_log(log.location)  # what `inspect view` shows: the log file, read back


def prompt(row: dict[str, Any]) -> str:
    return f"Summarize example {row['id']}."


def test_the_log_shows_sumjudges_score_reason_and_verdicts_for_every_sample(tmp_path: Path) -> None:
    rows = example_rows()
    expected = own_results(rows)
    by_prompt = {prompt(r): r["summary"] for r in rows}
    scorer = summarization_scorer(model="offline/lexical")
    task = Task(dataset=[Sample(id=r["id"], input=prompt(r), metadata={"source": r["source"]}) for r in rows],
                solver=[generate()], scorer=scorer)
    log = run(task, mock_model(by_prompt.__getitem__), tmp_path)

    assert log.status == "success"
    assert {s.id for s in log.samples} == set(expected)
    for sample in log.samples:
        want = expected[sample.id]
        score = sample.scores["sumjudge"]
        assert score.value == {"score": want.score, "alignment": want.alignment_score,
                               "coverage": want.coverage_score}
        assert score.explanation == want.reason
        assert score.answer == by_prompt[prompt({"id": sample.id})]
        assert score.metadata["model"] == "offline/lexical"
        assert score.metadata["questions"] == list(want.preprocess_step_result.questions)
        assert [c["supported"] for c in score.metadata["alignment"]] == [
            v.supported for v in want.preprocess_step_result.alignment]
        assert [c["answered"] for c in score.metadata["coverage"]] == [
            v.answered for v in want.analyze_step_result.coverage]
        assert score.metadata["coverage_reason"].startswith(f"coverage {want.coverage_score:.2f}")
    # the metrics Inspect computed over the samples: the mean of each
    metrics = {f"{s.name}/{name}": m.value for s in log.results.scores for name, m in s.metrics.items()}
    mean = sum(w.score for w in expected.values()) / len(expected)
    assert metrics["score/mean"] == pytest.approx(mean)
    assert metrics["coverage/mean"] == pytest.approx(sum(w.coverage_score for w in expected.values()) / len(expected))
    # the log records the scorer's judge and options
    (logged,) = log.eval.scorers
    assert logged.name == "sumjudge" and logged.options["model"] == "offline/lexical"


def test_the_source_is_the_input_without_metadata_and_options_pass_through(tmp_path: Path) -> None:
    rows = [r for r in example_rows() if r["id"].endswith("-half")]
    exam = exam_for(rows)
    by_source = {r["source"]: r["summary"] for r in rows}
    expected = own_results(rows, scale=10, questions=exam)
    judged = create_summarization_scorer("offline/lexical", {"scale": 10, "questions": exam})
    task = Task(dataset=[Sample(id=r["id"], input=r["source"]) for r in rows], solver=[generate()],
                scorer=summarization_scorer(judged))
    log = run(task, mock_model(by_source.__getitem__), tmp_path)
    for sample in log.samples:
        assert sample.scores["sumjudge"].value["score"] == expected[sample.id].score
        assert sample.scores["sumjudge"].explanation == expected[sample.id].reason
        assert sample.scores["sumjudge"].metadata["questions"] == [exam.entries[0].questions[0]]
    assert log.eval.scorers[0].options["scale"] == 10


def test_a_failing_judge_is_a_sample_error_in_the_log_not_a_score(tmp_path: Path) -> None:
    rows = example_rows()[:2]
    by_prompt = {prompt(r): r["summary"] for r in rows}
    task = Task(dataset=[Sample(id=r["id"], input=prompt(r), metadata={"source": r["source"]}) for r in rows],
                solver=[generate()], scorer=summarization_scorer(model=failing_judge()))
    log = run(task, mock_model(by_prompt.__getitem__), tmp_path)
    assert log.status == "error"
    assert JUDGE_DOWN in log.error.message or any(JUDGE_DOWN in (s.error.message if s.error else "")
                                                  for s in log.samples or [])
    assert all(not s.scores for s in log.samples or [])
