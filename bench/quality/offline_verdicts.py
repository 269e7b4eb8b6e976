"""Every verdict of the offline judge on SummEval and REALSumm, as one fingerprint per data set.

    python bench/quality/offline_verdicts.py [--out FILE] [--only summeval|realsumm]

Calls the judge directly (alignment, questions once per source, coverage) and prints a SHA-256 of
all claims, questions, verdicts and reasons per data set, so that a change meant only to make the
judge faster can be shown to change no verdict (same fingerprint before and after). ``--out``
writes the verdicts themselves as JSON lines, for a diff when the fingerprints differ.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import time

from sumjudge.summarization.offline.lexical import LexicalJudge

D = os.environ.get("SUMJUDGE_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data"))
SETS = {
    "summeval": ("summeval_docs.jsonl", "summeval_summaries.jsonl"),
    "realsumm": ("realsumm_docs.jsonl", "realsumm_keyfact_labels.jsonl"),
}

ap = argparse.ArgumentParser()
ap.add_argument("--out")
ap.add_argument("--only", choices=sorted(SETS))
args = ap.parse_args()
out = open(args.out, "w") if args.out else None
for name, (docs_file, rows_file) in SETS.items():
    if args.only and name != args.only:
        continue
    docs = {}
    for line in open(os.path.join(D, docs_file)):
        d = json.loads(line)
        docs[d["doc_id"]] = d["source"]
    judge = LexicalJudge()
    digest = hashlib.sha256()
    questions: dict[str, list[str]] = {}
    t = time.perf_counter()
    n = 0
    for line in open(os.path.join(D, rows_file)):
        r = json.loads(line)
        src = docs[r["doc_id"]]
        if src not in questions:
            questions[src] = judge.questions(src, 10).questions
        rec = {
            "doc": r["doc_id"],
            "align": [v.model_dump() for v in judge.align(src, r["summary"]).alignment],
            "questions": questions[src],
            "cover": [v.model_dump() for v in judge.cover(questions[src], r["summary"]).coverage],
        }
        text = json.dumps(rec, sort_keys=True, ensure_ascii=False)
        digest.update(text.encode())
        if out:
            out.write(text + "\n")
        n += 1
    print(f"{name}: {n} summaries, verdicts sha256 {digest.hexdigest()[:16]} ({time.perf_counter() - t:.0f} s)")
