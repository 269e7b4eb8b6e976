"""Does the default judge's score tell a good summary from a bad one? Every figure of that question, on
both halves of every data set it is tuned on, in one run.

    python bench/quality/score_targets.py [--data DIR] [key=value ...]

``key=value`` tries a :class:`LexicalSettings` or :class:`FactRanking` field (``unsettled_presence=0.5``,
``words_per_question=120``) without changing the code. Prints, per half (``tune`` / ``held``:
``half_of`` in bench/quality/bump_pairs.py; the fresh articles are one set, nobody tuned to them):

- fresh articles: faithful summaries scoring >= 0.5; flawed ones (one error, the main event left out)
  scoring below their article's faithful one;
- SummEval's human references as summaries: mean coverage and the share at 0;
- REALSumm, the judge's own questions: coverage ~ pyramid recall (pooled Pearson);
- the probe on BUMP task 1's faithful references (seed 0): the share of changed numbers, swapped
  names and negations whose score fell with alignment lower (``sumjudge probe``'s *detected*);
- BUMP task 1: references fully supported (alignment 1.0), edited summaries below their reference.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of

from sumjudge import create_summarization_scorer
from sumjudge.analysis.probe import ProbeRow, make_variant
from sumjudge.summarization.axes import coverage_value
from sumjudge.summarization.language.questions import FactRanking
from sumjudge.summarization.offline.lexical import LexicalJudge, LexicalSettings

HALVES = ("tune", "held")
PROBED = ("number", "name_swap", "negation")


def _load(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _judge(settings: list[str]) -> LexicalJudge:
    kw: dict[str, object] = {}
    rk: dict[str, object] = {}
    for item in settings:
        key, raw = item.split("=", 1)
        value: object = float(raw) if "." in raw else int(raw)
        (rk if key in FactRanking.__dataclass_fields__ else kw)[key] = value
    if rk:
        kw["ranking"] = replace(FactRanking(), **rk)
    return LexicalJudge(replace(LexicalSettings(), **kw))


def fresh(scorer, data: Path) -> str:
    by_doc: dict[str, dict[str, float]] = {}
    for item in _load(data / "fresh_articles_dev.jsonl"):
        by_doc.setdefault(item["doc"], {})[item["kind"]] = scorer.run_sync(input=item["source"], output=item["summary"]).score
    good = sum(d["faithful"] >= 0.5 for d in by_doc.values())
    flawed = [(s, d["faithful"]) for d in by_doc.values() for k, s in d.items() if k != "faithful"]
    return f"faithful >= 0.5: {good} of {len(by_doc)}; flawed below faithful: {sum(s < f for s, f in flawed)} of {len(flawed)}"


def summeval_references(judge: LexicalJudge, data: Path, half: str) -> str:
    covs = []
    for doc in _load(data / "summeval_docs.jsonl"):
        if half_of(doc["doc_id"]) == half:
            questions = judge.questions(doc["source"], 10).questions
            covs += [coverage_value(judge.cover(questions, ref).coverage, len(questions)) for ref in doc["references"]]
    return f"{np.mean(covs):.3f} / {np.mean([c == 0 for c in covs]):.3f}"


def realsumm_r(judge: LexicalJudge, data: Path, half: str) -> str:
    docs = {d["doc_id"]: d for d in _load(data / "realsumm_docs.jsonl")}
    asked: dict[str, list[str]] = {}
    cov, recall = [], []
    for row in _load(data / "realsumm_keyfact_labels.jsonl"):
        if half_of(row["doc_id"]) != half:
            continue
        qs = asked.setdefault(row["doc_id"], judge.questions(docs[row["doc_id"]]["source"], 10).questions)
        cov.append(coverage_value(judge.cover(qs, row["summary"]).coverage, len(qs)))
        recall.append(row["litepyramid_recall"])
    return f"{pearsonr(cov, recall)[0]:.3f}"


def bump(scorer, data: Path, half: str) -> tuple[str, str]:
    """(the probe's detection per kind, references fully supported / edited lower)."""
    pairs = [r for r in _load(data / "bump_task1_pairs.jsonl") if half_of(r["article_id"]) == half]
    rows: dict[str, ProbeRow] = {}
    for r in pairs:
        rows.setdefault(str(r["article_id"]), ProbeRow(id=str(r["article_id"]), source=r["source"], summary=r["reference_summary"]))
    hits = {k: [0, 0] for k in PROBED}
    originals = {}
    for row in rows.values():
        original = originals[row.id] = scorer.run_sync(input=row.source, output=row.summary)
        for kind in PROBED:
            variant = make_variant(kind, row, [], seed=0)
            if variant is None:
                continue
            changed = scorer.run_sync(input=row.source, output=variant.summary)
            hits[kind][1] += 1
            hits[kind][0] += changed.score < original.score - 1e-9 and changed.alignment_score < original.alignment_score - 1e-9
    probe = ", ".join(f"{k} {a / max(1, n):.2f} ({n})" for k, (a, n) in hits.items())
    full = np.mean([o.alignment_score == 1.0 for o in originals.values()])
    lower = np.mean([
        scorer.run_sync(input=r["source"], output=r["edited_summary"]).alignment_score < originals[str(r["article_id"])].alignment_score
        for r in pairs
    ])
    return probe, f"{full:.3f} / {lower:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("SUMJUDGE_DATA_DIR", "../shared/data"))
    ap.add_argument("settings", nargs="*", help="key=value: a LexicalSettings or FactRanking field to try")
    args = ap.parse_args()
    data = Path(args.data)
    judge = _judge(args.settings)
    scorer = create_summarization_scorer(judge)
    print(f"judge {judge.fingerprint} {' '.join(args.settings)}".rstrip())
    print(f"fresh articles: {fresh(scorer, data)}")
    for half in HALVES:
        probe, pairs = bump(scorer, data, half)
        print(f"{half}: SummEval references coverage / at 0 {summeval_references(judge, data, half)}; "
              f"REALSumm own r {realsumm_r(judge, data, half)}")
        print(f"{half}: probe on BUMP references {probe}; BUMP references fully supported / edited lower {pairs}")


if __name__ == "__main__":
    main()
