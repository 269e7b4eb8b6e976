"""llama.cpp threads for ``local/reader`` on this machine: seconds to evaluate one
source-first prompt (a BUMP held-half source and one claim, as the ``source`` layout lays it out) from
an empty context, with ``n_threads`` = ``n_threads_batch`` = each value asked, the values alternated
``--rounds`` times so that a change of load falls on all of them; ``--busy`` runs the same beside a
busy process of its own (one spinning core).

    .venv/bin/python bench/speed/reader_threads.py --threads 1 2 --rounds 3
    .venv/bin/python bench/speed/reader_threads.py --threads 1 2 --rounds 3 --busy
    .venv/bin/python bench/speed/reader_threads.py --threads 1 2 --rounds 2 --generate 16

The default (``n_threads`` unset) is every CPU this process may use (``os.sched_getaffinity``);
``default`` names it in ``--threads``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "bench" / "quality")]

from bump_pairs import half_of  # noqa: E402

from sumjudge.judges.local_settings import usable_cpus  # noqa: E402
from sumjudge.summarization.reader import prompts  # noqa: E402
from sumjudge.summarization.reader.models import resolve_reader_model  # noqa: E402
from sumjudge.summarization.language import Reading  # noqa: E402


def _spin() -> None:  # pragma: no cover - a busy neighbour, killed by its parent
    while True:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    beside = [ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data"]  # a clone's, a worktree's
    ap.add_argument("--data", default=os.environ.get("SUMJUDGE_DATA_DIR") or str(next((p for p in beside if p.is_dir()), beside[0])))
    ap.add_argument("--threads", nargs="+", default=["1", "2"], help="values of n_threads ('default': the affinity's CPUs)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--busy", action="store_true", help="beside a busy process (one spinning core)")
    ap.add_argument("--max-tokens", type=int, default=400, help="the prompt cut to this many tokens")
    ap.add_argument("--generate", type=int, default=0, help="then this many tokens generated one by one (greedy)")
    args = ap.parse_args()

    from llama_cpp import Llama

    rows = [json.loads(line) for line in open(Path(args.data) / "bump_task1_pairs.jsonl", encoding="utf-8")]
    row = next(r for r in rows if half_of(r["article_id"]) == "held")
    drafts = Reading().drafts(row["source"], row["reference_summary"])
    claim = drafts.claims[0].text if drafts.claims else row["reference_summary"]
    text = f"<|im_start|>system\n{prompts.SYSTEM}<|im_end|>\n<|im_start|>user\n" \
           f"{prompts.source_head(drafts.sentences)}{prompts.claim_tail(claim)}<|im_end|>\n<|im_start|>assistant\n"
    path = resolve_reader_model("reader").path
    busy = None
    if args.busy:
        busy = multiprocessing.Process(target=_spin, daemon=True)
        busy.start()
    values = [usable_cpus() if t == "default" else int(t) for t in args.threads]
    models = {n: Llama(model_path=str(path), n_ctx=4096, n_threads=n, n_threads_batch=n, verbose=False) for n in set(values)}
    tokens = models[values[0]].tokenize(text.encode("utf-8"), add_bos=False, special=True)[: args.max_tokens]
    times: dict[int, list[float]] = {n: [] for n in values}
    gen: dict[int, list[float]] = {n: [] for n in values}
    try:
        for _ in range(args.rounds):
            for n in values:
                llama = models[n]
                llama.reset()
                t0 = time.perf_counter()
                llama.eval(tokens)
                times[n].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                for _ in range(args.generate):
                    logits = llama.scores[llama.n_tokens - 1]
                    llama.eval([int(logits.argmax())])
                if args.generate:
                    gen[n].append(time.perf_counter() - t0)
    finally:
        if busy is not None:
            busy.kill()
    print(f"{len(tokens)} prompt tokens, {usable_cpus()} CPUs usable (affinity), {os.cpu_count()} on the machine, "
          f"{'beside a busy process, ' if args.busy else ''}load {open('/proc/loadavg').read().split()[:3]}")
    for n in dict.fromkeys(values):
        ts = times[n]
        print(f"n_threads={n}: median {statistics.median(ts):.2f} s ({len(tokens) / statistics.median(ts):.0f} tokens/s), "
              f"each {', '.join(f'{t:.2f}' for t in ts)}")
        if gen[n]:
            g = statistics.median(gen[n])
            print(f"  then {args.generate} tokens generated: median {g:.2f} s ({args.generate / g:.1f} tokens/s), "
                  f"each {', '.join(f'{t:.2f}' for t in gen[n])}")


if __name__ == "__main__":
    main()
