"""Does the score tell a good summary from a bad one on text nobody tuned to?

    python bench/quality/fresh_articles.py [--data DIR] [--file F] [--judge offline/lexical] [--half tune|held|all]
        [--docs N] [--set KEY=VALUE] [--out records.jsonl] [--verbose]

Scores ``fresh_articles_dev.jsonl`` (short news articles, each with a careful person's faithful
summary and flawed versions of it: one factual error, the main event left out, an added detail)
and prints, per article, the score of each summary with its two axes, then:

- faithful summaries scoring at least 0.5;
- flawed summaries scoring below their article's faithful one;
- per kind of flaw, the summaries whose alignment is below their faithful one's (a wrong fact, an added
  detail: what alignment is for) and whose score is;
- the shares of unchecked claims and unchecked questions.

``--half``: the articles split by ``sha256(doc)`` parity, as the other benchmarks split theirs (choose
on ``tune``, report ``held``); ``--docs``: the first N articles of the half. ``--out``: each summary's
verdicts, for reading again without the model.

``--verbose`` prints every question and verdict.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of  # noqa: E402

from sumjudge import create_summarization_scorer  # noqa: E402
from sumjudge.judges.base import ModelConfig  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("SUMJUDGE_DATA_DIR", "../shared/data"))
    ap.add_argument("--file", default="fresh_articles_dev.jsonl")
    ap.add_argument("--judge", default="offline/lexical")
    ap.add_argument("--half", choices=("tune", "held", "all"), default="all")
    ap.add_argument("--docs", type=int, default=0, help="the first N articles of the half (0: all)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a judge option")
    ap.add_argument("--out", default="", help="append each summary's verdicts here (JSON lines)")
    ap.add_argument("--alignment-only", action="store_true",
                    help="the judge's alignment step alone (no questions, no coverage): a third of a reader's time")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    path = Path(args.file) if Path(args.file).exists() else Path(args.data) / args.file
    items = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    items = [i for i in items if args.half == "all" or half_of(i["doc"]) == args.half]
    if args.docs:
        keep = list(dict.fromkeys(i["doc"] for i in items))[: args.docs]
        items = [i for i in items if i["doc"] in keep]
    settings = dict(kv.split("=", 1) for kv in args.set)
    model = ModelConfig(id=args.judge, extra=settings) if settings else args.judge
    if args.alignment_only:
        _alignment_only(items, model, args.out)
        return
    scorer = create_summarization_scorer(model=model)
    by_doc: dict[str, dict[str, object]] = defaultdict(dict)
    claims = unchecked_claims = questions = unchecked_questions = 0
    for item in items:
        r = scorer.run_sync(input=item["source"], output=item["summary"])
        by_doc[item["doc"]][item["kind"]] = r
        claims += len(r.preprocess_step_result.alignment)
        unchecked_claims += sum(v.unchecked for v in r.preprocess_step_result.alignment)
        questions += len(r.preprocess_step_result.questions)
        unchecked_questions += sum(v.unchecked for v in r.analyze_step_result.coverage)
        print(f"{item['id']:<40} score {r.score:.2f}  alignment {r.alignment_score:.2f}  coverage {r.coverage_score:.2f}", flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(_record(item, r)) + "\n")
        if args.verbose:
            for v in r.preprocess_step_result.alignment:
                mark = "?" if v.unchecked else ("+" if v.supported else "-")
                print(f"    {mark} {v.claim}\n        {v.reason[:220]}")
            for v in r.analyze_step_result.coverage:
                mark = "?" if v.unchecked else ("+" if v.answered else "-")
                print(f"    {mark} Q {v.question}\n        {v.reason[:220]}")
    _kinds(by_doc)
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


def _alignment_only(items: list[dict[str, Any]], model: Any, out: str) -> None:
    """Each summary's alignment alone, then per kind of flaw: below the faithful summary's."""
    from sumjudge.judges.registry import resolve_judge

    judge = resolve_judge(model)
    by_doc: dict[str, dict[str, float]] = defaultdict(dict)
    for item in items:
        got = judge.align(item["source"], item["summary"])
        verdicts = (got[0] if isinstance(got, tuple) else got).alignment  # the reader adds its usage
        alignment = sum(v.supported for v in verdicts) / len(verdicts) if verdicts else 0.0
        by_doc[item["doc"]][item["kind"]] = alignment
        print(f"{item['id']:<40} alignment {alignment:.2f}", flush=True)
        if out:
            rec = {"id": item["id"], "doc": item["doc"], "kind": item["kind"], "alignment": alignment, "coverage": None,
                   "claims": [{"claim": v.claim, "supported": v.supported, "p": v.probability, "reason": v.reason}
                              for v in verdicts]}
            with open(out, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec) + "\n")
    for label, prefix in (("wrong fact", "error"), ("added detail", "added")):
        pairs = [(d["faithful"], a) for d in by_doc.values() if "faithful" in d for k, a in d.items() if k.startswith(prefix)]
        print(f"{label}: alignment below the faithful one's {sum(a < f for f, a in pairs)} of {len(pairs)}")


def _record(item: dict[str, Any], r: Any) -> dict[str, Any]:
    return {"id": item["id"], "doc": item["doc"], "kind": item["kind"], "score": r.score, "alignment": r.alignment_score,
            "coverage": r.coverage_score,
            "claims": [{"claim": v.claim, "supported": v.supported, "p": v.probability, "reason": v.reason}
                       for v in r.preprocess_step_result.alignment]}


def _kinds(by_doc: dict[str, dict[str, Any]]) -> None:
    """Per kind of flaw (an error, an omission, an added detail): below the faithful summary in alignment, in score."""
    groups = {"wrong fact": ("error",), "omission of the main event": ("omits",), "added detail": ("added",)}
    for label, prefixes in groups.items():
        pairs = [(d["faithful"], r) for d in by_doc.values() if "faithful" in d
                 for kind, r in d.items() if kind.startswith(prefixes)]
        if pairs:
            a = sum(r.alignment_score < f.alignment_score for f, r in pairs)
            sc = sum(r.score < f.score for f, r in pairs)
            print(f"{label}: alignment below the faithful one's {a} of {len(pairs)}; score below {sc} of {len(pairs)}")


if __name__ == "__main__":
    main()
