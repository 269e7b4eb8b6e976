"""Items per second of ``sumjudge.integrations.ray.score_dataset`` on a local Ray instance, and a check
that it gives exactly the scores of ``run_evals`` on the same rows.

The rows: the 1,600 SummEval system summaries, then the first references of each document until
there are ``--items`` (2,000: 400 references), each scored against its article by the offline
judge (deterministic, CPU-bound: the case where more actors can only help as far as there are
cores). ``ray.init`` is timed apart; the time of each Ray run is the whole job (actors' start-up,
the sort by source, scoring, collecting the rows). run_evals runs in this process, one event loop.

    SUMJUDGE_DATA_DIR=../shared/data .venv/bin/python bench/speed/ray_throughput.py [--items 2000] [--actors 1 2]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from sumjudge import create_summarization_scorer, run_evals_sync


def summeval_rows(data: Path, items: int) -> list[dict[str, Any]]:
    docs = [json.loads(line) for line in (data / "summeval_docs.jsonl").read_text().splitlines() if line.strip()]
    source = {d["doc_id"]: d["source"] for d in docs}
    rows = []
    for line in (data / "summeval_summaries.jsonl").read_text().splitlines():
        s = json.loads(line)
        rows.append({"id": f"{s['doc_id']}/{s['system_id']}", "source": source[s["doc_id"]], "summary": s["summary"]})
    ref = 0
    while len(rows) < items:
        for d in docs:
            if len(rows) >= items:
                break
            rows.append({"id": f"{d['doc_id']}/ref{ref}", "source": d["source"], "summary": d["references"][ref]})
        ref += 1
    return rows[:items]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray instance")
    args = parser.parse_args()
    data = Path(os.environ.get("SUMJUDGE_DATA_DIR") or Path(__file__).resolve().parents[3] / "shared" / "data")
    rows = summeval_rows(data, args.items)
    print(f"{len(rows)} SummEval items ({len({r['source'] for r in rows})} sources), offline/lexical judge")

    scorer = create_summarization_scorer(model="offline/lexical")
    start = time.perf_counter()
    evals = run_evals_sync([{"id": r["id"], "input": r["source"], "output": r["summary"]} for r in rows], [scorer])
    took = time.perf_counter() - start
    frame = evals.to_pandas()
    expected = dict(zip(frame["id"], frame["score"]))
    print(f"run_evals (this process):  {took:6.1f} s  {len(rows) / took:6.1f} items/s")

    import ray

    from sumjudge.integrations.ray import score_dataset

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    start = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, object_store_memory=512 * 1024**2, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    print(f"ray.init (local, {args.cpus} CPUs): {time.perf_counter() - start:.1f} s")
    try:
        for actors in args.actors:
            ds = ray.data.from_items(rows, override_num_blocks=8)
            start = time.perf_counter()
            out = score_dataset(ds, model="offline/lexical", concurrency=actors).to_pandas()
            took = time.perf_counter() - start
            got = dict(zip(out["id"], out["score"]))
            same = got == expected
            errors = int(out["error"].notna().sum())
            print(
                f"score_dataset, {actors} actor(s): {took:6.1f} s  {len(rows) / took:6.1f} items/s  "
                f"(actor start-up and the sort by source included)  errors {errors}  "
                f"scores equal run_evals: {same}"
            )
            if not same:
                differ = [k for k in expected if got.get(k) != expected[k]]
                print(f"  {len(differ)} differ, e.g. {differ[:3]}")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
