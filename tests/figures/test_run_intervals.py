"""Every run's means carry a seeded 95% bootstrap interval: the store's figures, the end table,
`runs show` (text and --json), the HTML report and the library's EvalResult."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sumjudge import run_evals_sync
from sumjudge.cli import main
from sumjudge.summarization import create_summarization_scorer
from sumjudge.figures.stats import mean_interval
from sumjudge.store.records import ItemOutcome, outcome_from_json
from sumjudge.store.database import RunStore

sys.path.insert(0, str(Path(__file__).parents[1]))
from scripted import answers, judge, questions  # noqa: E402


def record(item_id: str, score: float, coverage: float) -> ItemOutcome:
    return outcome_from_json({"id": item_id, "score": min(score, coverage), "alignment_score": score,
                              "coverage_score": coverage, "reason": "r", "verdicts": None, "usage": {"calls": 3},
                              "error": None})


SCORES = [0.1, 0.9, 0.5, 0.7, 0.3, 1.0, 0.8, 0.6]


def store_with_run(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "runs.db"
    with RunStore(path) as store:
        run, _ = store.open_run(model="offline/lexical", options={"max_questions": 10, "scale": 1},
                                data="d.jsonl", fingerprint="f" * 64, total_items=len(SCORES))
        for n, s in enumerate(SCORES, 1):
            store.record_item(run.id, n, record(f"d{n}", s, 0.9 if n % 2 else 1.0))
    return path, run.id


def test_the_store_figures_carry_the_intervals_of_the_three_means(tmp_path):
    path, run_id = store_with_run(tmp_path)
    with RunStore(path) as store:
        stats = store.stats(run_id)
        again = store.stats(run_id)
    scores = [min(s, 0.9 if n % 2 else 1.0) for n, s in enumerate(SCORES, 1)]
    expected = mean_interval(scores)
    assert stats.mean_ci == (expected.ci_low, expected.ci_high)
    assert stats.mean_ci[0] < stats.mean < stats.mean_ci[1]
    assert stats.alignment_ci[0] < stats.mean_alignment < stats.alignment_ci[1]
    assert stats.coverage_ci[0] < stats.mean_coverage < stats.coverage_ci[1]
    assert again == stats  # seeded: the same run gives the same interval
    d = stats.as_dict()
    assert (d["mean_ci_low"], d["mean_ci_high"]) == stats.mean_ci and d["confidence"] == 0.95
    assert stats.min_score == d["min"] == min(scores)


def test_runs_show_prints_and_exports_the_intervals(tmp_path):
    path, run_id = store_with_run(tmp_path)
    res = CliRunner().invoke(main, ["runs", "show", run_id, "--store", str(path), "--json"])
    assert res.exit_code == 0
    stats = json.loads(res.stdout)["stats"]
    assert stats["mean_ci_low"] < stats["mean"] < stats["mean_ci_high"]
    assert stats["mean_alignment_ci_low"] < stats["mean_alignment"] < stats["mean_alignment_ci_high"]
    assert stats["mean_coverage_ci_low"] <= stats["mean_coverage"] <= stats["mean_coverage_ci_high"]
    text = CliRunner().invoke(main, ["runs", "show", run_id, "--store", str(path)]).stdout
    mean_line = next(line for line in text.splitlines() if "│ mean " in line or line.strip().startswith("mean "))
    assert f"[{stats['mean_ci_low']:.3f}, {stats['mean_ci_high']:.3f}]" in mean_line
    assert "95% bootstrap interval over items" in text


def test_the_end_table_and_the_report_of_score_show_the_interval(tmp_path):
    data = tmp_path / "d.jsonl"
    data.write_text("".join(
        json.dumps({"id": f"d{i}", "source": f"Town{i} approved {i + 3} schools. The mayor is Lind{i}.",
                    "summary": f"Town{i} approved {i + 3} schools." if i % 2 else f"Pirates took {i} ships."}) + "\n"
        for i in range(10)), encoding="utf-8")
    page = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["score", str(data), "--store", str(tmp_path / "runs.db"), "--model",
                                    "offline/lexical", "--report", str(page)], catch_exceptions=False)
    assert res.exit_code == 0
    show = json.loads(CliRunner().invoke(main, ["runs", "show", "latest", "--store", str(tmp_path / "runs.db"),
                                                "--json"]).stdout)["stats"]
    assert f"[{show['mean_ci_low']:.3f}, {show['mean_ci_high']:.3f}]" in res.output
    html = page.read_text(encoding="utf-8")
    assert f'data-figure="mean score 95% CI">{show["mean_ci_low"]:.3f} – {show["mean_ci_high"]:.3f}<' in html


def test_eval_result_carries_intervals_per_scorer_and_axis():
    def alignment(request):
        supported = "Summary 1." not in request.inputs.summary  # a third of the summaries invent their claim
        return {"alignment": [{"claim": request.inputs.summary, "supported": supported, "reason": "r"}]}

    scorer = create_summarization_scorer(judge(alignment, questions("Is it?"), answers(True)))
    data = [{"input": f"Source {i}.", "output": f"Summary {i % 3}."} for i in range(9)]
    result = run_evals_sync(data, [scorer])
    iv = result.intervals[scorer.id]
    assert set(iv) == {"score", "alignment_score", "coverage_score"}
    assert iv["score"].n == 9 and iv["score"].mean == pytest.approx(result.scores[scorer.id])
    assert iv["score"].ci_low <= iv["score"].mean <= iv["score"].ci_high
    assert (iv["coverage_score"].ci_low, iv["coverage_score"].ci_high) == (1.0, 1.0)  # every item answered it all
    assert run_evals_sync(data, [scorer]).intervals == result.intervals
