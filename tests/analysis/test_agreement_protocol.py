"""The agreement measurement: the protocol on small data, and the published ROUGE-2 row on SummEval."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

pytest.importorskip("scipy")
pytest.importorskip("rouge_score")

from click.testing import CliRunner  # noqa: E402

from sumjudge.analysis.agreement import AgreementRow, correlate, load_rows, rouge_values  # noqa: E402
from sumjudge.cli import main as cli  # noqa: E402
from sumjudge.errors import InputError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR", ROOT.parent / "shared" / "data"))


def rows(groups: dict[str, list[float]]) -> list[AgreementRow]:
    return [AgreementRow(group=g, human=h, source="s", summary="x") for g, hs in groups.items() for h in hs]


def test_summary_level_is_the_mean_over_groups_and_constant_groups_are_skipped() -> None:
    data = rows({"a": [1, 2, 3], "b": [3, 2, 1], "flat": [2, 2, 2], "c": [1, 2, 3]})
    # metric agrees with people in a and c, disagrees in b; constant in c
    metric = [1, 2, 3, 1, 2, 3, 5, 6, 7, 4, 4, 4]
    c = correlate("m", data, metric)
    assert c.groups == 2 and c.skipped_constant_human == 1 and c.skipped_constant_metric == 1
    assert c.spearman == pytest.approx(0.0) and c.kendall == pytest.approx(0.0)
    assert not math.isnan(c.pearson) and c.items == 12


def test_rows_join_sources_from_docs_and_name_what_is_missing(tmp_path: Path) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"doc_id": "d1", "source": "The sky is blue.", "references": ["Sky blue."]}) + "\n")
    data = tmp_path / "data.jsonl"
    data.write_text(
        "\n".join(json.dumps({"doc_id": "d1", "summary": s, "human": h}) for s, h in [("Blue sky.", 5), ("Red.", 1)])
    )
    got = load_rows(data, "human", docs=docs)
    assert [(r.source, r.references, r.human) for r in got] == [
        ("The sky is blue.", ("Sky blue.",), 5.0),
        ("The sky is blue.", ("Sky blue.",), 1.0),
    ]
    with pytest.raises(InputError, match="--docs"):
        load_rows(data, "human")
    with pytest.raises(InputError, match="no human field 'relevance'"):
        load_rows(data, "relevance", docs=docs)


def test_cli_scores_with_the_offline_judge_and_prints_three_rows(tmp_path: Path) -> None:
    src = "Rescue teams found two hikers alive on Saturday. A helicopter spotted their tent at 2,900 metres."
    lines = []
    for doc in ("d1", "d2"):
        for summary, h in [
            ("Rescue teams found two hikers alive on Saturday.", 3),
            ("Rescue teams found two hikers alive on Saturday. A helicopter spotted their tent at 2,900 metres.", 5),
            ("A plane found four hikers dead on Monday.", 1),
        ]:
            lines.append(json.dumps({"doc_id": doc, "source": src, "summary": summary, "rating": h}))
    data = tmp_path / "rated.jsonl"
    data.write_text("\n".join(lines))
    result = CliRunner().invoke(cli, ["agreement", str(data), "--human-field", "rating", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["model"] == "offline/lexical"
    by = {c["metric"]: c for c in report["correlations"]}
    assert set(by) == {"score", "alignment", "coverage"}
    assert by["score"]["spearman"] == pytest.approx(1.0)
    assert CliRunner().invoke(cli, ["agreement", str(data), "--human-field", "nope"]).exit_code == 2


@pytest.mark.slow
def test_reproduces_the_published_rouge2_row_on_summeval() -> None:
    if not (DATA / "summeval_summaries.jsonl").exists():
        pytest.skip(f"SummEval data not found in {DATA} (set SUMJUDGE_DATA_DIR)")
    data = load_rows(DATA / "summeval_summaries.jsonl", "consistency", docs=DATA / "summeval_docs.jsonl")
    rel = load_rows(DATA / "summeval_summaries.jsonl", "relevance", docs=DATA / "summeval_docs.jsonl")
    values = rouge_values(data, "rouge-2")
    con = correlate("rouge-2", data, values)
    relc = correlate("rouge-2", rel, values)
    assert (round(con.spearman, 3), round(con.kendall, 3)) == (0.187, 0.155)
    assert (round(relc.spearman, 3), round(relc.kendall, 3)) == (0.290, 0.219)
