"""What one llama.cpp evaluation costs by its size, for ``local/reader``'s model: the first N tokens of a
BUMP source's head from an empty context, then tails after the whole head, and saving and restoring the
head's state. A fixed cost per evaluation (threads waiting for one another on a busy machine) shows as
a low rate on the small ones.

    python bench/speed/reader_small_evals.py 2      # n_threads=2
    python bench/speed/reader_small_evals.py 1      # n_threads=1
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from sumjudge.judges.base import ModelConfig
from sumjudge.judges.next_token import _restore, _save
from sumjudge.summarization.reader import prompts
from sumjudge.summarization.reader.judge import ReaderJudge

DATA = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parents[3] / "shared" / "data"


def main() -> None:
    judge = ReaderJudge("reader", ModelConfig(id="local/reader", extra={"n_threads": int(sys.argv[1])}))
    llama = judge._llm._model().llama
    row = json.loads((DATA / "bump_task1_pairs.jsonl").open(encoding="utf-8").readline())
    head = prompts.source_head(judge.drafts(row["source"], "x").sentences)
    toks = llama.tokenize(judge._llm._renderer(llama)(prompts.SYSTEM, head).encode(), add_bos=True, special=True)
    for n in (8, 38, 100, 200, len(toks)):
        llama.n_tokens = 0
        t0 = time.perf_counter()
        llama.eval(toks[:n])
        dt = time.perf_counter() - t0
        print(f"from empty: {n} tokens {dt:.2f} s = {n / dt:.1f} tok/s", flush=True)
    for n in (38, 100):
        llama.n_tokens = len(toks)
        t0 = time.perf_counter()
        llama.eval((toks[:n] * 3)[:n])
        dt = time.perf_counter() - t0
        print(f"after the {len(toks)}-token head: {n} tokens {dt:.2f} s = {n / dt:.1f} tok/s", flush=True)
    t0 = time.perf_counter()
    state = _save(llama)
    t1 = time.perf_counter()
    _restore(llama, toks, state or b"")
    print(f"save {t1 - t0:.3f} s ({len(state or b'') / 1e6:.1f} MB), restore {time.perf_counter() - t1:.3f} s")


if __name__ == "__main__":
    main()
