"""Verdict probabilities from a real server: score two summaries (one faithful, one with a wrong verb and
figure) through llama-cpp-python's server with SmolLM2 and graded axes; print each verdict's probability,
the tokens at the first verdict key with their alternatives, and what the reply cache stores for the
replies' log-probabilities beside their text (docs/design-notes.md).

    .venv/bin/python bench/quality/logprobs_llamacpp.py     # needs llama-cpp-python[server]; starts and stops the server
"""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from pathlib import Path

from sumjudge import create_summarization_scorer
from sumjudge.judges.base import ModelConfig
from sumjudge.judges.cache import CachedJudge
from sumjudge.judges.llama_models import smollm2_path
from sumjudge.judges.registry import resolve_judge

SOURCE = (
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
    "The library will cost 12 million dollars and is due to open in 2027."
)
SUMMARIES = [
    "Springfield's council approved a new downtown library that will cost 12 million dollars.",
    "Springfield's council rejected a library that will cost 40 million dollars.",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_path()), "--model_alias", "smollm2",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "1", "--n_threads_batch", "1",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(480):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
            return proc
        except OSError:
            time.sleep(0.25)
    proc.kill()
    raise SystemExit("llama_cpp.server did not answer within 120 s")


def main() -> None:
    port = free_port()
    proc = start_server(port)
    try:
        judge = resolve_judge(ModelConfig(id="llamacpp/smollm2", base_url=f"http://127.0.0.1:{port}/v1", timeout=900))
        cache = Path(tempfile.mkdtemp()) / "cache.db"
        scorer = create_summarization_scorer(CachedJudge(judge, cache), {"max_questions": 3, "graded": True})
        for summary in SUMMARIES:
            start = time.monotonic()
            r = asyncio.run(scorer.run(input=SOURCE, output=summary))
            print(f"\nsummary: {summary}\n  {time.monotonic() - start:.1f}s  score {r.score}  graded alignment "
                  f"{r.alignment_score:.3f} coverage {r.coverage_score:.3f}")
            for v in r.preprocess_step_result.alignment:
                print(f"  claim   {v.supported!s:5} p={v.probability}  {v.claim[:70]!r}")
            for a in r.analyze_step_result.coverage:
                print(f"  answer  {a.answered!s:5} p={a.probability}  {a.question[:70]!r}")
        with sqlite3.connect(cache) as db:
            rows = db.execute("SELECT step, raw, logprobs FROM replies").fetchall()
        text = sum(len(raw or "") for _, raw, _ in rows)
        stored = sum(len(blob or b"") for _, _, blob in rows)
        as_json = sum(len(zlib.decompress(blob)) for _, _, blob in rows if blob)
        print(f"\n{len(rows)} replies: {text} characters of text; log-probabilities stored in {stored} bytes "
              f"({stored / max(text, 1):.1f}x), {as_json} as JSON ({as_json / max(text, 1):.1f}x)")
        tokens = json.loads(zlib.decompress(next(blob for step, _, blob in rows if step == "alignment" and blob)))
        joined = "".join(t[0] for t in tokens)
        at, k, pos = joined.find('"supported"'), 0, 0
        while pos + len(tokens[k][0]) <= at:
            pos, k = pos + len(tokens[k][0]), k + 1
        print('tokens from the first "supported":')
        for token, logprob, top in tokens[k : k + 7]:
            print("  ", repr(token), round(logprob, 3), [(a, round(b, 3)) for a, b in top])
    finally:
        proc.terminate()
        proc.wait(timeout=60)


if __name__ == "__main__":
    main()
