"""A calibration's examples for an LLM judge: the verdicts a team's labels corrected, chosen within a token
budget, and shown in the alignment and coverage prompts (after the cached source prefix)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_invoke import invoke
from scripted import answers, claims, judge, questions

from sumjudge.analysis.calibration_examples import choose_examples, disagreements
from sumjudge.analysis.calibration_labels import Labels
from sumjudge.data.datasets import Dataset
from sumjudge.runs.dataset import RunOutputs, run_dataset_sync
from sumjudge.summarization import create_summarization_scorer
from sumjudge.summarization.calibration import Calibration, Example
from sumjudge.summarization.spec import ScorerSpec
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, COVERAGE_STEP
from sumjudge.store.database import RunStore

SOURCE = "The plant opened in 1990 in Leeds. It employs 400 people."
MODEL = "openai/test-model"


def _claims_of(request: Any) -> dict[str, Any]:
    """The summary's one sentence as its claim; the judge says supported unless it names 1991."""
    summary = request.inputs.summary or ""
    return claims((summary, "1991" not in summary))


def _scripted() -> Any:
    return judge(_claims_of, questions("Did the plant open in 1990?"), answers(True), model_id=MODEL)


def _run(tmp_path: Path, summaries: list[str]) -> tuple[Path, str]:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"i{n}", "source": SOURCE, "summary": s}) + "\n"
                            for n, s in enumerate(summaries)), encoding="utf-8")
    store = tmp_path / "runs.db"
    with Dataset(str(data)) as ds:
        result = run_dataset_sync(ds, ds.validate(), spec=ScorerSpec.make(MODEL), judge_factory=_scripted,
                                  store_path=store, outputs=RunOutputs(step_summary=False))
    return store, result.run.id


def test_the_claims_the_judge_passed_and_people_failed_come_first(tmp_path: Path) -> None:
    store, run_id = _run(tmp_path, ["The plant opened in 1990.", "The plant opened in 1991.", "It employs 400 people."])
    labels = Labels(claims={"i0": {0: False}, "i1": {0: True}, "i2": {0: True}}, questions={"i2": {0: False}})
    with RunStore(store, readonly=True) as runs:
        found = disagreements(runs, run_id, labels)
    assert [(e.step, e.text, e.truth) for e in found] == [
        ("alignment", "The plant opened in 1990.", False),  # passed by the judge, failed by people: the costly miss
        ("coverage", "Did the plant open in 1990?", False),
        ("alignment", "The plant opened in 1991.", True),
    ]
    # each step's block has its own room: 70 tokens hold the heading and one example, not two
    assert choose_examples(found, budget_tokens=70) == (found[0], found[1])
    assert choose_examples(found, budget_tokens=40) == ()  # not even the heading fits
    assert choose_examples(found, budget_tokens=0) == ()


def test_the_examples_reach_the_prompts_after_the_cached_source() -> None:
    example = Example(step="alignment", text="The plant opened in 1991.", passage="opened in 1990", truth=False)
    asked = Example(step="coverage", text="Did the plant open in 1990?", truth=True)
    plain = Calibration(judge=MODEL, labels_digest="sha256:x", labels=30)
    taught = plain.model_copy(update={"examples": (example, asked)})
    sent = {}
    for name, cal in (("plain", plain), ("taught", taught)):
        j = _scripted()
        create_summarization_scorer(j, {"calibration": cal}).run_sync(input=SOURCE, output="The plant opened in 1990.")
        sent[name] = (j.calls(ALIGNMENT_STEP)[0].messages, j.calls(COVERAGE_STEP)[0].messages)
    (a_plain, c_plain), (a_taught, c_taught) = sent["plain"], sent["taught"]
    assert a_taught[1] == a_plain[1]  # the cached prefix (instructions and source) is unchanged
    assert '- claim: "The plant opened in 1991." | passage: "opened in 1990" | supported: false' in a_taught[2].content
    assert "1991" not in a_plain[2].content and "question:" not in a_taught[2].content
    assert '- question: "Did the plant open in 1990?" | answered: true' in c_taught[-1].content
    assert taught.digest != plain.digest  # another set of examples is another run
    assert "examples" not in json.dumps(plain.model_dump(exclude={"examples"}))  # files without examples keep their digest


def _labelled_run(tmp_path: Path) -> tuple[Path, str, Path]:
    summaries = [f"The plant opened in {1990 if n % 2 else 1991}." for n in range(24)]
    store, run_id = _run(tmp_path, summaries)
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"id": f"i{n}", "label": "pass" if n % 2 else "fail",
                                          "claims": [bool(n % 2) if n > 1 else not (n % 2)]}) + "\n"
                              for n in range(24)), encoding="utf-8")
    return store, run_id, labels


def test_calibrate_writes_the_corrected_verdicts_of_an_llm_judge_as_examples(tmp_path: Path) -> None:
    store, run_id, labels = _labelled_run(tmp_path)
    out = tmp_path / "cal.json"
    code, said = invoke("calibrate", run_id, "--labels", str(labels), "--store", str(store), "--out", str(out))
    assert code == 0, said
    cal = Calibration.model_validate_json(out.read_text(encoding="utf-8"))
    assert [(e.text, e.truth) for e in cal.examples] == [("The plant opened in 1990.", False),
                                                         ("The plant opened in 1991.", True)]
    assert "2 of the 2 verdicts your labels corrected" in said
    code, said = invoke("calibrate", run_id, "--labels", str(labels), "--store", str(store), "--out", str(out),
                        "--examples-tokens", "0")
    assert code == 0 and Calibration.model_validate_json(out.read_text(encoding="utf-8")).examples == ()


def test_examples_for_a_judge_that_reads_no_prompt_are_refused(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": "The plant opened."}) + "\n", encoding="utf-8")
    store = str(tmp_path / "runs.db")
    assert invoke("score", str(data), "--model", "offline/lexical", "--store", store, "--quiet")[0] == 0
    run_id = json.loads(invoke("runs", "list", "--json", "--store", store)[1].splitlines()[0])["id"]
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": "a", "label": "pass"}) + "\n", encoding="utf-8")
    code, said = invoke("calibrate", run_id, "--labels", str(labels), "--store", store, "--examples-tokens", "100",
                        "--out", str(tmp_path / "cal.json"))
    assert code == 2 and "reads no prompt" in said, said
