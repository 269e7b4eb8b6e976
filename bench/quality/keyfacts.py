"""Does coverage ask the source's key facts, and answer them as a reader would?

    python bench/quality/keyfacts.py [--data DIR] [--judge offline/lexical] [--skip-summeval] [--limit-docs N]

Prints, for each half of the articles (A = ``tune``, B = ``held``: ``sha256(doc_id)``, as
bench/quality/reference_proofs.py splits them; rules are chosen on A only):

- REALSumm, own questions: the judge's 10 questions per article, coverage of each of the 2,500
  summaries against its pyramid recall (pooled Pearson);
- REALSumm, key facts given: each annotators' key fact as a kept exam ("Is it true that <key fact>?",
  phrased as the judge phrases a fact), the verdict per fact against the 3 annotators' majority
  (balanced accuracy), and that coverage against pyramid recall (pooled Pearson);
- REALSumm, key facts asked: the share of the annotators' key facts that one of the judge's own
  questions asks about. The rule: a key fact is asked when the question sharing most of its
  content units (the judge's own stems of its content words and numbers) holds at least half of
  them;
- SummEval, the human references as summaries (11 per article): mean coverage and the share with
  coverage 0;
- SummEval, coverage of the 16 system summaries per article against the experts' relevance:
  Spearman per article, averaged (summary-level), as bench/quality/tune_offline.py measures it;
- with ``--shape``: the questions' shape over both corpora's articles: words per question's fact
  (median, 90th percentile), the share holding quotation marks or "said"/"says", the articles that
  got fewer than 6 questions, the share whose fact shows no verb (no auxiliary, irregular past or
  word in -ed: a fragment such as "a win for mcilroy on the hallowed grounds", or a fact whose only
  verb is in -s).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr, spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of

from sumjudge.summarization.axes import coverage_value
from sumjudge.summarization.offline.lexical import LexicalJudge, LexicalSettings
from sumjudge.summarization.language.clauses import EN_AUX
from sumjudge.summarization.language.lexicon import IRREGULAR_EN
from sumjudge.summarization.language.questions import FactRanking, fact_of_question, phrase_question

HALVES = (("A", "tune"), ("B", "held"))


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def balanced_accuracy(pred: list[bool], gold: list[bool]) -> float:
    p, g = np.array(pred), np.array(gold)
    tpr = (p & g).sum() / max(1, g.sum())
    tnr = (~p & ~g).sum() / max(1, (~g).sum())
    return float((tpr + tnr) / 2)


def asked_share(judge: LexicalJudge, key_facts: list[str], questions: list[str]) -> tuple[float, float]:
    """Share of ``key_facts`` that a question asks about (see the module's rule), and the share that
    a question asks about alone: the best question's and the key fact's units overlap at Dice >= .5
    (a whole sentence that holds the key fact among five others does not)."""
    if not key_facts:
        return 0.0, 0.0
    a = judge._analyser("en")
    qs = [a.analyse(fact_of_question(q)).units for q in questions]
    asked = alone = 0
    for kf in key_facts:
        units = a.analyse(kf).units
        if not units or not qs:
            continue
        asked += max(len(units & q) for q in qs) >= 0.5 * len(units)
        alone += max(2 * len(units & q) / (len(units) + len(q)) for q in qs) >= 0.5
    return asked / len(key_facts), alone / len(key_facts)


def coverage_of(judge: LexicalJudge, questions: list[str], summary: str) -> tuple[float, list[bool]]:
    """The coverage axis as the scorer counts it (an unchecked verdict as its probability), and each
    verdict's boolean."""
    verdicts = judge.cover(questions, summary).coverage
    return coverage_value(verdicts, len(questions)), [v.answered for v in verdicts]


def realsumm(judge: LexicalJudge, data: Path, limit: int | None) -> dict[str, dict[str, float]]:
    docs = {d["doc_id"]: d for d in _load(data / "realsumm_docs.jsonl")}
    rows = _load(data / "realsumm_keyfact_labels.jsonl")
    if limit:
        keep = set(sorted(docs)[:limit])
        rows = [r for r in rows if r["doc_id"] in keep]
    own_q: dict[str, list[str]] = {}
    kf_q: dict[str, list[str]] = {}
    out: dict[str, dict[str, list]] = {h: {"own": [], "kf": [], "human": [], "pred": [], "gold": []} for _, h in HALVES}
    asked: dict[str, list[float]] = {h: [] for _, h in HALVES}
    alone: dict[str, list[float]] = {h: [] for _, h in HALVES}
    for r in rows:
        d = docs[r["doc_id"]]
        h = half_of(r["doc_id"])
        if r["doc_id"] not in own_q:
            own_q[r["doc_id"]] = judge.questions(d["source"], 10).questions
            kf_q[r["doc_id"]] = [phrase_question(k, "en") for k in d["key_facts"]]
            share, single = asked_share(judge, d["key_facts"], own_q[r["doc_id"]])
            asked[h].append(share)
            alone[h].append(single)
        own, _ = coverage_of(judge, own_q[r["doc_id"]], r["summary"])
        kf, verdicts = coverage_of(judge, kf_q[r["doc_id"]], r["summary"])
        labels = np.array(r["key_fact_labels"])
        majority = (labels.sum(axis=0) >= 2).tolist()
        o = out[h]
        o["own"].append(own)
        o["kf"].append(kf)
        o["human"].append(r["litepyramid_recall"])
        o["pred"].extend(verdicts)
        o["gold"].extend(bool(m) for m in majority)
    res = {}
    for _, h in HALVES:
        o = out[h]
        res[h] = {
            "own_questions_r": float(pearsonr(o["own"], o["human"])[0]),
            "keyfacts_balanced_accuracy": balanced_accuracy(o["pred"], o["gold"]),
            "keyfacts_r": float(pearsonr(o["kf"], o["human"])[0]),
            "keyfacts_asked": float(np.mean(asked[h])),
            "keyfacts_asked_alone": float(np.mean(alone[h])),
            "summaries": len(o["own"]),
        }
    return res


def summeval(judge: LexicalJudge, data: Path, limit: int | None) -> dict[str, dict[str, float]]:
    docs = {d["doc_id"]: d for d in _load(data / "summeval_docs.jsonl")}
    rows = _load(data / "summeval_summaries.jsonl")
    ids = sorted(docs)[:limit] if limit else sorted(docs)
    qs = {i: judge.questions(docs[i]["source"], 10).questions for i in ids}
    res: dict[str, dict[str, float]] = {}
    for _, h in HALVES:
        covs: list[float] = []
        rhos: list[float] = []
        for i in ids:
            if half_of(i) != h:
                continue
            covs.extend(coverage_of(judge, qs[i], ref)[0] for ref in docs[i]["references"])
            mine = [r for r in rows if r["doc_id"] == i]
            m = [coverage_of(judge, qs[i], r["summary"])[0] for r in mine]
            rel = [r["relevance"] for r in mine]
            if len(set(m)) > 1 and len(set(rel)) > 1:
                rhos.append(float(spearmanr(m, rel)[0]))
        res[h] = {
            "references_mean_coverage": float(np.mean(covs)),
            "references_zero": float(np.mean([c == 0 for c in covs])),
            "relevance_spearman": float(np.mean(rhos)),
            "references": len(covs),
        }
    return res


def _shows_a_verb(fact: str) -> bool:
    """An auxiliary, an irregular past or a word in -ed (not after "the", "a", "an")."""
    low = fact.lower().split()
    return any(w in EN_AUX or (IRREGULAR_EN.get(w, w) != w) or (len(w) > 3 and w.endswith("ed") and (i == 0 or low[i - 1] not in {"the", "a", "an"}))
               for i, w in enumerate(low))


def shape(judge: LexicalJudge, data: Path) -> dict[str, float]:
    docs = _load(data / "realsumm_docs.jsonl") + _load(data / "summeval_docs.jsonl")
    words: list[int] = []
    quoted = few = verbless = 0
    for d in docs:
        qs = judge.questions(d["source"], 10).questions
        few += len(qs) < 6
        for q in qs:
            fact = fact_of_question(q)
            words.append(len(fact.split()))
            quoted += bool(re.search(r"``|''|[\"“”]|\bsaid\b|\bsays\b", fact))
            verbless += not _shows_a_verb(fact)
    return {"articles": len(docs), "questions": len(words), "words_median": float(np.median(words)),
            "words_p90": float(np.percentile(words, 90)), "quoted_share": quoted / max(1, len(words)),
            "no_verb_share": verbless / max(1, len(words)),
            "articles_under_6_questions": few}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = Path(__file__).resolve().parents[2]
    near = next((p for p in (root.parent / "shared" / "data", root.parent.parent / "shared" / "data") if p.is_dir()), None)
    default = os.environ.get("SUMJUDGE_DATA_DIR", str(near or root.parent / "shared" / "data"))
    ap.add_argument("--data", default=default)
    ap.add_argument("--skip-summeval", action="store_true")
    ap.add_argument("--limit-docs", type=int)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--shape", action="store_true", help="also the questions' shape (words, quotes, counts)")
    ap.add_argument("settings", nargs="*", help="key=value: a FactRanking or LexicalSettings field, to try a value")
    a = ap.parse_args()
    data = Path(a.data)
    kw: dict = {}
    rk: dict = {}
    for item in a.settings:
        k, v = item.split("=")
        target, default = (rk, FactRanking()) if hasattr(FactRanking(), k) else (kw, LexicalSettings())
        kind = type(getattr(default, k))
        target[k] = (v == "True") if kind is bool else kind(v)
    if rk:
        kw["ranking"] = replace(FactRanking(), **rk)
    judge = LexicalJudge(replace(LexicalSettings(), **kw))
    t = time.perf_counter()
    res = {"realsumm": realsumm(judge, data, a.limit_docs)}
    if not a.skip_summeval:
        res["summeval"] = summeval(judge, data, a.limit_docs)
    if a.shape:
        res["shape"] = shape(judge, data)
    if a.json:
        print(json.dumps(res, indent=2))
        return
    print(f"judge {judge.fingerprint} ({time.perf_counter() - t:.0f}s)")
    for corpus, by_half in res.items():
        if corpus == "shape":
            print("shape (both corpora): " + "  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                                   for k, v in by_half.items()))
            continue
        for name, h in HALVES:
            figures = "  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in by_half[h].items())
            print(f"{corpus:9s} half {name}: {figures}")


if __name__ == "__main__":
    main()
