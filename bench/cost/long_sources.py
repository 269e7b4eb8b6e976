"""Long sources and prompt caching, measured. Three figures, one command each:

  estimate  `sumjudge estimate` against the tokens actually spent on SummEval over the bundled server
  cache     the share of prompt tokens an OpenAI-style prefix cache serves, 16 summaries per source
  needle    a 100,000-word source (SummEval articles, one buried) against an 8,192-token judge over HTTP
  padded    offline alignment Spearman with SummEval consistency at 1x and with each source padded
            by other SummEval articles to about 20x, and the calls and tokens per evaluation

    SUMJUDGE_DATA_DIR=../shared/data python bench/cost/long_sources.py estimate|cache|padded|needle [--limit N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is bench/cost/)
DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR") or ROOT.parent / "shared" / "data")


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "unknown"


def summeval(limit: int | None = None) -> list[dict]:
    docs = {}
    for line in (DATA / "summeval_docs.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        docs[r["doc_id"]] = r["source"]
    rows = []
    for line in (DATA / "summeval_summaries.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        rows.append({"doc_id": r["doc_id"], "source": docs[r["doc_id"]], "summary": r["summary"],
                     "consistency": r.get("consistency")})
    if limit:
        keep = list(dict.fromkeys(r["doc_id"] for r in rows))[:limit]
        rows = [r for r in rows if r["doc_id"] in keep]
    return rows


async def score_all(scorer, rows: list[dict], concurrency: int) -> list:
    sem = asyncio.Semaphore(concurrency)

    async def one(r: dict):
        async with sem:
            return await scorer.run(input=r["source"], output=r["summary"])

    return await asyncio.gather(*(one(r) for r in rows))


def cmd_estimate(args: argparse.Namespace) -> None:
    from sumjudge import create_summarization_scorer
    from sumjudge.judges.base import ModelConfig
    from sumjudge.summarization.forecast import Forecaster
    from sumjudge.testing.judge_server import JudgeServer

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
    from sim_brain import SizedBrain  # the cost benchmarks' simulated judge: reply sizes follow the texts

    rows = summeval(args.limit)
    config = ModelConfig(id="openai/test-model", context_window=args.window)
    forecaster = Forecaster(config)
    for r in rows:
        forecaster.item(r["source"], r["summary"])
    f = forecaster.total
    brain = SizedBrain(questions=10)
    for r in rows:
        brain.register(r["source"], r["summary"])
    with JudgeServer(brain, context_limit=args.window, record=False) as server:
        live = ModelConfig(id=config.id, context_window=args.window, base_url=server.base_url, api_key="t")
        scorer = create_summarization_scorer(model=live)
        asyncio.run(score_all(scorer, rows, 16))
        spent = dict(server.usage, calls=server.chat_calls)
    est_total, spent_total = f.prompt_tokens + f.completion_tokens, spent["prompt_tokens"] + spent["completion_tokens"]
    print(json.dumps({
        "commit": commit(), "items": len(rows), "judge": "bench/common/sim_brain.py SizedBrain(questions=10)",
        "estimate": {"calls": f.calls, "prompt_tokens": f.prompt_tokens, "completion_tokens": f.completion_tokens},
        "spent": spent,
        "error_prompt": round(f.prompt_tokens / spent["prompt_tokens"] - 1, 4),
        "error_completion": round(f.completion_tokens / spent["completion_tokens"] - 1, 4),
        "error_total": round(est_total / spent_total - 1, 4),
    }, indent=1))


def cmd_cache(args: argparse.Namespace) -> None:
    from sumjudge import create_summarization_scorer
    from sumjudge.judges.base import ModelConfig
    from sumjudge.testing.judge_server import JudgeServer, SummarizationBrain

    rows = summeval(args.limit)
    by_doc: dict[str, list[dict]] = {}
    for r in rows:
        by_doc.setdefault(r["doc_id"], []).append(r)
    with JudgeServer(SummarizationBrain(questions=10), record=False) as server:
        config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="t")
        scorer = create_summarization_scorer(model=config)
        first = {"prompt": 0, "cached": 0}
        later = {"prompt": 0, "cached": 0, "source": 0}
        for doc, items in by_doc.items():  # one source at a time, its summaries in order (one after another)
            for i, r in enumerate(items):
                u = scorer.run_sync(input=r["source"], output=r["summary"]).usage
                bucket = first if i == 0 else later
                bucket["prompt"] += u.prompt_tokens
                bucket["cached"] += u.cached_tokens
                if i:
                    later["source"] += -(-len(r["source"].encode()) // 4)
    print(json.dumps({
        "commit": commit(), "sources": len(by_doc), "summaries": len(rows),
        "first_call_per_source": first, "later_calls": later,
        "cached_share_of_prompt_tokens_after_first": round(later["cached"] / later["prompt"], 4),
        "cached_share_of_source_tokens_after_first": round(later["cached"] / later["source"], 4),
        "cached_share_overall": round((first["cached"] + later["cached"]) / (first["prompt"] + later["prompt"]), 4),
    }, indent=1))


def padded_rows(rows: list[dict], factor: int, pool: list[str]) -> list[dict]:
    """Each source between other SummEval articles (from ``pool``) until about ``factor`` times its length."""
    docs = list(dict.fromkeys([*(r["source"] for r in rows), *pool]))
    out = []
    cache: dict[str, str] = {}
    for r in rows:
        src = r["source"]
        if src not in cache:
            i = docs.index(src)
            others = [docs[(i + k) % len(docs)] for k in range(1, len(docs))]
            target, before, after, n = factor * len(src.split()), [], [], len(src.split())
            for k, d in enumerate(others):
                if n >= target:
                    break
                (before if k % 2 else after).append(d)
                n += len(d.split())
            cache[src] = "\n\n".join([*before, src, *after])
        out.append({**r, "source": cache[src]})
    return out


def cmd_padded(args: argparse.Namespace) -> None:
    from scipy.stats import spearmanr

    from sumjudge import create_summarization_scorer
    from sumjudge.analysis.agreement import AgreementRow, correlate
    from sumjudge.judges.base import ModelConfig
    from sumjudge.summarization.forecast import Forecaster

    rows = summeval(args.limit)
    report = {"commit": commit(), "summaries": len(rows)}
    for factor in (1, args.factor):
        pool = [r["source"] for r in summeval()]
        data = rows if factor == 1 else padded_rows(rows, factor, pool)
        scorer = create_summarization_scorer(model="offline/lexical")
        t = time.perf_counter()
        results = asyncio.run(score_all(scorer, data, 1))
        took = time.perf_counter() - t
        values = [x.alignment_score for x in results]
        rho = spearmanr(values, [r["consistency"] for r in data]).statistic
        protocol = correlate(
            "alignment",
            [AgreementRow(group=r["doc_id"], human=r["consistency"], source="", summary="") for r in data],
            values,
        )
        llm = Forecaster(ModelConfig(id="openai/test-model", context_window=args.window_llm))
        for r in data:
            llm.item(r["source"], r["summary"])
        f = llm.total
        words = sum(len(r["source"].split()) for r in data) / len(data)
        long_path = sum(any(v.evidence is not None for v in x.preprocess_step_result.alignment) for x in results)
        report[f"{factor}x"] = {
            "mean_source_words": round(words),
            "alignment_spearman_consistency_per_document": round(protocol.spearman, 4),
            "alignment_spearman_consistency_pooled": round(float(rho), 4),
            "long_path_items": long_path,
            "offline_calls_per_evaluation": round(sum(x.usage.calls for x in results) / len(results), 3),
            f"llm_{args.window_llm}_forecast_per_evaluation": {
                "calls": round(f.calls / len(data), 3),
                "prompt_tokens": round(f.prompt_tokens / len(data)),
                "completion_tokens": round(f.completion_tokens / len(data)),
            },
            "seconds": round(took, 1),
        }
    print(json.dumps(report, indent=1))


def cmd_needle(args: argparse.Namespace) -> None:
    """The test's 100,000-word source against an 8,192-token judge over HTTP, with its figures."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_long_source_http import buried, changed_number, first_sentence, needle_article, reading_brain, summeval_docs

    from sumjudge import create_summarization_scorer
    from sumjudge.judges.base import ModelConfig
    from sumjudge.testing.judge_server import JudgeServer

    docs = summeval_docs()
    source, article = buried(needle=needle_article(docs))
    fact = first_sentence(article)
    with JudgeServer(reading_brain, context_limit=args.window) as server:
        config = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="t", context_window=args.window)
        t = time.perf_counter()
        result = create_summarization_scorer(model=config).run_sync(input=source, output=f"{fact} {changed_number(fact)}")
        took = time.perf_counter() - t
        steps: dict[str, int] = {}
        for r in server.chat_requests():
            steps[r.step] = steps.get(r.step, 0) + 1
        print(json.dumps({
            "commit": commit(), "source_words": len(source.split()), "window": args.window,
            "calls": server.chat_calls, "calls_by_step": steps, "usage": server.usage,
            "largest_request_tokens": server.context.largest_request, "refused_over_limit": server.context.over_limit,
            "verdicts": [(v.supported, [(e.start, e.end) for e in v.evidence or []])
                         for v in result.preprocess_step_result.alignment],
            "seconds": round(took, 1),
        }, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["estimate", "cache", "padded", "needle"])
    parser.add_argument("--limit", type=int, default=None, help="first N SummEval sources only")
    parser.add_argument("--window", type=int, default=None, help="the judge's context window (estimate: 128000, needle: 8192)")
    parser.add_argument("--factor", type=int, default=20, help="padded: how many times each source's length")
    parser.add_argument("--window-llm", type=int, default=8192, help="padded: context of the LLM judge forecast")
    args = parser.parse_args()
    args.window = args.window or (8192 if args.what == "needle" else 128_000)
    if not (DATA / "summeval_docs.jsonl").is_file():
        sys.exit(f"SummEval data not found in {DATA} (set SUMJUDGE_DATA_DIR)")
    {"estimate": cmd_estimate, "cache": cmd_cache, "padded": cmd_padded, "needle": cmd_needle}[args.what](args)


if __name__ == "__main__":
    main()
