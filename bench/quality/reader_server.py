"""The reader in process and on llama.cpp's server: the same verdicts? BUMP task 1 minimal pairs.

    python bench/quality/reader_server.py DATA [--pairs 16] [--half held] [--seed 0] [--threads 2] [--out recs.jsonl]

Scores the alignment of each pair's reference and edited summary twice: with ``local/reader`` (the
packaged Qwen2.5-Coder-1.5B in this process) and with ``reader+llamacpp/<model>`` against
``python -m llama_cpp.server`` started here on 127.0.0.1 with the same GGUF file (its default
``logits_all``, which its ``logprobs`` need). The pairs are bench/quality/reader.py's: the half's pairs
(``sha256(article_id)`` parity, bench/quality/bump_pairs.py) shuffled with ``--seed``, the first N.
One after the other, never both at once; the in-process reader keeps no state on disk (each source is
read, as the server reads it). Prints the share of claims with the same verdict, the largest and the
mean |ΔP|, and each side's wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of  # noqa: E402

from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs  # noqa: E402
from sumjudge.judges.gguf_parts import joined_model  # noqa: E402
from sumjudge.judges.registry import resolve_judge  # noqa: E402
from sumjudge.summarization.reader.models import QWEN_1_5B  # noqa: E402
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput  # noqa: E402
from sumjudge.testing.llamacpp_server import LlamaCppServer  # noqa: E402


def pairs(data: Path, half: str, n: int, seed: int) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in open(data / "bump_task1_pairs.jsonl", encoding="utf-8")]
    if half != "all":
        rows = [r for r in rows if half_of(r["article_id"]) == half]
    random.Random(seed).shuffle(rows)
    return rows[:n]


def claims(judge: Any, source: str, summary: str) -> list[tuple[str, bool, float]]:
    request = JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                           inputs=StepInputs(source=source, summary=summary))
    return [(v.claim, v.supported, float(v.probability or 0.0)) for v in judge.answer(request).output.alignment]


def score(judge: Any, rows: list[dict[str, Any]]) -> tuple[list[list[tuple[str, bool, float]]], float]:
    out: list[list[tuple[str, bool, float]]] = []
    t0 = time.perf_counter()
    for r in rows:
        out.append(claims(judge, r["source"], r["reference_summary"]))
        out.append(claims(judge, r["source"], r["edited_summary"]))
    return out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path)
    ap.add_argument("--pairs", type=int, default=16)
    ap.add_argument("--half", default="held", choices=["tune", "held", "all"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rows = pairs(args.data, args.half, args.pairs, args.seed)
    model = joined_model(QWEN_1_5B)
    print(f"{len(rows)} BUMP task-1 pairs ({args.half} half, seed {args.seed}), {model.name}, {args.threads} threads; "
          f"load average before: {os.getloadavg()[0]:.2f}", flush=True)

    threads = str(args.threads)
    local = resolve_judge(ModelConfig(id="local/reader", extra={"state_disk_mb": 0, "n_threads": threads,
                                                                "n_threads_batch": threads}))
    claims(local, "A warm-up sentence.", "A warm-up sentence.")  # the model loaded before the clock starts
    here, here_s = score(local, rows)
    print(f"in process: {here_s:.1f} s; load average {os.getloadavg()[0]:.2f}", flush=True)

    with LlamaCppServer(model, n_ctx=4096, threads=args.threads) as server:
        served = resolve_judge(ModelConfig(id="reader+llamacpp/qwen", base_url=server.base_url, timeout=300))
        claims(served, "A warm-up sentence.", "A warm-up sentence.")
        there, there_s = score(served, rows)
    print(f"on the server: {there_s:.1f} s; load average {os.getloadavg()[0]:.2f}", flush=True)

    same = total = 0
    deltas: list[float] = []
    for a, b in zip(here, there):
        if [c for c, _, _ in a] != [c for c, _, _ in b]:
            raise SystemExit("the two readers drafted different claims: not comparable")
        for (_, va, pa), (_, vb, pb) in zip(a, b):
            total += 1
            same += va == vb
            deltas.append(abs(pa - pb))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            for r, (a, b) in zip([r for r in rows for _ in (0, 1)], zip(here, there)):
                f.write(json.dumps({"pair_id": r["pair_id"], "in_process": a, "server": b}) + "\n")
    print(f"claims: {total}; same verdict: {same}/{total} = {same / max(total, 1):.1%}; "
          f"|dP| max {max(deltas, default=0):.4f}, mean {statistics.fmean(deltas) if deltas else 0:.4f}; "
          f"wall: in process {here_s:.1f} s, server {there_s:.1f} s")


if __name__ == "__main__":
    main()
