"""How far can `sumjudge probe` detection go when the score is the lower of alignment and coverage?

    python bench/quality/probe_bound.py /tmp/bump_refs.jsonl [--judge offline/lexical]

For each alignment kind of the probe (seed 0, as `sumjudge probe` makes them), on each row: the
original's alignment and coverage (the scorer with the judge, as the probe scores it), and the best an alignment judge
could do on the variant: the changed claim found unsupported, every other verdict as on the original
(alignment (supported - 1) / claims). A variant is *detectable by alignment alone* when that best
case falls below the original's score, min(alignment, coverage): otherwise the score can fall only
if coverage falls too. Rows: the probe's input (``--id-field article_id``; see docs/results.md).
"""
from __future__ import annotations

import argparse
import json

from sumjudge.analysis.probe.selection import make_variant
from sumjudge.analysis.probe.variants import ProbeRow
from sumjudge import create_summarization_scorer

KINDS = ("number", "date", "name_swap", "name_new", "negation")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", help="JSONL with article_id, source, summary")
    ap.add_argument("--judge", default="offline/lexical")
    args = ap.parse_args()
    scorer = create_summarization_scorer(args.judge)
    rows = [json.loads(line) for line in open(args.rows, encoding="utf-8")]
    scored = {}
    for r in rows:
        out = scorer.run_sync(input=r["source"], output=r["summary"])
        claims = out.preprocess_step_result.alignment
        scored[str(r["article_id"])] = (sum(v.supported for v in claims), len(claims), out.coverage_score)
    for kind in KINDS:
        n = alone = 0
        for r in rows:
            row = ProbeRow(id=str(r["article_id"]), source=r["source"], summary=r["summary"])
            if make_variant(kind, row, [], seed=0) is None:
                continue
            supported, claims, coverage = scored[row.id]
            if not claims:
                continue
            n += 1
            best = max(0, supported - 1) / claims
            alone += best < min(supported / claims, coverage) - 1e-9
        share = alone / max(1, n)
        print(f"{kind:10s} variants {n:3d}; detectable by alignment alone: {alone} ({share:.0%})")
    cover = [c for _, _, c in scored.values()]
    print(f"mean coverage of the originals {sum(cover) / len(cover):.2f}; "
          f"originals whose coverage is the lower axis: {sum(c < s / max(1, k) for s, k, c in scored.values())} of {len(cover)}")


if __name__ == "__main__":
    main()
