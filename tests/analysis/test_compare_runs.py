"""compare_runs: B against A over the same items, every item accounted for, bad pairs refused."""

from __future__ import annotations

import hashlib
import json

import pytest

from sumjudge.store.records import FailedItem, outcome_from_json
from sumjudge.analysis.compare import ComparisonError, RunItems, compare_runs, read_result_file, run_items_from_store
from sumjudge.analysis.compare_text import render_text
from sumjudge.store.database import RunStore


def rec(item_id: str, score: float, *, coverage: float | None = None, source: str | None = None, reason: str = "") -> dict:
    out = {
        "id": item_id,
        "score": score,
        "alignment_score": score,
        "coverage_score": 1.0 if coverage is None else coverage,
        "reason": reason or f"{item_id} scored {score}",
        "error": None,
    }
    if source is not None:
        out["source_sha256"] = hashlib.sha256(source.encode()).hexdigest()
    return out


def runs(n: int = 40, lift: float = 0.2) -> tuple[list[dict], list[dict]]:
    a = [rec(f"doc-{i}", (i % 10) / 10, source=f"source {i}") for i in range(n)]
    b = [rec(f"doc-{i}", min(1.0, (i % 10) / 10 + lift), source=f"source {i}") for i in range(n)]
    return a, b


def test_a_better_run_is_better_with_its_figures():
    a, b = runs()
    res = compare_runs(a, b)
    assert res.n_pairs == 40
    assert res.mean_a == pytest.approx(0.45)
    assert res.mean_b == pytest.approx(sum(min(1.0, (i % 10) / 10 + 0.2) for i in range(40)) / 40)
    assert res.diff == pytest.approx(res.mean_b - res.mean_a)
    assert 0 < res.ci_low <= res.diff <= res.ci_high
    assert res.p_value < 0.001
    assert (res.wins, res.ties, res.losses) == (40, 0, 0)
    assert res.verdict == "better"
    # Coverage did not move: the axis says so on its own.
    assert res.coverage.verdict == "equivalent" and res.coverage.ties == 40  # identical: inside +-0
    assert res.alignment.verdict == "better"
    assert res.sources_checked == 40
    # Reversed, the same change is "worse".
    assert compare_runs(b, a).verdict == "worse"


def test_json_form_has_the_promised_fields():
    a, b = runs()
    data = json.loads(compare_runs(a, b).model_dump_json())
    for key in ("n_pairs", "mean_a", "mean_b", "diff", "ci_low", "ci_high", "p_value", "wins", "ties", "losses",
                "verdict", "alignment", "coverage", "only_in_a", "only_in_b", "moved"):
        assert key in data
    for axis in ("alignment", "coverage"):
        assert {"n_pairs", "diff", "ci_low", "ci_high", "p_value", "wins", "ties", "losses", "verdict"} <= set(data[axis])
    assert "pairs" not in data


def test_alpha_decides_the_verdict():
    a = [rec(f"d{i}", 0.5) for i in range(12)]
    b = [rec(f"d{i}", 0.5 + (0.05 if i < 9 else -0.05)) for i in range(12)]
    res = compare_runs(a, b, alpha=0.2)
    assert 0.05 < res.p_value < 0.2
    assert res.verdict == "better"
    assert compare_runs(a, b, alpha=0.05).verdict == "inconclusive"  # not significant, not inside +-0
    with pytest.raises(ComparisonError, match="alpha"):
        compare_runs(a, b, alpha=1.5)


def test_items_in_one_run_only_and_failed_items_are_counted_and_named():
    a, b = runs(10)
    a.append(rec("only-a", 0.3))
    b.append(rec("only-b", 0.3))
    b[2] = FailedItem(id="doc-2", error="JudgeUnavailableError: gone").as_json()
    res = compare_runs(a, b)
    assert res.n_pairs == 9
    assert res.only_in_a == ["only-a"] and res.only_in_b == ["only-b"]
    assert res.failed_b == ["doc-2"] and res.failed_a == []
    text = render_text(res)
    assert "only in A (not compared): 1: 'only-a'" in text
    assert "failed in B (not compared): 1: 'doc-2'" in text


def test_the_items_that_moved_most_come_with_both_reasons():
    a = [rec(f"d{i}", 0.5, reason=f"A's reason {i}") for i in range(6)]
    b = [rec(f"d{i}", 0.5 + [0, 0.1, -0.4, 0.3, 0, 0.05][i], reason=f"B's reason {i}") for i in range(6)]
    res = compare_runs(a, b, moved=3)
    assert [m.id for m in res.moved] == ["d2", "d3", "d1"]
    assert res.moved[0].diff == pytest.approx(-0.4)
    assert (res.moved[0].reason_a, res.moved[0].reason_b) == ("A's reason 2", "B's reason 2")
    assert all(m.id not in ("d0", "d4") for m in compare_runs(a, b).moved)  # unchanged items did not move


def test_a_different_source_for_the_same_id_is_an_error_naming_the_item():
    a, b = runs(5)
    b[3] = rec("doc-3", 0.5, source="another article")
    with pytest.raises(ComparisonError, match="item 'doc-3' has a different source"):
        compare_runs(a, b)


def test_runs_over_different_data_sets_share_no_id():
    a, _ = runs(8)
    other = [rec(f"x-{i}", 0.5) for i in range(8)]
    with pytest.raises(ComparisonError, match="share no item id.*'doc-0'.*and 3 more.*'x-0'"):
        compare_runs(a, other)


def test_empty_and_all_failed_runs_are_errors():
    a, _ = runs(3)
    with pytest.raises(ComparisonError, match="run A .* has no items"):
        compare_runs([], a)
    failed = [FailedItem(id=f"doc-{i}", error="boom").as_json() for i in range(3)]
    with pytest.raises(ComparisonError, match="run B .* no scored item: all 3 failed"):
        compare_runs(a, failed)


def test_runs_scored_by_different_judges_or_options_are_refused():
    a, b = runs(5)
    ra = RunItems(label="run-a", records=a, model="offline/lexical", options={"max_questions": 10, "scale": 1})
    with pytest.raises(ComparisonError, match="different judges.*'offline/lexical'.*'openai/gpt-4o-mini'"):
        compare_runs(ra, RunItems(label="run-b", records=b, model="openai/gpt-4o-mini", options=ra.options))
    with pytest.raises(ComparisonError, match="scale: A 1, B 5"):
        compare_runs(ra, RunItems(label="run-b", records=b, model="offline/lexical", options={"max_questions": 10, "scale": 5}))
    same = compare_runs(ra, RunItems(label="run-b", records=b, model="offline/lexical", options=dict(ra.options)))
    assert (same.a, same.b, same.scale) == ("run-a", "run-b", 1.0)


def test_runs_from_result_files_and_from_the_store(tmp_path):
    a, b = runs(6)
    path = tmp_path / "a.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in a) + "\n", encoding="utf-8")
    with RunStore(tmp_path / "runs.db") as store:
        run, _ = store.open_run(model="offline/lexical", options={"max_questions": 10, "scale": 1},
                                data="b.jsonl", fingerprint="f" * 64, total_items=len(b))
        for n, r in enumerate(b, 1):
            store.record_item(run.id, n, outcome_from_json(r))
        side_b = run_items_from_store(store, "latest")
        with pytest.raises(ComparisonError, match="no run 'nope'"):
            run_items_from_store(store, "nope")
    res = compare_runs(read_result_file(path), side_b)
    assert res.a == str(path) and res.b == run.id and res.n_pairs == 6 and res.verdict == "better"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(ComparisonError, match="bad.jsonl:2: not valid JSON"):
        read_result_file(bad)
    with pytest.raises(ComparisonError, match="cannot read"):
        read_result_file(tmp_path / "missing.jsonl")
