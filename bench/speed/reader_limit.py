"""``local/reader`` against the machine's limit: how close its wall time comes to the time the tokens it
evaluates cost at the rate the loaded model reads a prompt here.

    python bench/speed/reader_limit.py ../shared/data                  # rate, 8 BUMP pairs, 16 SummEval summaries
    python bench/speed/reader_limit.py ../shared/data --pairs 4 --layouts source own --json out.json

One run, one process, one model:

1. **rate**: a BUMP source's whole reader head (about 1,000 tokens) evaluated from an empty context,
   ``--rounds`` times; the median tokens a second is *the measured rate*. The rate of 40-token tails
   evaluated after that head is printed beside it (what a claim costs per token).
2. **BUMP pairs** (the first ``--pairs`` of task 1, in file order), each layout: the alignment of the
   reference then the edited summary (``ReaderJudge.align``), the state cache and memo emptied before
   each pair (a pair is read cold); then the whole evaluation (alignment, questions, coverage) of both
   through the scorer at the defaults. Per pair: tokens evaluated (llama.cpp's count), the source's
   tokens, wall seconds, and the two ratios: ``wall / (evaluated / rate)`` (overhead beyond the tokens)
   and ``wall / (source tokens / rate)`` (the pair against one read of its source).
3. **16 SummEval summaries of one source** (``--doc``), whole evaluations at the defaults, cold: the
   first summary, then each further one in tokens evaluated and in wall seconds times the rate ("in
   tokens at the measured rate").
4. **Across processes** (``--across 1``): two child processes, one after the other, each loading the
   model and aligning one summary of the first BUMP pair's source with states kept on disk in a fresh
   folder: the first reads the source, the second should restore it (tokens evaluated, seconds, and
   the disk the state costs).

Print ``uptime`` before and after: a figure is a quiet-machine figure only at load < 0.5.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
from pathlib import Path
from typing import Any

from sumjudge import create_summarization_scorer
from sumjudge.judges.base import ModelConfig
from sumjudge.judges.next_token import StateCache
from sumjudge.summarization.reader import prompts
from sumjudge.summarization.reader.judge import ReaderJudge


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def _cold(judge: ReaderJudge) -> None:
    """Nothing read before: no kept states (in memory or on disk), no memo of answers, an empty context."""
    judge._llm.states = StateCache(judge._llm.states.max_bytes)
    judge._llm.files = None  # a source kept on disk by an earlier run or pair would be restored, not read
    judge._memo.clear()
    llama = judge._llm._model().llama
    llama.n_tokens = 0


def head_tokens(judge: ReaderJudge, source: str) -> int:
    """Tokens of the reader's rendered head for ``source`` (system prompt, template, numbered source)."""
    llama = judge._llm._model().llama
    render = judge._llm._renderer(llama)
    head = prompts.source_head(judge.drafts(source, "x").sentences)
    prompt = render(prompts.SYSTEM, head + "TAIL")
    cut = prompt.find(head) + len(head)
    return len(llama.tokenize(prompt[:cut].encode("utf-8"), add_bos=True, special=True))


def measure_rate(judge: ReaderJudge, source: str, rounds: int) -> dict[str, float]:
    llama = judge._llm._model().llama
    render = judge._llm._renderer(llama)
    head = prompts.source_head(judge.drafts(source, "x").sentences)
    tokens = llama.tokenize(render(prompts.SYSTEM, head).encode("utf-8"), add_bos=True, special=True)
    tail = llama.tokenize(prompts.claim_tail("The council approved the new library on Tuesday.").encode("utf-8"), add_bos=False, special=True)
    rates, tail_rates = [], []
    for _ in range(rounds):
        llama.n_tokens = 0
        t0 = time.perf_counter()
        llama.eval(tokens)
        rates.append(len(tokens) / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for _ in range(5):
            llama.n_tokens = len(tokens)
            llama.eval(tail)
        tail_rates.append(5 * len(tail) / (time.perf_counter() - t0))
    llama.n_tokens = 0
    return {"rate": statistics.median(rates), "rates": [round(r, 1) for r in rates], "head_tokens": len(tokens),
            "tail_rate": statistics.median(tail_rates), "tail_tokens": len(tail)}


def pairs(judge: ReaderJudge, rows: list[dict[str, Any]], rate: float, whole: bool) -> list[dict[str, Any]]:
    out = []
    scorer = create_summarization_scorer(judge) if whole else None
    for r in rows:
        _cold(judge)
        src = head_tokens(judge, r["source"])
        _cold(judge)
        t0 = time.perf_counter()
        evaluated = claims = 0
        for summary in (r["reference_summary"], r["edited_summary"]):
            if scorer is not None:
                res = scorer.run_sync(input=r["source"], output=summary)
                evaluated += res.usage.prompt_tokens - res.usage.cached_tokens
                claims += len(res.preprocess_step_result.alignment) + len(res.analyze_step_result.coverage)
            else:
                output, usage = judge.align(r["source"], summary)
                evaluated += usage.prompt_tokens - usage.cached_tokens
                claims += len(output.alignment)
        wall = time.perf_counter() - t0
        out.append({"pair_id": r["pair_id"], "source_tokens": src, "evaluated": evaluated, "verdicts": claims,
                    "wall": round(wall, 2), "overhead_ratio": round(wall / (evaluated / rate), 3),
                    "source_ratio": round(wall / (src / rate), 3)})
        print(f"  pair {r['pair_id']}: {wall:.1f} s, {evaluated} tokens evaluated ({src} the source's), {claims} verdicts; "
              f"wall/(evaluated/rate) {out[-1]['overhead_ratio']:.2f}, wall/(source/rate) {out[-1]['source_ratio']:.2f}; load {_load()}",
              flush=True)
    return out


def sixteen(judge: ReaderJudge, source: str, summaries: list[str], rate: float) -> list[dict[str, Any]]:
    _cold(judge)
    scorer = create_summarization_scorer(judge)
    out = []
    for i, summary in enumerate(summaries):
        t0 = time.perf_counter()
        res = scorer.run_sync(input=source, output=summary)
        wall = time.perf_counter() - t0
        evaluated = res.usage.prompt_tokens - res.usage.cached_tokens
        out.append({"evaluated": evaluated, "wall": round(wall, 2), "wall_tokens": round(wall * rate),
                    "verdicts": len(res.preprocess_step_result.alignment) + len(res.analyze_step_result.coverage)})
        print(f"  summary {i + 1}: {wall:.1f} s = {wall * rate:.0f} tokens at the rate, {evaluated} evaluated, "
              f"{out[-1]['verdicts']} verdicts; load {_load()}", flush=True)
    return out


_CHILD = """
import json, sys, time
from pathlib import Path
from sumjudge.judges.base import ModelConfig
from sumjudge.judges.state_files import StateFiles
from sumjudge.summarization.reader.judge import ReaderJudge, state_identity
source, summary, folder = json.loads(sys.stdin.read())
judge = ReaderJudge("reader", ModelConfig(id="local/reader"))
judge._llm.files = StateFiles(lambda: state_identity(judge._model.digest(), 4096), 2**30, Path(folder))
judge._llm._model()
t0 = time.perf_counter()
output, usage = judge.align(source, summary)
print(json.dumps({"wall": round(time.perf_counter() - t0, 2), "evaluated": usage.prompt_tokens - usage.cached_tokens,
                  "p": [v.probability for v in output.alignment]}))
"""


def across(row: dict[str, Any]) -> list[dict[str, Any]]:
    import subprocess
    import sys
    import tempfile

    folder = tempfile.mkdtemp(prefix="reader-states-")
    out = []
    for summary in (row["reference_summary"], row["edited_summary"]):
        done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps([row["source"], summary, folder]),
                              capture_output=True, text=True, check=True)
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
        out[-1]["disk_bytes"] = sum(p.stat().st_size for p in Path(folder).glob("*.state"))
        print(f"  process {len(out)}: {out[-1]}; load {_load()}", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--pairs", type=int, default=8)
    ap.add_argument("--layouts", nargs="+", default=["source", "own"])
    ap.add_argument("--doc", default=None, help="SummEval doc_id (default: the first in the file)")
    ap.add_argument("--summaries", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--whole", type=int, default=1, help="1: also the whole evaluation of each pair (default layout)")
    ap.add_argument("--across", type=int, default=1, help="1: also two processes, the second restoring the first's source from disk")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    data = Path(args.data)
    extra = dict(kv.split("=", 1) for kv in args.set)
    print(f"load before: {_load()} (cpus {len(os.sched_getaffinity(0))})", flush=True)
    rows = [json.loads(line) for line in open(data / "bump_task1_pairs.jsonl", encoding="utf-8")][: args.pairs]
    judges = {layout: ReaderJudge("reader", ModelConfig(id="local/reader", extra={**extra, "layout": layout})) for layout in args.layouts}
    first = judges[args.layouts[0]]
    result: dict[str, Any] = {"load_before": _load()}
    result["rate"] = measure_rate(first, rows[0]["source"], args.rounds)
    rate = result["rate"]["rate"]
    print(f"rate: {rate:.1f} tokens/s reading a {result['rate']['head_tokens']}-token head (rounds {result['rate']['rates']}); "
          f"{result['rate']['tail_rate']:.1f} tokens/s for {result['rate']['tail_tokens']}-token tails after it", flush=True)
    for layout, judge in judges.items():
        print(f"BUMP pairs, alignment only, layout {layout}:", flush=True)
        result[f"pairs_{layout}"] = pairs(judge, rows, rate, whole=False)
    if args.whole:
        print(f"BUMP pairs, whole evaluations (alignment, questions, coverage), layout {args.layouts[0]}:", flush=True)
        result["pairs_whole"] = pairs(first, rows, rate, whole=True)
    docs = {d["doc_id"]: d["source"] for d in map(json.loads, open(data / "summeval_docs.jsonl", encoding="utf-8"))}
    summaries = [json.loads(line) for line in open(data / "summeval_summaries.jsonl", encoding="utf-8")]
    doc = args.doc or summaries[0]["doc_id"]
    mine = [s["summary"] for s in summaries if s["doc_id"] == doc][: args.summaries]
    if args.summaries:
        print(f"SummEval {doc}: {len(mine)} summaries of one source, whole evaluations, layout {args.layouts[0]}:", flush=True)
        result["sixteen"] = sixteen(first, docs[doc], mine, rate)
    if args.across:
        print("Across processes (states on disk), the first pair's source:", flush=True)
        result["across"] = across(rows[0])
    print("\nsummary (medians):")
    for key in [k for k in result if k.startswith("pairs_")]:
        p = result[key]
        print(f"  {key}: wall {statistics.median(x['wall'] for x in p):.1f} s, evaluated {statistics.median(x['evaluated'] for x in p):.0f} "
              f"tokens, wall/(evaluated/rate) {statistics.median(x['overhead_ratio'] for x in p):.2f}, "
              f"wall/(source/rate) {statistics.median(x['source_ratio'] for x in p):.2f}")
    if result.get("sixteen"):
        s = result["sixteen"]
        later = s[1:]
        print(f"  16 summaries: first {s[0]['wall']:.1f} s ({s[0]['evaluated']} evaluated); each further one median "
              f"{statistics.median(x['wall'] for x in later):.1f} s = {statistics.median(x['wall_tokens'] for x in later):.0f} "
              f"tokens at the rate, {statistics.median(x['evaluated'] for x in later):.0f} evaluated")
    result["load_after"] = _load()
    result["max_rss_gb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024, 2)
    print(f"max RSS {result['max_rss_gb']} GB; load after: {result['load_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
