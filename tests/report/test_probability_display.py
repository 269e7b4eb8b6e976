"""Verdict probabilities where people read verdicts: a small figure beside each verdict that has one
in the HTML report and in the viewer (none beside a verdict without), and the report's note on the
formula says when a run was graded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sumjudge.report import write_report
from sumjudge.store.database import RunStore
from sumjudge.store.records import outcome_from_json


def outcome():
    return outcome_from_json({
        "id": "doc-1", "score": 0.45, "alignment_score": 0.45, "coverage_score": 0.5, "reason": "r",
        "verdicts": {
            "alignment": [
                {"claim": "The council met.", "supported": True, "reason": "said", "probability": 0.9},
                {"claim": "It met in May.", "supported": False, "reason": "June", "probability": 0.0},
                {"claim": "Taxes rose.", "supported": True, "reason": "said"},
            ],
            "questions": ["Did the council meet?", "Do taxes stay flat?"],
            "coverage": [
                {"question": "Did the council meet?", "answered": True, "reason": "yes", "probability": 0.7321},
                {"question": "Do taxes stay flat?", "answered": False, "reason": "no"},
            ],
        },
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "calls": 3},
    })  # fmt: skip


def store_with_one_item(tmp_path: Path, options: dict) -> tuple[Path, str]:
    path = tmp_path / ".sumjudge" / "runs.db"
    with RunStore(path) as store:
        run, _ = store.open_run(model="vllm/m", options=options, data="docs.jsonl", fingerprint="f" * 64,
                                total_items=1, resume=False)
        store.record_item(run.id, 1, outcome())
        store.finish_run(run.id)
    return path, run.id


def shown(html: str) -> list[str]:
    return re.findall(r'<span class="prob" title="[^"]*">([^<]*)</span>', html)


@pytest.mark.parametrize("graded", [False, True])
def test_the_report_shows_each_verdicts_probability_and_which_formula_was_used(tmp_path, graded) -> None:
    options = {"max_questions": 10, "scale": 1, **({"graded": True} if graded else {})}
    path, run_id = store_with_one_item(tmp_path, options)
    report = tmp_path / "report.html"
    with RunStore(path) as store:
        write_report(report, store.get_run(run_id), store.stats(run_id), lambda: store.iter_items(run_id))
    html = report.read_text(encoding="utf-8")
    assert shown(html) == ["p=0.90", "p=0.00", "p=0.73"]  # the verdicts without one show none
    assert ("mean probability of the summary&#x27;s claims being supported" in html) is graded


def test_the_viewer_shows_each_verdicts_probability(tmp_path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from sumjudge.view.app import ViewSettings, create_app
    from sumjudge.view.markup import link

    path, run_id = store_with_one_item(tmp_path, {"max_questions": 10, "scale": 1})
    client = TestClient(create_app(ViewSettings(store=path, data_roots=(tmp_path,))))
    html = client.get(link(f"/run/{run_id}/item", id="doc-1")).text
    assert shown(html) == ["p=0.90", "p=0.00", "p=0.73"]
    assert "the judge's probability that it is supported" in html
