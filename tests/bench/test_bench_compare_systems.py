"""bench/quality/compare_systems.py: systems as runs, compare against people, on a small made-up SummEval."""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "quality"
sys.path.insert(0, str(BENCH))

import compare_systems  # noqa: E402

DOCS = 8


def write_data(tmp: Path) -> None:
    docs, rows = [], []
    for d in range(DOCS):
        source = (f"The council of Town{d} approved a budget of {100 + d} million dollars on Monday. "
                  f"Mayor Lindqvist{d} said the money pays for {d + 3} new schools. "
                  f"Work on the schools starts in March and ends in {2030 + d}.")
        docs.append({"doc_id": f"doc-{d}", "source": source,
                     "references": [f"Town{d} approved {100 + d} million dollars for {d + 3} schools."]})
        systems = {
            "good": (source.split(". ")[0] + ". " + source.split(". ")[1] + ".", 5.0, 4.0),
            "mid": (source.split(". ")[0] + f". Senator Okafor{d} resigned over {77 + d} unpaid invoices.", 3.0, 3.0),
            "bad": (f"Pirates seized {900 + d} ships near Zanzibar{d}. Admiral Quenby{d} fled to Peru.", 1.0, 1.0),
        }
        for system, (summary, consistency, relevance) in systems.items():
            rows.append({"doc_id": f"doc-{d}", "system_id": system, "summary": summary,
                         "consistency": consistency + (d % 3) / 10, "relevance": relevance + (d % 2) / 10,
                         "coherence": 3, "fluency": 3})
    (tmp / "summeval_docs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in docs), encoding="utf-8")
    (tmp / "summeval_summaries.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows), encoding="utf-8")


def test_three_systems_give_three_pairs_each_counted_once(tmp_path, capsys):
    write_data(tmp_path)
    out = tmp_path / "figures.json"
    assert compare_systems.main(["--data-dir", str(tmp_path), "--out", str(out), "--concurrency", "2"]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["systems"], report["docs"], report["summaries"], report["failed"]) == (3, DOCS, 3 * DOCS, 0)
    pw = report["pairwise"]
    assert pw["pairs"] == 3
    for tally in pw["tallies"].values():
        total = (tally["same"] + len(tally["opposite"]) + tally["compare_none_people_differ"]
                 + tally["compare_differs_people_none"] + tally["neither"])
        assert total == 3
    # Copying the source beats inventing it, for the judge and for these "people" alike.
    assert pw["tallies"]["alignment vs consistency"]["same"] == 3
    assert report["system_level"]["alignment"]["consistency"] == 1.0
    assert set(report["system_level"]) == {"score", "alignment", "coverage", "rouge-1", "rouge-2"}
    printed = capsys.readouterr().out
    assert "(a) system-level Kendall tau" in printed and "(b) 3 system pairs" in printed


def test_missing_data_is_a_clear_error(tmp_path, capsys):
    assert compare_systems.main(["--data-dir", str(tmp_path)]) == 2
    assert "no SummEval data" in capsys.readouterr().err
