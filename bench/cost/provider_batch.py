"""Provider batches: a 1,000-item run through OpenAI's Batch API against the bundled server,
beside the same run through live calls.

    python bench/cost/provider_batch.py                 # 1,000 items, 250 sources
    python bench/cost/provider_batch.py --items 100     # a smoke run

The server (:class:`sumjudge.testing.judge_server.JudgeServer`, its files and batches endpoints, the
default brain) runs in this process; each client is ``sumjudge score`` in its own process, so the
client's own CPU time and peak memory are its ``getrusage`` figures (the server's work is not in them).
Printed: provider requests (batched lines and live calls), batch jobs and rounds, tokens, the billed
cost at list prices (genai-prices, as ``openai/gpt-4o-mini``) of the batch run against the live run,
the client's wall time, CPU time and peak RSS. Every item's verdicts are compared between the two runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sumjudge.report.batch_cost import billed_cost
from sumjudge.summarization.forecast import price
from sumjudge.store.provider_jobs import ProviderJobs
from sumjudge.testing.judge_server import JudgeServer

MODEL = "openai/gpt-4o-mini"


def write_data(path: Path, items: int, sources: int) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(items):
            s = i % sources
            source = (f"Report {s}. The bridge over the river opened in {1900 + s} after six years of work. "
                      f"It cost {s + 1} million dollars and carries {1000 + 7 * s} cars a day. ") * 4
            fh.write(json.dumps({"id": f"doc-{i:05d}", "source": source,
                                 "summary": f"Summary {i}: the bridge of report {s} opened in {1900 + s}; it cost {s + 1} million."}) + "\n")


def run_client(args: list[str], env: dict[str, str], log: Path) -> dict[str, float]:
    """One ``sumjudge score`` process: its wall time, CPU seconds and peak RSS (MiB), from its own rusage."""
    started = time.perf_counter()
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "sumjudge.cli", "score", *args], env=env,
                                stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"sumjudge score failed ({proc.returncode}):\n{log.read_text()[-3000:]}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_rss_mib": usage.ru_maxrss / 1024}


def verdicts(out: Path) -> list[tuple[str, object, object]]:
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return [(r["id"], r["score"], r["verdicts"]) for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--sources", type=int, default=None, help="distinct sources (default items / 4)")
    parser.add_argument("--poll-interval", type=float, default=0.2)
    opts = parser.parse_args()
    sources = opts.sources or max(1, opts.items // 4)
    tmp = Path(tempfile.mkdtemp(prefix="sumjudge-batch-bench-"))
    data = tmp / "data.jsonl"
    write_data(data, opts.items, sources)
    figures: dict[str, dict[str, float]] = {}
    with JudgeServer(record=False) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "bench"}
        common = [str(data), "--model", MODEL, "--concurrency", "16", "--quiet"]
        figures["batch"] = run_client([*common, "--store", str(tmp / "batch.db"), "--out", str(tmp / "batch.jsonl"),
                                       "--batch", "--poll-interval", str(opts.poll_interval)], env,
                                      tmp / "batch.log")
        desk = server.batches
        lines, jobs_created = len(desk.line_requests), len(desk.jobs)
        live_before = server.chat_calls - lines
        figures["live"] = run_client([*common, "--store", str(tmp / "live.db"), "--out", str(tmp / "live.jsonl")], env,
                                     tmp / "live.log")
        live_calls = server.chat_calls - lines - live_before
    run_id = sqlite3.connect(tmp / "batch.db").execute("SELECT id FROM runs").fetchone()[0]
    with ProviderJobs(tmp / "batch.db", readonly=True) as jobs:
        usage = jobs.usage(run_id)
        rounds = sorted({j.round for j in jobs.jobs(run_id)})
    assert usage is not None
    batch_cost, same_tokens_live, note = billed_cost(MODEL, usage)
    live_db = sqlite3.connect(tmp / "live.db")
    live_tokens = live_db.execute("SELECT SUM(json_extract(record, '$.usage.prompt_tokens')),"
                                  " SUM(json_extract(record, '$.usage.completion_tokens')) FROM items").fetchone()
    live_cost, _ = price(MODEL, live_tokens[0], live_tokens[1])
    same = verdicts(tmp / "batch.jsonl") == verdicts(tmp / "live.jsonl")

    print(f"items {opts.items:,}, sources {sources:,}, model {MODEL} (bundled server), poll interval {opts.poll_interval}s")
    print()
    print("| | live calls | --batch |")
    print("|---|---:|---:|")
    print(f"| provider requests | {live_calls:,} calls | {lines:,} lines in {jobs_created} jobs |")
    print(f"| batch rounds | - | {len(rounds)} |")
    print(f"| prompt + completion tokens | {live_tokens[0]:,} + {live_tokens[1]:,} | {usage.prompt_tokens:,} + {usage.completion_tokens:,} |")
    print(f"| billed cost (list prices) | ${live_cost:.4f} | ${batch_cost:.4f} |")
    print(f"| batch / live cost | 1 | {float(batch_cost / live_cost):.3f} |")
    for key, label in (("wall_s", "client wall time (s)"), ("cpu_s", "client CPU time (s)")):
        print(f"| {label} | {figures['live'][key]:.1f} | {figures['batch'][key]:.1f} |")
    print(f"| client peak RSS (MiB) | {figures['live']['peak_rss_mib']:.0f} | {figures['batch']['peak_rss_mib']:.0f} |")
    print()
    print(f"same verdicts for every item: {same}; price note: {note}")


if __name__ == "__main__":
    main()
