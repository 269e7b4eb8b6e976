"""Evidence in a real browser: `sumjudge view` over a run judged over HTTP by a judge that quotes;
hovering a claim lights the source words it quotes, hovering a question lights the summary's; a
verdict whose quote was not found is marked unverified, and the review queue opens its item first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from headless import chromium, needs_chromium
from sumjudge.cli import main
from sumjudge.testing.judge_server import JudgeServer
from sumjudge.testing.quoting import QuotingBrain
from test_view_browser import served

pytest.importorskip("uvicorn")

SOURCE = ("The company raised more than $105 million in its latest round. "
          "Its founder, Ada Lind, said the money would pay for two new factories.")
ROWS = [
    {"id": "trusted", "source": SOURCE, "summary": "The company raised more than $105 million."},
    # claim 2 is quoted from the summary, not the source: unverified
    {"id": "doubted", "source": SOURCE, "summary": "The company raised less than $105 million. Ada Lind builds factories."},
]


def _scored_store(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    data = tmp / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    with JudgeServer(QuotingBrain(alignment=("faithful", "summary"), coverage=("faithful",))) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        monkeypatch.chdir(tmp)
        res = CliRunner().invoke(main, ["score", "data.jsonl", "--model", "openai/test-model", "--store", "runs.db",
                                        "--quiet"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    listed = CliRunner().invoke(main, ["runs", "list", "--json", "--store", str(tmp / "runs.db")])
    return tmp / "runs.db", json.loads(listed.stdout.splitlines()[0])["id"]


@needs_chromium
def test_hovering_a_verdict_lights_its_quote_and_unverified_verdicts_come_first(tmp_path, monkeypatch):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    store, run_id = _scored_store(tmp_path, monkeypatch)
    with served(tmp_path, "--store", str(store)) as (address, _), chromium(tmp_path / "profile", monkeypatch) as driver:
        driver.get(f"{address}run/{run_id}/queue?reviewer=ann")
        assert "item doubted" in driver.find_element(By.TAG_NAME, "h1").text  # unverified evidence first
        claims = driver.find_elements(By.CSS_SELECTOR, 'li.verdict[data-target="claim"]')
        assert "unverified" in claims[1].get_attribute("class") and "unverified" in claims[1].text
        assert "quote found" in claims[0].text

        # the first verdict is selected on load (y / n label it at once), so its words are lit already
        lit = driver.find_elements(By.CSS_SELECTOR, ".source mark.quote.lit")
        assert [m.text for m in lit] == ["The company raised more than $105 million in its latest round"]
        ActionChains(driver).move_to_element(claims[1]).perform()
        ActionChains(driver).move_to_element(claims[0]).perform()
        lit = driver.find_elements(By.CSS_SELECTOR, ".source mark.quote.lit")
        assert [m.text for m in lit] == ["The company raised more than $105 million in its latest round"]

        answers = driver.find_elements(By.CSS_SELECTOR, 'li.verdict[data-target="answer"]')
        ActionChains(driver).move_to_element(answers[0]).perform()
        # the selected claim keeps its marks; the hovered answer lights its own words in the summary
        lit = driver.find_elements(By.CSS_SELECTOR, ".summary mark.quote.lit")
        assert lit and all(m.text in ROWS[1]["summary"] for m in lit)
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        assert not errors, errors


@needs_chromium
def test_the_report_marks_quotes_in_each_items_texts_and_lights_them_on_hover(tmp_path, monkeypatch):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    with JudgeServer(QuotingBrain(alignment=("faithful", "summary"), coverage=("faithful",))) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        res = CliRunner().invoke(main, ["score", str(data), "--model", "openai/test-model", "--store",
                                        str(tmp_path / "runs.db"), "--report", str(tmp_path / "r.html"), "--quiet"],
                                 catch_exceptions=False)
    assert res.exit_code == 0, res.output
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "evidence</div><div class=\"value\" data-figure=\"evidence\">located for 86% of verdicts (6 of 7)" in page
    with chromium(tmp_path / "profile", monkeypatch) as driver:
        driver.get((tmp_path / "r.html").as_uri())
        item = driver.find_element(By.CSS_SELECTOR, 'tbody.item[data-id="doubted"]')
        assert item.get_attribute("data-unverified") == "1.0"
        item.find_element(By.CSS_SELECTOR, "button.toggle").click()
        claims = item.find_elements(By.CSS_SELECTOR, "ul.claims li")
        assert "unverified" in claims[1].get_attribute("class")
        ActionChains(driver).move_to_element(claims[0]).perform()
        lit = item.find_elements(By.CSS_SELECTOR, ".source mark.quote.lit")
        assert [m.text for m in lit] == ["The company raised more than $105 million in its latest round"]
        ActionChains(driver).move_to_element(item.find_element(By.CSS_SELECTOR, "ul.questions li")).perform()
        assert not item.find_elements(By.CSS_SELECTOR, ".source mark.quote.lit")
        assert item.find_elements(By.CSS_SELECTOR, ".summary mark.quote.lit")
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        assert not errors, errors


LIBRARY = Path(__file__).resolve().parents[2] / "examples"


@needs_chromium
def test_an_unsupported_claim_shows_its_disproving_passage_in_its_own_colour(tmp_path, monkeypatch):
    """The offline judge's unsupported claim ("$9.5 million" where the source says "$4.2
    million"), in the viewer and the report: the passage that disproves it is tinted apart from the
    supporting ones, the words that differ are marked in both texts, and hovering the claim lights them."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    row = {"id": "library", "source": (LIBRARY / "report.txt").read_text(encoding="utf-8"),
           "summary": (LIBRARY / "summary.txt").read_text(encoding="utf-8")}
    (tmp_path / "data.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["score", "data.jsonl", "--model", "offline/lexical", "--store", "runs.db",
                                    "--report", "r.html", "--quiet"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    run_id = json.loads(CliRunner().invoke(main, ["runs", "list", "--json", "--store", "runs.db"]).stdout.splitlines()[0])["id"]

    def check(driver, scope) -> None:  # type: ignore[no-untyped-def]
        pieces = scope.find_elements(By.CSS_SELECTOR, ".source mark.quote.against")  # cut where the words differ
        passage = "".join(m.get_attribute("textContent") for m in pieces)
        assert passage == "The building will cost $4.2 million and is expected to open in September 2026"
        support = scope.find_element(By.CSS_SELECTOR, ".source mark.quote:not(.against):not(.differs)")
        assert pieces[0].value_of_css_property("background-color") != support.value_of_css_property("background-color")
        assert [m.text for m in scope.find_elements(By.CSS_SELECTOR, ".source mark.quote.differs")] == ["4.2"]
        assert [m.text for m in scope.find_elements(By.CSS_SELECTOR, ".summary mark.quote.differs")] == ["9.5"]
        wrong = scope.find_element(By.CSS_SELECTOR, 'li.unsupported[data-quote="claim-1"]')
        assert "disproved by the source" in wrong.text and "nothing to check" not in wrong.text
        ActionChains(driver).move_to_element(wrong).perform()
        lit = scope.find_elements(By.CSS_SELECTOR, "mark.quote.lit")
        assert {m.text for m in lit} >= {"9.5", "4.2"}
        assert all("lit" in m.get_attribute("class") for m in scope.find_elements(By.CSS_SELECTOR, ".source mark.quote.against"))

    with served(tmp_path, "--store", str(tmp_path / "runs.db")) as (address, _), \
            chromium(tmp_path / "profile", monkeypatch) as driver:
        driver.get(f"{address}run/{run_id}/item?id=library")
        check(driver, driver)
        driver.save_screenshot(str(tmp_path / "item.png"))
        driver.get((tmp_path / "r.html").as_uri())
        item = driver.find_element(By.CSS_SELECTOR, 'tbody.item[data-id="library"]')
        item.find_element(By.CSS_SELECTOR, "button.toggle").click()
        check(driver, item)
        driver.save_screenshot(str(tmp_path / "report.png"))
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        assert not errors, errors
    assert (tmp_path / "item.png").stat().st_size > 10_000 and (tmp_path / "report.png").stat().st_size > 10_000
