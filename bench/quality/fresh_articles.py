"""Does the score tell a good summary from a bad one on text nobody tuned to?

    python bench/quality/fresh_articles.py [--data DIR] [--judge offline/lexical] [--verbose]

Scores ``fresh_articles_dev.jsonl`` (short news articles, each with a careful person's faithful
summary and flawed versions of it: one factual error, the main event left out, an added detail)
and prints, per article, the score of each summary with its two axes, then:

- faithful summaries scoring at least 0.5;
- flawed summaries scoring below their article's faithful one;
- the shares of unchecked claims and unchecked questions.

``--verbose`` prints every question and verdict.
"""
from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from pathlib import Path

from sumjudge import SummarizationOptions, create_summarization_scorer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("SUMJUDGE_DATA_DIR", "../shared/data"))
    ap.add_argument("--file", default="fresh_articles_dev.jsonl")
    ap.add_argument("--judge", default="offline/lexical")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    items = [json.loads(x) for x in (Path(args.data) / args.file).read_text().splitlines() if x.strip()]
    scorer = create_summarization_scorer(model=args.judge)
    by_doc: dict[str, dict[str, object]] = defaultdict(dict)
    claims = unchecked_claims = questions = unchecked_questions = 0
    for item in items:
        r = scorer.run_sync(input=item["source"], output=item["summary"])
        by_doc[item["doc"]][item["kind"]] = r
        claims += len(r.preprocess_step_result.alignment)
        unchecked_claims += sum(v.unchecked for v in r.preprocess_step_result.alignment)
        questions += len(r.preprocess_step_result.questions)
        unchecked_questions += sum(v.unchecked for v in r.analyze_step_result.coverage)
        print(f"{item['id']:<40} score {r.score:.2f}  alignment {r.alignment_score:.2f}  coverage {r.coverage_score:.2f}")
        if args.verbose:
            for v in r.preprocess_step_result.alignment:
                mark = "?" if v.unchecked else ("+" if v.supported else "-")
                print(f"    {mark} {v.claim}\n        {v.reason[:220]}")
            for v in r.analyze_step_result.coverage:
                mark = "?" if v.unchecked else ("+" if v.answered else "-")
                print(f"    {mark} Q {v.question}\n        {v.reason[:220]}")
    faithful = [d["faithful"] for d in by_doc.values() if "faithful" in d]
    passing = sum(r.score >= 0.5 for r in faithful)  # type: ignore[attr-defined]
    flawed = below = 0
    for d in by_doc.values():
        good = d.get("faithful")
        for kind, r in d.items():
            if kind != "faithful" and good is not None:
                flawed += 1
                below += r.score < good.score  # type: ignore[attr-defined]
    print(f"\njudge {args.judge}: faithful >= 0.5: {passing} of {len(faithful)}; flawed below their faithful one: "
          f"{below} of {flawed}; unchecked claims {unchecked_claims} of {claims}, unchecked questions "
          f"{unchecked_questions} of {questions}")


if __name__ == "__main__":
    main()
