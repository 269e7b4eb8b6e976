"""Agreement with people for any judge, on SummEval and REALSumm, with its cost and time: one command.

    # any hosted judge (reads OPENAI_API_KEY, ANTHROPIC_API_KEY, ...):
    python bench/quality/agreement_llm.py --model openai/gpt-4o-mini --price-in 0.15 --price-out 0.60
    # a subset: the first 10 SummEval documents (160 summaries) and 4 REALSumm ones (100)
    python bench/quality/agreement_llm.py --model openai/gpt-4o-mini --summeval-docs 10 --realsumm-docs 4

Every summary of the chosen documents is scored once with the summarization scorer (the
judge named by ``--model``), and the same summaries with ``--baseline`` (default
``offline/lexical``, no model), so both are compared on the same rows. The protocol is
:mod:`sumjudge.analysis.agreement`'s (summary-level Spearman/Kendall per document, averaged; pooled
Pearson): SummEval's ``consistency`` and ``relevance``, REALSumm's ``litepyramid_recall``
(held out: nothing was tuned on it). The data files are read from ``--data-dir`` (default
``../shared/data``; see its SOURCES.md); nothing is downloaded.

Printed: the correlations of the judge and of the baseline beside the published rows, the
judge's calls, prompt and completion tokens (as its server reported them) per evaluation,
the cost when ``--price-in``/``--price-out`` (USD per million tokens) are given, the wall
time, and how many evaluations failed. ``--out FILE`` also writes everything as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from sumjudge import create_summarization_scorer, run_evals
from sumjudge.analysis.agreement import AgreementRow, Correlation, correlate, load_rows
from sumjudge.judges.base import ModelConfig, Usage

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is bench/quality/)
DEFAULT_DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR") or ROOT.parent / "shared" / "data")

PUBLISHED = [
    # (metric, SummEval consistency rho/tau, relevance rho/tau, REALSumm pooled Pearson) from SOURCES.md
    ("ROUGE-1 (reference-based)", ".160 / .130", ".326 / .252", ".484"),
    ("ROUGE-2 (reference-based)", ".187 / .155", ".290 / .219", ""),
    ("BARTScore", ".382 / .315", ".356 / .273", ""),
    ("UniEval", ".446 / .371", ".426 / .325", ""),
    ("G-Eval GPT-3.5", ".386 / .318", ".385 / .293", ""),
    ("G-Eval GPT-4", ".507 / .425", ".547 / .433", ""),
    ("FineSurE GPT-4", "", "", ".688"),
]

# (data set, human field, the scorer's metric that answers it)
TARGETS = [
    ("summeval", "consistency", "alignment"),
    ("summeval", "consistency", "score"),
    ("summeval", "relevance", "coverage"),
    ("summeval", "relevance", "score"),
    ("realsumm", "litepyramid_recall", "coverage"),
    ("realsumm", "litepyramid_recall", "score"),
]


def first_docs(rows: list[AgreementRow], k: int | None) -> list[AgreementRow]:
    """The rows of the first ``k`` documents in file order (all of them for ``None``)."""
    if k is None:
        return rows
    keep: list[str] = []
    for r in rows:
        if r.group not in keep:
            keep.append(r.group)
    chosen = set(keep[:k])
    return [r for r in rows if r.group in chosen]


def load(data_dir: Path, se_docs: int | None, rs_docs: int | None) -> dict[str, dict[str, list[AgreementRow]]]:
    se = data_dir / "summeval_summaries.jsonl"
    se_d = data_dir / "summeval_docs.jsonl"
    rs = data_dir / "realsumm_keyfact_labels.jsonl"
    rs_d = data_dir / "realsumm_docs.jsonl"
    return {
        "summeval": {
            f: first_docs(load_rows(se, f, docs=se_d), se_docs) for f in ("consistency", "relevance")
        },
        "realsumm": {"litepyramid_recall": first_docs(load_rows(rs, "litepyramid_recall", docs=rs_d), rs_docs)},
    }


async def score_rows(model: Any, rows: list[AgreementRow], concurrency: int, max_questions: int,
                     label: str) -> dict[str, Any]:
    """Score each row once; per row the three values, or NaN where the judge failed."""
    scorer = create_summarization_scorer(model, {"max_questions": max_questions})
    done = 0
    started = time.perf_counter()

    def tick(*_: Any) -> None:
        nonlocal done
        done += 1
        if done % max(1, len(rows) // 20) == 0 or done == len(rows):
            el = time.perf_counter() - started
            print(f"  {label}: {done}/{len(rows)} in {el:.0f}s", file=sys.stderr, flush=True)

    result = await run_evals([{"input": r.source, "output": r.summary} for r in rows], [scorer],
                             concurrency=concurrency, on_item_complete=tick, on_error="record")
    seconds = time.perf_counter() - started
    values: dict[str, list[float]] = {"score": [], "alignment": [], "coverage": []}
    usage = Usage()
    errors: Counter[str] = Counter()
    for item in result.items:
        res = item.results.get(scorer.id)
        if res is None:
            for v in values.values():
                v.append(math.nan)
            err = getattr(item, "errors", None) or getattr(item, "error", None)
            errors[_error_kind(err)] += 1
            continue
        values["score"].append(float(res.score))
        values["alignment"].append(float(res.alignment_score))
        values["coverage"].append(float(res.coverage_score))
        usage = usage + res.usage
    return {"values": values, "usage": usage, "seconds": seconds, "failed": sum(errors.values()),
            "errors": dict(errors), "model_id": scorer.judge.model_id}


def _error_kind(err: Any) -> str:
    if isinstance(err, dict) and err:
        err = next(iter(err.values()))
    text = str(err or "unknown error")
    return text.split(":", 1)[0][:80]


def correlations(rows: list[AgreementRow], values: list[float], metric: str) -> Correlation:
    keep = [i for i, v in enumerate(values) if not math.isnan(v)]
    return correlate(metric, [rows[i] for i in keep], [values[i] for i in keep])


def machine() -> str:
    cpu = "unknown CPU"
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                   if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = "unknown"
    try:
        import subprocess

        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                timeout=10).stdout.strip() or commit
    except OSError:
        pass
    return (f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d %H:%M')}, commit {commit}")


def _f(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}".replace("0.", ".", 1)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    data = load(args.data_dir, args.summeval_docs, args.realsumm_docs)
    model: Any = args.model
    if args.timeout or args.max_concurrency or args.max_output_tokens:
        model = ModelConfig(id=args.model, timeout=args.timeout or 60.0, max_concurrency=args.max_concurrency,
                            max_output_tokens=args.max_output_tokens)
    judges = {"judge": model}
    if args.baseline:
        judges["baseline"] = args.baseline
    out: dict[str, Any] = {"machine": machine(), "command": " ".join(sys.argv), "runs": {}}
    for role, m in judges.items():
        run: dict[str, Any] = {"datasets": {}}
        total_usage, total_seconds, total_items, total_failed = Usage(), 0.0, 0, 0
        for ds, fields in data.items():
            rows = next(iter(fields.values()))
            print(f"{role} {m if isinstance(m, str) else m.id}: {ds}, {len(rows)} summaries of "
                  f"{len({r.group for r in rows})} documents", file=sys.stderr, flush=True)
            scored = await score_rows(m, rows, args.concurrency, args.max_questions, f"{role}/{ds}")
            run["model_id"] = scored["model_id"]
            corr = {}
            for d, field_name, metric in TARGETS:
                if d == ds:
                    c = correlations(fields[field_name], scored["values"][metric], metric)
                    corr[f"{field_name}/{metric}"] = c.__dict__
            run["datasets"][ds] = {
                "items": len(rows), "documents": len({r.group for r in rows}), "seconds": scored["seconds"],
                "failed": scored["failed"], "errors": scored["errors"], "usage": scored["usage"].model_dump(),
                "correlations": corr,
            }
            total_usage = total_usage + scored["usage"]
            total_seconds += scored["seconds"]
            total_items += len(rows)
            total_failed += scored["failed"]
        ok = max(1, total_items - total_failed)
        run["totals"] = {
            "items": total_items, "failed": total_failed, "seconds": total_seconds,
            "seconds_per_eval": total_seconds / max(1, total_items),
            "calls_per_eval": total_usage.calls / ok,
            "prompt_tokens_per_eval": total_usage.prompt_tokens / ok,
            "completion_tokens_per_eval": total_usage.completion_tokens / ok,
            "usage": total_usage.model_dump(),
        }
        if args.price_in is not None and args.price_out is not None:
            run["totals"]["cost_usd"] = (total_usage.prompt_tokens * args.price_in
                                         + total_usage.completion_tokens * args.price_out) / 1e6
        out["runs"][role] = run
    return out


def render(out: dict[str, Any]) -> str:
    runs = out["runs"]
    lines = [f"machine: {out['machine']}", f"command: {out['command']}", ""]
    head = "| metric | " + " | ".join(
        f"{d} {f} rho / tau (pearson)" for d, f in [("SummEval", "consistency"), ("SummEval", "relevance"),
                                                     ("REALSumm", "litepyramid")]) + " |"
    lines += [head, "|---|---|---|---|"]
    for role, run in runs.items():
        ds = run["datasets"]
        for metric in ("alignment", "coverage", "score"):
            cells = []
            for d, f in (("summeval", "consistency"), ("summeval", "relevance"), ("realsumm", "litepyramid_recall")):
                c = ds.get(d, {}).get("correlations", {}).get(f"{f}/{metric}")
                cells.append("" if c is None else f"{_f(c['spearman'])} / {_f(c['kendall'])} ({_f(c['pearson'])}, "
                             f"{c['groups']} docs)")
            if any(cells):
                lines.append(f"| {run['model_id']} {metric} | " + " | ".join(cells) + " |")
    for name, cons, rel, rs in PUBLISHED:
        lines.append(f"| published (all 100 docs): {name} | {cons} | {rel} | {('(' + rs + ')') if rs else ''} |")
    lines.append("")
    for role, run in runs.items():
        t = run["totals"]
        sizes = ", ".join(f"{d} {v['items']} summaries/{v['documents']} docs" for d, v in run["datasets"].items())
        cost = f", ${t['cost_usd']:.4f} in all" if "cost_usd" in t else ""
        errs = {k: v for d in run["datasets"].values() for k, v in d["errors"].items()}
        lines.append(
            f"{run['model_id']} ({role}): {sizes}; {t['seconds']:.0f} s ({t['seconds_per_eval']:.2f} s/evaluation); "
            f"{t['calls_per_eval']:.2f} calls, {t['prompt_tokens_per_eval']:.0f} prompt + "
            f"{t['completion_tokens_per_eval']:.0f} completion tokens per evaluation{cost}; "
            f"{t['failed']} failed" + (f" {errs}" if errs else ""))
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="the judge, 'provider/model' (e.g. openai/gpt-4o-mini)")
    p.add_argument("--baseline", default="offline/lexical", help="scored on the same rows ('' for none)")
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    p.add_argument("--summeval-docs", type=int, default=None, help="first N SummEval documents (default all 100)")
    p.add_argument("--realsumm-docs", type=int, default=None, help="first N REALSumm documents (default all 100)")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--max-questions", type=int, default=10)
    p.add_argument("--max-concurrency", type=int, default=None, help="requests in flight at most (ModelConfig)")
    p.add_argument("--timeout", type=float, default=None, help="seconds per request (ModelConfig, default 60)")
    p.add_argument("--max-output-tokens", type=int, default=None, help="per call (ModelConfig); default: the server's")
    p.add_argument("--price-in", type=float, default=None, help="USD per million prompt tokens")
    p.add_argument("--price-out", type=float, default=None, help="USD per million completion tokens")
    p.add_argument("--out", type=Path, default=None, help="also write the results as JSON")
    args = p.parse_args()
    out = asyncio.run(main_async(args))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(render(out))


if __name__ == "__main__":
    main()
