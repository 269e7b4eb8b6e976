"""The evidence from the command line, over real HTTP: each verdict's quote, offsets and verified flag in
the --out line, the store and its exports; the run's figure "evidence located for N% of verdicts";
--strict-evidence counts unverified verdicts against the summary and the run records it; the review
queue puts items with unverified verdicts first."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sumjudge.analysis.review_queue import review_order
from sumjudge.cli import main
from sumjudge.testing.judge_server import JudgeServer
from sumjudge.testing.quoting import QuotingBrain

SOURCE = "The company raised more than $105 million. Its founder, Ada Lind, opened two factories."
ROWS = [
    {"id": "one", "source": SOURCE, "summary": "The company raised more than $105 million."},
    {"id": "two", "source": SOURCE, "summary": "The company raised less than $105 million. Ada Lind opened two factories."},
]


@pytest.fixture
def scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    with JudgeServer(QuotingBrain(alignment=("faithful", "summary"), coverage=("faithful",))) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")

        def score(out: str, *extra: str) -> Any:
            return CliRunner().invoke(main, ["score", str(data), "--model", "openai/test-model", "--store",
                                             str(tmp_path / "runs.db"), "--out", str(tmp_path / out), *extra],
                                      catch_exceptions=False)

        yield score


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_out_line_the_store_and_the_exports_carry_each_verdicts_evidence(scored, tmp_path) -> None:
    res = scored("out.jsonl")
    assert res.exit_code == 0, res.output
    assert "located for 86% of verdicts (6 of 7)" in res.output  # the end table
    two = next(line for line in _lines(tmp_path / "out.jsonl") if line["id"] == "two")
    first, second = two["verdicts"]["alignment"]
    assert first["verified"] is True and SOURCE[slice(*first["quote_offsets"])] == first["quote"].rstrip(".")
    assert second == {**second, "quote": "Ada Lind opened two factories.", "quote_offsets": None, "verified": False}
    assert all("verified" in v and "quote_offsets" in v for v in two["verdicts"]["coverage"])

    runner = CliRunner()
    exported = runner.invoke(main, ["runs", "export", "latest", "--store", str(tmp_path / "runs.db")])
    assert [json.loads(x)["verdicts"] for x in exported.stdout.splitlines()] == [x["verdicts"] for x in _lines(tmp_path / "out.jsonl")]
    table = runner.invoke(main, ["runs", "export", "latest", "--format", "csv", "--store", str(tmp_path / "runs.db")])
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(table.stdout))}
    assert (rows["two"]["evidence_verified"], rows["two"]["evidence_checked"]) == ("3", "4")
    shown = runner.invoke(main, ["runs", "show", "latest", "--store", str(tmp_path / "runs.db")])
    assert "located for 86% of verdicts" in shown.output


def test_strict_evidence_counts_the_unverified_claim_as_unsupported_and_the_run_says_so(scored, tmp_path) -> None:
    assert scored("lenient.jsonl", "--quiet").exit_code == 0
    assert scored("strict.jsonl", "--quiet", "--strict-evidence").exit_code == 0
    lenient = {x["id"]: x for x in _lines(tmp_path / "lenient.jsonl")}
    strict = {x["id"]: x for x in _lines(tmp_path / "strict.jsonl")}
    assert lenient["two"]["alignment_score"] == 1.0 and strict["two"]["alignment_score"] == 0.5
    assert strict["two"]["options"]["strict_evidence"] is True and "strict_evidence" not in lenient["two"]["options"]
    assert "Strict evidence: 1 unverified verdict(s)" in strict["two"]["reason"]
    assert strict["one"]["score"] == lenient["one"]["score"]  # nothing unverified, nothing changed


def test_the_review_queue_puts_unverified_verdicts_first() -> None:
    items = [("sure", 0.9, None, 0), ("gate", 0.5, None, 0), ("doubted", 1.0, None, 2), ("once", 0.8, None, 1)]
    order = review_order(items, gate=0.5)
    assert order[:3] == ["doubted", "once", "gate"]
    assert review_order([("a", 0.9, None), ("b", 0.5, None)], gate=0.5)[0] == "b"  # the old three-field form


def test_check_marks_an_unverified_verdict(monkeypatch) -> None:
    with JudgeServer(QuotingBrain(alignment=("faithful", "invented"))) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        res = CliRunner().invoke(main, ["check", "--source", SOURCE, "--summary", ROWS[1]["summary"], "--model",
                                        "openai/test-model"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    claims = [line for line in res.stdout.splitlines() if line.startswith("  yes")][:2]
    assert "unverified" not in claims[0]
    assert "[unverified: the quote 'The board approved the merger" in claims[1]
