"""Quick tuning loop for the offline judge on SummEval (the judge called directly, no scorer).

python bench/quality/tune_offline.py [key=value ...]   e.g. support_threshold=0.85 answer_threshold=0.7 min_fact_units=3

Besides the figure over all 100 documents it prints the two halves (documents sorted by id,
alternating: A = even places, B = odd places), so that a setting chosen on A can be checked on B.
"""
import json, sys, os, time
from dataclasses import replace
import numpy as np
from scipy.stats import spearmanr, kendalltau, pearsonr
from sumjudge.summarization.offline.lexical import LexicalJudge, LexicalSettings
from sumjudge.summarization.language.questions import FactRanking

D = os.environ.get("SUMJUDGE_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data"))
docs = {json.loads(l)["doc_id"]: json.loads(l) for l in open(os.path.join(D, "summeval_docs.jsonl"))}
rows = [json.loads(l) for l in open(os.path.join(D, "summeval_summaries.jsonl"))]
kw = {}
rk = {}
for a in sys.argv[1:]:
    k, v = a.split("=")
    target, default = (rk, FactRanking()) if hasattr(FactRanking(), k) else (kw, LexicalSettings())
    t0 = type(getattr(default, k))
    target[k] = (v == "True") if t0 is bool else t0(v)
if rk:
    kw["ranking"] = replace(FactRanking(), **rk)
j = LexicalJudge(replace(LexicalSettings(), **kw))
t = time.perf_counter()
al, cv = [], []
qcache = {}
for r in rows:
    src = docs[r["doc_id"]]["source"]
    a = j.align(src, r["summary"]).alignment
    al.append(sum(v.supported for v in a) / len(a) if a else 0.0)
    if src not in qcache:
        qcache[src] = j.questions(src, 10).questions
    qs = qcache[src]
    c = j.cover(qs, r["summary"]).coverage
    cv.append(sum(v.answered for v in c) / len(qs) if qs else 0.0)
el = time.perf_counter() - t
al, cv = np.array(al), np.array(cv)
ov = np.minimum(al, cv)
half = {d: n % 2 for n, d in enumerate(sorted(docs))}
def summ(metric, field, which=None):
    by = {}
    for i, r in enumerate(rows):
        if which is None or half[r["doc_id"]] == which:
            by.setdefault(r["doc_id"], []).append(i)
    rs, ts = [], []
    for idx in by.values():
        h = np.array([rows[i][field] for i in idx]); m = metric[idx]
        if len(set(h)) == 1: continue
        if len(set(m)) == 1: continue
        rs.append(spearmanr(m, h)[0]); ts.append(kendalltau(m, h)[0])
    return np.mean(rs), np.mean(ts), pearsonr(metric, [r[field] for r in rows])[0]
for name, m in [("align", al), ("cover", cv), ("overall", ov)]:
    for f in ("consistency", "relevance"):
        print(f"{name:8s} {f:12s} rho={summ(m,f)[0]:.3f} tau={summ(m,f)[1]:.3f} pooled r={summ(m,f)[2]:.3f}"
              f"  rho half A={summ(m,f,0)[0]:.3f} B={summ(m,f,1)[0]:.3f}")
print(f"mean align {al.mean():.3f} mean cover {cv.mean():.3f}  {el:.1f}s")
