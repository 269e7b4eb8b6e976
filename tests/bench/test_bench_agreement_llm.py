"""bench/quality/agreement_llm.py: one command for SummEval + REALSumm agreement of any judge.

Its figures must be the ones ``sumjudge.analysis.agreement`` gives on the same rows (the same protocol,
not a second one), on whole documents, with the judge's usage summed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "quality"
sys.path.insert(0, str(BENCH))

import agreement_llm  # noqa: E402

from sumjudge.analysis.agreement import load_rows, measure_agreement  # noqa: E402

DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR") or Path(__file__).resolve().parents[3] / "shared" / "data")
needs_data = pytest.mark.skipif(not (DATA / "summeval_summaries.jsonl").exists(), reason=f"no data in {DATA}")


@needs_data
def test_a_subset_is_made_of_whole_documents() -> None:
    rows = load_rows(DATA / "summeval_summaries.jsonl", "consistency", docs=DATA / "summeval_docs.jsonl")
    kept = agreement_llm.first_docs(rows, 3)
    groups = list(dict.fromkeys(r.group for r in kept))
    assert len(groups) == 3 and len(kept) == 48  # 16 system summaries of each document
    assert groups == list(dict.fromkeys(r.group for r in rows))[:3]


@needs_data
async def test_its_figures_are_the_agreement_modules_on_the_same_rows() -> None:
    args = argparse.Namespace(
        data_dir=DATA, summeval_docs=3, realsumm_docs=2, model="offline/lexical", baseline="",
        concurrency=4, max_questions=10, timeout=None, max_concurrency=None, max_output_tokens=None,
        price_in=0.15, price_out=0.6,
    )
    out = await agreement_llm.main_async(args)
    run = out["runs"]["judge"]
    assert set(out["runs"]) == {"judge"}
    assert run["datasets"]["summeval"]["items"] == 48 and run["datasets"]["realsumm"]["items"] == 50
    assert run["totals"]["failed"] == 0 and run["totals"]["cost_usd"] == 0.0  # the offline judge spends no tokens

    rows = agreement_llm.first_docs(
        load_rows(DATA / "summeval_summaries.jsonl", "consistency", docs=DATA / "summeval_docs.jsonl"), 3
    )
    reference = await measure_agreement(rows, model="offline/lexical", human_field="consistency")
    expected = {c.metric: c for c in reference.correlations}
    got = run["datasets"]["summeval"]["correlations"]
    for metric in ("alignment", "score"):
        assert got[f"consistency/{metric}"]["spearman"] == pytest.approx(expected[metric].spearman)
        assert got[f"consistency/{metric}"]["pearson"] == pytest.approx(expected[metric].pearson)
    assert "litepyramid_recall/coverage" in run["datasets"]["realsumm"]["correlations"]
    assert "published" in agreement_llm.render(out)
