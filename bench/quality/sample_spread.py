"""What repeated samples buy: the spread of `score` across re-runs at k = 1, 3, 9 samples.

    python bench/quality/sample_spread.py --reruns 40 --flip 0.2

A noisy judge stands in for a judge sampled above temperature 0: the bundled judge server
(``sumjudge.testing.judge_server``) in its noisy mode, each verdict flipped with probability
``--flip`` (seeded), answering over real HTTP through the OpenAI-compatible provider. One summary
(``--claims`` claims, ``--questions`` questions) is scored ``--reruns`` times at each k with a
fresh scorer (no cache), and the standard deviation of the ``score`` across those re-runs is
reported, with its ratio to k = 1. Independent samples averaged should divide it by about sqrt(k);
the score is rounded to two decimals, like every score, which puts a floor under small spreads.
A last pass re-runs k = 9 through the reply cache and counts the judge calls it made (expected 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sumjudge import ModelConfig, create_summarization_scorer
from sumjudge.testing.judge_server import JudgeServer, NoisyBrain, SummarizationBrain

SOURCE = "The council approved 42 new homes on Monday. Work starts in May and ends in 2027."
SUMMARY = "The council approved 42 homes; work starts in May."


async def spread_at(server: JudgeServer, k: int, reruns: int) -> list[float]:
    cfg = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="x")
    scores = []
    for _ in range(reruns):
        scorer = create_summarization_scorer(cfg, {"samples": k})
        scores.append((await scorer.run(input=SOURCE, output=SUMMARY)).score)
    return scores


async def cached_calls(server: JudgeServer, k: int) -> tuple[int, bool]:
    cfg = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="x")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cache.db"
        first = await create_summarization_scorer(cfg, {"samples": k}, cache=path).run(input=SOURCE, output=SUMMARY)
        before = len(server.chat_requests())
        again = await create_summarization_scorer(cfg, {"samples": k}, cache=path).run(input=SOURCE, output=SUMMARY)
        same = [s.score for s in again.samples] == [s.score for s in first.samples]
        return len(server.chat_requests()) - before, same


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    brain = NoisyBrain(SummarizationBrain(claims=args.claims, questions=args.questions), flip=args.flip, seed=args.seed)
    out: dict[str, Any] = {"flip": args.flip, "claims": args.claims, "questions": args.questions,
                           "reruns": args.reruns, "seed": args.seed, "k": {}}
    with JudgeServer(brain) as server:
        started = time.perf_counter()
        for k in args.k:
            scores = await spread_at(server, k, args.reruns)
            out["k"][str(k)] = {"mean": statistics.fmean(scores), "spread": statistics.stdev(scores)}
        calls, same = await cached_calls(server, max(args.k))
        out["cached_rerun_calls"] = calls
        out["cached_rerun_same_samples"] = same
        out["seconds"] = round(time.perf_counter() - started, 1)
    base = out["k"][str(args.k[0])]["spread"]
    for v in out["k"].values():
        v["factor"] = base / v["spread"] if v["spread"] > 0 else math.inf
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reruns", type=int, default=40)
    p.add_argument("--flip", type=float, default=0.2)
    p.add_argument("--claims", type=int, default=8)
    p.add_argument("--questions", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--k", type=int, nargs="+", default=[1, 3, 9])
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    report = asyncio.run(measure(args))
    print(f"noisy judge: each verdict flipped with p = {args.flip}; {args.claims} claims, {args.questions} "
          f"questions; {args.reruns} re-runs per k ({report['seconds']} s)")
    print(f"{'k':>3} {'mean score':>10} {'spread (sd)':>12} {'k=1 spread / this':>18} {'sqrt(k)':>8}")
    for k, v in report["k"].items():
        print(f"{k:>3} {v['mean']:>10.3f} {v['spread']:>12.4f} {v['factor']:>18.2f} {math.sqrt(int(k)):>8.2f}")
    print(f"re-run of k={max(args.k)} through the reply cache: {report['cached_rerun_calls']} judge calls, "
          f"same samples: {report['cached_rerun_same_samples']}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
