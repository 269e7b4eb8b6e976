"""Does a judge tell a faithful Korean summary from a flawed one? The four targets of a Korean batch.

    python bench/quality/korean_targets.py [--data DIR] [--file FILE] [--judge offline/lexical] [--batch NAME] [--verbose]

Reads a file of Korean articles, each with four summaries (``kind``: ``faithful``; ``error``: one wrong
fact; ``omission``: the main event left out; ``unsupported``: one added detail), as
``fresh_articles_ko_dev.jsonl`` in the shared data folder or this folder's ``fresh_written_ko.jsonl``
(``--data bench/quality``), and prints each summary's score and axes, then the count of articles where

- the faithful summary scores at least 0.5;
- the summary without the main event scores below the faithful one;
- the wrong fact lowers alignment below the faithful summary's;
- the added detail lowers alignment below the faithful summary's.

``--batch``: only the items of one batch (``written-1``, ``written-2``: each scored first as it was
written, before anything was tuned on it). ``--verbose`` prints every claim and question with its verdict (+ held, - shown wrong, ? unchecked).
"""
from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from sumjudge import create_summarization_scorer


def _show(r: Any) -> None:
    for v in r.preprocess_step_result.alignment:
        mark = "?" if v.unchecked else ("+" if v.supported else "-")
        print(f"    {mark} {v.claim}\n        {v.reason[:240]}")
    for v in r.analyze_step_result.coverage:
        mark = "?" if v.unchecked else ("+" if v.answered else "-")
        print(f"    {mark} Q {v.question}\n        {v.reason[:240]}")


def score(scorer: Any, items: list[dict[str, Any]], verbose: bool = False) -> dict[str, dict[str, Any]]:
    """Each item's result by article and kind, printed as it is scored."""
    by_doc: dict[str, dict[str, Any]] = defaultdict(dict)
    for item in items:
        r = scorer.run_sync(input=item["source"], output=item["summary"])
        by_doc[item["doc"]][item["kind"]] = r
        print(f"{item['id']:<40} score {r.score:.2f}  alignment {r.alignment_score:.2f}  coverage {r.coverage_score:.2f}")
        if verbose:
            _show(r)
    return by_doc


def targets(by_doc: dict[str, dict[str, Any]]) -> str:
    """The four counts of articles meeting a target, as one line."""
    docs = [d for d in by_doc.values() if "faithful" in d]
    passing = sum(d["faithful"].score >= 0.5 for d in docs)
    omitted = sum(d["omission"].score < d["faithful"].score for d in docs if "omission" in d)
    wrong = sum(d["error"].alignment_score < d["faithful"].alignment_score for d in docs if "error" in d)
    added = sum(d["unsupported"].alignment_score < d["faithful"].alignment_score for d in docs if "unsupported" in d)
    n = len(docs)
    return (f"faithful >= 0.5: {passing} of {n}; omission below faithful: {omitted} of {n}; "
            f"wrong fact lowers alignment: {wrong} of {n}; added detail lowers alignment: {added} of {n}")


def read_items(data: str, name: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (Path(data) / name).read_text(encoding="utf-8").splitlines() if x.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("SUMJUDGE_DATA_DIR", "../shared/data"))
    ap.add_argument("--file", default="fresh_articles_ko_dev.jsonl")
    ap.add_argument("--judge", default="offline/lexical")
    ap.add_argument("--batch", default="", help="only this batch's items")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    items = [i for i in read_items(args.data, args.file) if not args.batch or i.get("batch") == args.batch]
    by_doc = score(create_summarization_scorer(model=args.judge), items, args.verbose)
    print(f"\njudge {args.judge} on {args.file} {args.batch}: {targets(by_doc)}")


if __name__ == "__main__":
    main()
