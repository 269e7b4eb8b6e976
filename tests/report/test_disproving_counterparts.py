"""The report marks, in a disproving passage, the words that stand where the claim's wrong words stand,
and never calls a passage disproving where it says what the claim says in that place."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

from click.testing import CliRunner

from sumjudge.cli import main
from sumjudge.report.evidence import claims_shown, error_spans, evidence_line
from sumjudge.summarization.quotes import verify_alignment
from sumjudge.summarization.verdicts import AlignmentVerdict, Difference

SOURCE = "Talks between the United States and Canada ended on Monday. The deal cuts tariffs on steel."
WRONG = "Talks between the U.S. and Mexico ended on Monday."


def _marks(html: str, cls: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(rf'<mark class="{cls}"[^>]*>(.*?)</mark>', html)]


def test_the_report_marks_the_source_word_in_the_claim_words_place_not_another_word_of_the_passage(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.jsonl").write_text(json.dumps({"id": "talks", "source": SOURCE, "summary": WRONG}) + "\n",
                                         encoding="utf-8")
    res = CliRunner().invoke(main, ["score", "data.jsonl", "--model", "offline/lexical", "--store", "runs.db",
                                    "--quiet", "--report", "report.html"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    source = html[html.index('class="source text-block"'):]
    summary = html[html.index('class="summary text-block"'):html.index('class="source text-block"')]
    assert _marks(summary, "quote differs") == ["Mexico"]
    assert _marks(source, "quote differs") == ["Canada"]
    li = re.search(r'<li class="[^"]*unsupported[^"]*"[^>]*>.*?</li>', html, re.S)
    assert li and "disproved by the source" in li.group()
    assert 'the claim says <mark class="differs">Mexico</mark>, the source says <mark class="differs">Canada</mark>' in li.group()


def test_a_passage_that_says_what_the_claim_says_in_its_place_is_never_shown_as_disproving():
    summary = "Talks between the U.S. and Canada ended on Monday, a day late."
    said = AlignmentVerdict(claim=summary, quote=SOURCE.split(". ")[0] + ".", reason="r", supported=False,
                            differs=[Difference(claim="Canada", source="States")])
    checked = verify_alignment(said, SOURCE, summary)
    assert checked.verified  # the judge's word is in the passage: as the judge gave it, it would disprove
    item = SimpleNamespace(verdicts=SimpleNamespace(alignment=[checked]))
    (shown,) = claims_shown(item, SOURCE, summary)
    assert "disproved by the source" not in evidence_line(shown) and "judged against" in evidence_line(shown)
    against, in_source, _ = error_spans([shown])
    assert against == [] and in_source == [] and shown.differs is None
