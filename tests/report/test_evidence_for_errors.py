"""Evidence for errors. An unsupported claim shows the passage that disproves it
(its own colour) and the words that differ, in the summary and in the source, in the HTML report and
the viewer; "no quote" never renders as a success. The offline judge carries the passage and the
words as verdict evidence, which the scorer locates and checks like any quote."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.report.evidence import evidence_line
from sumjudge.summarization.quotes import verify_alignment
from sumjudge.summarization.verdicts import AlignmentVerdict, Difference

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "examples" / "report.txt").read_text(encoding="utf-8").strip()
SUMMARY = (ROOT / "examples" / "summary.txt").read_text(encoding="utf-8").strip()
DISPROOF = "The building will cost $4.2 million and is expected to open in September 2026."
WRONG = "The $9.5 million building is expected to open in September 2026."


def _scored(tmp: Path, monkeypatch) -> tuple[Path, str, dict]:
    monkeypatch.chdir(tmp)
    (tmp / "data.jsonl").write_text(json.dumps({"id": "library", "source": SOURCE, "summary": SUMMARY}) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["score", "data.jsonl", "--model", "offline/lexical", "--store", "runs.db", "--quiet",
                                    "--out", "out.jsonl", "--report", "report.html"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    listed = CliRunner().invoke(main, ["runs", "list", "--json", "--store", str(tmp / "runs.db")])
    record = json.loads((tmp / "out.jsonl").read_text(encoding="utf-8").splitlines()[0])
    return tmp / "runs.db", json.loads(listed.stdout.splitlines()[0])["id"], record


def _wrong_claim(record: dict) -> dict:
    found = [v for v in _verdicts(record)["alignment"] if v["claim"] == WRONG]
    assert found, record
    return found[0]


def _verdicts(record: dict) -> dict:
    for key in ("verdicts",):
        if key in record:
            return record[key]
    for value in record.values():  # the scorer's result, under its id
        if isinstance(value, dict) and "verdicts" in value:
            return value["verdicts"]
    raise AssertionError(record)


def test_the_offline_judge_gives_the_disproving_passage_and_the_words_and_the_scorer_locates_them(tmp_path, monkeypatch):
    _, _, record = _scored(tmp_path, monkeypatch)
    v = _wrong_claim(record)
    assert v["supported"] is False and v["verified"] is True
    assert v["quote"] == DISPROOF
    start, end = v["quote_offsets"]
    assert SOURCE[start:end] == DISPROOF.rstrip(".")  # located as quotes are: without the closing stop
    (d,) = v["differs"]
    assert SUMMARY[slice(*d["claim_offsets"])] == "9.5" and SOURCE[slice(*d["source_offsets"])] == "4.2"
    assert start <= d["source_offsets"][0] < end  # the source's words within the disproving passage


def test_differing_words_not_where_the_judge_says_leave_the_verdict_unverified() -> None:
    claim = AlignmentVerdict(claim=WRONG, quote=DISPROOF, reason="r", supported=False,
                             differs=[Difference(claim="9.5", source="7.7")])
    checked = verify_alignment(claim, SOURCE, SUMMARY)
    assert checked.quote_offsets is not None and checked.verified is False
    honest = verify_alignment(claim.model_copy(update={"differs": [Difference(claim="9.5", source="4.2")]}), SOURCE, SUMMARY)
    assert honest.verified is True


def test_no_quote_never_renders_as_a_success() -> None:
    for supported in (True, False):
        v = AlignmentVerdict(claim="c", reason="r", supported=supported, verified=True)
        line = evidence_line(v)
        assert 'class="found"' not in line and "✔" not in line and "nothing to check" in line


def _marks(html: str, cls: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(rf'<mark class="{cls}"[^>]*>(.*?)</mark>', html)]


def _check_page(html: str) -> None:
    # the claim's line: the passage that disproves it, and the words, not "nothing to check" in green
    li = re.search(r'<li class="[^"]*unsupported[^"]*"[^>]*>.*?</li>', html, re.S)
    assert li, html[:2000]
    assert "disproved by the source" in li.group() and "nothing to check" not in li.group()
    assert 'the claim says <mark class="differs">9.5</mark>, the source says <mark class="differs">4.2</mark>' in li.group()
    source = html[html.index('class="source text-block"'):]
    summary = html[html.index('class="summary text-block"'):html.index('class="source text-block"')]
    assert "".join(_marks(source, "quote against")) == DISPROOF.rstrip(".")
    assert _marks(source, "quote differs") == ["4.2"] and _marks(summary, "quote differs") == ["9.5"]
    assert DISPROOF not in "".join(_marks(source, "quote"))  # supporting passages are tinted apart


def test_the_html_report_marks_the_disproving_passage_and_the_words(tmp_path, monkeypatch):
    _scored(tmp_path, monkeypatch)
    _check_page((tmp_path / "report.html").read_text(encoding="utf-8"))


def test_the_viewer_marks_the_disproving_passage_and_the_words(tmp_path, monkeypatch):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from sumjudge.view.app import ViewSettings, create_app

    store, run, _ = _scored(tmp_path, monkeypatch)
    client = TestClient(create_app(ViewSettings(store=store, data_roots=(tmp_path,))))
    page = client.get(f"/run/{run}/item", params={"id": "library"})
    assert page.status_code == 200
    _check_page(page.text)


def test_an_unrelated_nearest_sentence_is_never_shown_as_disproving_a_claim(tmp_path, monkeypatch):
    """"Pirates seized the harbour of Zanzibar." shares no fact with the library report: the offline
    judge's quote is the nearest sentence, which says nothing against it, so it is not in red."""
    monkeypatch.chdir(tmp_path)
    invented = "Pirates seized the harbour of Zanzibar."
    (tmp_path / "data.jsonl").write_text(json.dumps({"id": "x", "source": SOURCE, "summary": f"{WRONG} {invented}"})
                                         + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["score", "data.jsonl", "--model", "offline/lexical", "--store", "runs.db",
                                    "--quiet", "--report", "report.html"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    source = html[html.index('class="source text-block"'):]
    assert "".join(_marks(source, "quote against")) == DISPROOF.rstrip(".")  # the number's passage only
    lines = re.findall(r'<li class="[^"]*unsupported[^"]*"[^>]*>.*?</li>', html, re.S)
    pirates = [li for li in lines if "Zanzibar" in li]
    assert pirates and "disproved by the source" not in pirates[0] and "judged against" in pirates[0]
    assert any("disproved by the source" in li for li in lines if "9.5" in li)
