"""sumjudge's side of ``bench/peers/cost_latency.py`` (run with the project's .venv).

Scores the items of a JSONL file (``{"source", "summary"}`` per line) with one summarization
scorer and prints one JSON object: wall time, CPU time of this process, per-item wall times
(``--one-by-one``) and the judge usage the results report.

- ``--base-url URL``: the judge is ``openai/<model>`` on that OpenAI-compatible server;
- ``--instant``: the judge is in process and answers at once (:class:`InstantJudge`), so the
  CPU time measured is sumjudge's own, with no HTTP and no waiting.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "common")]  # offline_guard; sim_brain

import offline_guard  # noqa: E402

offline_guard.install()

from sim_brain import SizedBrain  # noqa: E402

from sumjudge import ModelConfig, create_summarization_scorer, run_evals  # noqa: E402
from sumjudge.judges.base import JudgeReply, JudgeRequest, Usage  # noqa: E402
from sumjudge.testing.judge_server import count_tokens  # noqa: E402


class InstantJudge:
    """An in-process judge with the benchmark brain's answers and no latency."""

    def __init__(self, brain: SizedBrain, model_id: str = "bench/instant") -> None:
        self.brain = brain
        self._model_id = model_id
        self._schemas: dict[type, dict[str, Any]] = {}
        self.cpu_s = 0.0
        """CPU time spent inside this judge (the simulated model's work, not sumjudge's)."""

    @property
    def model_id(self) -> str:
        return self._model_id

    async def generate(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        t = time.process_time()
        schema = self._schemas.get(request.output_type)
        if schema is None:
            schema = self._schemas[request.output_type] = request.output_type.model_json_schema()
        prompt = "\n".join(m.content for m in request.messages)
        raw = json.dumps(self.brain.answer(request.step, schema, prompt))
        usage = Usage(prompt_tokens=count_tokens(prompt), completion_tokens=count_tokens(raw), calls=1)
        self.cpu_s += time.process_time() - t
        # parsing the reply stays on sumjudge's side: a real provider's reply is parsed there too
        return JudgeReply(output=request.output_type.model_validate_json(raw), usage=usage, raw=raw)


def load(path: str) -> list[dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    items = load(args.items)
    if args.instant:
        brain = SizedBrain(questions=args.max_questions)
        for it in items:
            brain.register(it["source"], it["summary"])
        judge: Any = InstantJudge(brain)
    else:
        judge = ModelConfig(id=f"openai/{args.model}", base_url=args.base_url, api_key="sk-bench", timeout=120)
    scorer = create_summarization_scorer(judge, {"max_questions": args.max_questions})
    import openai.resources.chat  # noqa: F401 - imported before timing, as on DeepEval's side
    data = [{"input": it["source"], "output": it["summary"]} for it in items]
    per_item: list[float] = []
    spans: list[tuple[float, float]] = []
    results: list[Any] = []
    cpu0, t0 = time.process_time(), time.perf_counter()
    if args.one_by_one:  # one evaluation at a time: its wall time is its critical path
        for row in data:
            t, start = time.perf_counter(), time.time()
            results.append(await scorer.run(input=row["input"], output=row["output"]))
            per_item.append(time.perf_counter() - t)
            spans.append((start, time.time()))
    else:
        def done(item: Any, target_result: Any, scorer_results: dict[str, Any]) -> None:
            results.append(scorer_results[scorer.id])

        await run_evals(data=data, scorers=[scorer], concurrency=args.concurrency, on_item_complete=done)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    usage = Usage()
    for r in results:
        usage = usage + r.usage
    return {
        "tool": "sumjudge",
        "items": len(data),
        "evaluated": len(results),
        "wall_s": wall,
        "cpu_s": cpu,
        "per_item_wall_s": per_item,
        "per_item_spans": spans,
        "blocked_connections": offline_guard.blocked(),
        "mean_score": sum(r.score for r in results) / len(results) if results else None,
        "reported_usage": usage.model_dump(),
        "judge_cpu_s": judge.cpu_s if isinstance(judge, InstantJudge) else None,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--items", required=True)
    p.add_argument("--base-url")
    p.add_argument("--model", default="gpt-4o-mini")
    p.add_argument("--instant", action="store_true")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--max-questions", type=int, default=10)
    p.add_argument("--one-by-one", action="store_true")
    args = p.parse_args()
    if not args.instant and not args.base_url:
        p.error("--base-url or --instant")
    print(json.dumps(asyncio.run(main_async(args))))


if __name__ == "__main__":
    main()
