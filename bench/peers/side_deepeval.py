"""DeepEval's side of ``bench/peers/cost_latency.py`` (run with bench/peers/.venv-deepeval's Python).

Scores the items of a JSONL file (``{"source", "summary"}`` per line) with DeepEval's
``SummarizationMetric`` configured as its documentation recommends for this comparison:
``n`` assessment questions equal to sumjudge's ``max_questions``, ``async_mode=True``, the
default reason (``include_reason=True``) and threshold, run through ``deepeval.evaluate`` with
``AsyncConfig(max_concurrent=C)`` (C test cases in flight, as sumjudge's ``run_evals``).

- ``--base-url URL``: the judge is DeepEval's own ``OpenAIModel`` (``model="gpt-4o-mini"``, so
  it uses OpenAI structured outputs, as with the real API) with ``base_url`` set to the server;
- ``--instant``: the judge is a ``DeepEvalBaseLLM`` in process that answers at once with the
  same benchmark brain, so the CPU time measured is DeepEval's own.

Nothing may leave the machine: telemetry is opted out, Confident AI is not logged in, and
:mod:`offline_guard` refuses every DNS lookup and connection that is not to loopback (what it
refused is reported as ``blocked_connections``).
"""

from __future__ import annotations

import os

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
os.environ.setdefault("DEEPEVAL_UPDATE_WARNING_OPT_IN", "NO")
os.environ.setdefault("DEEPEVAL_NO_INSPECT_PROMPT", "1")
os.environ.setdefault("DEEPEVAL_GRPC_LOGGING", "NO")
os.environ.setdefault("ERROR_REPORTING", "NO")
# evaluate() bounds the gather of *all* test cases by one task's budget (180 s + a buffer), so a
# batch of 200 that takes longer fails with TimeoutError; DeepEval's documented way out:
os.environ.setdefault("DEEPEVAL_DISABLE_TIMEOUTS", "YES")

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "common")]  # offline_guard; sim_brain

import offline_guard  # noqa: E402

offline_guard.install()

from sim_brain import SizedBrain, step_of_schema  # noqa: E402

from deepeval import evaluate  # noqa: E402
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig  # noqa: E402
from deepeval.metrics import SummarizationMetric  # noqa: E402
from deepeval.models import DeepEvalBaseLLM  # noqa: E402
from deepeval.test_case import LLMTestCase  # noqa: E402


def count_tokens(text: str) -> int:
    """The simulated server's count: four UTF-8 bytes a token."""
    return math.ceil(len(text.encode("utf-8")) / 4) if text else 0


class InstantModel(DeepEvalBaseLLM):
    """A custom DeepEval judge (the documented ``DeepEvalBaseLLM`` route) that answers at once."""

    def __init__(self, brain: SizedBrain) -> None:
        self.brain = brain
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.calls = 0
        self.cpu_s = 0.0
        """CPU time spent inside this judge (the simulated model's work, not DeepEval's)."""
        super().__init__(model="bench-instant")

    def load_model(self) -> Any:
        return self

    def _answer(self, prompt: str, schema: Any) -> Any:
        t = time.process_time()
        js = schema.model_json_schema()
        raw = json.dumps(self.brain.answer(step_of_schema(js), js, prompt))
        self.calls += 1
        self.prompt_tokens += count_tokens(prompt)
        self.completion_tokens += count_tokens(raw)
        self.cpu_s += time.process_time() - t
        # parsing the reply is counted as DeepEval's: its model classes parse replies themselves too
        return schema.model_validate_json(raw)

    def generate(self, prompt: str, schema: Any = None, **kwargs: Any) -> Any:
        return self._answer(prompt, schema)

    async def a_generate(self, prompt: str, schema: Any = None, **kwargs: Any) -> Any:
        return self._answer(prompt, schema)

    def get_model_name(self) -> str:
        return "bench-instant"


def load(path: str) -> list[dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def make_metric(model: Any, n: int) -> SummarizationMetric:
    return SummarizationMetric(n=n, model=model, async_mode=True, threshold=0.5)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--items", required=True)
    p.add_argument("--base-url")
    p.add_argument("--model", default="gpt-4o-mini")
    p.add_argument("--instant", action="store_true")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--max-questions", type=int, default=10)
    p.add_argument("--one-by-one", action="store_true")
    p.add_argument("--shared-http-client", action="store_true",
                   help="pass one async_http_client to OpenAIModel (by default it builds a client per call)")
    args = p.parse_args()
    items = load(args.items)
    instant: InstantModel | None = None
    model: Any
    if args.instant:
        brain = SizedBrain(questions=args.max_questions)
        for it in items:
            brain.register(it["source"], it["summary"])
        instant = InstantModel(brain)
        model = instant
    elif args.base_url:
        from deepeval.models import OpenAIModel

        extra: dict[str, Any] = {}
        if args.shared_http_client:
            import openai

            extra["async_http_client"] = openai.DefaultAsyncHttpxClient()
        model = OpenAIModel(model=args.model, base_url=args.base_url, api_key="sk-bench", temperature=0, **extra)
    else:
        p.error("--base-url or --instant")
    import openai.resources.beta  # noqa: F401 - imported lazily on the first call otherwise (3 s here): time steady state
    import openai.resources.chat  # noqa: F401

    cases = [LLMTestCase(input=it["source"], actual_output=it["summary"]) for it in items]
    per_item: list[float] = []
    spans: list[tuple[float, float]] = []
    scores: list[float] = []
    cpu0, t0 = time.process_time(), time.perf_counter()
    if args.one_by_one:  # one evaluation at a time: its wall time is its critical path
        loop = asyncio.new_event_loop()
        for case in cases:
            metric = make_metric(model, args.max_questions)
            t, start = time.perf_counter(), time.time()
            loop.run_until_complete(metric.a_measure(case, _show_indicator=False))
            per_item.append(time.perf_counter() - t)
            spans.append((start, time.time()))
            scores.append(metric.score)
        loop.close()
    else:
        result = evaluate(
            test_cases=cases,
            metrics=[make_metric(model, args.max_questions)],
            async_config=AsyncConfig(run_async=True, max_concurrent=args.concurrency),
            display_config=DisplayConfig(show_indicator=False, print_results=False, inspect_after_run=False),
            cache_config=CacheConfig(write_cache=False, use_cache=False),
            error_config=ErrorConfig(ignore_errors=False),
        )
        for tr in result.test_results:
            for md in tr.metrics_data or []:
                if md.score is not None:
                    scores.append(md.score)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    out: dict[str, Any] = {
        "tool": "deepeval",
        "items": len(cases),
        "evaluated": len(scores),
        "wall_s": wall,
        "cpu_s": cpu,
        "per_item_wall_s": per_item,
        "per_item_spans": spans,
        "blocked_connections": offline_guard.blocked(),
        "mean_score": sum(scores) / len(scores) if scores else None,
    }
    if instant is not None:
        out["reported_usage"] = {"prompt_tokens": instant.prompt_tokens,
                                 "completion_tokens": instant.completion_tokens, "calls": instant.calls}
        out["judge_cpu_s"] = instant.cpu_s
    print(json.dumps(out))


if __name__ == "__main__":
    main()
