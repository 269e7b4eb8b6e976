"""The JUnit XML and Markdown writers of a batch run, from a real run store: structure, verdicts per
item, gates, and hostile text (control characters, markup, table breakers)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sumjudge.report.junit import write_junit
from sumjudge.report.markdown import append_step_summary, cell, run_markdown
from sumjudge.store.records import ItemOutcome, outcome_from_json
from sumjudge.store.database import RunStore

HOSTILE = 'bad \x00\x1b[31m <script>alert(1)</script> | ]]> & "quotes"\nsecond line'


def record(item_id: str, score: float | None, *, error: str | None = None, reason: str = "fine") -> ItemOutcome:
    return outcome_from_json({
        "id": item_id,
        "score": score,
        "alignment_score": None if score is None else score,
        "coverage_score": None if score is None else 1.0,
        "reason": None if error else reason,
        "verdicts": None,
        "usage": None,
        "error": error,
    })


@pytest.fixture
def run(tmp_path):
    with RunStore(tmp_path / "runs.db") as store:
        run = store.open_run(
            model="offline/lexical", options={"scale": 1}, data="news.jsonl", fingerprint="f", total_items=4
        )[0]
        store.record_item(run.id, 1, record("a", 0.9))
        store.record_item(run.id, 2, record("b|2", 0.4, reason="Score 0.40 is set by alignment. " + HOSTILE))
        store.record_item(run.id, 3, record("c", None, error="JudgeRequestError: [alignment] 401 bad key"))
        store.record_item(run.id, 4, record("d", 0.7))
        yield store, store.get_run(run.id)


def test_junit_has_one_case_per_item_failures_below_threshold_and_errors(tmp_path, run):
    store, rec = run
    path = tmp_path / "out" / "junit.xml"
    write_junit(
        path, rec, lambda: store.iter_items(rec.id), threshold=0.7, gate_failures=["pass rate 50% < 90%"]
    )
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "5"
    assert root.get("failures") == "2" and root.get("errors") == "1"
    items, gates = root.findall("testsuite")
    assert items.get("tests") == "4" and items.get("failures") == "1" and items.get("errors") == "1"
    suite_props = {p.get("name"): p.get("value") for p in items.find("properties")}
    assert suite_props["judge"] == "offline/lexical" and suite_props["threshold"] == "0.7"
    cases = {c.get("name"): c for c in items.findall("testcase")}
    assert list(cases) == ["a", "b|2", "c", "d"]
    assert cases["a"].find("failure") is None and cases["d"].find("failure") is None  # 0.7 >= 0.7
    failure = cases["b|2"].find("failure")
    assert failure.get("message") == "score 0.40 is below the threshold 0.7"
    assert failure.text.startswith("Score 0.40 is set by alignment. bad [31m <script>")
    assert "\x00" not in failure.text and "\x1b" not in failure.text
    error = cases["c"].find("error")
    assert error.get("type") == "JudgeRequestError" and "401 bad key" in error.get("message")
    props = {p.get("name"): p.get("value") for p in cases["b|2"].find("properties")}
    assert props == {"score": "0.4", "alignment_score": "0.4", "coverage_score": "1.0", "row": "2"}
    (gate,) = gates.findall("testcase")
    assert gate.find("failure").get("message") == "pass rate 50% < 90%"


def test_junit_without_threshold_fails_only_errors_and_passing_gates_pass(tmp_path, run):
    store, rec = run
    path = tmp_path / "junit.xml"
    write_junit(path, rec, list(store.iter_items(rec.id)))
    root = ET.parse(path).getroot()
    assert root.get("failures") == "0" and root.get("errors") == "1"
    assert root.findall("testsuite")[1].find("testcase").find("failure") is None


def test_markdown_has_figures_gates_and_lowest_items_escaped(run):
    store, rec = run
    text = run_markdown(
        rec,
        store.stats(rec.id),
        lambda: store.iter_items(rec.id),
        gate_failures=["pass rate 50% < 90%"],
        threshold=0.7,
    )
    assert text.startswith("### sumjudge: `news.jsonl`: ❌ failed")
    assert "4 items, 3 scored, 1 failed" in text
    assert "| 0.667 | 0.700 |" in text  # mean, median
    assert "2 of 4 (50%)" in text
    assert "- pass rate 50% \\< 90%" in text  # renders as "<"
    rows = text.split("| item | score |", 1)[1].splitlines()[2:-1]
    assert [r.split(" | ")[0] for r in rows] == ["| c", "| b\\|2", "| d", "| a"]
    assert "error" in rows[0] and "401 bad key" in rows[0]
    assert "\\<script\\>" in rows[1] and "<script>" not in text and "\n second line" not in text
    assert all(r.count(" | ") == 4 for r in rows)  # no cell broke the table


def test_markdown_lists_at_most_the_lowest_n_and_says_passed(run):
    store, rec = run
    text = run_markdown(rec, store.stats(rec.id), lambda: store.iter_items(rec.id), lowest=2)
    assert "✅ passed" in text and "**Gates:** all passed." in text and "at or above" not in text
    assert "**Lowest items** (2 of 4):" in text
    assert "| c | error |" in text and "| b\\|2 | 0.40 |" in text and "| d |" not in text
    assert cell("a" * 500, 10) == "a" * 9 + "…"


def test_step_summary_is_appended_only_when_github_says_where(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert append_step_summary("x\n") is None
    target = tmp_path / "summary.md"
    target.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    assert append_step_summary("ours\n") == target
    assert target.read_text(encoding="utf-8") == "earlier step\nours\n"
