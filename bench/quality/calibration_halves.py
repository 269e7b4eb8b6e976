"""Calibration measured on human judgments: fit on the tune half of each set, report the held half.

For each set the items are scored once by the judge (kept in ``--scores``, so a slow judge is not asked
twice), split into halves by article (``half_of`` of ``bump_pairs.py``), fitted on the tune half with
``sumjudge.analysis.calibration_fit.choose`` (what ``calibrate`` writes: the parameters the judge exposes,
where cross-validation by article on the tune half keeps them, and the bound), and the held half
reported before (the judge as shipped, bound at half the scale) and after: balanced accuracy of the
labels' pass/fail with a 95% bootstrap interval over held items, the paired gain, and Spearman with the
ratings where the set has them.

Pass/fail, fixed before any figure was seen: SummEval consistency >= 4.5 (of 5) and relevance >= 4;
REALSumm litepyramid recall >= 0.5; BUMP task 1 the reference passes, the edited summary fails; the fresh
articles' faithful summary passes, the flawed ones fail.

    .venv/bin/python bench/quality/calibration_halves.py ../shared/data
    .venv/bin/python bench/quality/calibration_halves.py ../shared/data --judge local/reader --limit 40 --scores /tmp/reader.jsonl
    .venv/bin/python bench/quality/calibration_halves.py ../shared/data --judge local/reader --sets bump --set-limit bump=112 --scores /tmp/reader.jsonl
    .venv/bin/python bench/quality/calibration_halves.py ../shared/data --judge local/reader --sets fresh --written bench/quality/fresh_written.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of  # noqa: E402

from sumjudge import create_summarization_scorer  # noqa: E402
from sumjudge.analysis.calibration_fit import (  # noqa: E402
    LightItem, Params, balanced_accuracy, choose, judge_kind, share,
)

Row = dict  # id, group, source, summary, passed, rating


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def sets(data: Path, limit: int | None, limits: dict[str, int] | None = None,
         written: Sequence[Path] = ()) -> dict[str, list[Row]]:
    """Each set's rows; ``limits`` (a set's name, or ``summeval`` for both of its sets) overrides ``limit``.
    ``written`` files (the fresh articles' shape) join the fresh set."""
    docs = {d["doc_id"]: d["source"] for d in _jsonl(data / "summeval_docs.jsonl")}
    summeval = _jsonl(data / "summeval_summaries.jsonl")
    out: dict[str, list[Row]] = {}
    for name, key, at in (("summeval-consistency", "consistency", 4.5), ("summeval-relevance", "relevance", 4.0)):
        out[name] = [{"id": f"{r['doc_id']}:{r['system_id']}", "group": r["doc_id"], "source": docs[r["doc_id"]],
                      "summary": r["summary"], "passed": r[key] >= at, "rating": r[key]} for r in summeval]
    rdocs = {d["doc_id"]: d["source"] for d in _jsonl(data / "realsumm_docs.jsonl")}
    out["realsumm"] = [{"id": f"{r['doc_id']}:{r['system_id']}", "group": r["doc_id"], "source": rdocs[r["doc_id"]],
                        "summary": r["summary"], "passed": r["litepyramid_recall"] >= 0.5, "rating": r["litepyramid_recall"]}
                       for r in _jsonl(data / "realsumm_keyfact_labels.jsonl") if r["doc_id"] in rdocs]
    bump = []
    for r in _jsonl(data / "bump_task1_pairs.jsonl"):
        bump.append({"id": f"{r['pair_id']}:edited", "group": r["article_id"], "source": r["source"],
                     "summary": r["edited_summary"], "passed": False, "rating": None})
        bump.append({"id": f"{r['pair_id']}:reference", "group": r["article_id"], "source": r["source"],
                     "summary": r["reference_summary"], "passed": True, "rating": None})
    out["bump"] = bump
    out["fresh"] = [{"id": r["id"], "group": r["doc"], "source": r["source"], "summary": r["summary"],
                     "passed": r["kind"] == "faithful", "rating": None}
                    for path in (data / "fresh_articles_dev.jsonl", *written) for r in _jsonl(path)]
    limits = limits or {}
    for name, rows in out.items():  # whole articles, a tune one and a held one in turn (a fixed order), until the limit
        cap = limits.get(name, limits.get(name.split("-")[0], limit))
        if cap:
            ordered = sorted({r["group"] for r in rows}, key=lambda g: str(g))
            tune = [g for g in ordered if half_of(g) == "tune"]
            held = [g for g in ordered if half_of(g) == "held"]
            groups = [g for pair in zip(tune, held) for g in pair]
            kept, n = set(), 0
            for g in groups:
                if n >= cap:
                    break
                kept.add(g)
                n += sum(1 for r in rows if r["group"] == g)
            out[name] = [r for r in rows if r["group"] in kept]
    # one row per distinct summary of an article (its first): BUMP repeats its reference once per edit,
    # REALSumm lists a system twice; a copy is no new evidence
    for name, rows in out.items():
        first = {(r["group"], r["summary"], r["passed"]): r for r in reversed(rows)}
        out[name] = [r for r in rows if first[(r["group"], r["summary"], r["passed"])] is r]
    return out


def scored(rows: list[Row], judge: str, cache: Path | None, set_name: str) -> list[LightItem]:
    """Each row's verdicts as a LightItem, from the cache file where it holds them."""
    seen: dict[str, dict] = {}
    if cache is not None and cache.exists():
        seen = {r["key"]: r for r in map(_rule_known, _jsonl(cache)) if r is not None}
    scorer = create_summarization_scorer(judge)
    items = []
    for row in rows:
        key = f"{judge}|{set_name}|{row['id']}"
        if key not in seen:
            res = scorer.run_sync(input=row["source"], output=row["summary"] or " ")
            seen[key] = {"key": key,
                         "claims": [[v.probability, v.unchecked, v.supported, v.decided_by is not None]
                                    for v in res.preprocess_step_result.alignment],
                         "answers": [[v.probability, v.unchecked, v.answered] for v in res.analyze_step_result.coverage],
                         "questions": len(res.preprocess_step_result.questions)}
            if cache is not None:
                with cache.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(seen[key]) + "\n")
        s = seen[key]
        items.append(LightItem(row["id"], tuple(map(tuple, s["claims"])), tuple(map(tuple, s["answers"])), s["questions"],
                               str(row["group"])))
    return items


def _rule_known(entry: dict) -> dict | None:
    """A cached entry whose claims say whether a rule decided them. An entry from before they said so is
    complete when every claim is supported (a rule only rejects); else it is scored again (``None``)."""
    claims = entry["claims"]
    if all(len(c) == 4 for c in claims):
        return entry
    if all(c[2] for c in claims):
        return {**entry, "claims": [[*c[:3], False] for c in claims]}
    return None


def _ci(values: np.ndarray) -> tuple[float, float]:
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def measure(name: str, rows: list[Row], items: list[LightItem], judge: str) -> dict:
    halves = np.array([half_of(r["group"]) for r in rows])
    truth = np.array([r["passed"] for r in rows], dtype=bool)
    tune, held = halves == "tune", halves == "held"
    tune_items = [i for i, t in zip(items, tune) if t]
    kind = judge_kind(judge, items)
    params, bound = choose(tune_items, truth[tune], kind, False)
    held_items, held_truth = [i for i, h in zip(items, held) if h], truth[held]
    before_scores = np.array([share(i, Params()) for i in held_items])
    after_scores = np.array([share(i, params) for i in held_items])
    before, after = before_scores >= 0.5, after_scores >= bound
    rng = np.random.default_rng(0)
    draws = [rng.integers(0, len(held_items), len(held_items)) for _ in range(1000)]
    b = np.array([balanced_accuracy(before[d], held_truth[d]) for d in draws])
    a = np.array([balanced_accuracy(after[d], held_truth[d]) for d in draws])
    out = {"set": name, "judge": judge, "tune": int(tune.sum()), "held": int(held.sum()),
           "held_pass": int(held_truth.sum()), "fitted": {**params.as_dict(), "bound": round(bound, 3)},
           "before": round(balanced_accuracy(before, held_truth), 3), "before_ci": [round(x, 3) for x in _ci(b)],
           "after": round(balanced_accuracy(after, held_truth), 3), "after_ci": [round(x, 3) for x in _ci(a)],
           "gain_ci": [round(x, 3) for x in _ci(a - b)]}
    ratings = [r["rating"] for r, h in zip(rows, held) if h]
    if all(x is not None for x in ratings) and ratings:
        from scipy.stats import spearmanr

        out["spearman_before"] = round(float(spearmanr(ratings, before_scores).statistic), 3)
        out["spearman_after"] = round(float(spearmanr(ratings, after_scores).statistic), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--judge", default="offline/lexical")
    parser.add_argument("--sets", default="summeval-consistency,summeval-relevance,realsumm,bump,fresh")
    parser.add_argument("--limit", type=int, default=None, help="items per set at most (whole articles)")
    parser.add_argument("--set-limit", action="append", default=[], metavar="SET=N",
                        help="items at most for one set (summeval: both of its sets), over --limit; repeatable")
    parser.add_argument("--scores", type=Path, default=None, help="a JSONL file that keeps each item's verdicts")
    parser.add_argument("--written", type=Path, action="append", default=[],
                        help="a file of written fresh articles (fresh_written.jsonl's shape) to join the fresh set")
    args = parser.parse_args()
    limits = {k: int(v) for k, v in (x.split("=", 1) for x in args.set_limit)}
    all_sets = sets(args.data, args.limit, limits, args.written)
    print(f"{'set':<22}{'held':>6}  {'before [95%]':<22}{'after [95%]':<22}{'gain 95%':<18}spearman  fitted")
    for name in args.sets.split(","):
        rows = all_sets[name]
        m = measure(name, rows, scored(rows, args.judge, args.scores, name.split("-")[0]), args.judge)
        sp = f"{m['spearman_before']:.3f}->{m['spearman_after']:.3f}" if "spearman_before" in m else "-"
        print(f"{name:<22}{m['held']:>6}  {m['before']:.3f} [{m['before_ci'][0]:.3f},{m['before_ci'][1]:.3f}]  "
              f"{m['after']:.3f} [{m['after_ci'][0]:.3f},{m['after_ci'][1]:.3f}]  "
              f"[{m['gain_ci'][0]:+.3f},{m['gain_ci'][1]:+.3f}]  {sp:<14}{m['fitted']}")


if __name__ == "__main__":
    main()
