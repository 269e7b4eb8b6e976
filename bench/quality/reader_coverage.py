"""``local/reader``'s coverage against REALSumm's per-fact labels.

    python bench/quality/reader_coverage.py run DATA --half tune --docs 3 --out tune.jsonl
    python bench/quality/reader_coverage.py run DATA --half held --docs 3 --out held.jsonl
    python bench/quality/reader_coverage.py report tune.jsonl held.jsonl   # threshold chosen on the first file
    python bench/quality/reader_coverage.py references DATA --refs 24 --out refs.jsonl [--threshold T]

``run`` asks the model every question with no word shortcut (``word_gaps=0``), so that one run serves
every threshold and both ways of answering: for each summary it records P(yes) of each of the
annotators' key facts as a question ("Is it true that <key fact>?"), the 3 annotators' majority for
each, P(yes) of each of the judge's own 10 questions, the offline judge's word gaps for both sets
(where the summary's words alone settle "no"), and the summary's pyramid recall. A record is appended
per summary as it finishes, so a run cut short still reports what it did.

``report`` chooses the coverage threshold on the first file (the tune half: the best balanced accuracy
per key fact, with the word shortcut and without), then prints for each file: balanced accuracy per
key fact, coverage (key facts given) ~ pyramid recall and coverage (own questions) ~ pyramid recall,
pooled Pearson, at the chosen threshold and at 0.5.

``report`` also prints, at the reader's coverage threshold (0.6), both r's for each ``unsure_margin`` of
:data:`MARGINS` (a question within the margin of the threshold counts as its P).

``references``: SummEval's human references as summaries (the first ``--refs`` of the articles in
doc_id order, every reference of each), the judge's own 10 questions: mean coverage and the share
scored 0, at 0.5 and at ``--threshold``, with the word shortcut.

Articles: REALSumm's articles of the half (``sha256(doc_id)``, as bench/quality/keyfacts.py splits
them), in doc_id order, the first ``--docs``; every summary of each.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import pearsonr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of  # noqa: E402
from keyfacts import balanced_accuracy  # noqa: E402

from sumjudge.judges.base import ModelConfig  # noqa: E402
from sumjudge.judges.registry import resolve_judge  # noqa: E402
from sumjudge.summarization.language.questions import phrase_question  # noqa: E402


MARGINS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3)
"""The reader's ``unsure_margin`` values the reports compare."""


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run(args: argparse.Namespace) -> None:
    data = Path(args.data)
    docs = {d["doc_id"]: d for d in _load(data / "realsumm_docs.jsonl")}
    ids = sorted(i for i in docs if half_of(i) == args.half)[: args.docs]
    rows = [r for r in _load(data / "realsumm_keyfact_labels.jsonl") if r["doc_id"] in set(ids)]
    out = Path(args.out)
    done = {(r["doc_id"], r["summary_id"]) for r in _load(out)} if out.exists() else set()
    extra = {"word_gaps": 0, **dict(kv.split("=", 1) for kv in args.set)}
    judge = resolve_judge(ModelConfig(id=args.judge, extra=extra))
    words = judge._words  # the offline judge's word gaps, asked separately (no model call)
    own = {i: words.questions(docs[i]["source"], 10).questions for i in ids}
    with out.open("a", encoding="utf-8") as f:
        for r in rows:
            key = (r["doc_id"], r.get("summary_id", r.get("system_id")))
            if key in done:
                continue
            t0 = time.perf_counter()
            kf_q = [phrase_question(k, "en") for k in docs[r["doc_id"]]["key_facts"]]
            qs = own[r["doc_id"]]
            kf_out, _ = judge.cover(kf_q, r["summary"])
            own_out, _ = judge.cover(qs, r["summary"])
            labels = np.array(r["key_fact_labels"])
            rec = {
                "doc_id": key[0], "summary_id": key[1], "half": args.half, "judge": args.judge,
                "pyramid": r["litepyramid_recall"],
                "kf_p": [v.probability for v in kf_out.coverage],
                "kf_gap": [g is not None for g in words.coverage_gaps(kf_q, r["summary"])],
                "kf_gold": (labels.sum(axis=0) >= 2).tolist(),
                "own_p": [v.probability for v in own_out.coverage],
                "own_gap": [g is not None for g in words.coverage_gaps(qs, r["summary"])],
                "seconds": round(time.perf_counter() - t0, 2),
            }
            f.write(json.dumps(rec) + "\n")
            f.flush()
            print(f"{key[0][:12]}/{key[1]}: {rec['seconds']} s", flush=True)


def references(args: argparse.Namespace) -> None:
    out = Path(args.out)
    if not out.exists():
        docs = sorted(_load(Path(args.data) / "summeval_docs.jsonl"), key=lambda d: d["doc_id"])
        refs = [(d, k, ref) for d in docs for k, ref in enumerate(d["references"])][: args.refs]
        judge = resolve_judge(ModelConfig(id=args.judge, extra={"word_gaps": 0}))
        words = judge._words
        with out.open("w", encoding="utf-8") as f:
            for d, k, ref in refs:
                t0 = time.perf_counter()
                qs = words.questions(d["source"], 10).questions
                got, _ = judge.cover(qs, ref)
                rec = {"doc_id": d["doc_id"], "reference": k, "own_p": [v.probability for v in got.coverage],
                       "own_gap": [g is not None for g in words.coverage_gaps(qs, ref)],
                       "seconds": round(time.perf_counter() - t0, 2)}
                f.write(json.dumps(rec) + "\n")
                f.flush()
    recs = _load(out)
    for t in sorted({0.5, args.threshold}):
        for m in MARGINS:
            covs = [sum(_counted(r["own_p"], r["own_gap"], t, True, m)) / max(1, len(r["own_p"])) for r in recs]
            print(f"SummEval references ({len(recs)}), threshold {t:.2f}, unsure margin {m:.2f}: mean coverage "
                  f"{np.mean(covs):.3f}, share at 0 {np.mean([c == 0 for c in covs]):.3f}")


def _answered(ps: list[float | None], gaps: list[bool], t: float, shortcut: bool) -> list[bool]:
    return [(p or 0.0) >= t and not (shortcut and g) for p, g in zip(ps, gaps)]


def _counted(ps: list[float | None], gaps: list[bool], t: float, shortcut: bool, margin: float) -> list[float]:
    """What each question adds to the axis: 0 where the words settle it, its P where the model is
    unsure (within ``margin`` of ``t``: the reader's ``unsure_margin``), else its yes or no."""
    out = []
    for p, g in zip(ps, gaps):
        p = p or 0.0
        out.append(0.0 if shortcut and g else p if abs(p - t) < margin else float(p >= t))
    return out


def figures(recs: list[dict[str, Any]], t: float, shortcut: bool, margin: float = 0.0) -> dict[str, float]:
    pred: list[bool] = []
    gold: list[bool] = []
    kf, own, human = [], [], []
    for r in recs:
        pred += _answered(r["kf_p"], r["kf_gap"], t, shortcut)
        gold += r["kf_gold"]
        a = _counted(r["kf_p"], r["kf_gap"], t, shortcut, margin)
        kf.append(sum(a) / max(1, len(a)))
        o = _counted(r["own_p"], r["own_gap"], t, shortcut, margin)
        own.append(sum(o) / max(1, len(o)))
        human.append(r["pyramid"])
    return {
        "keyfacts_balanced_accuracy": balanced_accuracy(pred, gold),
        "keyfacts_r": float(pearsonr(kf, human)[0]),
        "own_questions_r": float(pearsonr(own, human)[0]),
        "summaries": len(recs),
    }


def report(args: argparse.Namespace) -> None:
    files = [_load(Path(p)) for p in args.files]
    grid = [round(x, 2) for x in np.arange(0.05, 0.96, 0.05)]
    for shortcut in (True, False):
        best = max(grid, key=lambda t: figures(files[0], t, shortcut)["keyfacts_balanced_accuracy"])
        print(f"word shortcut {'on' if shortcut else 'off'}: threshold chosen on {args.files[0]}: {best:.2f}")
        for path, recs in zip(args.files, files):
            for t in (0.5, best):
                fig = figures(recs, t, shortcut)
                shown = "  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in fig.items())
                print(f"  {path} at {t:.2f}: {shown}")
    t = 0.6
    for m in MARGINS:  # the reader's unsure_margin at its coverage threshold, the word shortcut on
        shown = "  ".join(f"{path}: kf_r={figures(recs, t, True, m)['keyfacts_r']:.3f} own_r={figures(recs, t, True, m)['own_questions_r']:.3f}"
                          for path, recs in zip(args.files, files))
        print(f"unsure margin {m:.2f} at {t:.2f}: {shown}")
    secs = [r["seconds"] for recs in files for r in recs]
    print(f"seconds per summary (both question sets, every question read): median {np.median(secs):.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("data")
    p.add_argument("--judge", default="local/reader")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--half", choices=("tune", "held"), default="tune")
    p.add_argument("--docs", type=int, default=3)
    p.add_argument("--out", required=True)
    p.set_defaults(fn=run)
    p = sub.add_parser("references")
    p.add_argument("data")
    p.add_argument("--judge", default="local/reader")
    p.add_argument("--refs", type=int, default=24)
    p.add_argument("--threshold", type=float, default=0.5)
    p.add_argument("--out", required=True)
    p.set_defaults(fn=references)
    p = sub.add_parser("report")
    p.add_argument("files", nargs="+", help="the first file chooses the threshold")
    p.set_defaults(fn=report)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
