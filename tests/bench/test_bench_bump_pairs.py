"""bench/quality/bump_pairs.py: BUMP-style minimal pairs on a small made-up file (the real one is not shipped)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "quality"
sys.path.insert(0, str(BENCH))

import bump_pairs  # noqa: E402

SOURCE = (
    "The council of Millbrook voted on Tuesday to build a library on Elm Street. "
    "The building will cost $4.2 million. Mayor Helen Ortiz said the old library is too small."
)
REFERENCE = "Millbrook will build a library on Elm Street. It will cost $4.2 million."


def _pairs(tmp: Path) -> Path:
    edits = [
        ("Extrinsic Entity Error", REFERENCE.replace("Elm Street", "Oak Avenue")),
        ("Extrinsic Circumstance Error", REFERENCE.replace("4.2", "9.5")),
        ("Intrinsic Predicate Error", REFERENCE),  # a tie: the judge cannot tell
    ]
    path = tmp / "pairs.jsonl"
    with path.open("w") as f:
        for i, (kind, edited) in enumerate(edits):
            scores = {"ROUGE-2_reference": 0.5, "ROUGE-2_edited": 0.4 if i < 2 else 0.5}
            f.write(json.dumps({"pair_id": i, "article_id": i, "source": SOURCE, "reference_summary": REFERENCE,
                                "edited_summary": edited, "error_type": kind, "published_scores": scores}) + "\n")
    return path


def test_the_split_is_fixed_and_the_shares_count_strictly_lower_and_ties() -> None:
    assert [bump_pairs.half_of(a) for a in (1, 2, 3)] == [bump_pairs.half_of(a) for a in ("1", "2", "3")]
    assert bump_pairs.consistency([(1.0, 0.5), (1.0, 1.0), (0.5, 1.0)]) == (1 / 3, 1 / 3, 3)


def test_the_script_prints_each_error_type_beside_the_published_metrics(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH / "bump_pairs.py"), str(_pairs(tmp_path)), "--half", "all"],
                          capture_output=True, text=True, check=True)
    rows = {line.split("  ")[0]: line for line in done.stdout.splitlines() if "Error" in line or line.startswith("ALL")}
    assert "100.0%" in rows["Extrinsic Entity Error"].split("|")[0]  # scored lower
    assert "100.0%" in rows["Extrinsic Circumstance Error"].split("|")[0]
    assert " 0.0% 100.0%" in rows["Intrinsic Predicate Error"]  # a tie
    assert "ROUGE-2" in done.stdout and "score = alignment" in done.stdout
