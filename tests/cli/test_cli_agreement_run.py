"""`sumjudge agreement --run`: figures from the labels in the store, as text and JSON, and clear errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.store.database import RunStore
from sumjudge.store.labels import LabelBook
from view_store import make_store


def test_agreement_run_reads_the_labels_as_text_and_json(tmp_path):
    store, a, _ = make_store(tmp_path)
    with RunStore(store) as s:
        book = LabelBook(s)
        for n, item in enumerate(["doc-1", "doc-2", "doc-3"]):
            for who in ("ann", "bob"):
                # claim 1 (judge: unsupported) is right for both; claim 0 (supported) is wrong for bob on doc-1
                book.mark(a, item, who, "claim", 0, text="c0", judge_says=True, correct=not (who == "bob" and n == 0))
                book.mark(a, item, who, "claim", 1, text="c1", judge_says=False, correct=True)
                book.mark(a, item, who, "answer", 0, text="q0", judge_says=True, correct=n != 2)
            book.rate(a, item, "ann", rating=5 - 2 * n)
    res = CliRunner().invoke(main, ["agreement", "--run", a, "--store", str(store), "--json"])
    assert res.exit_code == 0, res.output
    r = json.loads(res.output)
    assert r["reviewers"] == ["ann", "bob"] and (r["claims"], r["answers"], r["ratings"]) == (12, 6, 3)
    assert r["precision"]["value"] == 1.0  # every "unsupported" was right
    assert abs(r["recall"]["value"] - 6 / 7) < 1e-9  # bob holds doc-1's claim 0 unsupported too
    assert abs(r["answer_accuracy"]["value"] - 4 / 6) < 1e-9
    assert r["spearman"]["value"] == 1.0  # scores 0.9, 0.5, 0.3 against ratings 5, 3, 1
    (pair,) = r["pairs"]
    assert (pair["a"], pair["b"], pair["shared"]) == ("ann", "bob", 9)
    assert pair["judge_kappa_a"]["value"] > pair["judge_kappa_b"]["value"]  # bob differs from the judge once more
    text = CliRunner().invoke(main, ["agreement", "--run", a, "--store", str(store)]).output
    assert 'recall of "unsupported"' in text and "95% CI" in text and "kappa, ann vs bob" in text


def test_agreement_run_without_labels_or_with_data_too_is_a_usage_error(tmp_path):
    store, a, _ = make_store(tmp_path)
    res = CliRunner().invoke(main, ["agreement", "--run", a, "--store", str(store)])
    assert res.exit_code == 2 and "has no labels yet" in res.output
    res = CliRunner().invoke(main, ["agreement", "data.jsonl", "--run", a, "--store", str(store)])
    assert res.exit_code == 2 and "not both" in res.output
    res = CliRunner().invoke(main, ["agreement"])
    assert res.exit_code == 2 and "--run RUN" in res.output
    res = CliRunner().invoke(main, ["agreement", "--run", "nope", "--store", str(store)])
    assert res.exit_code == 2 and "no run 'nope'" in res.output
