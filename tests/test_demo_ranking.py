"""The demo's scores rank the bundled example summaries the way a reader would."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

from demo import load, main, score_examples  # noqa: E402

GOOD = ("faithful", "verbatim")
FLAWED = ("invented_number", "wrong_name", "half")


@pytest.fixture(scope="module")
def scored() -> dict[str, dict[str, float]]:
    records = score_examples(load(ROOT / "examples" / "summaries.jsonl"))
    by_doc: dict[str, dict[str, float]] = {}
    for r in records:
        doc = r["id"].rsplit("-", 1)[0]
        by_doc.setdefault(doc, {})[r["kind"]] = r["score"]
    return by_doc


def test_examples_hold_english_and_korean_documents_with_every_kind(scored: dict[str, dict[str, float]]) -> None:
    assert len(scored) >= 3
    for kinds in scored.values():
        assert set(kinds) == {*GOOD, *FLAWED, "empty"}
    rows = load(ROOT / "examples" / "summaries.jsonl")
    assert {r["language"] for r in rows} == {"en", "ko"}


def test_faithful_and_verbatim_outrank_every_flawed_summary(scored: dict[str, dict[str, float]]) -> None:
    for doc, s in scored.items():
        for good in GOOD:
            for bad in FLAWED:
                assert s[good] > s[bad], (doc, good, bad, s)


def test_leaving_out_half_costs_coverage_and_a_wrong_detail_costs_alignment() -> None:
    records = score_examples(load(ROOT / "examples" / "summaries.jsonl"))
    by = {(r["id"].rsplit("-", 1)[0], r["kind"]): r for r in records}
    for (doc, kind), r in by.items():
        faithful = by[(doc, "faithful")]
        if kind == "half":
            assert r["coverage"] < faithful["coverage"], (doc, r["coverage"], faithful["coverage"])
        if kind in ("invented_number", "wrong_name"):
            assert r["alignment"] < faithful["alignment"], (doc, kind, r["alignment"])


def test_empty_summary_scores_zero_and_verbatim_scores_one(scored: dict[str, dict[str, float]]) -> None:
    for doc, s in scored.items():
        assert s["empty"] == 0, doc
        assert s["verbatim"] == 1, doc


def test_demo_writes_one_result_per_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo.jsonl"
    assert main(["--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len(load(ROOT / "examples" / "summaries.jsonl"))
    assert {"id", "score", "alignment", "coverage", "reason", "result"} <= set(lines[0])
    assert "library-faithful" in capsys.readouterr().out
