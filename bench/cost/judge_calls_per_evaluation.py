"""Judge calls and tokens per evaluation, through the OpenAI-compatible judge and real HTTP.

Runs the summarization scorer against the bundled test judge server (127.0.0.1, summarization
brain, 4 questions) and prints what the server counted: fresh evaluations (3 calls each) and
further summaries of the same source (2 calls: the questions are cached). Token counts are
the server's rough estimate (4 UTF-8 bytes a token) of the real prompts sent, the schema in
``response_format`` included.

    .venv/bin/python bench/cost/judge_calls_per_evaluation.py [--items 20]
"""

from __future__ import annotations

import argparse
import time

from sumjudge import ModelConfig, create_summarization_scorer
from sumjudge.testing.judge_server import JudgeServer, SummarizationBrain

SOURCE = (
    "The Orbis 3 telescope was launched on 12 March 2024 from Kourou. It cost 410 million euros. "
    "Its mirror is 2.4 metres wide. It will map dust clouds in the Milky Way for five years. "
    "The European Space Agency built it with partners in Japan and Canada."
)
SUMMARY = "Orbis 3, a 410-million-euro telescope with a 2.4 m mirror, launched from Kourou in March 2024."


def measure(items: int) -> None:
    with JudgeServer(SummarizationBrain(), record=False) as server:
        model = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test")
        scorer = create_summarization_scorer(model=model)
        for label, fresh in (("fresh source", True), ("cached questions", False)):
            if not fresh:
                scorer.run_sync(input=SOURCE, output=SUMMARY)  # ask for this source's questions once
            server.reset()
            start = time.perf_counter()
            for i in range(items):
                source = f"{SOURCE} Item {i}." if fresh else SOURCE
                scorer.run_sync(input=source, output=SUMMARY)
            elapsed = time.perf_counter() - start
            u = server.usage
            print(
                f"{label:17s} calls/eval {server.chat_calls / items:.2f}  "
                f"prompt tokens/eval {u['prompt_tokens'] / items:.0f}  "
                f"completion tokens/eval {u['completion_tokens'] / items:.0f}  "
                f"total tokens/eval {(u['prompt_tokens'] + u['completion_tokens']) / items:.0f}  "
                f"({elapsed / items * 1000:.1f} ms/eval on 127.0.0.1)"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20)
    measure(parser.parse_args().items)
