"""How long ``sumjudge calibrate`` takes on 1,000 labelled items of the offline judge (target: under a minute).

Scores SummEval's first N summaries with the offline judge into a fresh run store (not timed), writes
their consistency as 1-5 labels, then times the ``calibrate`` command itself: the verdicts and
probabilities are read from the store, no judge is called.

    .venv/bin/python bench/speed/calibrate_speed.py ../shared/data --items 1000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--items", type=int, default=1000)
    args = parser.parse_args()
    docs = {json.loads(x)["doc_id"]: json.loads(x)["source"] for x in (args.data / "summeval_docs.jsonl").open()}
    rows = [json.loads(x) for x in (args.data / "summeval_summaries.jsonl").open()][: args.items]
    sumjudge = str(Path(sys.executable).with_name("sumjudge"))
    with tempfile.TemporaryDirectory() as tmp:
        data, labels, store = Path(tmp, "d.jsonl"), Path(tmp, "l.jsonl"), str(Path(tmp, "runs.db"))
        data.write_text("".join(json.dumps({"id": f"{r['doc_id']}:{r['system_id']}", "source": docs[r["doc_id"]],
                                            "summary": r["summary"]}) + "\n" for r in rows), encoding="utf-8")
        labels.write_text("".join(json.dumps({"id": f"{r['doc_id']}:{r['system_id']}", "label": round(r["consistency"])})
                                  + "\n" for r in rows), encoding="utf-8")
        subprocess.run([sumjudge, "score", str(data), "--model", "offline/lexical", "--store", store, "--quiet"], check=True)
        run = json.loads(subprocess.run([sumjudge, "runs", "list", "--json", "--store", store], check=True,
                                        capture_output=True, text=True).stdout.splitlines()[0])["id"]
        start = time.perf_counter()
        done = subprocess.run([sumjudge, "calibrate", run, "--labels", str(labels), "--pass-at", "5", "--store", store,
                               "--out", str(Path(tmp, "cal.json"))], capture_output=True, text=True)
        took = time.perf_counter() - start
    print(done.stdout + done.stderr)
    load = os.getloadavg()[0]
    print(f"calibrate on {len(rows)} labelled items: {took:.1f} s (load {load:.2f} at the end)")


if __name__ == "__main__":
    main()
