"""ScorerSpec: what a run is, made once (judge id, judge options, scorer options), its one factory, and
the identity the run store keys a run on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.errors import ConfigurationError
from sumjudge.summarization.calibration import Calibration
from sumjudge.summarization.exam import Exam, source_sha256
from sumjudge.summarization.options import SummarizationOptions
from sumjudge.summarization.prompts import PROMPT_VERSION
from sumjudge.summarization.spec import ScorerSpec
from sumjudge.store.database import RunStore

SOURCE = "The council approved 120 new homes on Tuesday. Building starts in March."
SUMMARY = "The council approved 120 homes."


def _exam() -> Exam:
    line = {"source_sha256": source_sha256(SOURCE), "questions": ["Did the council approve 120 homes?"],
            "judge": "offline/lexical", "prompt_version": PROMPT_VERSION, "seed": 0, "max_questions": 10}
    return Exam.parse(json.dumps(line) + "\n")


def test_a_default_spec_is_keyed_as_runs_recorded_before_the_other_options_existed() -> None:
    assert ScorerSpec.make("offline/lexical").identity() == {"max_questions": 10, "scale": 1.0}


def test_each_option_enters_the_identity_only_when_it_changes_the_run() -> None:
    exam = _exam()
    calibration = Calibration(judge="offline/lexical", labels_digest="sha256:x", labels=50)
    spec = ScorerSpec.make("offline/lexical", {"samples": 3, "reducer": "min", "graded": True, "questions": exam,
                                               "strict_evidence": True, "calibration": calibration})
    assert spec.identity() == {"max_questions": 10, "scale": 1.0, "samples": 3, "reducer": "min", "graded": True,
                               "exam": exam.digest, "strict_evidence": True, "calibration": calibration.digest}
    assert ScorerSpec.make("offline/lexical", {"question_draws": 1}).identity() == {"max_questions": 10, "scale": 1.0}


def test_a_spec_crosses_processes_unchanged() -> None:
    spec = ScorerSpec.make("local/reader", {"max_questions": 4, "samples": 2, "questions": _exam()},
                           {"n_threads": "2", "threshold": "0.4"})
    again = ScorerSpec.from_recipe(spec.recipe())
    assert again == spec and again.identity() == spec.identity()
    assert dict(again.judge_options) == {"n_threads": 2, "threshold": 0.4}  # typed once, by the judge's entry


def test_a_run_that_names_another_exam_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="name the exam"):
        ScorerSpec.from_identity("offline/lexical", {"max_questions": 10, "scale": 1.0, "exam": "sha256:other"},
                                 exam=_exam())


@pytest.mark.parametrize(("model", "options", "judge_options", "said"), [
    ("nosuch/x", {}, {}, "nosuch"),
    ("offline/lexical", {"max_questions": 0}, {}, "max_questions"),
    ("offline/lexical", {}, {"n_threads": "2"}, "an offline judge takes none"),
    ("local/reader", {}, {"no_such_key": "1"}, "known keys"),
])
def test_a_bad_id_or_option_is_one_error_before_any_judge_is_made(model: str, options: dict[str, object],
                                                                  judge_options: dict[str, str], said: str) -> None:
    with pytest.raises(ConfigurationError, match=said):
        ScorerSpec.make(model, options, judge_options)


def test_the_spec_makes_the_scorer_it_names() -> None:
    spec = ScorerSpec.make("offline/lexical", SummarizationOptions(scale=10))
    result = spec.scorer().run_sync(input=SOURCE, output=SUMMARY)
    assert result.model == "offline/lexical" and 0 < result.score <= 10


def test_score_keys_its_run_on_the_spec_that_its_flags_make(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n", encoding="utf-8")
    store = tmp_path / "runs.db"
    res = CliRunner().invoke(main, ["score", str(data), "--model", "offline/lexical", "--store", str(store), "--quiet",
                                    "--samples", "2", "--max-questions", "4", "--workers", "1"])
    assert res.exit_code == 0, res.output
    with RunStore(store, readonly=True) as runs:
        (run,) = runs.list_runs()
    assert run.options == ScorerSpec.make("offline/lexical", {"samples": 2, "max_questions": 4}).identity()
