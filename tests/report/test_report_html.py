"""The HTML report: self-contained, escaped, and working in a real headless browser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sumjudge.store.records import FailedItem, ItemOutcome, outcome_from_json
from sumjudge.report import histogram_counts, write_report
from sumjudge.store.database import RunStore

from headless import chromium, needs_chromium


EVIL = '</script><script>document.title="pwned"</script><img src=x onerror="alert(1)">'


def record(item_id: str, score: float, *, summary_claim: str = "claim") -> ItemOutcome:
    return outcome_from_json({
        "id": item_id,
        "score": score,
        "alignment_score": score,
        "coverage_score": 1.0,
        "reason": f"Score {score:.2f} is set by alignment.",
        "verdicts": {
            "alignment": [
                {"claim": summary_claim, "supported": True, "reason": "the source says so"},
                {"claim": "an invented detail", "supported": False, "reason": "not in the source"},
            ],
            "questions": ["Is the sky blue?", "Is grass green?"],
            "coverage": [
                {"question": "Is the sky blue?", "answered": True, "reason": "the summary says so"},
                {"question": "Is grass green?", "answered": False, "reason": "the summary does not say"},
            ],
        },
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "calls": 3, "total_tokens": 120},
        "error": None,
    })


SCORES = [0.9, 0.1, 0.5, 0.75, 0.3]


def make_report(tmp_path: Path) -> Path:
    with RunStore(tmp_path / "runs.db") as store:
        run, _ = store.open_run(model="openai/gpt-4o-mini", options={"max_questions": 10, "scale": 1},
                                data="docs.jsonl", fingerprint="f" * 64, total_items=len(SCORES) + 1)
        for n, s in enumerate(SCORES, start=1):
            store.record_item(run.id, n, record(f"doc-{n}", s, summary_claim=EVIL if n == 2 else "claim"))
        store.record_item(run.id, len(SCORES) + 1, FailedItem(id=EVIL, error="JudgeUnavailableError: " + EVIL))
        path = tmp_path / "report.html"
        write_report(path, store.get_run(run.id), store.stats(run.id), lambda: store.iter_items(run.id))
    return path


def test_untrusted_text_is_escaped_and_the_page_needs_no_network(tmp_path):
    html = make_report(tmp_path).read_text(encoding="utf-8")
    assert EVIL not in html
    assert "&lt;/script&gt;&lt;script&gt;document.title=&quot;pwned&quot;" in html
    assert html.count("<script>") == 1  # our own, nothing else
    # Offline: nothing is loaded from anywhere, and the policy forbids it anyway.
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', html)
    assert 'http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;' in html
    assert html.count('class="item"') == len(SCORES) + 1


def test_histogram_counts_scores_into_ten_bins_with_the_top_included():
    assert histogram_counts([0.0, 0.05, 0.1, 0.55, 1.0, 1.0], scale=1) == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]
    assert histogram_counts([5.0, 2.5], scale=5)[-1] == 1


# -- in a real browser ---------------------------------------------------------------------------

pytestmark_browser = needs_chromium


@pytest.fixture
def browser(tmp_path, monkeypatch):
    with chromium(tmp_path / "profile", monkeypatch) as driver:
        yield driver


@pytestmark_browser
def test_the_report_works_in_headless_chromium(tmp_path, browser):
    from selenium.webdriver.common.by import By

    path = make_report(tmp_path)
    browser.get(path.as_uri())
    assert browser.title.startswith("sumjudge report"), "an injected script changed the page"

    # No console errors (a blocked inline script or a CSP violation would show here).
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []

    # Every item is shown, failed ones included.
    bodies = browser.find_elements(By.CSS_SELECTOR, "tbody.item")
    assert len(bodies) == len(SCORES) + 1
    assert all(b.find_element(By.CSS_SELECTOR, "tr.main").is_displayed() for b in bodies)

    # Details are hidden until an item is expanded; then its claims and questions are visible.
    second = browser.find_element(By.CSS_SELECTOR, 'tbody.item[data-id="doc-2"]')
    detail = second.find_element(By.CSS_SELECTOR, "tr.detail")
    assert not detail.is_displayed()
    second.find_element(By.CSS_SELECTOR, "button.toggle").click()
    assert detail.is_displayed()
    supported = detail.find_elements(By.CSS_SELECTOR, "ul.claims li.supported")
    assert [li.find_element(By.CSS_SELECTOR, ".text").text for li in supported] == [EVIL]  # shown as text
    assert len(detail.find_elements(By.CSS_SELECTOR, "ul.claims li.unsupported")) == 1
    assert len(detail.find_elements(By.CSS_SELECTOR, "ul.questions li.answered")) == 1
    assert "the summary does not say" in detail.find_element(By.CSS_SELECTOR, "ul.questions li.unanswered").text

    # Sorting by score: ascending, then descending; the failed item (no score) sorts first ascending.
    header = browser.find_element(By.CSS_SELECTOR, 'th[data-key="score"]')

    def ids() -> list[str]:
        return [b.get_attribute("data-id") for b in browser.find_elements(By.CSS_SELECTOR, "tbody.item")]

    by_score = [f"doc-{n}" for n, _ in sorted(enumerate(SCORES, start=1), key=lambda p: p[1])]
    header.click()
    assert ids() == [EVIL, *by_score]
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    assert ids() == [*reversed(by_score), EVIL]
    # The expanded item stays expanded after sorting (its rows move together).
    assert detail.is_displayed()

    # The histogram is drawn.
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.histogram rect.bar")) == 10
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_page_states_what_is_true_of_each_item_and_of_an_offline_run(tmp_path):
    from sumjudge.store.records import ScoredItem

    with RunStore(tmp_path / "runs.db") as store:
        run, _ = store.open_run(model="offline/lexical", options={"max_questions": 10, "scale": 1},
                                data="docs.jsonl", fingerprint="f" * 64, total_items=2)
        unchecked = record("long-item-identifier-0001", 0.5).as_json()
        unchecked["verdicts"]["alignment"][0]["unchecked"] = True
        unchecked["usage"] = {"calls": 3}
        zero = {**record("doc-zero", 0.0).as_json(), "usage": {"calls": 3}}
        store.record_item(run.id, 1, ScoredItem.model_validate(unchecked))
        store.record_item(run.id, 2, ScoredItem.model_validate(zero))
        path = tmp_path / "report.html"
        write_report(path, store.get_run(run.id), store.stats(run.id), lambda: store.iter_items(run.id))
    html = path.read_text(encoding="utf-8")
    first = html[html.index('id="item-long-item-identifier-0001"'):html.index('id="item-doc-zero"')]
    assert 'data-unchecked="1.0"' in first and "unchecked claims" in html  # the column says what the card says
    zero_row = html[html.index('id="item-doc-zero"'):]
    assert 'data-status="zero score"' in zero_row and ">zero score<" in zero_row and ">ok<" not in html
    assert 'data-figure="tokens"' not in html and 'data-figure="cached prompt tokens"' not in html  # none counted
    assert "td.id { white-space: nowrap; }" in html  # an id is never broken mid-word
    assert "window.location.hash" in html and "hashchange" in html  # report.html#ID opens that item
