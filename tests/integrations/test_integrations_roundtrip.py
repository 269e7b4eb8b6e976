"""Round trip: JSONL -> DataFrame -> score -> Parquet -> `sumjudge score` -> `runs export --format parquet`,
the same ids and scores all the way; Parquet input checked like the other formats."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge import create_summarization_scorer
from sumjudge.cli import main
from sumjudge.store.database import RunStore
from sumjudge.data.tables import ROW_COLUMNS

pd = pytest.importorskip("pandas")
pq = pytest.importorskip("pyarrow.parquet")
from sumjudge.integrations.pandas import score_frame  # noqa: E402
from sumjudge.data.parquet import result_schema  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "summaries.jsonl"


def cli(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_jsonl_frame_score_parquet_cli_export_keep_ids_and_scores(tmp_path: Path) -> None:
    df = pd.read_json(EXAMPLES, lines=True)[["id", "source", "summary"]]
    scored = score_frame(df, create_summarization_scorer(model="offline/lexical"))
    expected = list(zip(scored["id"], scored["score"]))
    assert len(expected) == 18 and len(set(scored["score"])) > 3  # a real spread of scores, not one value

    data = tmp_path / "data.parquet"
    df.to_parquet(data, index=False)
    store = str(tmp_path / "runs.db")
    done = cli("score", str(data), "--model", "offline/lexical", "--store", store, "--out", str(tmp_path / "out.jsonl"))
    assert done.exit_code == 0, done.output
    out_lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert sorted((r["id"], r["score"]) for r in out_lines) == sorted(expected)

    exported = tmp_path / "export.parquet"
    done = cli("runs", "export", "latest", "--format", "parquet", "--out", str(exported), "--store", store)
    assert done.exit_code == 0, done.output
    table = pq.read_table(exported)
    assert table.schema.equals(result_schema())
    rows = table.to_pylist()
    assert [(r["id"], r["score"]) for r in rows] == expected  # input order, same ids, same scores
    assert [r["claim_count"] for r in rows] == list(scored["claim_count"])
    # the struct has a nullable "unchecked" field, true where the judge could not check a claim;
    # and a nullable "differs", the words an unsupported claim gets wrong, with their offsets;
    # it has no "probability" (for any judge: the graded share an unchecked claim carries since rules 30.5
    # stays in the JSONL and the run store)
    def arrow(a: dict) -> dict:
        differs = [{"claim_offsets": None, "source_offsets": None, **d} for d in a.get("differs") or []] or None
        return {**{k: v for k, v in a.items() if k != "probability"}, "unchecked": a.get("unchecked"), "differs": differs}

    assert [r["alignment"] for r in rows] == [[arrow(a) for a in claims] for claims in scored["alignment"]]
    wrong = [d for claims in rows for a in claims["alignment"] for d in a["differs"] or []]
    assert {"claim": "9.5", "source": "4.2"}.items() <= wrong[0].items() and wrong[0]["claim_offsets"]

    with RunStore(store) as runs:
        frame = runs.to_pandas("latest")
    assert list(frame.columns) == list(ROW_COLUMNS)
    assert list(zip(frame["id"], frame["score"])) == expected

    # standard output works too (a binary stream)
    done = CliRunner().invoke(main, ["runs", "export", "latest", "--format", "parquet", "--store", store])
    assert done.exit_code == 0
    assert pq.read_table(io.BytesIO(done.stdout_bytes)).column("id").to_pylist() == [i for i, _ in expected]


def test_parquet_input_is_checked_before_the_first_call_naming_row_and_field(tmp_path: Path) -> None:
    data = tmp_path / "bad.parquet"
    pd.DataFrame({"source": ["s1", "s2"], "summary": ["a", None]}).to_parquet(data, index=False)
    done = cli("score", str(data), "--model", "offline/lexical", "--store", str(tmp_path / "runs.db"))
    assert done.exit_code == 2
    assert "bad.parquet: row 2: field 'summary' must be a string, got null" in done.output

    done = cli("score", str(data), "--summary-field", "text", "--store", str(tmp_path / "runs.db"))
    assert done.exit_code == 2 and "row 1: missing field 'text'" in done.output

    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 this is not really parquet")
    done = cli("score", str(broken), "--store", str(tmp_path / "runs.db"))
    assert done.exit_code == 2 and "broken.parquet: not a readable Parquet file" in done.output


def test_parquet_on_standard_input_is_recognised(tmp_path: Path) -> None:
    buf = io.BytesIO()
    pd.DataFrame({"id": ["a", "b"], "source": ["The bridge opened in 1932.", "It cost 4 million."],
                  "summary": ["The bridge opened in 1932.", "It cost 4 million."]}).to_parquet(buf, index=False)
    out = tmp_path / "out.jsonl"
    done = cli("score", "-", "--model", "offline/lexical", "--store", str(tmp_path / "runs.db"), "--out", str(out),
               input=buf.getvalue())
    assert done.exit_code == 0, done.output
    assert sorted(json.loads(line)["id"] for line in out.read_text().splitlines()) == ["a", "b"]
