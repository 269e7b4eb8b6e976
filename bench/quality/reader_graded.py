"""How the reader's graded alignment is made from its claims' P, and what each way does to the two
measures that ask for it: SummEval's per-document Spearman with the experts' consistency (and
relevance), and BUMP task 1's "edited summary strictly lower" (beside its references fully
supported, which no way of grading changes). From the verdicts that
``calibration_halves.py --scores FILE`` stored (no model run but ``--passages``), halves by article (``half_of``):

    python bench/quality/reader_graded.py ../shared/data --scores /tmp/reader_cal2.jsonl
    python bench/quality/reader_graded.py ../shared/data --scores /tmp/reader_cal2.jsonl --passages 1 --half tune

Each way, per summary, over its claims (a claim's P is its verdict's probability; a verdict without
one counts 1 when supported, 0 when not):

- ``mean``: the mean P (the scorer's graded alignment);
- ``counted``: the share of claims supported;
- ``saturated c``: the mean of min(1, P / c): every claim at c or above counts as fully supported, so
  faithful summaries tie, as the experts' 5s do;
- ``saturated c +tiebreak``: the same plus 0.01 times the mean P (no two summaries tie);
- with ``--passages 1``, ``passage``: the mean of logit(P) minus the logit of the P that the model
  gives the claim's best passage of the source asked as a claim (the model is loaded; each passage
  asked after the same source head the claims were read after, once a source).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of  # noqa: E402
from calibration_halves import sets  # noqa: E402

Claim = list  # [probability or None, unchecked, supported, decided by a rule]


def _p(c: Claim) -> float:
    return float(c[0]) if c[0] is not None else float(c[2])


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def ways(passages: bool) -> dict[str, Callable[[list[Claim], list[float]], float]]:
    out: dict[str, Callable[[list[Claim], list[float]], float]] = {
        "mean": lambda cs, _: float(np.mean([_p(c) for c in cs])),
        "counted": lambda cs, _: float(np.mean([float(c[2]) for c in cs])),
    }
    for cut in (0.9, 0.8, 0.75):
        out[f"saturated {cut:g}"] = lambda cs, _, cut=cut: float(np.mean([min(1.0, _p(c) / cut) for c in cs]))
        out[f"saturated {cut:g} +tiebreak"] = lambda cs, _, cut=cut: float(
            np.mean([min(1.0, _p(c) / cut) for c in cs]) + 0.01 * np.mean([_p(c) for c in cs]))
    if passages:
        out["passage"] = lambda cs, pp: float(np.mean([_logit(_p(c)) - _logit(q) for c, q in zip(cs, pp)]))
    return out


class PassageReader:
    """The model's P for each claim's best passage, asked as a claim after the source (the claims' own head)."""

    def __init__(self) -> None:
        from sumjudge.judges.base import ModelConfig
        from sumjudge.summarization.reader import prompts
        from sumjudge.summarization.reader.judge import ReaderJudge

        self.prompts = prompts
        self.judge = ReaderJudge("reader", ModelConfig(id="local/reader"))

    def __call__(self, source: str, summary: str, n_claims: int) -> list[float]:
        drafts = self.judge.drafts(source, summary)
        if len(drafts.claims) != n_claims:  # stored with other drafts: not comparable
            return []
        texts = [" ".join(drafts.sentences[c.passages[0].start : c.passages[0].end]) if c.passages else c.text
                 for c in drafts.claims]
        head = self.prompts.source_head(drafts.sentences)
        answers, _ = self.judge._ask_after(head, [self.prompts.claim_tail(t) for t in texts], self.prompts.SYSTEM)
        return [a.p_yes for a in answers]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--scores", type=Path, required=True, help="the verdicts calibration_halves.py stored")
    ap.add_argument("--judge", default="local/reader")
    ap.add_argument("--half", choices=["tune", "held", "both"], default="both")
    ap.add_argument("--passages", type=int, default=0, help="1: also the claim against its passage (loads the model)")
    args = ap.parse_args()
    stored = {e["key"]: e for e in map(json.loads, args.scores.open(encoding="utf-8"))}
    rows = sets(args.data, None)
    read = PassageReader() if args.passages else None
    made = ways(bool(args.passages))
    halves = ["tune", "held"] if args.half == "both" else [args.half]

    def numbers(set_name: str, row: dict) -> dict[str, float] | None:
        entry = stored.get(f"{args.judge}|{set_name}|{row['id']}")  # as calibration_halves.py keys it
        if entry is None or half_of(row["group"]) not in halves:
            return None
        claims = entry["claims"]
        if not claims:
            return dict.fromkeys(made, 0.0)
        pp = read(row["source"], row["summary"], len(claims)) if read is not None else [0.5] * len(claims)
        if not pp:
            return None
        return {name: way(claims, pp) for name, way in made.items()}

    summeval = [(r, numbers("summeval", r)) for r in rows["summeval-consistency"]]
    relevance = {r["id"]: r["rating"] for r in rows["summeval-relevance"]}
    bump = {r["id"]: (r, numbers("bump", r)) for r in rows["bump"]}
    # a reference is stored once an article (its first pair's id): each edit is set against that one
    reference_of = {(r["group"], r["summary"]): r["id"] for r in reversed(rows["bump"]) if r["id"].endswith(":reference")}
    raw = {f"{r['pair_id']}:edited": reference_of[(r["article_id"], r["reference_summary"])]
           for r in map(json.loads, (args.data / "bump_task1_pairs.jsonl").open(encoding="utf-8"))}
    for half in halves:
        references = [all(c[2] for c in stored[f"{args.judge}|bump|{r['id']}"]["claims"]) for r, got in bump.values()
                      if r["id"].endswith(":reference") and got is not None and half_of(r["group"]) == half]
        print(f"\n{half} half: BUMP references fully supported {sum(references)} of {len(references)}")
        for name in made:
            rho: dict[str, list[float]] = {"consistency": [], "relevance": []}
            docs: dict[object, list[tuple[float, float, float]]] = {}
            for r, got in summeval:
                if got is not None and half_of(r["group"]) == half:
                    docs.setdefault(r["group"], []).append((r["rating"], relevance[r["id"]], got[name]))
            for items in docs.values():
                cons, rel, x = map(np.array, zip(*items))
                for key, human in (("consistency", cons), ("relevance", rel)):
                    if len(set(x)) > 1 and len(set(human)) > 1:  # undefined where either side is constant
                        rho[key].append(float(spearmanr(human, x).statistic))
            lower = ties = pairs = 0
            for pid, (r, got) in bump.items():
                if not pid.endswith(":edited") or got is None or half_of(r["group"]) != half:
                    continue
                ref = bump.get(raw[pid], (None, None))[1]
                if ref is not None:
                    pairs += 1
                    lower += got[name] < ref[name]
                    ties += got[name] == ref[name]
            c, v = (f"{np.mean(rho[k]):.3f}" if rho[k] else "-" for k in ("consistency", "relevance"))
            bump_text = f"BUMP edited lower {lower / pairs:.3f} of {pairs} ({ties} ties)" if pairs else "BUMP -"
            print(f"  {name:24s} SummEval rho consistency {c}, relevance {v} ({len(rho['consistency'])} documents); {bump_text}")


if __name__ == "__main__":
    main()
