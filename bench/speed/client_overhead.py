"""The client's own work per judge call over HTTP, and how close a batch comes to the physical limit.

The side-by-side set-up of bench/peers/cost_latency.py (its items, its SizedBrain behind the bundled Chat
Completions server in this process, sumjudge in its own process via bench/peers/side_sumjudge.py), cut down
to two figures:

1. client CPU per item at zero latency: ``--items`` one-per-source items at ``--concurrency`` against a
   server that answers at once; the CPU time of sumjudge's process over the batch, divided by the items
   (best of ``--repeats`` runs: the machine is shared);
2. wall time of ``--wall-items`` items at ``--concurrency`` against a server that answers every request
   after ``--latency`` seconds, beside the physical limit: waves of ``--concurrency`` items, each two
   rounds of calls (alignment beside questions, then coverage), so ceil(items / concurrency) x 2 x latency.

``--logprobs P`` makes the server return token log-probabilities (each verdict written with probability
P), as OpenAI, vLLM and llama.cpp's server do when asked: what reading them costs the client.

``--profile FILE`` also runs the zero-latency batch under cProfile and prints the 30 functions with the
most own time (FILE keeps the pstats).

    .venv/bin/python bench/speed/client_overhead.py
    .venv/bin/python bench/speed/client_overhead.py --profile /tmp/client.pstats
    .venv/bin/python bench/speed/client_overhead.py --client-src /tmp/old/src     # an older checkout as the client
    .venv/bin/python bench/speed/client_overhead.py --logprobs 0.9                # replies carry token logprobs
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS = HERE.parent / "peers"  # cost_latency.py and side_sumjudge.py: the side-by-side set-up
sys.path[:0] = [str(PEERS), str(HERE.parent / "common")]

from cost_latency import DEFAULT_DATA, item_sets, offline_env  # noqa: E402
from sim_brain import SizedBrain  # noqa: E402

from sumjudge.testing.judge_server import JudgeServer  # noqa: E402


def side(items: list[dict[str, str]], base_url: str, concurrency: int, work: Path, profile: Path | None = None,
         client_src: Path | None = None) -> dict:
    path = work / "items.jsonl"
    path.write_text("".join(json.dumps(it) + "\n" for it in items), encoding="utf-8")
    cmd = [sys.executable]
    if profile is not None:
        cmd += ["-m", "cProfile", "-o", str(profile)]
    cmd += [str(PEERS / "side_sumjudge.py"), "--items", str(path), "--base-url", base_url,
            "--concurrency", str(concurrency), "--max-questions", "10"]
    env = offline_env()
    if client_src is not None:  # another checkout's sumjudge on the client side; the server stays this one
        env["PYTHONPATH"] = str(client_src)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=work, timeout=900)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"side_sumjudge failed:\n{proc.stderr[-3000:]}")
    result = json.loads(lines[-1])
    assert result["evaluated"] == len(items), result
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    p.add_argument("--items", type=int, default=100, help="items of the zero-latency batch")
    p.add_argument("--wall-items", type=int, default=20)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--latency", type=float, default=0.2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--profile", type=Path, default=None)
    p.add_argument("--client-src", type=Path, default=None,
                   help="score with the sumjudge package under this src/ folder (another checkout: a before/after "
                        "comparison against the same server)")
    p.add_argument("--logprobs", type=float, default=None, metavar="P",
                   help="the server returns token log-probabilities, each verdict written with probability P")
    args = p.parse_args()

    items = item_sets(args.data_dir, max(args.items, args.wall_items))["one-per-source"]
    brain = SizedBrain(questions=10)
    for it in items:
        brain.register(it["source"], it["summary"])
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory(prefix="sumjudge-bench-") as tmp, JudgeServer(brain, record=False) as server:
        work = Path(tmp)
        server.latency, server.token_delay = 0.0, 0.0
        server.logprobs = args.logprobs
        cpu = [side(items[: args.items], server.base_url, args.concurrency, work, client_src=args.client_src)["cpu_s"]
               / args.items * 1000
               for _ in range(args.repeats)]
        server.latency = args.latency
        walls = [side(items[: args.wall_items], server.base_url, args.concurrency, work, client_src=args.client_src)["wall_s"]
                 for _ in range(args.repeats)]
        limit = math.ceil(args.wall_items / args.concurrency) * 2 * args.latency
        print(f"client CPU per item at zero latency ({args.items} items, concurrency {args.concurrency}): "
              f"best {min(cpu):.1f} ms, median {statistics.median(cpu):.1f} ms (runs: {', '.join(f'{c:.1f}' for c in cpu)})")
        print(f"wall, {args.wall_items} items at concurrency {args.concurrency}, {args.latency} s a request: best "
              f"{min(walls):.2f} s, median {statistics.median(walls):.2f} s; physical limit {limit:.2f} s; "
              f"best / limit {min(walls) / limit:.2f}x (runs: {', '.join(f'{w:.2f}' for w in walls)})")
        if args.profile is not None:
            server.latency = 0.0
            side(items[: args.items], server.base_url, args.concurrency, work, profile=args.profile)
            stats = pstats.Stats(str(args.profile))
            stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
