"""Whether the reader's tails would cost less read together: a BUMP source's head evaluated once, then
the first ``--tails`` claim tails of its reference summary (repeated, each made distinct) evaluated
one after another on the head (what ``YesNoModel.ask_after`` does), and all of them in one llama.cpp
batch, a sequence each, every sequence sharing the head's cells (``llama_memory_seq_cp``).

    python bench/speed/reader_batched_tails.py ../shared/data --tails 6

Prints the head's rate, both walls, and the largest difference in P(yes) between the two readings.
Print ``uptime`` beside it: a figure is a quiet-machine figure only at load < 0.5.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from pathlib import Path

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--tails", type=int, default=6, help="tails read together (their tokens must fit one batch of 512)")
    args = ap.parse_args()

    import llama_cpp
    from llama_cpp import _internals, llama_cpp as lib

    from sumjudge.judges.local_settings import LocalSettings
    from sumjudge.judges.next_token import YesNoModel, _p_yes
    from sumjudge.summarization.language.segment import split_sentences
    from sumjudge.summarization.reader import prompts
    from sumjudge.summarization.reader.models import resolve_reader_model

    path = resolve_reader_model("reader").path
    llama = llama_cpp.Llama(model_path=str(path), n_ctx=4096, verbose=False)
    reader = YesNoModel(path, LocalSettings())  # its prompt template and yes/no tokens, asked of this llama
    params = llama.context_params  # a context of several sequences sharing one cache
    params.n_seq_max, params.kv_unified = args.tails + 1, True
    single = llama._ctx
    llama._ctx = llama._stack.enter_context(contextlib.closing(_internals.LlamaContext(model=llama._model, params=params, verbose=False)))
    single.close()
    ctx, mem, vocab = llama._ctx.ctx, lib.llama_get_memory(llama._ctx.ctx), llama.n_vocab()
    yes, no = reader._answers(llama)
    render = reader._renderer(llama)

    row = json.loads((args.data / "bump_task1_pairs.jsonl").open(encoding="utf-8").readline())
    head = prompts.source_head(tuple(split_sentences(row["source"])))
    claims = (split_sentences(row["reference_summary"]) * args.tails)[: args.tails]
    whole = [render(prompts.SYSTEM, head + prompts.claim_tail(f"{c} ({i})")) for i, c in enumerate(claims)]
    cut = whole[0].find(head) + len(head)
    head_tokens = llama.tokenize(whole[0][:cut].encode(), add_bos=True, special=True)
    tails = [llama.tokenize(w[cut:].encode(), add_bos=False, special=True) for w in whole]
    if sum(map(len, tails)) > 512:
        raise SystemExit("the tails do not fit one batch of 512 tokens: ask for fewer")

    started = time.perf_counter()
    llama.eval(head_tokens)
    head_s = time.perf_counter() - started
    started, one_by_one = time.perf_counter(), []
    for tail in tails:
        llama._ctx.kv_cache_seq_rm(0, len(head_tokens), -1)
        llama.n_tokens = len(head_tokens)
        llama.eval(tail)
        one_by_one.append(_p_yes(np.ctypeslib.as_array(llama._ctx.get_logits_ith(-1), shape=(vocab,)), yes, no))
    sequential_s = time.perf_counter() - started
    llama._ctx.kv_cache_seq_rm(0, len(head_tokens), -1)

    started = time.perf_counter()
    batch = lib.llama_batch_init(sum(map(len, tails)), 0, args.tails + 1)
    j, last = 0, []
    for seq, tail in enumerate(tails, 1):
        lib.llama_memory_seq_cp(mem, 0, seq, -1, -1)
        for k, token in enumerate(tail):
            batch.token[j], batch.pos[j], batch.n_seq_id[j] = token, len(head_tokens) + k, 1
            batch.seq_id[j][0], batch.logits[j] = seq, k == len(tail) - 1
            j += 1
        last.append(j - 1)
    batch.n_tokens = j
    if lib.llama_decode(ctx, batch) != 0:
        raise SystemExit("llama_decode refused the batch")
    together = [_p_yes(np.ctypeslib.as_array(lib.llama_get_logits_ith(ctx, i), shape=(vocab,)), yes, no) for i in last]
    batched_s = time.perf_counter() - started
    lib.llama_batch_free(batch)

    n = sum(map(len, tails))
    print(f"head: {len(head_tokens)} tokens in {head_s:.2f} s ({len(head_tokens) / head_s:.1f} tokens/s)")
    print(f"{len(tails)} tails, {n} tokens: one by one {sequential_s:.2f} s ({n / sequential_s:.1f} tokens/s), "
          f"one batch {batched_s:.2f} s ({n / batched_s:.1f} tokens/s)")
    print(f"largest |P one by one - P together|: {max(abs(a - b) for a, b in zip(one_by_one, together)):.4f}")


if __name__ == "__main__":
    main()
