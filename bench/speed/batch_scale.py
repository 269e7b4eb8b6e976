"""Time and peak memory of `sumjudge score` on 1,000 and 10,000 items against the simulated judge.

Each size runs the real command in a fresh subprocess (so its peak RSS is its own, read with
``os.wait4``) against the project's Chat Completions test server (default summarization brain,
a fixed latency per request) in this process. Every item has its own source, so no questions
are shared. The run writes ``--out`` and ``--report``; a second, resumed run of the same command
(every item already finished: no judge call) is timed as well.

    .venv/bin/python bench/speed/batch_scale.py                  # 1,000 and 10,000 items
    .venv/bin/python bench/speed/batch_scale.py --sizes 1000 --latency 0.02 --concurrency 32
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from sumjudge.data.datasets import Dataset
from sumjudge.testing.judge_server import JudgeServer

WORDS = ("council approved homes river budget school station museum harbour bridge library market "
         "festival hospital tram garden").split()


def make_data(path: Path, n: int) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            sentences = [
                f"Item {i}: the {WORDS[(i + k) % len(WORDS)]} project number {i * 7 + k} was discussed on day {k}."
                for k in range(20)
            ]
            source = " ".join(sentences)  # about 1.6 kB
            summary = " ".join(sentences[:3])
            fh.write(json.dumps({"id": f"doc-{i}", "source": source, "summary": summary}) + "\n")


def validation_peak(path: Path) -> tuple[float, float]:
    """(seconds, peak MiB allocated by Python) of the validation pass alone, measured in this process."""
    tracemalloc.start()
    start = time.perf_counter()
    with Dataset(path) as dataset:
        dataset.validate()
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 2**20


def run_cli(args: list[str], env: dict[str, str]) -> tuple[float, int, int]:
    """(seconds, peak RSS in MiB, exit code) of one `sumjudge` subprocess."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "sumjudge.cli", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.stderr.write(err.decode(errors="replace")[-2000:])
    return seconds, usage.ru_maxrss // 1024, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--latency", type=float, default=0.02, help="seconds per judge request (server side)")
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()

    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"server: JudgeServer(latency={args.latency}), SummarizationBrain; --concurrency {args.concurrency}")
    print("| items | input (MB) | validation (s) | validation peak (MiB) | judge calls | wall (s) | items/s "
          "| peak RSS (MiB) | resumed re-run (s) | re-run RSS (MiB) | report (MB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp, JudgeServer(latency=args.latency, record=False) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "bench"}
        for n in args.sizes:
            base = Path(tmp) / str(n)
            base.mkdir()
            data = base / "data.jsonl"
            make_data(data, n)
            v_seconds, v_peak = validation_peak(data)
            cmd = ["score", str(data), "--model", "openai/test-model", "--concurrency", str(args.concurrency),
                   "--store", str(base / "runs.db"), "--out", str(base / "out.jsonl"),
                   "--report", str(base / "report.html"), "--quiet"]
            calls_before = server.chat_calls
            seconds, rss, code = run_cli(cmd, env)
            calls = server.chat_calls - calls_before
            again, rss_again, code_again = run_cli(cmd, env)
            assert code == 0 and code_again == 0, "the run failed"
            lines = sum(1 for _ in (base / "out.jsonl").open())
            assert lines == n, f"{lines} lines in --out for {n} items"
            assert server.chat_calls - calls_before == calls, "the resumed run called the judge"
            report_mb = (base / "report.html").stat().st_size / 1e6
            print(f"| {n:,} | {data.stat().st_size / 1e6:.1f} | {v_seconds:.2f} | {v_peak:.2f} | {calls:,} | {seconds:.1f} | {n / seconds:.0f} | {rss} | {again:.1f} | {rss_again} | {report_mb:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
