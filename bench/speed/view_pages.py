"""How long `sumjudge view`'s pages take on a large run, and `agreement --run` on many labels.

    .venv/bin/python bench/speed/view_pages.py --items 10000 --labels 2000

A store is made here (in a temporary folder) with two runs of ``--items`` items each (five claims and
five questions per item, synthetic verdicts, seeded scores), and ``--labels`` items labelled by two
reviewers (every claim and answer, and a rating). Each page is requested through Starlette's
TestClient (in process: the app's own time, no network), ``--repeat`` times, and the median is
printed in milliseconds; the runs page is timed cold (each run's bootstrap interval computed) and warm
(kept). Then the label agreement (``measure_label_agreement``, as `agreement --run` runs it) is timed
once. Figures are machine-dependent: see docs/results.md for what they were and where.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def record(item_id: str, score: float) -> dict:
    claims = [{"claim": f"claim {k} of {item_id}", "supported": k > 0 or score > 0.5, "reason": "because"} for k in range(5)]
    questions = [f"question {k}?" for k in range(5)]
    coverage = [{"question": q, "answered": k < 4, "reason": "because"} for k, q in enumerate(questions)]
    return {"id": item_id, "score": score, "alignment_score": score, "coverage_score": 0.8, "reason": "r",
            "verdicts": {"alignment": claims, "questions": questions, "coverage": coverage},
            "usage": {"prompt_tokens": 1000, "completion_tokens": 200, "calls": 3}}


def make_store(folder: Path, items: int, labelled: int) -> tuple[Path, str, str]:
    from sumjudge.store.database import RunStore
    from sumjudge.store.labels import LabelBook
    from sumjudge.store.records import outcome_from_json

    rng = random.Random(7)
    path = folder / "runs.db"
    ids = []
    with RunStore(path) as store:
        for _ in range(2):
            run, _ = store.open_run(model="m/x", options={"scale": 1}, data="d.jsonl", fingerprint="f", total_items=items,
                                    resume=False)
            for n in range(items):
                store.record_item(run.id, n + 1, outcome_from_json(record(f"doc-{n}", round(rng.random(), 2))))
            store.finish_run(run.id)
            ids.append(run.id)
        book = LabelBook(store)
        for n in range(labelled):
            for who in ("ann", "bob"):
                for k in range(5):
                    book.mark(ids[0], f"doc-{n}", who, "claim", k, text=f"claim {k} of doc-{n}", judge_says=k > 0,
                              correct=rng.random() > 0.2)
                    book.mark(ids[0], f"doc-{n}", who, "answer", k, text=f"question {k}?", judge_says=k < 4,
                              correct=rng.random() > 0.1)
                book.rate(ids[0], f"doc-{n}", who, rating=rng.randint(1, 5))
    return path, ids[0], ids[1]


def median_ms(client, url: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        r = client.get(url)
        times.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, (url, r.status_code)
    return round(statistics.median(times), 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--items", type=int, default=10000)
    ap.add_argument("--labels", type=int, default=2000, help="items labelled (by two reviewers each)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from starlette.testclient import TestClient

    from sumjudge.analysis.labels import measure_label_agreement
    from sumjudge.store.database import RunStore
    from sumjudge.store.labels import LabelBook
    from sumjudge.store.item_lookup import item_rows
    from sumjudge.view.app import ViewSettings, create_app

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        store, a, b = make_store(Path(tmp), args.items, args.labels)
        built = time.perf_counter() - t
        client = TestClient(create_app(ViewSettings(store=store)))
        mid = f"doc-{args.items // 2}"
        out = {"commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
               "items": args.items, "labelled_items": args.labels, "store_built_s": round(built, 1)}
        out["runs_page_cold_ms"] = median_ms(client, "/", 1)
        out["runs_page_warm_ms"] = median_ms(client, "/", args.repeat)
        out["run_page_500_rows_ms"] = median_ms(client, f"/run/{a}?sort=score", args.repeat)
        out["run_page_all_rows_ms"] = median_ms(client, f"/run/{a}?sort=score&show=0", max(1, args.repeat // 2))
        out["item_page_ms"] = median_ms(client, f"/run/{a}/item?id={mid}&reviewer=ann", args.repeat)
        out["compare_page_ms"] = median_ms(client, f"/compare?a={a}&b={b}", max(1, args.repeat // 2))
        with RunStore(store, readonly=True) as s:
            book = LabelBook(s)
            t = time.perf_counter()
            verdicts, items = book.verdict_labels(a), book.item_labels(a)
            scores = {i.item_id: i.score for i in item_rows(s, a) if i.score is not None}
            report = measure_label_agreement(a, verdicts, items, scores)
            out["agreement_s"] = round(time.perf_counter() - t, 1)
            out["agreement_labels"] = len(verdicts) + len(items)
            out["kappa"] = report.kappa.value
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
