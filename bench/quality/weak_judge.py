"""How often a weak local judge ends with a valid result: SmolLM2-135M on SummEval summaries.

Scores the first N summaries of ``summeval_summaries.jsonl`` (file order: 16 systems per
document, so questions are asked once per document and cached for the rest; with ``--spread``,
one summary of each document instead, system ``i mod 16`` for document ``i``) with
``local/smollm2`` in process, one evaluation at a time, and reports:

- the share of evaluations that ended with a valid result (no JudgeError after re-asks),
- seconds and judge calls per evaluation (calls above 2-3 are re-asks),
- how the scores relate to the human consistency ratings (summary-level Spearman per document,
  averaged), to show plainly that a 135M model's scores are poor,
- the share of verdicts whose text is a bare placeholder ("..."), copied from the prompt's example.

    .venv/bin/python bench/quality/weak_judge.py /work/shared/data --items 100 [--spread] [--time-budget 900] [--out weak.json]

``--time-budget`` stops starting new evaluations after that many seconds (the report says how many ran).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from sumjudge import create_summarization_scorer
from sumjudge.errors import JudgeError
from sumjudge.judges.base import ModelConfig


def _load(data_dir: Path, items: int, spread: bool) -> list[dict[str, Any]]:
    docs: dict[str, str] = {}
    with open(data_dir / "summeval_docs.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            docs[d["doc_id"]] = d["source"]
    by_doc: dict[str, list[dict[str, Any]]] = {}
    with open(data_dir / "summeval_summaries.jsonl", encoding="utf-8") as f:
        for line in f:
            s = json.loads(line)
            by_doc.setdefault(s["doc_id"], []).append({**s, "source": docs[s["doc_id"]]})
    if spread:
        rows = [summaries[i % len(summaries)] for i, summaries in enumerate(by_doc.values())]
    else:
        rows = [row for summaries in by_doc.values() for row in summaries]
    return rows[:items]


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _placeholder(text: str) -> bool:
    return text.strip().strip(".…").strip() == ""


def _doc_spearman(records: list[dict[str, Any]]) -> float | None:
    from scipy.stats import spearmanr

    by_doc: dict[str, list[tuple[float, float]]] = {}
    for r in records:
        if r["valid"]:
            by_doc.setdefault(r["doc_id"], []).append((r["score"], r["consistency"]))
    rhos = []
    for pairs in by_doc.values():
        scores, human = zip(*pairs)
        if len(pairs) < 3 or len(set(scores)) < 2 or len(set(human)) < 2:
            continue
        rho = spearmanr(scores, human).statistic
        if rho == rho:
            rhos.append(float(rho))
    return statistics.fmean(rhos) if rhos else None


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data_dir", type=Path, help="folder with summeval_docs.jsonl, summeval_summaries.jsonl")
    ap.add_argument("--items", type=int, default=100)
    ap.add_argument("--spread", action="store_true", help="one summary per document (no question cache)")
    ap.add_argument("--max-questions", type=int, default=5)
    ap.add_argument("--time-budget", type=float, default=None, help="seconds; start no evaluation after")
    ap.add_argument("--out", type=Path, default=None, help="write every evaluation's record here (JSON)")
    args = ap.parse_args()

    rows = _load(args.data_dir, args.items, args.spread)
    scorer = create_summarization_scorer(
        model=ModelConfig(id="local/smollm2"), options={"max_questions": args.max_questions}
    )
    records: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i, row in enumerate(rows, 1):
        if args.time_budget is not None and time.perf_counter() - started > args.time_budget:
            break
        t0 = time.perf_counter()
        rec: dict[str, Any] = {k: row[k] for k in ("doc_id", "system_id", "consistency")}
        try:
            result = await scorer.run(input=row["source"], output=row["summary"])
        except JudgeError as exc:
            rec.update(valid=False, error=f"{type(exc).__name__}: {exc}"[:500], calls=None)
        else:
            verdicts = [v.claim for v in result.preprocess_step_result.alignment] + list(
                result.preprocess_step_result.questions
            )
            rec.update(
                valid=True,
                score=result.score,
                calls=result.usage.calls,
                prompt_tokens=result.usage.prompt_tokens,
                completion_tokens=result.usage.completion_tokens,
                claims=len(result.preprocess_step_result.alignment),
                questions=len(result.preprocess_step_result.questions),
                placeholders=sum(_placeholder(t) for t in verdicts),
                texts=len(verdicts),
            )
        rec["seconds"] = time.perf_counter() - t0
        records.append(rec)
        print(
            f"[{i}/{len(rows)}] {rec['doc_id'][-8:]}/{rec['system_id']}: "
            + (f"score={rec['score']:.2f} calls={rec['calls']}" if rec["valid"] else rec["error"][:120])
            + f" {rec['seconds']:.1f}s",
            file=sys.stderr,
            flush=True,
        )
    wall = time.perf_counter() - started

    n = len(records)
    valid = [r for r in records if r["valid"]]
    report = {
        "command": "bench/quality/weak_judge.py " + " ".join(sys.argv[1:]),
        "machine": f"{_cpu()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "evaluations": n,
        "requested": len(rows),
        "valid_share": len(valid) / n if n else None,
        "seconds_per_evaluation": statistics.fmean(r["seconds"] for r in records) if n else None,
        "seconds_per_evaluation_median": statistics.median(r["seconds"] for r in records) if n else None,
        "calls_per_evaluation": statistics.fmean(r["calls"] for r in valid) if valid else None,
        "documents": len({r["doc_id"] for r in records}),
        "mean_score": statistics.fmean(r["score"] for r in valid) if valid else None,
        "mean_claims": statistics.fmean(r["claims"] for r in valid) if valid else None,
        "placeholder_share": (sum(r["placeholders"] for r in valid) / max(1, sum(r["texts"] for r in valid)))
        if valid
        else None,
        "spearman_vs_consistency": _doc_spearman(records),
        "wall_seconds": wall,
    }
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.write_text(json.dumps({"report": report, "records": records}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
