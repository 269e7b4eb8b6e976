"""Result rows in Parquet: one fixed schema, nested verdicts, failures and empty verdict lists included."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import answers, claims, judge, questions

from sumjudge import create_summarization_scorer
from sumjudge.errors import JudgeUnavailableError
from sumjudge.data.tables import ROW_COLUMNS

pd = pytest.importorskip("pandas")
pq = pytest.importorskip("pyarrow.parquet")
from sumjudge.integrations.pandas import score_frame  # noqa: E402
from sumjudge.data.parquet import result_schema, rows_table, write_frame  # noqa: E402


def test_a_scored_frame_round_trips_through_parquet_with_its_verdicts(tmp_path: Path) -> None:
    def align(request):
        if "boom" in (request.inputs.summary or ""):
            raise JudgeUnavailableError("down", step="alignment")
        return claims((request.inputs.summary, True), (request.inputs.summary, False))

    scorer = create_summarization_scorer(model=judge(align, questions("Q1?"), answers(True)))
    df = pd.DataFrame({"id": ["a", "b", "c"], "source": ["s", "s", ""], "summary": ["x", "boom", "y"]})
    out = score_frame(df, scorer)
    path = tmp_path / "results.parquet"
    write_frame(path, out)

    table = pq.read_table(path)
    assert table.schema.equals(result_schema())
    back = table.to_pylist()
    assert [r["id"] for r in back] == ["a", "b", "c"]
    assert [r["score"] for r in back] == [0.5, None, 0.0]
    assert back[0]["alignment"][1] == {"claim": "x", "supported": False, "reason": "not in the source",
                                       "quote": "", "quote_offsets": None, "verified": True, "unchecked": None,
                                       "differs": None}
    # answered with no quote: unverified, and the export keeps it so
    assert back[0]["coverage"] == [{"question": "Q1?", "answered": True, "reason": "r", "quote": "",
                                    "quote_offsets": None, "verified": False}]
    assert back[1]["error"].startswith("JudgeUnavailableError") and back[1]["alignment"] is None
    assert back[2]["alignment"] == [] and back[2]["claim_count"] == 0  # empty source: a clear zero, no calls


def test_batches_of_only_failures_or_empty_lists_keep_the_schema() -> None:
    only_failure = rows_table([{"id": 1, "error": "x"}])
    empty_lists = rows_table([{"id": "2", "score": 0.0, "alignment": [], "questions": [], "coverage": []}])
    assert only_failure.schema.equals(empty_lists.schema)
    assert only_failure.column_names == list(ROW_COLUMNS)
    assert only_failure.column("id").to_pylist() == ["1"]
