"""What loading ``local/reader``'s GGUF file costs in memory, mapped or read (peak RSS).

Each setting runs in a child process of its own (a fresh address space, so one setting's pages
cannot count in another's figures): it loads the 1.5B reader with ``use_mmap`` as asked, prints the
resident set split as /proc reports it (anonymous: llama.cpp's own buffers; file: pages of the mapped
GGUF file), then evaluates ``--tokens`` tokens of BUMP held-half sources and prints the same again,
with the seconds the evaluation took.

    .venv/bin/python bench/speed/reader_memory.py                 # use_mmap 1 and 0, 1,000 tokens
    .venv/bin/python bench/speed/reader_memory.py --mmap 0 --tokens 500
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "bench" / "quality")]

from bump_pairs import half_of  # noqa: E402

from sumjudge.judges.local_settings import usable_cpus  # noqa: E402
from sumjudge.summarization.reader.models import resolve_reader_model  # noqa: E402


def _memory() -> str:
    fields = {}
    for line in open("/proc/self/status", encoding="ascii"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024 / 1024
    return ", ".join(f"{k} {fields[k]:.2f} GB" for k in ("VmRSS", "RssAnon", "RssFile", "VmHWM"))


def _child(mmap: int, text: str, n_tokens: int, n_ctx: int) -> None:
    from llama_cpp import Llama

    path = resolve_reader_model("reader").path
    t0 = time.perf_counter()
    n = usable_cpus()
    llama = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n, n_threads_batch=n, use_mmap=bool(mmap), verbose=False)
    print(f"use_mmap={mmap}: loaded in {time.perf_counter() - t0:.1f} s; {_memory()}", flush=True)
    tokens = llama.tokenize(text.encode("utf-8"), add_bos=False)[:n_tokens]
    t0 = time.perf_counter()
    llama.eval(tokens)
    s = time.perf_counter() - t0
    print(f"use_mmap={mmap}: {len(tokens)} tokens evaluated in {s:.1f} s ({len(tokens) / s:.0f} tokens/s); {_memory()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    beside = [ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data"]  # a clone's, a worktree's
    ap.add_argument("--data", default=os.environ.get("SUMJUDGE_DATA_DIR") or str(next((p for p in beside if p.is_dir()), beside[0])))
    ap.add_argument("--mmap", type=int, nargs="+", choices=(0, 1), default=[1, 0])
    ap.add_argument("--tokens", type=int, default=1000)
    ap.add_argument("--n-ctx", type=int, default=4096, help="the reader's default context")
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(Path(args.data) / "bump_task1_pairs.jsonl", encoding="utf-8")]
    # Held-half sources, one after another until there is text enough for --tokens (a BUMP source is
    # 300-1,200 tokens; about 4 characters a token, with room to spare).
    held = list(dict.fromkeys(r["source"] for r in rows if half_of(r["article_id"]) == "held"))
    text = ""
    for source in held:
        if len(text) > 6 * args.tokens:
            break
        text += source + "\n\n"
    ctx = multiprocessing.get_context("spawn")
    for mmap in args.mmap:
        child = ctx.Process(target=_child, args=(mmap, text, args.tokens, args.n_ctx))
        child.start()
        child.join()
        if child.exitcode:
            raise SystemExit(f"use_mmap={mmap}: the child exited {child.exitcode}")


if __name__ == "__main__":
    main()
