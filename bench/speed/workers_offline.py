"""Items per second of `sumjudge score --workers N` with the offline judge, and a million items projected.

Makes ``--items`` items (bench/speed/scale_data.py: each its own source, 20 sentences), then runs the real
command with each ``--workers`` value in turn, ``--rounds`` times, interleaved (1, 2, 1, 2, ...) so
that the other work on a shared machine weighs on every setting alike. Each run is fresh (its own run
store) and writes ``--out``; the lines of every run are checked to be the same bytes. It prints each
run (wall, items/s, the CPU seconds of the command and of its workers, sampled from /proc, and the load
average while it ran) and, per setting, the median items/s, its ratio to the first setting, and the time
a million items would take at that rate.

    .venv/bin/python bench/speed/workers_offline.py                          # 8,000 items, --workers 1 and 2, 2 rounds
    .venv/bin/python bench/speed/workers_offline.py --items 2000 --rounds 1
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from procs import tree  # noqa: E402
from scale_data import make_data  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def one_run(data: Path, base: Path, workers: int) -> dict[str, float | str]:
    out = base / f"out-{workers}-{time.monotonic_ns()}.jsonl"
    cmd = [sys.executable, "-m", "sumjudge.cli", "score", str(data), "--model", "offline/lexical",
           "--workers", str(workers), "--store", str(base / f"runs-{out.stem}.db"), "--out", str(out), "--quiet"]
    load0 = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    cpu: dict[int, float] = {}
    loads = [load0]
    while proc.poll() is None:
        for pid in {proc.pid, *tree(proc.pid)}:
            seconds = cpu_seconds(pid)
            if seconds is not None:
                cpu[pid] = max(cpu.get(pid, 0.0), seconds)
        loads.append(os.getloadavg()[0])
        time.sleep(0.25)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    assert proc.returncode == 0, err[-2000:]
    owner = cpu.pop(proc.pid, 0.0)
    digest = hashlib.sha256(out.read_bytes()).hexdigest()[:12]
    out.unlink()
    return {"wall": wall, "owner_cpu": owner, "worker_cpu": sum(cpu.values()), "load": statistics.mean(loads),
            "out": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=8000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs (affinity {len(os.sched_getaffinity(0))}), "
          f"Python {platform.python_version()}; {args.items:,} items, offline/lexical, --out written")
    print("| round | --workers | wall (s) | items/s | CPU s, command | CPU s, workers (sampled) | load average | --out sha256 |")
    print("|---:|---:|---:|---:|---:|---:|---:|:---|")
    rates: dict[int, list[float]] = {w: [] for w in args.workers}
    digests = set()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        data = base / "data.jsonl"
        make_data(data, args.items)
        for r in range(1, args.rounds + 1):
            for w in args.workers:
                run = one_run(data, base, w)
                rate = args.items / float(run["wall"])
                rates[w].append(rate)
                digests.add(run["out"])
                print(f"| {r} | {w} | {run['wall']:.1f} | {rate:.0f} | {run['owner_cpu']:.1f} | {run['worker_cpu']:.1f} "
                      f"| {run['load']:.1f} | {run['out']} |", flush=True)
    first = statistics.median(rates[args.workers[0]])
    print()
    print("| --workers | median items/s | vs --workers %d | a million items |" % args.workers[0])
    print("|---:|---:|---:|---:|")
    for w, values in rates.items():
        median = statistics.median(values)
        hours = 1e6 / median / 3600
        print(f"| {w} | {median:.0f} | {median / first:.2f}x | {hours:.1f} h |")
    print(f"\n--out identical across all runs: {len(digests) == 1}")


if __name__ == "__main__":
    main()
