"""Labels in the run store: a store made by today's code is left as it was until the first label,
labels read back as written, a read-only store refuses them, and `runs export` carries them."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest
from click.testing import CliRunner

from sumjudge.analysis.compare import read_result_file
from sumjudge.cli import main
from sumjudge.errors import InputError, StoreError
from sumjudge.store.database import RunStore
from sumjudge.store.labels import LabelBook, check_reviewer
from view_store import make_store


def tables(path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_store_made_before_labels_is_unchanged_until_the_first_label(tmp_path):
    store_path, a, _ = make_store(tmp_path)
    with RunStore(store_path):  # as `sumjudge score` opens it: checkpoint the WAL into the file
        pass
    before = digest(store_path)
    with RunStore(store_path, readonly=True) as store:
        book = LabelBook(store)
        assert not book.has_tables()
        assert book.verdict_labels(a) == [] and book.item_labels(a) == [] and book.reviewers(a) == []
        assert book.by_item(a) == {}
    with RunStore(store_path) as store:  # opened for writing, as the viewer does for a label
        assert LabelBook(store).verdict_labels(a) == []
    assert digest(store_path) == before
    assert "verdict_labels" not in tables(store_path)

    with RunStore(store_path) as store:
        book = LabelBook(store)
        book.mark(a, "doc-1", " ann ", "claim", 1, text="The library opens in May.", judge_says=False, correct=True)
        book.mark(a, "doc-1", "ann", "answer", 0, text="Was the budget approved?", judge_says=True, correct=False)
        book.rate(a, "doc-1", "bob", rating=4, note="fine")
        assert store.stats(a).count == 5  # the runs and items are untouched
    assert {"verdict_labels", "item_labels"} <= tables(store_path)
    with RunStore(store_path, readonly=True) as store:
        book = LabelBook(store)
        marks = book.verdict_labels(a)
        assert [(m.reviewer, m.target, m.index, m.correct, m.truth) for m in marks] == [
            ("ann", "answer", 0, False, False), ("ann", "claim", 1, True, False)]
        assert [(r.reviewer, r.rating, r.note) for r in book.item_labels(a)] == [("bob", 4, "fine")]
        assert book.reviewers(a) == ["ann", "bob"]
        assert book.labelled_items(a, "ann") == {"doc-1"} and book.labelled_items(a, "carol") == set()


def test_a_mark_is_replaced_and_cleared(tmp_path):
    store_path, a, _ = make_store(tmp_path)
    with RunStore(store_path) as store:
        book = LabelBook(store)
        book.mark(a, "doc-1", "ann", "claim", 0, text="c", judge_says=True, correct=True)
        book.mark(a, "doc-1", "ann", "claim", 0, text="c", judge_says=True, correct=False)
        assert [m.correct for m in book.verdict_labels(a)] == [False]
        book.mark(a, "doc-1", "ann", "claim", 0, text="c", judge_says=True, correct=None)
        assert book.verdict_labels(a) == []


def test_a_read_only_store_refuses_labels(tmp_path):
    store_path, a, _ = make_store(tmp_path)
    with RunStore(store_path, readonly=True) as store:
        with pytest.raises(StoreError, match="read-only"):
            LabelBook(store).mark(a, "doc-1", "ann", "claim", 0, text="c", judge_says=True, correct=True)


@pytest.mark.parametrize("name", ["", "   ", "a\x00b", "tab\there", "x" * 65])
def test_reviewer_names_must_be_printable_and_short(name):
    with pytest.raises(InputError):
        check_reviewer(name)


def test_ratings_are_one_to_five(tmp_path):
    store_path, a, _ = make_store(tmp_path)
    with RunStore(store_path) as store, pytest.raises(InputError, match="1 to 5"):
        LabelBook(store).rate(a, "doc-1", "ann", rating=6)


def test_runs_export_carries_the_labels_and_compare_still_reads_the_file(tmp_path):
    store_path, a, b = make_store(tmp_path)
    with RunStore(store_path) as store:
        book = LabelBook(store)
        book.mark(a, "doc-2", "ann", "claim", 1, text="The library opens in May.", judge_says=False, correct=False)
        book.rate(a, "doc-2", "ann", rating=2, note="misses the date")
    out = tmp_path / "a.jsonl"
    res = CliRunner().invoke(main, ["runs", "export", a, "--store", str(store_path), "--out", str(out)])
    assert res.exit_code == 0, res.output
    lines = {d["id"]: d for d in map(json.loads, out.read_text().splitlines())}
    assert "labels" not in lines["doc-1"]
    labels = lines["doc-2"]["labels"]
    assert [(v["reviewer"], v["target"], v["index"], v["correct"], v["judge_says"]) for v in labels["verdicts"]] == [
        ("ann", "claim", 1, False, False)]
    assert [(i["reviewer"], i["rating"], i["note"]) for i in labels["items"]] == [("ann", 2, "misses the date")]
    assert len(read_result_file(out).records) == 6
