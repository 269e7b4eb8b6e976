"""Does `sumjudge compare` rank systems the way people do? SummEval's 16 systems as 16 runs.

    python bench/quality/compare_systems.py --out bench/results/compare_systems.json

Every SummEval summary (16 systems x 100 CNN/DM articles) is scored once by the judge (default
``offline/lexical``: no model, no network). Each system is then a run of 100 items, the item id
being the article. Two figures against the people's ratings (the mean of 3 experts, 1-5):

(a) **System level**: Kendall's tau, over the 16 systems, between a metric's system mean and the
    people's system mean, for ``consistency`` and ``relevance``; for the judge's score and both
    axes, and for ROUGE-1/2 F1 against the 11 references (``sumjudge.analysis.agreement``'s ROUGE code).
(b) **Pairwise**: for each of the 120 pairs of systems (A, B), ``compare_runs(A, B)`` (the library
    behind ``sumjudge compare``) and a Wilcoxon signed-rank test on the people's ratings of the same
    100 articles (same test, same zero handling, same alpha). Counted: both find a difference in the
    same direction; opposite directions (named); compare finds none where people find one; compare
    finds one where people find none; neither finds one. Measured for the judge's ``score`` against
    both human dimensions, and for each axis against the dimension it stands for (alignment vs
    consistency, coverage vs relevance).

The data files are read from ``--data-dir`` (default ``$SUMJUDGE_DATA_DIR``, else
``../shared/data``); nothing is downloaded. 120 tests at alpha = 0.05 are not corrected for
multiplicity: the figures are about agreement in direction, not a family-wise claim.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from sumjudge import create_summarization_scorer, run_evals
from sumjudge.analysis.agreement import AgreementRow, rouge_values
from sumjudge.store.records import ScoredItem
from sumjudge.analysis.compare import RunItems, compare_runs
from sumjudge.figures.stats import signed_rank_test

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is bench/quality/)
DEFAULT_DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR") or ROOT.parent / "shared" / "data")
HUMAN = ("consistency", "relevance")
# (judge figure, the compare field it reads, the human dimension it is checked against)
PAIRWISE = [
    ("score", "score", "consistency"),
    ("score", "score", "relevance"),
    ("alignment", "alignment", "consistency"),
    ("coverage", "coverage", "relevance"),
]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load(data_dir: Path, docs_limit: int | None) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    docs = {d["doc_id"]: d for d in read_jsonl(data_dir / "summeval_docs.jsonl")}
    rows = read_jsonl(data_dir / "summeval_summaries.jsonl")
    if docs_limit is not None:
        keep = set(list(dict.fromkeys(r["doc_id"] for r in rows))[:docs_limit])
        rows = [r for r in rows if r["doc_id"] in keep]
    return rows, docs


async def judge_records(rows: list[dict[str, Any]], docs: dict[str, dict[str, Any]], model: str | None,
                        concurrency: int) -> list[dict[str, Any]]:
    """One ``--out`` record per summary, as ``sumjudge score`` writes it (plus the source digest)."""
    scorer = create_summarization_scorer(model)
    result = await run_evals(
        [{"input": docs[r["doc_id"]]["source"], "output": r["summary"]} for r in rows],
        [scorer],
        concurrency=concurrency,
        on_error="record",
    )
    records = []
    for r, item in zip(rows, result.items):
        res = item.results.get(scorer.id)
        if res is None:
            rec = {"id": r["doc_id"], "score": None, "alignment_score": None, "coverage_score": None,
                   "reason": None, "error": "evaluation failed"}
        else:
            rec = ScoredItem.from_result(r["doc_id"], res).as_json()
        rec["source_sha256"] = hashlib.sha256(docs[r["doc_id"]]["source"].encode("utf-8")).hexdigest()
        records.append(rec)
    return records


def kendall(x: list[float], y: list[float]) -> float:
    from scipy.stats import kendalltau

    return float(kendalltau(x, y)[0])


def system_level(rows: list[dict[str, Any]], metrics: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Kendall tau over systems between each metric's system mean and the human system mean."""
    systems = sorted(set(r["system_id"] for r in rows))

    def means(values: list[float]) -> list[float]:
        out = []
        for s in systems:
            vs = [v for r, v in zip(rows, values) if r["system_id"] == s]
            out.append(sum(vs) / len(vs))
        return out

    human = {h: means([float(r[h]) for r in rows]) for h in HUMAN}
    return {m: {h: kendall(means(v), human[h]) for h in HUMAN} for m, v in metrics.items()}


def pairwise(rows: list[dict[str, Any]], records: list[dict[str, Any]], model: str, alpha: float) -> dict[str, Any]:
    systems = sorted(set(r["system_id"] for r in rows))
    runs = {s: [rec for r, rec in zip(rows, records) if r["system_id"] == s] for s in systems}
    human = {s: {r["doc_id"]: r for r in rows if r["system_id"] == s} for s in systems}
    options = {"max_questions": 10, "scale": 1}
    tallies = {f"{fig} vs {h}": {"same": 0, "opposite": [], "compare_none_people_differ": 0,
                                  "compare_differs_people_none": 0, "neither": 0} for fig, _, h in PAIRWISE}
    for a, b in itertools.combinations(systems, 2):
        res = compare_runs(RunItems(label=a, records=runs[a], model=model, options=options),
                           RunItems(label=b, records=runs[b], model=model, options=options), alpha=alpha)
        ids = [rec["id"] for rec in runs[a] if rec["error"] is None]
        for fig, field, h in PAIRWISE:
            ours = res if field == "score" else getattr(res, field)
            diffs = [float(human[b][i][h]) - float(human[a][i][h]) for i in ids]
            p, direction = signed_rank_test(diffs)
            people = "no difference" if p is None or p >= alpha or direction == "same" else (
                "better" if direction == "higher" else "worse")
            t = tallies[f"{fig} vs {h}"]
            if ours.verdict != "no difference" and people != "no difference":
                if ours.verdict == people:
                    t["same"] += 1
                else:
                    t["opposite"].append(f"{a} vs {b} (compare: B {ours.verdict}, p {ours.p_value:.3g}; "
                                         f"people: B {people}, p {p:.3g})")
            elif people != "no difference":
                t["compare_none_people_differ"] += 1
            elif ours.verdict != "no difference":
                t["compare_differs_people_none"] += 1
            else:
                t["neither"] += 1
    return {"pairs": len(systems) * (len(systems) - 1) // 2, "alpha": alpha, "tallies": tallies}


def render(report: dict[str, Any]) -> str:
    lines = [f"SummEval: {report['systems']} systems x {report['docs']} articles, judge {report['model']} "
             f"({report['judge_seconds']:.0f} s to score {report['summaries']} summaries)",
             "", "(a) system-level Kendall tau (16 system means vs the people's system means)",
             f"{'metric':<12} {'consistency':>12} {'relevance':>10}"]
    for m, taus in report["system_level"].items():
        lines.append(f"{m:<12} {taus['consistency']:>12.3f} {taus['relevance']:>10.3f}")
    pw = report["pairwise"]
    lines += ["", f"(b) {pw['pairs']} system pairs: compare vs a Wilcoxon test on the people's ratings, alpha {pw['alpha']}",
              f"{'figure vs people':<26} {'same dir':>8} {'opposite':>8} {'missed':>7} {'extra':>6} {'neither':>8}"]
    for name, t in pw["tallies"].items():
        lines.append(f"{name:<26} {t['same']:>8} {len(t['opposite']):>8} {t['compare_none_people_differ']:>7} "
                     f"{t['compare_differs_people_none']:>6} {t['neither']:>8}")
    lines.append("missed: people find a difference, compare none; extra: compare finds one, people none")
    for name, t in pw["tallies"].items():
        for o in t["opposite"]:
            lines.append(f"opposite ({name}): {o}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    p.add_argument("--model", default="offline/lexical")
    p.add_argument("--docs", type=int, default=None, help="only the first N articles (default: all 100)")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--no-rouge", action="store_true", help="skip the ROUGE baselines")
    p.add_argument("--out", type=Path, default=None, help="also write the figures as JSON here")
    args = p.parse_args(argv)
    if not (args.data_dir / "summeval_summaries.jsonl").exists():
        print(f"compare_systems: no SummEval data in {args.data_dir} (set --data-dir)", file=sys.stderr)
        return 2
    rows, docs = load(args.data_dir, args.docs)
    started = time.perf_counter()
    records = asyncio.run(judge_records(rows, docs, args.model, args.concurrency))
    judge_seconds = time.perf_counter() - started
    failed = sum(1 for r in records if r["error"] is not None)
    metrics: dict[str, list[float]] = {
        "score": [r["score"] if r["score"] is not None else 0.0 for r in records],
        "alignment": [r["alignment_score"] if r["alignment_score"] is not None else 0.0 for r in records],
        "coverage": [r["coverage_score"] if r["coverage_score"] is not None else 0.0 for r in records],
    }
    if not args.no_rouge:
        agreement_rows = [AgreementRow(group=r["doc_id"], human=0.0, source=docs[r["doc_id"]]["source"],
                                       summary=r["summary"], references=tuple(docs[r["doc_id"]]["references"]))
                          for r in rows]
        for metric in ("rouge-1", "rouge-2"):
            metrics[metric] = rouge_values(agreement_rows, metric)
    report = {
        "model": args.model,
        "systems": len(set(r["system_id"] for r in rows)),
        "docs": len(set(r["doc_id"] for r in rows)),
        "summaries": len(rows),
        "failed": failed,
        "judge_seconds": round(judge_seconds, 1),
        "system_level": system_level(rows, metrics),
        "pairwise": pairwise(rows, records, args.model, args.alpha),
    }
    print(render(report))
    if failed:
        print(f"{failed} summaries failed and count as 0 at the system level; compare leaves them out")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
