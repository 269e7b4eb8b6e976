"""The reader's decision chosen again from runs already made, without the model: the contrast margin,
the threshold and the rule relative to the summary's other claims, each on the run files of a half.

    python bench/quality/reader.py bump DATA --half tune --pairs 16 --set contrast_margin=20 --out bump_tune.jsonl
    python bench/quality/reader.py summeval DATA --half tune --docs 5 --set contrast_margin=20 --out se_tune.jsonl
    python bench/quality/fresh_articles.py --file bench/quality/fresh_written.jsonl --judge local/reader --half tune \\
        --set contrast_margin=20 --out fresh_tune.jsonl
    python bench/quality/reader_contrast.py --bump bump_tune.jsonl --summeval se_tune.jsonl --fresh fresh_tune.jsonl

A run with ``contrast_margin=20`` (no alternative ever decides) keeps each claim's own P in its verdict and
its best alternative's P in its reason (three decimals), so every margin can be replayed from it. Per
(margin, threshold, relative) it prints BUMP's edited-lower (graded) and references fully supported,
SummEval's graded Spearman, and on the fresh articles: wrong facts and added details below their
faithful summary's alignment, faithful summaries >= 0.5. ``--against max|median|min``: which of the
summary's other claims' log-odds the relative rule sets a claim against (it needs ``--min-others``
other claims at least).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import consistency  # noqa: E402

_ALT = re.compile(r"best alternative from the source \(.*?best of \d+\) P = ([\d.]+)")
_OWN = re.compile(r"the claim P = ([\d.]+)")


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


PROOF_SCALE = 0.1
"""The runs' ``proof_scale`` (the default)."""
AGAINST = {"max": max, "median": statistics.median, "min": min}
OPTS = {"against": "max", "min_others": 1}
"""The relative rule's aggregate of the other claims and how many others it needs (set by main)."""


def replay(claims: list[dict[str, Any]], margin: float, threshold: float, relative: float | None) -> list[tuple[bool, float]]:
    """Each claim's (supported, P) under the rule: words first, then the contrast, then the threshold;
    ``relative``: also unsupported when its log-odds fall this far below the summary's other claims'
    (their max, median or min: ``OPTS``)."""
    own = []
    for c in claims:  # the model's own P: a claim the words prove wrong carries it times proof_scale
        m = _OWN.search(c["reason"])
        p = float(m.group(1)) if m else (c["p"] if c["p"] is not None else float(c["supported"]))
        own.append(p / PROOF_SCALE if c["reason"].startswith("not supported, shown by words") and not m else p)
    out = []
    for i, (c, pc) in enumerate(zip(claims, own)):
        if c["reason"].startswith("not supported, shown by words"):
            out.append((False, c["p"] if c["p"] is not None else 0.0))
            continue
        alt = _ALT.search(c["reason"])
        gap = _logit(float(alt.group(1))) - _logit(pc) if alt else -99.0
        if gap >= margin:
            out.append((False, min(pc, 1 / (1 + math.exp(gap)))))
            continue
        others = [_logit(p) for j, p in enumerate(own) if j != i]
        low = (relative is not None and len(others) >= int(OPTS["min_others"])
               and _logit(pc) <= AGAINST[str(OPTS["against"])](others) - relative)
        out.append((pc >= threshold and not low, pc))
    return out


def _axes(claims: list[dict[str, Any]], rule: tuple[float, float, float | None]) -> tuple[float, float]:
    """(graded, counted) alignment."""
    v = replay(claims, *rule)
    return (statistics.fmean(p for _, p in v), statistics.fmean(float(s) for s, _ in v)) if v else (0.0, 0.0)


def bump(recs: list[dict[str, Any]], rule: tuple[float, float, float | None]) -> str:
    graded, _, n = consistency((_axes(r["reference"], rule)[0], _axes(r["edited"], rule)[0]) for r in recs)
    refs = {r["article_id"]: r["reference"] for r in recs}
    full = statistics.fmean(_axes(cs, rule)[1] == 1.0 for cs in refs.values())
    flagged = statistics.fmean(_axes(r["edited"], rule)[1] < 1.0 for r in recs)
    return f"BUMP lower(graded) {graded:.3f} refs-full {full:.3f} edited-flagged {flagged:.3f} ({n} pairs, {len(refs)} refs)"


def summeval(recs: list[dict[str, Any]], rule: tuple[float, float, float | None]) -> str:
    from scipy.stats import spearmanr

    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in recs:
        by_doc[r["doc_id"]].append(r)
    rhos = {"graded": [], "counted": []}  # type: dict[str, list[float]]
    for rows in by_doc.values():
        ys = [r["consistency"] for r in rows]
        for k, name in ((0, "graded"), (1, "counted")):
            xs = [_axes(r["claims"], rule)[k] for r in rows]
            if len(set(xs)) > 1 and len(set(ys)) > 1:
                rhos[name].append(float(spearmanr(xs, ys).statistic))
    shown = " ".join(f"{k} {statistics.fmean(v):.3f}" if v else f"{k} n/a" for k, v in rhos.items())
    return f"SummEval rho {shown} ({len(by_doc)} docs)"


def fresh(recs: list[dict[str, Any]], rule: tuple[float, float, float | None]) -> str:
    by_doc: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in recs:
        by_doc[r["doc"]][r["kind"]] = r
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for d in by_doc.values():
        f = d.get("faithful")
        if f is None:
            continue
        fa = _axes(f["claims"], rule)[1]
        counts["faithful-alignment=1"][0] += fa == 1.0
        counts["faithful-alignment=1"][1] += 1
        if f["coverage"] is not None:
            counts["faithful>=.5"][0] += min(fa, f["coverage"]) >= 0.5
            counts["faithful>=.5"][1] += 1
        for kind, r in d.items():
            key = "error" if kind.startswith("error") else "added" if kind.startswith("added") else "omits" if kind.startswith("omits") else ""
            if key == "omits" and r["coverage"] is None:
                continue
            if key:
                ra = _axes(r["claims"], rule)[1]
                below = ra < fa if key != "omits" else min(ra, r["coverage"]) < min(fa, f["coverage"])
                counts[key][0] += below
                counts[key][1] += 1
    return "fresh " + " ".join(f"{k} {a}/{n}" for k, (a, n) in counts.items())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bump", nargs="*", default=[])
    ap.add_argument("--summeval", nargs="*", default=[])
    ap.add_argument("--fresh", nargs="*", default=[])
    ap.add_argument("--margins", default="0.5,1,1.5,2,3,99")
    ap.add_argument("--thresholds", default="0.5,0.7,0.8,0.85,0.9")
    ap.add_argument("--relatives", default="none,2,3,4")
    ap.add_argument("--against", choices=tuple(AGAINST), default="max")
    ap.add_argument("--min-others", type=int, default=1)
    args = ap.parse_args()
    OPTS.update(against=args.against, min_others=args.min_others)
    load = lambda files: [json.loads(x) for f in files for x in open(f, encoding="utf-8") if x.strip()]  # noqa: E731
    b, s, f = load(args.bump), load(args.summeval), load(args.fresh)
    grid = itertools.product([float(x) for x in args.margins.split(",")], [float(x) for x in args.thresholds.split(",")],
                             [None if x == "none" else float(x) for x in args.relatives.split(",")])
    for rule in grid:
        parts = [fn(recs, rule) for fn, recs in ((bump, b), (summeval, s), (fresh, f)) if recs]
        print(f"margin {rule[0]:g} threshold {rule[1]:g} relative {rule[2]}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
