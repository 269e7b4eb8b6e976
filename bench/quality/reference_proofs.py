"""Human references as faithful summaries: how many the offline judge finds fully supported, and
every claim it calls unsupported, with its reason, to be read one by one.

    python bench/quality/reference_proofs.py DATA/summeval_docs.jsonl [--half tune|held|all] [--out FILE]
                                     [--kind KIND]
    python bench/quality/reference_proofs.py DATA/realsumm_docs.jsonl ...   # one reference per article

A second corpus for "references fully supported" and "when it says unsupported, it is
right": BUMP's references chose the rules; SummEval's 11 references per article (the CNN/DailyMail
highlight and ten written by annotators from the article) did not. Documents are split in two halves
by ``sha256(doc_id)``, as bench/quality/bump_pairs.py splits articles: rules are chosen on ``tune``, ``held``
is reported. REALSumm's file (one CNN/DailyMail highlight per article, ``reference``) reads the same
way. ``--out`` writes one block per unsupported claim (document/reference, the claim, the
reason) to read and mark; the printed lines count references, claims and the proofs by kind.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of

from sumjudge.summarization.offline.lexical import LexicalJudge

KINDS = {
    "number or name the source lacks": "does not occur in the source",
    "name from elsewhere in another's place": "but not in the passage that states the rest",
    "number in another number's place": "where the claim puts it the passage says",
    "negation": "negation differs",
    "antonym": "contradicts",
    "role swap": "swap roles",
    "pronoun with no one before it": "points back to no one",
    "pronoun of the other gender": "does not fit the passage",
}


def kind_of(reason: str) -> str:
    first = reason.split("; ")[0]
    return next((k for k, cue in KINDS.items() if cue in first), "other")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--half", choices=["tune", "held", "all"], default="all")
    ap.add_argument("--out", help="write the unsupported claims with their reasons here")
    ap.add_argument("--kind", help="only list claims whose first reason is of this kind (see KINDS)")
    a = ap.parse_args()
    judge = LexicalJudge()
    refs = full = claims = 0
    kinds: Counter[str] = Counter()
    lines: list[str] = []
    for doc in map(json.loads, Path(a.data).read_text().splitlines()):
        if a.half != "all" and half_of(doc["doc_id"]) != a.half:
            continue
        refs_of = doc["references"] if "references" in doc else [doc["reference"]]
        for i, ref in enumerate(refs_of):
            verdicts = judge.align(doc["source"], ref).alignment
            refs += 1
            claims += len(verdicts)
            wrong = [v for v in verdicts if not v.supported]
            full += not wrong
            for v in wrong:
                k = kind_of(v.reason)
                kinds[k] += 1
                if a.kind is None or a.kind == k:
                    lines.append(f"{doc['doc_id']}/{i} [{k}] {v.claim}\n    {v.reason}\n")
    unsupported = sum(kinds.values())
    print(f"{a.half}: {refs} references, fully supported {full} ({full / refs:.1%}); "
          f"{claims} claims, unsupported {unsupported} ({unsupported / claims:.1%})")
    for k, n in kinds.most_common():
        print(f"  {n:4d}  {k}")
    if a.out:
        Path(a.out).write_text("\n".join(lines))


if __name__ == "__main__":
    main()
