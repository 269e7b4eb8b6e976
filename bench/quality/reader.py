"""``local/reader`` measured: BUMP task 1 minimal pairs, SummEval consistency, speed and memory.

    python bench/quality/reader.py bump DATA --judge local/reader --half held --pairs 150 --out bump.jsonl
    python bench/quality/reader.py summeval DATA --judge local/reader --half held --docs 20 --out summeval.jsonl
    python bench/quality/reader.py report bump.jsonl [--threshold 0.5]      # figures again, at another threshold
    python bench/quality/reader.py recheck bump.jsonl DATA --out new.jsonl  # the offline proofs as the rules are now
    python bench/quality/reader.py speed DATA --judge local/reader          # a BUMP pair, a SummEval item, RSS

The judge's number is the **alignment** axis (the axis that reads faithfulness): graded, the mean
P(supported) of the summary's claims; boolean, the share of claims supported (P >= threshold). A judge
that gives no probability (the offline judge, SmolLM2 through JSON) has its boolean verdict as P.

Articles are split in halves by ``sha256(article_id)`` parity (bench/quality/bump_pairs.py's ``half_of``):
prompts, passage counts and thresholds are chosen on ``tune``, reported on ``held``. The sample is fixed:
the half's pairs (or documents) shuffled with ``--seed`` (default 0), the first N, the same for every
judge. Each item's record is appended to ``--out`` as it finishes (so a run cut short still reports
what finished, with its size); ``report`` reads such a file.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import consistency, half_of  # noqa: E402

from sumjudge import create_summarization_scorer  # noqa: E402
from sumjudge.judges.base import JudgeRequest, ReplyBounds, StepInputs  # noqa: E402
from sumjudge.judges.registry import resolve_judge  # noqa: E402
from sumjudge.summarization import prompts  # noqa: E402
from sumjudge.summarization.offline.lexical import LexicalJudge  # noqa: E402
from sumjudge.summarization.reader.judge import offline_verdicts  # noqa: E402
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput  # noqa: E402


def _judge(spec: str, extra: list[str]) -> Any:
    from sumjudge.judges.base import ModelConfig

    settings = dict(kv.split("=", 1) for kv in extra)
    return resolve_judge(ModelConfig(id=spec, extra=settings) if settings else spec)


def _claims(judge: Any, source: str, summary: str) -> list[dict[str, Any]]:
    request = JudgeRequest(
        step=ALIGNMENT_STEP, messages=prompts.alignment_messages(source, summary), output_type=AlignmentOutput,
        inputs=StepInputs(source=source, summary=summary), bounds=ReplyBounds(min_items=1),
    )
    answer = getattr(judge, "answer", None)
    reply = answer(request) if answer is not None else __import__("asyncio").run(judge.generate(request))
    _TOKENS.append((reply.usage.prompt_tokens, reply.usage.prompt_tokens - reply.usage.cached_tokens))
    verdicts = reply.output.alignment
    offline = offline_verdicts(_OFFLINE, source, summary, [v.claim for v in verdicts]) if verdicts else []
    return [
        {"claim": v.claim, "supported": v.supported, "p": v.probability, "reason": v.reason, "quote": v.quote,
         "verified": _verified(v, source, summary),
         "offline": "error" if not o.supported else "unchecked" if o.unchecked else "stated"}
        for v, o in zip(verdicts, offline)
    ]


_TOKENS: list[tuple[int, int]] = []
"""(prompt tokens, tokens evaluated) of each alignment request, in order (what llama.cpp read)."""


def _verified(verdict: Any, source: str, summary: str) -> bool:
    """Whether the verdict's quote holds it up, as the scorer checks every judge's (quotes.py)."""
    from sumjudge.summarization.quotes import verify_alignment

    return bool(verify_alignment(verdict, source, summary).verified)


_OFFLINE = LexicalJudge()
"""The offline judge's verdict on each claim, kept beside the model's (``offline``: error, unchecked,
stated), so that ``report --combine`` can show what the two together would give without a model run."""


def _scores(claims: list[dict[str, Any]], threshold: float | None, cap: float | None = None) -> tuple[float, float]:
    """(graded, boolean) alignment of one summary's claims. ``cap``: what the reader's ``proof_scale``
    would have made of a run made with ``proof_scale=1`` (a claim the offline judge proves wrong: P
    times ``cap``, unsupported)."""
    if not claims:
        return 0.0, 0.0
    proven = [cap is not None and c.get("offline") == "error" for c in claims]
    ps = [c["p"] if c["p"] is not None else float(c["supported"]) for c in claims]
    ps = [p * cap if e and cap is not None else p for p, e in zip(ps, proven)]
    yes = [
        False if e else (p >= threshold) if (threshold is not None and c["p"] is not None) else c["supported"]
        for p, c, e in zip(ps, claims, proven)
    ]
    return statistics.fmean(ps), sum(yes) / len(yes)


def _sample(items: list[Any], n: int, seed: int) -> list[Any]:
    items = list(items)
    random.Random(seed).shuffle(items)
    return items[:n]


def bump(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in open(Path(args.data) / "bump_task1_pairs.jsonl", encoding="utf-8")]
    if args.half != "all":
        rows = [r for r in rows if half_of(r["article_id"]) == args.half]
    rows = _sample(rows, args.pairs, args.seed)
    judge = _judge(args.judge, args.set)
    with open(args.out, "a", encoding="utf-8") as out:
        for r in rows:
            t0 = time.perf_counter()
            rec = {
                "pair_id": r["pair_id"], "article_id": r["article_id"], "error_type": r["error_type"], "judge": args.judge,
                "reference": _claims(judge, r["source"], r["reference_summary"]),
                "edited": _claims(judge, r["source"], r["edited_summary"]),
            }
            rec["seconds"] = round(time.perf_counter() - t0, 2)
            rec["tokens"] = [list(t) for t in _TOKENS[-2:]]  # [prompt, evaluated] of the reference, the edited
            out.write(json.dumps(rec) + "\n")
            out.flush()
    report_bump([json.loads(line) for line in open(args.out, encoding="utf-8")], None)


def report_bump(recs: list[dict[str, Any]], threshold: float | None, cap: float | None = None) -> None:
    by_type: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = defaultdict(list)
    ref_claims: dict[Any, list[dict[str, Any]]] = {}  # one reference per article, counted once
    for r in recs:
        by_type[r["error_type"]].append((_scores(r["reference"], threshold, cap), _scores(r["edited"], threshold, cap)))
        ref_claims[r["article_id"]] = r["reference"]
    print(f"BUMP task 1: {len(recs)} pairs, judge {recs[0]['judge'] if recs else '?'}, threshold {threshold or 'judge'}, proof scale {cap}")
    print(f"{'error type':<29} {'n':>4} {'graded lower':>13} {'ties':>6} {'boolean lower':>14} {'ties':>6}")
    everything = [x for v in by_type.values() for x in v]
    for name, pairs in [*sorted(by_type.items()), ("all", everything)]:
        g_low, g_tie, n = consistency((r[0], e[0]) for r, e in pairs)
        b_low, b_tie, _ = consistency((r[1], e[1]) for r, e in pairs)
        print(f"{name:<29} {n:>4} {g_low:>13.3f} {g_tie:>6.3f} {b_low:>14.3f} {b_tie:>6.3f}")
    claims = [c for cs in ref_claims.values() for c in cs]
    supported = [(_scores([c], threshold, cap)[1]) for c in claims]
    full = [_scores(cs, threshold, cap)[1] == 1.0 for cs in ref_claims.values()]
    if claims:
        print(f"reference claims judged supported: {statistics.fmean(supported):.3f} of {len(claims)} claims; "
              f"references fully supported: {statistics.fmean(full):.3f} of {len(full)} (one per article)")
    edited_flagged = [_scores(r["edited"], threshold, cap)[1] < 1.0 for r in recs]
    if recs:
        print(f"edited summaries with a claim judged unsupported (boolean): {statistics.fmean(edited_flagged):.3f} of {len(recs)}")
    _evidence_and_cost(recs, ("reference", "edited"))
    secs = [r["seconds"] for r in recs if "seconds" in r]
    if secs:
        print(f"seconds per pair (alignment of both summaries): median {statistics.median(secs):.1f}, mean {statistics.fmean(secs):.1f}")


def _evidence_and_cost(recs: list[dict[str, Any]], keys: tuple[str, ...]) -> None:
    """Verdicts whose quote the scorer verifies; tokens read per record (prompt, evaluated)."""
    verdicts = [c for r in recs for k in keys for c in r.get(k, []) if "verified" in c]
    if verdicts:
        print(f"verdicts with a verified quote: {statistics.fmean(bool(c['verified']) for c in verdicts):.3f} of {len(verdicts)}")
    toks = [r["tokens"] for r in recs if "tokens" in r]
    if toks:
        flat = [t if isinstance(t[0], list) else [t] for t in toks]
        prompt = [sum(p for p, _ in t) for t in flat]
        read = [sum(e for _, e in t) for t in flat]
        print(f"prompt tokens per record: median {statistics.median(prompt):.0f}; evaluated (not from llama.cpp's cache): "
              f"median {statistics.median(read):.0f}, mean {statistics.fmean(read):.0f}")


def summeval(args: argparse.Namespace) -> None:
    docs = {d["doc_id"]: d["source"] for d in map(json.loads, open(Path(args.data) / "summeval_docs.jsonl", encoding="utf-8"))}
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in map(json.loads, open(Path(args.data) / "summeval_summaries.jsonl", encoding="utf-8")):
        by_doc[s["doc_id"]].append(s)
    ids = sorted(d for d in by_doc if args.half == "all" or half_of(d) == args.half)
    judge = _judge(args.judge, args.set)
    with open(args.out, "a", encoding="utf-8") as out:
        for doc_id in _sample(ids, args.docs, args.seed):
            for s in by_doc[doc_id]:
                t0 = time.perf_counter()
                rec = {"doc_id": doc_id, "system_id": s["system_id"], "consistency": s["consistency"], "judge": args.judge,
                       "claims": _claims(judge, docs[doc_id], s["summary"])}
                rec["seconds"] = round(time.perf_counter() - t0, 2)
                rec["tokens"] = list(_TOKENS[-1])
                out.write(json.dumps(rec) + "\n")
                out.flush()
    report_summeval([json.loads(line) for line in open(args.out, encoding="utf-8")], None)


def report_summeval(recs: list[dict[str, Any]], threshold: float | None, cap: float | None = None) -> None:
    from scipy.stats import spearmanr

    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in recs:
        by_doc[r["doc_id"]].append(r)
    print(f"SummEval: {len(recs)} summaries of {len(by_doc)} documents, judge {recs[0]['judge'] if recs else '?'}")
    for label, k in (("graded", 0), ("boolean", 1)):
        rhos = []
        for rows in by_doc.values():
            xs = [_scores(r["claims"], threshold, cap)[k] for r in rows]
            ys = [r["consistency"] for r in rows]
            if len(rows) >= 3 and len(set(xs)) > 1 and len(set(ys)) > 1:
                rho = spearmanr(xs, ys).statistic
                if rho == rho:
                    rhos.append(float(rho))
        shown = f"{statistics.fmean(rhos):.3f} over {len(rhos)} documents" if rhos else "n/a"
        print(f"alignment ({label}) vs consistency, summary-level Spearman: {shown}")
    _evidence_and_cost(recs, ("claims",))
    secs = [r["seconds"] for r in recs]
    if secs:
        print(f"seconds per summary (alignment): median {statistics.median(secs):.1f}, mean {statistics.fmean(secs):.1f}")
        later = [r["seconds"] for i, r in enumerate(recs) if i and recs[i - 1]["doc_id"] == r["doc_id"]]
        if later:
            print(f"seconds per further summary of a source already read: median {statistics.median(later):.1f}, "
                  f"mean {statistics.fmean(later):.1f} ({len(later)} summaries)")


def report(args: argparse.Namespace) -> None:
    recs = [json.loads(line) for line in open(args.file, encoding="utf-8")]
    if args.same_as:  # only the items another judge's run finished: the same sample for both
        def key(r: dict[str, Any]) -> Any:
            return r.get("pair_id", (r.get("doc_id"), r.get("system_id")))

        keep = {key(json.loads(line)) for line in open(args.same_as, encoding="utf-8")}
        recs = [r for r in recs if key(r) in keep]
    (report_bump if recs and "edited" in recs[0] else report_summeval)(recs, args.threshold, args.cap)


def recheck(args: argparse.Namespace) -> None:
    """Rewrite a run file's ``offline`` column with the offline judge as it is now (its rules change
    more often than a model run can be repeated): the model's P is kept, the proofs are the new ones."""
    sources = {r["article_id"]: r["source"] for r in map(json.loads, open(Path(args.data) / "bump_task1_pairs.jsonl", encoding="utf-8"))}
    sources.update({d["doc_id"]: d["source"] for d in map(json.loads, open(Path(args.data) / "summeval_docs.jsonl", encoding="utf-8"))})
    summaries: dict[Any, dict[str, str]] = {r["pair_id"]: r for r in map(json.loads, open(Path(args.data) / "bump_task1_pairs.jsonl", encoding="utf-8"))}
    summaries.update({(s["doc_id"], s["system_id"]): s for s in map(json.loads, open(Path(args.data) / "summeval_summaries.jsonl", encoding="utf-8"))})
    recs = [json.loads(line) for line in open(args.file, encoding="utf-8")]
    changed = 0
    for r in recs:
        source = sources[r.get("article_id", r.get("doc_id"))]
        for key, summary_key in (("reference", "reference_summary"), ("edited", "edited_summary"), ("claims", "summary")):
            claims = r.get(key) or []
            summary = summaries[r.get("pair_id", (r.get("doc_id"), r.get("system_id")))][summary_key] if claims else ""
            checked = offline_verdicts(_OFFLINE, source, summary, [c["claim"] for c in claims]) if claims else []
            for c, o in zip(claims, checked):
                new = "error" if not o.supported else "unchecked" if o.unchecked else "stated"
                changed += new != c.get("offline")
                c["offline"] = new
    Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    print(f"{len(recs)} records, {changed} claims' offline verdicts changed -> {args.out}")


def tune(args: argparse.Namespace) -> None:
    """The threshold, from a ``tune``-half BUMP file: the one with the most pairs whose edited summary
    is lower (boolean) among those that keep >= ``--floor`` of the reference claims supported (else the
    best sum of the two)."""
    recs = [json.loads(line) for line in open(args.file, encoding="utf-8")]
    refs = {r["article_id"]: r["reference"] for r in recs}
    rows = []
    for t in [x / 100 for x in range(5, 96, 5)]:
        lower, _, _ = consistency((_scores(r["reference"], t, args.cap)[1], _scores(r["edited"], t, args.cap)[1]) for r in recs)
        claims = [c for cs in refs.values() for c in cs]
        supported = statistics.fmean(_scores([c], t, args.cap)[1] for c in claims) if claims else 0.0
        full = statistics.fmean(_scores(cs, t, args.cap)[1] == 1.0 for cs in refs.values()) if refs else 0.0
        flagged = statistics.fmean(_scores(r["edited"], t, args.cap)[1] < 1.0 for r in recs)
        if args.rule == "verdicts":  # a verdict that means what it says: faithful references pass whole
            rows.append((t, flagged, full))
        else:
            rows.append((t, lower, supported))
        print(f"threshold {t:.2f}: boolean lower {lower:.3f}, reference claims supported {supported:.3f}, "
              f"references fully supported {full:.3f}, edited with an unsupported claim {flagged:.3f}")
    ok = [r for r in rows if r[2] >= args.floor]
    best = max(ok, key=lambda r: (r[1], r[2])) if ok else max(rows, key=lambda r: r[1] + r[2])
    print(f"chosen on {len(recs)} pairs ({len(refs)} articles): threshold {best[0]:.2f}")


def speed(args: argparse.Namespace) -> None:
    """Whole evaluations through the scorer (alignment, questions, coverage), one at a time."""
    rows = [json.loads(line) for line in open(Path(args.data) / "bump_task1_pairs.jsonl", encoding="utf-8")]
    rows = _sample([r for r in rows if half_of(r["article_id"]) == "held"], args.items, args.seed)
    docs = {d["doc_id"]: d["source"] for d in map(json.loads, open(Path(args.data) / "summeval_docs.jsonl", encoding="utf-8"))}
    items = _sample(list(map(json.loads, open(Path(args.data) / "summeval_summaries.jsonl", encoding="utf-8"))), args.items, args.seed)
    scorer = create_summarization_scorer(_judge(args.judge, args.set))
    t0 = time.perf_counter()
    scorer.run_sync(input="The council met on Monday. It approved the budget.", output="The council approved the budget.")
    print(f"first evaluation (loads the model, checks its digest): {time.perf_counter() - t0:.1f} s")
    for r in rows:
        t0 = time.perf_counter()
        a = scorer.run_sync(input=r["source"], output=r["reference_summary"])
        t1 = time.perf_counter()
        b = scorer.run_sync(input=r["source"], output=r["edited_summary"])
        t2 = time.perf_counter()
        print(f"BUMP pair {r['pair_id']}: {t2 - t0:.1f} s (reference {t1 - t0:.1f} s, edited {t2 - t1:.1f} s); "
              f"prompt tokens {a.usage.prompt_tokens}+{b.usage.prompt_tokens}, "
              f"read from the cache {a.usage.cached_tokens}+{b.usage.cached_tokens}")
    for s in items:
        t0 = time.perf_counter()
        res = scorer.run_sync(input=docs[s["doc_id"]], output=s["summary"])
        n = len(res.preprocess_step_result.alignment) + len(res.analyze_step_result.coverage)
        print(f"SummEval {s['doc_id']}/{s['system_id']}: {time.perf_counter() - t0:.1f} s, {n} verdicts, prompt tokens "
              f"{res.usage.prompt_tokens}, read from the cache {res.usage.cached_tokens}")
    judge = scorer.judge
    if hasattr(judge, "drafts"):  # the reader: what a claim costs after the first, prompt by prompt
        from sumjudge.summarization.reader import prompts as reader_prompts

        s = items[0]
        drafts = judge.drafts(docs[s["doc_id"]], s["summary"])
        shown = reader_prompts.excerpt(drafts.sentences, judge.shown_sentences(drafts))
        judge._llm.ask([(reader_prompts.SYSTEM, "Reset the cache.")])
        for i, c in enumerate(drafts.claims):
            t0 = time.perf_counter()
            (a,) = judge._llm.ask([(reader_prompts.SYSTEM, reader_prompts.alignment_prompt(shown, c.text))])
            print(f"claim {i + 1}: {time.perf_counter() - t0:.2f} s, {a.evaluated} of {a.prompt_tokens} prompt tokens evaluated")
    print(f"max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024:.2f} GB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name, fn in (("bump", bump), ("summeval", summeval), ("speed", speed)):
        p = sub.add_parser(name)
        p.add_argument("data", help="folder with the human-judgment files (SUMJUDGE_DATA_DIR)")
        p.add_argument("--judge", default="local/reader")
        p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="ModelConfig.extra setting")
        p.add_argument("--half", choices=("tune", "held", "all"), default="held")
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--out", default=f"{name}.jsonl")
        p.add_argument("--pairs", type=int, default=150)
        p.add_argument("--docs", type=int, default=20)
        p.add_argument("--items", type=int, default=2)
        p.set_defaults(fn=fn)
    p = sub.add_parser("tune")
    p.add_argument("file")
    p.add_argument("--floor", type=float, default=0.85,
                   help="least share of reference claims supported (--rule verdicts: of references fully supported)")
    p.add_argument("--rule", choices=("pairs", "verdicts"), default="pairs",
                   help="pairs: the most pairs with the edited summary lower (boolean); verdicts: the most edited "
                        "summaries with a claim judged unsupported, keeping --floor of references fully supported")
    p.add_argument("--cap", type=float, default=None, help="as report --cap")
    p.set_defaults(fn=tune)
    p = sub.add_parser("recheck")
    p.add_argument("file")
    p.add_argument("data")
    p.add_argument("--out", required=True)
    p.set_defaults(fn=recheck)
    p = sub.add_parser("report")
    p.add_argument("file")
    p.add_argument("--threshold", type=float, default=None)
    p.add_argument("--same-as", default=None, help="report only the items this other run's file holds")
    p.add_argument("--cap", type=float, default=None,
                   help="the reader's proof_scale applied to a run made with --set proof_scale=1 (claims the offline judge proves wrong)")
    p.set_defaults(fn=report)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
