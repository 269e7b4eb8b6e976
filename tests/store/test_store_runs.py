"""The run store: runs found again by command and data, items committed one by one, figures."""

from __future__ import annotations

import sqlite3

import pytest

from sumjudge.store.records import FailedItem, ItemOutcome, outcome_from_json
from sumjudge.store.database import RunStats, RunStore


def ok(item_id: str, score: float, tokens: int = 10) -> ItemOutcome:
    return outcome_from_json({
        "id": item_id,
        "score": score,
        "alignment_score": score,
        "coverage_score": 1.0,
        "reason": "r",
        "verdicts": {"alignment": [], "questions": [], "coverage": []},
        "usage": {"prompt_tokens": tokens, "completion_tokens": 0, "calls": 3, "total_tokens": tokens},
        "error": None,
    })


def open_run(store: RunStore, **kw):
    args = {"model": "openai/m", "options": {"max_questions": 10, "scale": 1}, "data": "d.jsonl",
            "fingerprint": "f" * 64, "total_items": 5}
    args.update(kw)
    return store.open_run(**args)


def test_same_command_and_data_resume_the_same_run(tmp_path):
    with RunStore(tmp_path / "runs.db") as store:
        run, resumed = open_run(store)
        assert not resumed
        store.record_item(run.id, 1, ok("a", 0.5))
        again, resumed = open_run(store)
        assert resumed and again.id == run.id
        assert store.finished_ids(run.id) == {"a"}
        # Other data, model or options: a new run.
        assert open_run(store, fingerprint="e" * 64)[0].id != run.id
        assert open_run(store, model="openai/other")[0].id != run.id
        assert open_run(store, options={"max_questions": 3, "scale": 1})[0].id != run.id
        # --fresh
        fresh, resumed = open_run(store, resume=False)
        assert not resumed and fresh.id != run.id


def test_items_survive_a_new_connection_and_failures_are_not_finished(tmp_path):
    path = tmp_path / "runs.db"
    with RunStore(path) as store:
        run, _ = open_run(store)
        store.record_item(run.id, 2, ok("b", 1.0))
        store.record_item(run.id, 1, FailedItem(id="a", error="JudgeUnavailableError: gone"))
    # A fresh process sees every committed item (each write is its own transaction).
    rows = sqlite3.connect(path).execute("SELECT item_id, status, error FROM items ORDER BY row_number").fetchall()
    assert rows == [("a", "error", "JudgeUnavailableError: gone"), ("b", "ok", None)]
    with RunStore(path) as store:
        assert store.finished_ids(run.id) == {"b"}  # the failed item will be tried again
        # Retrying a failed item replaces its record: the item appears once.
        store.record_item(run.id, 1, ok("a", 0.0))
        items = list(store.iter_items(run.id))
        assert [(i.item_id, i.status) for i in items] == [("a", "ok"), ("b", "ok")]
        assert store.get_run(run.id).ok == 2


def test_items_recorded_together_are_committed_all_or_none(tmp_path):
    path = tmp_path / "runs.db"

    def stopped_after_one():  # the process interrupted between two records of a worker's task
        yield 1, ok("a", 0.5)
        raise KeyboardInterrupt

    with RunStore(path) as store:
        run, _ = open_run(store)
        with pytest.raises(KeyboardInterrupt):
            store.record_items(run.id, stopped_after_one())
        assert store.finished_ids(run.id) == set()
        store.record_items(run.id, [(1, ok("a", 0.5)), (2, ok("b", 1.0))])
    rows = sqlite3.connect(path).execute("SELECT item_id FROM items ORDER BY row_number").fetchall()
    assert rows == [("a",), ("b",)]


def test_stats_are_the_figures_of_the_end_table(tmp_path):
    with RunStore(tmp_path / "runs.db") as store:
        run, _ = open_run(store)
        for n, s in enumerate([0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 0.0, 1.0, 0.5, 0.5], start=1):
            store.record_item(run.id, n, ok(f"i{n}", s, tokens=7))
        store.record_item(run.id, 11, FailedItem(id="bad", error="boom"))
        stats = store.stats(run.id)
    assert stats.count == 10 and stats.errors == 1
    assert stats.mean == pytest.approx(0.5)
    assert stats.median == pytest.approx(0.5)
    assert stats.p10 == pytest.approx(0.0)
    assert stats.zero_scores == 2
    assert stats.tokens == 70 and stats.calls == 30
    assert stats.mean_alignment == pytest.approx(0.5) and stats.mean_coverage == pytest.approx(1.0)


def test_quantiles_interpolate_like_numpy():
    stats = RunStats.from_sorted_scores(
        [0.1, 0.2, 0.3, 0.4], mean_alignment=None, mean_coverage=None, tokens=0, calls=0, errors=0
    )
    assert stats.median == pytest.approx(0.25)
    assert stats.p10 == pytest.approx(0.13)
    empty = RunStats.from_sorted_scores([], mean_alignment=None, mean_coverage=None, tokens=0, calls=0, errors=3)
    assert empty.mean is None and empty.median is None and empty.count == 0


def test_runs_are_found_by_prefix_or_latest_and_unknown_ones_are_named(tmp_path):
    with RunStore(tmp_path / "runs.db") as store:
        first, _ = open_run(store)
        second, _ = open_run(store, fingerprint="0" * 64)
        assert store.get_run("latest").id == second.id
        assert store.get_run(first.id).id == first.id
        with pytest.raises(KeyError, match="no run 'nope'"):
            store.get_run("nope")
        # An ambiguous prefix is refused rather than guessed.
        with pytest.raises(KeyError, match="more than one run"):
            store.get_run(first.id[:4])
        assert [r.id for r in store.list_runs()] == [second.id, first.id]


def test_a_full_disk_during_a_run_is_one_line_and_the_run_is_left_stopped_not_running(tmp_path, monkeypatch):
    import json

    from click.testing import CliRunner

    from sumjudge.cli import main

    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"r{i}", "source": "The bridge opened in 1932.",
                                        "summary": "It opened in 1932."}) + "\n" for i in range(3)))
    written = []
    insert = RunStore._insert_item

    def fills_up(self, run_id, row_number, outcome):  # type: ignore[no-untyped-def]
        if written:
            raise sqlite3.OperationalError("database or disk is full")
        written.append(row_number)
        insert(self, run_id, row_number, outcome)

    monkeypatch.setattr(RunStore, "_insert_item", fills_up)
    args = ["score", str(data), "--model", "offline/lexical", "--store", str(tmp_path / "runs.db"), "--workers", "1",
            "--concurrency", "1", "--quiet"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "is full" in result.output and "run the same command to resume" in result.output, result.output
    with sqlite3.connect(tmp_path / "runs.db") as db:
        assert db.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
    monkeypatch.setattr(RunStore, "_insert_item", insert)
    assert CliRunner().invoke(main, args).exit_code == 0  # resumed: what was written is kept
    with sqlite3.connect(tmp_path / "runs.db") as db:
        assert db.execute("SELECT COUNT(*), status FROM runs").fetchone() == (1, "finished")


@pytest.mark.parametrize("count", [0, 10**20, 10**5000, True, 2.5], ids=["0", "1e20", "1e5000", "True", "2.5"])
def test_a_listing_count_outside_its_bound_is_an_input_error_not_sqlites_overflow(tmp_path, count) -> None:
    from sumjudge.errors import InputError
    from sumjudge.store.database import RunStore
    from sumjudge.store.item_lookup import ranked_items

    with RunStore(tmp_path / "runs.db") as store:
        with pytest.raises(InputError, match="from 1 to 1000000"):
            store.list_runs(count)
        with pytest.raises(InputError, match="from 1 to 1000000"):
            ranked_items(store, "no-run", count)
