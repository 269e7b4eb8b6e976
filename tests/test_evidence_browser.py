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
