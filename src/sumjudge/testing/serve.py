"""``python -m sumjudge.testing.judge_server``: the simulated Chat Completions judge from the command line.

The server class is passed in (``judge_server.main`` does), so this module does not import it back.
"""

from __future__ import annotations

import argparse
import time

from typing import Any

from .brains import Brain, NoisyBrain, SchemaBrain, SummarizationBrain


def serve(server_class: Any, argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A simulated Chat Completions judge on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8800, help="port (default 8800: not `sumjudge view`'s 8765)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--brain", choices=["summarization", "schema"], default="summarization")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--token-delay", type=float, default=0.0, help="seconds per completion token")
    parser.add_argument("--max-in-flight", type=int, default=None, help="answer 429 beyond this many requests")
    parser.add_argument("--retry-after", default="1", help="Retry-After sent with those 429s")
    parser.add_argument("--refuse-json-schema", action="store_true", help="refuse json_schema like llama-cpp-python")
    parser.add_argument("--flip", type=float, default=0.0, metavar="P",
                        help="noisy mode: flip each verdict with probability P (a sampled judge's noise)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the noisy mode's flips")
    parser.add_argument("--context-limit", type=int, default=None, help="400 context_length_exceeded above this")
    args = parser.parse_args(argv)
    if not 0 <= args.flip <= 1:
        parser.error(f"--flip must lie in [0, 1], got {args.flip}")
    brain: Brain = SummarizationBrain() if args.brain == "summarization" else SchemaBrain()
    if args.flip > 0:
        brain = NoisyBrain(brain, flip=args.flip, seed=args.seed)
    server = server_class(
        brain,
        port=args.port,
        host=args.host,
        latency=args.latency,
        token_delay=args.token_delay,
        max_in_flight=args.max_in_flight,
        retry_after=args.retry_after,
        refuse={"json_schema": 500} if args.refuse_json_schema else None,
        record=False,
        context_limit=args.context_limit,
    )
    server.start()
    print(f"judge server listening on {server.base_url} (Ctrl-C to stop)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
