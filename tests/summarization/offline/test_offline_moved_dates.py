"""The offline judge shows a date moved to another fact of the source (the month of the opening given
to the construction), in both directions, and passes each date with its own fact."""

from __future__ import annotations

from pathlib import Path

import pytest

from sumjudge import create_summarization_scorer

SOURCE = (Path(__file__).resolve().parents[3] / "examples" / "report.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def scorer():
    return create_summarization_scorer("offline/lexical")


def test_the_openings_month_given_to_the_construction_is_shown(scorer) -> None:
    (v,) = scorer.run_sync(input=SOURCE, output="Construction is scheduled to begin in September 2026.").preprocess_step_result.alignment
    assert not v.supported
    assert "'September' is in the source" in v.reason and "gives 'March'" in v.reason and "sentence 6" in v.reason


@pytest.mark.parametrize("summary", ["Construction is scheduled to begin in March.",
                                     "The building is expected to open in September 2026."])
def test_each_date_with_its_own_fact_passes(scorer, summary: str) -> None:
    (v,) = scorer.run_sync(input=SOURCE, output=summary).preprocess_step_result.alignment
    assert v.supported and not v.unchecked
