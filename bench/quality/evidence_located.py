"""How often a judge's quotes hold up, and what checking them costs.

Scores the first --limit rows of a JSONL file (``source`` and ``summary``, or BUMP's
``edited_summary`` with --summary-field) with --model, then counts every verdict's evidence: verified
or not, and for each claim judged supported where its quote was found (exact, normalised, fuzzy), or
that it came from the summary, from nowhere, or was empty. The locating itself is timed apart
(every verdict checked again, the judge not called): the scorer's added cost per verdict.

    python bench/quality/evidence_located.py /work/shared/data/bump_task1_pairs.jsonl --summary-field edited_summary \
        --model offline/lexical --limit 100
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from sumjudge import create_summarization_scorer
from sumjudge.summarization.quotes import clean_quote, locate, verify_alignment, verify_coverage


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("--model", default="offline/lexical")
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--summary-field", default="summary")
    args = ap.parse_args()
    rows = []
    with open(args.data, encoding="utf-8") as fh:
        for line in fh:
            if len(rows) >= args.limit:
                break
            rec = json.loads(line)
            rows.append((rec["source"], rec[args.summary_field]))
    scorer = create_summarization_scorer(args.model)
    started = time.perf_counter()
    results = [scorer.run_sync(input=s, output=m) for s, m in rows]
    scoring = time.perf_counter() - started
    kinds: Counter[str] = Counter()
    verified = checked = 0
    for (source, summary), r in zip(rows, results):
        verdicts = [*r.preprocess_step_result.alignment, *r.analyze_step_result.coverage]
        checked += len(verdicts)
        verified += sum(1 for v in verdicts if v.verified)
        for c in r.preprocess_step_result.alignment:
            if not c.supported:
                continue
            q = clean_quote(c.quote)
            found = locate(q, source) if q else None
            if not q:
                kinds["supported, no quote"] += 1
            elif found is not None and c.verified:
                kinds[f"supported, found in the source ({found.match})"] += 1
            elif locate(q, summary) is not None:
                kinds["supported, quoted from the summary"] += 1
            else:
                kinds["supported, quote found nowhere"] += 1
    started = time.perf_counter()
    n = 0
    for (source, summary), r in zip(rows, results):
        for c in r.preprocess_step_result.alignment:
            verify_alignment(c, source, summary)
            n += 1
        for v in r.analyze_step_result.coverage:
            verify_coverage(v, summary)
            n += 1
    locating = time.perf_counter() - started
    print(f"model {args.model}, {len(rows)} items, scored in {scoring:.1f} s")
    print(f"evidence located for {verified / checked:.1%} of verdicts ({verified} of {checked})")
    for kind, count in sorted(kinds.items()):
        print(f"  {kind}: {count}")
    print(f"locating: {locating / max(n, 1) * 1e3:.3f} ms per verdict over {n} verdicts")


if __name__ == "__main__":
    main()
