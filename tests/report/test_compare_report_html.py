"""The comparison page: self-contained, escaped, and drawn in a real headless browser."""

from __future__ import annotations

import re
from pathlib import Path


from sumjudge.store.records import FailedItem
from sumjudge.analysis.compare import compare_runs
from sumjudge.report import write_comparison_report
from sumjudge.report.compare_html import diff_counts

from headless import chromium, needs_chromium

EVIL = '</style></title><script>document.title="pwned"</script><img src=x onerror="alert(1)">'


def rec(item_id: str, score: float, reason: str) -> dict:
    return {"id": item_id, "score": score, "alignment_score": score, "coverage_score": 1.0, "reason": reason,
            "error": None}


def make_page(tmp_path: Path) -> tuple[Path, object]:
    a = [rec(f"doc-{i}", (i % 5) / 5, f"A says {i}") for i in range(20)]
    b = [rec(f"doc-{i}", min(1.0, (i % 5) / 5 + (0.4 if i % 3 else 0.0)), f"B says {i}") for i in range(20)]
    a.append(rec(EVIL, 0.2, EVIL))
    b.append(rec(EVIL, 1.0, "B: " + EVIL))
    a.append(rec("only-in-a", 0.5, "x"))
    b.append(FailedItem(id="doc-fails", error="boom").as_json())
    a.append(rec("doc-fails", 0.5, "fine in A"))
    result = compare_runs(a, b)
    path = tmp_path / "compare.html"
    write_comparison_report(path, result)
    return path, result


def test_the_page_escapes_user_text_and_needs_no_network(tmp_path):
    path, result = make_page(tmp_path)
    html = path.read_text(encoding="utf-8")
    assert EVIL not in html
    assert "&lt;script&gt;document.title=&quot;pwned&quot;" in html
    assert "<script" not in html  # the page runs no script at all
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', html)
    assert "default-src &#x27;none&#x27;" in html
    assert html.count('class="pt"') == result.n_pairs == 21
    assert 'data-id="only-in-a"' not in html and "<li>only-in-a</li>" in html and "<li>doc-fails</li>" in html


def test_no_change_is_the_middle_bar_of_the_differences():
    counts = diff_counts([0.0, 0.0, 1.0, -1.0, 0.5, 0.01], scale=1.0)
    assert len(counts) == 21
    assert counts[10] == 3  # two zeros and 0.01 (within half a bar of zero)
    assert counts[0] == 1 and counts[-1] == 1 and sum(counts) == 6


@needs_chromium
def test_the_page_renders_in_headless_chromium(tmp_path, monkeypatch):
    with chromium(tmp_path / "profile", monkeypatch) as driver:
        from selenium.webdriver.common.by import By

        path, result = make_page(tmp_path)
        driver.get(path.as_uri())
        assert driver.title.startswith("sumjudge comparison"), "an injected script changed the page"
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        # The style applied (a blocked stylesheet would leave the browser's default black fill).
        point = driver.find_element(By.CSS_SELECTOR, "svg.scatter circle.pt")
        assert point.value_of_css_property("fill") not in ("rgb(0, 0, 0)", "")
        assert len(driver.find_elements(By.CSS_SELECTOR, "svg.scatter circle.pt")) == result.n_pairs
        assert len(driver.find_elements(By.CSS_SELECTOR, "svg.diffs rect.bar")) == 21
        assert driver.find_element(By.ID, "verdict").text.startswith("B is better than A")
        moved = driver.find_elements(By.CSS_SELECTOR, "#moved tr.moved")
        assert len(moved) == len(result.moved) > 0
        first = moved[0].find_elements(By.CSS_SELECTOR, "td")
        assert first[0].text == EVIL  # shown as text, not run
        assert first[5].text == "B: " + EVIL
        assert driver.find_element(By.CSS_SELECTOR, 'tr[data-figure="coverage"] td.verdict').text == "equivalent"
