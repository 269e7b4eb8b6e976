"""run_dataset, the library form of `sumjudge score`: one call scores a file into the run store, writes
the outputs, judges the gates, and resumes on a second call; bad input fails before anything is
opened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sumjudge.summarization.spec import ScorerSpec
from sumjudge.runs.dataset import RunOutputs, Meter, run_dataset, run_dataset_sync
from sumjudge.data.datasets import Dataset
from sumjudge.errors import SumjudgeError
from sumjudge.runs.gates import Gates
from sumjudge.store.records import FailedItem, ItemOutcome, ScoredItem, outcome_from_json

SOURCE = "The bridge opened in 1932 and cost 4 million dollars. Its architect was Ada Lind."
OPTIONS = {"max_questions": 10, "scale": 1.0}


def write_rows(path: Path, summaries: list[str]) -> Path:
    path.write_text(
        "".join(json.dumps({"id": f"doc-{i}", "source": SOURCE, "summary": s}) + "\n" for i, s in enumerate(summaries)),
        encoding="utf-8",
    )
    return path


class Seen:
    """Records what run_dataset tells its caller."""

    def __init__(self) -> None:
        self.starts: list[tuple[bool, int, int]] = []
        self.done: list[ItemOutcome] = []
        self.ended = 0

    def started(self, run, *, resumed: bool, already_done: int, total: int) -> None:
        self.starts.append((resumed, already_done, total))

    def item_done(self, outcome: ItemOutcome) -> None:
        self.done.append(outcome)

    def scoring_ended(self) -> None:
        self.ended += 1


def test_one_call_scores_writes_in_input_order_and_resumes(tmp_path):
    data = write_rows(tmp_path / "d.jsonl", [
        "The bridge, designed by Ada Lind, opened in 1932.",
        "Pirates seized 900 ships near Zanzibar.",
        "The bridge opened in 1932 and cost 4 million dollars.",
    ])
    out = tmp_path / "out.jsonl"
    seen = Seen()
    with Dataset(str(data)) as ds:
        info = ds.validate()
        result = run_dataset_sync(ds, info, spec=ScorerSpec.make("offline/lexical", OPTIONS), store_path=tmp_path / "runs.db",
                                outputs=RunOutputs(out=str(out), step_summary=False), events=seen,
                                gates=Gates(fail_under=0.9))
    assert not result.interrupted
    assert result.stats.count == 3 and result.stats.errors == 0
    assert result.run.status == "finished"
    assert seen.starts == [(False, 0, 3)] and len(seen.done) == 3 and seen.ended == 1
    lines = [outcome_from_json(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [o.id for o in lines] == ["doc-0", "doc-1", "doc-2"]  # input order, whatever finished first
    assert all(isinstance(o, ScoredItem) for o in lines)
    invented = lines[1]
    assert isinstance(invented, ScoredItem) and invented.alignment_score == 0.0
    # The invented summary drags the mean under 0.9: the gate says so, in words.
    assert result.gate_failures and "0.9" in result.gate_failures[0]

    # The same call again resumes the run: nothing is scored twice.
    again = Seen()
    with Dataset(str(data)) as ds:
        info = ds.validate()
        second = run_dataset_sync(ds, info, spec=ScorerSpec.make("offline/lexical", OPTIONS), store_path=tmp_path / "runs.db",
                                outputs=RunOutputs(step_summary=False), events=again)
    assert second.run.id == result.run.id
    assert again.starts == [(True, 3, 3)] and again.done == []


async def test_a_failed_item_is_kept_with_its_error_and_fails_the_gate(tmp_path, monkeypatch):
    data = write_rows(tmp_path / "d.jsonl", ["The bridge opened in 1932.", "Ada Lind was its architect."])
    import sumjudge.summarization.offline.lexical as lexical

    real = lexical.LexicalJudge.align

    def align(self, source: str, summary: str):  # the second item's judge breaks
        if "Ada" in summary:
            raise RuntimeError("the judge broke")
        return real(self, source, summary)

    monkeypatch.setattr(lexical.LexicalJudge, "align", align)
    meter = Meter()
    with Dataset(str(data)) as ds:
        result = await run_dataset(ds, ds.validate(), spec=ScorerSpec.make("offline/lexical", OPTIONS),
                                 store_path=tmp_path / "runs.db", outputs=RunOutputs(step_summary=False),
                                 meter=meter)
    assert result.stats.count == 1 and result.stats.errors == 1
    assert result.run.status == "finished with errors"
    assert meter.done == 2 and meter.errors == 1
    assert any("could not be scored" in f or "failed" in f for f in result.gate_failures)
    from sumjudge.store.database import RunStore

    with RunStore(tmp_path / "runs.db", readonly=True) as store:
        failed = [i.outcome for i in store.iter_items(result.run.id) if isinstance(i.outcome, FailedItem)]
    assert len(failed) == 1 and "the judge broke" in failed[0].error


def test_bad_model_or_unwritable_output_fails_before_the_run_is_opened(tmp_path):
    data = write_rows(tmp_path / "d.jsonl", ["The bridge opened in 1932."])
    store = tmp_path / "runs.db"
    with Dataset(str(data)) as ds:
        info = ds.validate()
        with pytest.raises(SumjudgeError, match="nosuchprovider"):
            run_dataset_sync(ds, info, spec=ScorerSpec.make("nosuchprovider/x", OPTIONS), store_path=store)
        blocker = tmp_path / "a-file"
        blocker.write_text("x")
        with pytest.raises(SumjudgeError, match="--report"):
            run_dataset_sync(ds, info, spec=ScorerSpec.make("offline/lexical", OPTIONS), store_path=store,
                           outputs=RunOutputs(report=str(blocker / "r.html")))
    assert not store.exists()  # no run was opened, so none is left "running"


def test_a_run_never_resumes_under_another_version_of_the_offline_judge(tmp_path, monkeypatch):
    """The judge's identity (its rules and word data) is part of the run key: after an upgrade that can
    move verdicts, the same command starts a new run instead of mixing the old verdicts with new ones."""
    from sumjudge.summarization.offline import lexical

    data = write_rows(tmp_path / "d.jsonl", ["The bridge opened in 1932.", "Pirates seized 900 ships."])

    def score() -> tuple[bool, str]:
        seen = Seen()
        with Dataset(str(data)) as ds:
            result = run_dataset_sync(ds, ds.validate(), spec=ScorerSpec.make("offline/lexical", OPTIONS),
                                    store_path=tmp_path / "runs.db", outputs=RunOutputs(step_summary=False),
                                    events=seen)
        return seen.starts[0][0], result.run.id

    resumed, first = score()
    assert not resumed
    resumed, same = score()
    assert resumed and same == first
    monkeypatch.setattr(lexical, "RULES_VERSION", lexical.RULES_VERSION + ".1")
    resumed, other = score()
    assert not resumed and other != first
