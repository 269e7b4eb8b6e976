"""Peak memory of `sumjudge score` with the offline judge as the data grows: flat, not per item.

Each size runs the real command in a fresh subprocess on items that each have their own source and
words of their own (bench/speed/scale_data.py: the worst case for anything kept per source or per word),
and samples the resident memory of the command and of every process under it (its workers) from
/proc five times a second, keeping each process's peak (VmHWM, read again just before it ends). It
prints, per size, the peak of the owner process, the largest peak of a worker, and the owner's
resident memory when a quarter, half, three quarters and all of the items were committed, and when
the outputs were written (after scoring: the end-of-run statistics, --out and the report).

    .venv/bin/python bench/speed/memory_bound.py                         # 2,000, 8,000 and 50,000 items
    .venv/bin/python bench/speed/memory_bound.py --sizes 2000 --workers 2 --sentences 20
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from procs import tree  # noqa: E402
from scale_data import make_data  # noqa: E402


def mib(pid: int, field: str) -> int | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    return None


def committed(db: Path) -> int:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return int(con.execute("SELECT COUNT(*) FROM items").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def measure(n: int, base: Path, workers: int, sentences: int) -> dict[str, object]:
    data = base / "data.jsonl"
    make_data(data, n, sentences)
    cmd = [sys.executable, "-m", "sumjudge.cli", "score", str(data), "--model", "offline/lexical",
           "--workers", str(workers), "--store", str(base / "runs.db"), "--out", str(base / "out.jsonl"),
           "--report", str(base / "report.html"), "--quiet"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peaks: dict[int, int] = {}
    marks: dict[str, int] = {}
    quarters = [n // 4, n // 2, 3 * n // 4, n]
    while proc.poll() is None:
        for pid in {proc.pid, *tree(proc.pid)}:
            hwm = mib(pid, "VmHWM")
            if hwm is not None:
                peaks[pid] = max(peaks.get(pid, 0), hwm)
        if quarters:
            done = committed(base / "runs.db")
            while quarters and done >= quarters[0]:
                marks[f"{quarters.pop(0):,}"] = mib(proc.pid, "VmRSS") or 0
        time.sleep(0.2)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    assert proc.returncode == 0, err[-2000:]
    lines = sum(1 for _ in (base / "out.jsonl").open())
    assert lines == n, f"{lines} lines in --out for {n} items"
    owner = peaks.pop(proc.pid, 0)
    return {"n": n, "seconds": seconds, "owner": owner, "worker": max(peaks.values(), default=0), "marks": marks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000, 50000])
    parser.add_argument("--workers", type=int, default=1, help="--workers of the command (1: the owner scores)")
    parser.add_argument("--sentences", type=int, default=6, help="sentences per source (fewer: a quicker run)")
    args = parser.parse_args()
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"offline/lexical, --workers {args.workers}, {args.sentences} sentences a source, --out and --report written")
    print("| items | wall (s) | peak RSS, owner (MiB) | peak RSS, largest worker (MiB) | owner RSS as items commit (MiB) |")
    print("|---:|---:|---:|---:|:---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            base = Path(tmp) / str(n)
            base.mkdir()
            r = measure(n, base, args.workers, args.sentences)
            marks = ", ".join(f"{k}: {v}" for k, v in r["marks"].items())  # type: ignore[union-attr]
            worker = r["worker"] if args.workers > 1 else "-"
            print(f"| {n:,} | {r['seconds']:.0f} | {r['owner']} | {worker} | {marks} |", flush=True)


if __name__ == "__main__":
    main()
