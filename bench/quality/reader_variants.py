"""Which of the reader's choices rank summaries as people do: its prompts, layouts and graded number,
side by side on the same items, one model run.

    python bench/quality/reader_variants.py run DATA --set bump --half tune --n 12 --out bump_tune.jsonl
    python bench/quality/reader_variants.py run DATA --set summeval --half tune --n 3 --out se_tune.jsonl
    python bench/quality/reader_variants.py run DATA --set fresh --half all --out fresh.jsonl
    python bench/quality/reader_variants.py report bump_tune.jsonl se_tune.jsonl fresh.jsonl

For each source, the reader's own drafts (its claims, the offline judge's clauses) and the summary's
sentences are asked about, the model's raw P(yes) kept for each of:

- ``claim``: the default: the whole source first (``source`` layout), each claim after it, prompt 3's
  question ("Is every detail of the claim (names, numbers, places, who did what) supported ...");
- ``plain``: the same head, a plain per-claim question ("Is this claim supported by the article?");
- ``sent``: the same head, one plain question per summary sentence ("Is this sentence supported by
  the article?");
- ``own``: the layout before the source-first one: each claim after its own best passages.

All four share one read of the source (``own`` excepted), so a variant costs only its tails. The
offline judge's verdict on each claim is kept too (``error``: a word proof), so that ``report`` shows
each variant with and without the proofs' cap (a proven claim's P times ``--cap``) and with the graded
number made as the mean or the minimum of the summary's P.

BUMP task 1: a pair is ranked when the edited summary's number is strictly lower. SummEval: per
document, Spearman of the number against the experts' consistency, averaged over documents. Halves
by ``sha256(id)`` parity (bump_pairs.py's ``half_of``): choose on ``tune``, report ``held``.
fresh_articles_dev.jsonl: the faithful summary's number against the flawed ones'.

**Where the words are silent** (``report`` prints it for BUMP and the fresh articles): the claims the
offline judge leaves unchecked, labelled by the data (a faithful summary's claims are supported; an
edited or flawed summary's claims that its faithful one does not have word for word are taken as
unsupported, which is what the one edit made), and how often each variant's P >= 0.5 says the label.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bump_pairs import half_of  # noqa: E402

from sumjudge.judges.base import ModelConfig  # noqa: E402
from sumjudge.summarization.reader import prompts  # noqa: E402
from sumjudge.summarization.reader.judge import ReaderJudge, offline_verdicts, own_sentences  # noqa: E402
from sumjudge.summarization.language.segment import split_sentences  # noqa: E402

VARIANTS = ("claim", "plain", "sent", "own")


def plain_claim_tail(claim: str) -> str:
    return f"Claim: {prompts.readable(claim)}\n\nIs this claim supported by the article? Answer Yes or No."


def sentence_tail(sentence: str) -> str:
    return f"Sentence: {prompts.readable(sentence)}\n\nIs this sentence supported by the article? Answer Yes or No."


def _sentence_of(claim: str, sentences: list[str]) -> int:
    words = set(claim.lower().split())
    return max(range(len(sentences)), key=lambda i: len(words & set(sentences[i].lower().split()))) if sentences else 0


def read_source(
    judge: ReaderJudge, source: str, summaries: list[str], variants: tuple[str, ...] = VARIANTS
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each variant's P for each summary of one source; (records, cost)."""
    llm = judge._llm
    t0 = time.perf_counter()
    per: list[dict[str, Any]] = []
    tails: list[str] = []
    for summary in summaries:
        drafts = judge.drafts(source, summary)
        claims = [c.text for c in drafts.claims]
        sents = split_sentences(summary)
        offline = offline_verdicts(judge._words, source, summary, claims) if claims else []
        per.append({"drafts": drafts, "claims": claims, "sents": sents,
                    "offline": ["error" if not o.supported else "unchecked" if o.unchecked else "stated" for o in offline]})
        tails += [prompts.claim_tail(c) for c in claims if "claim" in variants] + [plain_claim_tail(c) for c in claims if "plain" in variants] \
            + [sentence_tail(s) for s in sents if "sent" in variants]
    unique = list(dict.fromkeys(tails))
    sentences = per[0]["drafts"].sentences if per else ()
    head = prompts.source_head(sentences)
    answers = dict(zip(unique, llm.ask_after(prompts.SYSTEM, head, unique))) if unique else {}
    t1 = time.perf_counter()
    own_prompts = [prompts.alignment_prompt(prompts.excerpt(sentences, own_sentences(c)), c.text)
                   for p in per for c in p["drafts"].claims if "own" in variants]
    own_unique = list(dict.fromkeys(own_prompts))
    own = dict(zip(own_unique, llm.ask([(prompts.SYSTEM, u) for u in own_unique]))) if own_unique else {}
    t2 = time.perf_counter()
    records = []
    for p in per:
        claims, sents = p["claims"], p["sents"]
        rec = {
            "claims": [
                {"text": c, "offline": o, "sentence": _sentence_of(c, sents),
                 **({"claim": answers[prompts.claim_tail(c)].p_yes} if "claim" in variants else {}),
                 **({"plain": answers[plain_claim_tail(c)].p_yes} if "plain" in variants else {}),
                 **({"own": own[prompts.alignment_prompt(prompts.excerpt(sentences, own_sentences(d)), c)].p_yes}
                    if "own" in variants else {})}
                for c, o, d in zip(claims, p["offline"], p["drafts"].claims)
            ],
            "sentences": [{"text": s, **({"sent": answers[sentence_tail(s)].p_yes} if "sent" in variants else {})} for s in sents],
        }
        records.append(rec)
    cost = {
        "shared_evaluated": sum(a.evaluated for a in answers.values()),
        "own_evaluated": sum(a.evaluated for a in own.values()),
        "shared_seconds": round(t1 - t0, 2), "own_seconds": round(t2 - t1, 2),
        "tails": len(unique), "own_prompts": len(own_unique),
    }
    return records, cost


def run(args: argparse.Namespace) -> None:
    judge = ReaderJudge("reader", ModelConfig(id="local/reader", extra=dict(kv.split("=", 1) for kv in args.opt)))
    data = Path(args.data)
    done = set()
    if Path(args.out).exists():
        done = {json.loads(line)["source_id"] for line in open(args.out, encoding="utf-8")}
    groups: list[tuple[str, str, list[dict[str, Any]]]] = []  # (source id, source, summaries with labels)
    if args.set == "bump":
        rows = [json.loads(line) for line in open(data / "bump_task1_pairs.jsonl", encoding="utf-8")]
        rows = [r for r in rows if args.half == "all" or half_of(r["article_id"]) == args.half]
        random.Random(args.seed).shuffle(rows)
        for r in rows[: args.n]:
            groups.append((str(r["pair_id"]), r["source"], [
                {"role": "reference", "summary": r["reference_summary"], "article_id": r["article_id"], "error_type": r["error_type"]},
                {"role": "edited", "summary": r["edited_summary"], "article_id": r["article_id"], "error_type": r["error_type"]},
            ]))
    elif args.set == "fresh":
        by_doc_rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in map(json.loads, open(data / "fresh_articles_dev.jsonl", encoding="utf-8")):
            by_doc_rows[r["doc"]].append(r)
        for d, rs in sorted(by_doc_rows.items()):
            rs.sort(key=lambda r: r["kind"] != "faithful")  # the faithful summary first
            groups.append((d, rs[0]["source"], [{"role": r["kind"], "summary": r["summary"]} for r in rs]))
    else:
        docs = {d["doc_id"]: d["source"] for d in map(json.loads, open(data / "summeval_docs.jsonl", encoding="utf-8"))}
        by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in map(json.loads, open(data / "summeval_summaries.jsonl", encoding="utf-8")):
            by_doc[s["doc_id"]].append(s)
        ids = sorted(d for d in by_doc if (args.half == "all" or half_of(d) == args.half)
                     and len({s["consistency"] for s in by_doc[d]}) >= args.spread)  # a constant rating ranks nothing
        random.Random(args.seed).shuffle(ids)
        for d in ids[: args.n]:
            groups.append((d, docs[d], [{"system_id": s["system_id"], "summary": s["summary"], "consistency": s["consistency"]}
                                        for s in by_doc[d]]))
    with open(args.out, "a", encoding="utf-8") as out:
        for source_id, source, items in groups:
            if source_id in done:
                continue
            records, cost = read_source(judge, source, [i["summary"] for i in items], tuple(args.variants))
            for item, rec in zip(items, records):
                item.update(rec)
            out.write(json.dumps({"set": args.set, "half": args.half, "source_id": source_id, "items": items, "cost": cost}) + "\n")
            out.flush()
            print(f"{source_id}: {cost}", file=sys.stderr)


def _against_default(table: dict[tuple[str, str, Any], dict[str, float]], cap: float) -> None:
    """Each choice on every set at once, and its worst difference from the default (claim, mean, cap)."""
    base = table.get(("claim", "mean", cap), {})
    if not base:
        return
    print("\nevery set at once (difference from the default: claim prompt, mean, proofs capped):")
    rows = []
    for key, figures in table.items():
        if set(figures) >= set(base):
            worst = min(figures[k] - base[k] for k in base)
            rows.append((worst, key, figures))
    for worst, (variant, how, c), figures in sorted(rows, key=lambda r: r[0], reverse=True):
        shown = "  ".join(f"{k} {v:.3f}" for k, v in sorted(figures.items()))
        print(f"{variant:<10} {how:<4} cap {c if c is not None else '-':<4} worst {worst:+.3f}   {shown}")


def number(item: dict[str, Any], variant: str, how: str, cap: float | None) -> float:
    """The graded number of one summary under a variant: ``how`` mean or min of its P; ``cap``: a
    claim the offline judge proves wrong has its P times ``cap`` (for ``sent``: the sentence it lies in).
    ``a+b``: the mean of the two variants' numbers; ``a*sent``: each claim's P the mean of its own
    and its sentence's."""
    if "+" in variant:
        return statistics.fmean(number(item, v, how, cap) for v in variant.split("+"))
    if "*" in variant:  # each claim's P the mean of its own and its sentence's: verdicts stay per claim
        base = variant.split("*")[0]
        sent = [x["sent"] for x in item["sentences"]]
        ps = [(c[base] + (sent[c["sentence"]] if c["sentence"] < len(sent) else c[base])) / 2
              * (cap if cap is not None and c["offline"] == "error" else 1) for c in item["claims"]]
        return (min(ps) if how == "min" else statistics.fmean(ps)) if ps else 0.0
    if variant == "sent":
        ps = [s["sent"] for s in item["sentences"]]
        if cap is not None:
            for c in item["claims"]:
                if c["offline"] == "error" and c["sentence"] < len(ps):
                    ps[c["sentence"]] = ps[c["sentence"]] * cap
    else:
        ps = [c[variant] * (cap if cap is not None and c["offline"] == "error" else 1) for c in item["claims"]]
    if not ps:
        return 0.0
    return min(ps) if how == "min" else statistics.fmean(ps)


def report(args: argparse.Namespace) -> None:
    from scipy.stats import spearmanr

    recs = [json.loads(line) for f in args.files for line in open(f, encoding="utf-8")]
    table: dict[tuple[str, str, Any], dict[str, float]] = defaultdict(dict)
    for (set_name, half), group in sorted(_by(recs, lambda r: (r["set"], r["half"])).items()):
        print(f"\n{set_name}, {half} half: {len(group)} sources, {sum(len(r['items']) for r in group)} summaries")
        print(f"{'variant':<8} {'number':<6} {'cap':<5} {'figure':>8}")
        present = [v for v in VARIANTS if all(v in (i["sentences"][0] if v == "sent" and i["sentences"] else
                                                          i["claims"][0] if i["claims"] else {v: 0})
                                                  for r in group for i in r["items"])]
        combos = [f"{a}{j}sent" for a in ("claim", "own") for j in "+*" if a in present and "sent" in present]
        for variant in present + combos:
            for how in ("mean", "min"):
                for cap in (None, args.cap):
                    if set_name in ("bump", "fresh"):
                        lower = [number(i, variant, how, cap) < number(r["items"][0], variant, how, cap)
                                 for r in group for i in r["items"][1:] if _flawed(i)]
                        figure, extra = statistics.fmean(lower), f" of {len(lower)} below their faithful one"
                    else:
                        rhos = []
                        for r in group:
                            xs = [number(i, variant, how, cap) for i in r["items"]]
                            ys = [i["consistency"] for i in r["items"]]
                            if len(set(xs)) > 1 and len(set(ys)) > 1:
                                rho = float(spearmanr(xs, ys).statistic)
                                if rho == rho:
                                    rhos.append(rho)
                        figure, extra = (statistics.fmean(rhos) if rhos else float("nan")), f" ({len(rhos)} documents)"
                    print(f"{variant:<8} {how:<6} {cap if cap is not None else '-':<5} {figure:>8.3f}{extra}")
                    table[(variant, how, cap)][f"{set_name} {half}"] = figure
        if set_name in ("bump", "fresh"):
            silent(group)
            thresholds(group, args.cap)
        costs = [r["cost"] for r in group]
        print(f"tokens evaluated per source: shared head+tails median {statistics.median(c['shared_evaluated'] for c in costs):.0f}, "
              f"own median {statistics.median(c['own_evaluated'] for c in costs):.0f}; seconds median "
              f"{statistics.median(c['shared_seconds'] for c in costs):.1f} / {statistics.median(c['own_seconds'] for c in costs):.1f}")
    _against_default(table, args.cap)


def _flawed(item: dict[str, Any]) -> bool:
    """An edited summary (BUMP) or one with an error (fresh); a faithful one that leaves the main
    event out is faithful (what it lacks is coverage's)."""
    return item.get("role") == "edited" or str(item.get("role", "")).startswith("error")


def silent(group: list[dict[str, Any]], threshold: float = 0.5) -> None:
    """Claims the offline judge leaves unchecked, each labelled (see the module), and how often each
    variant's P >= threshold agrees with the label; beside it, how often a word proof is right."""
    rows = []
    for r in group:
        faithful = {c["text"] for c in r["items"][0]["claims"]}
        for k, item in enumerate(r["items"]):
            for c in item["claims"]:
                label = not _flawed(item) or c["text"] in faithful
                rows.append((label, c))
    for offline in ("unchecked", "error", "stated"):
        some = [(label, c) for label, c in rows if c["offline"] == offline]
        if not some:
            continue
        pos = sum(label for label, _ in some)
        def right(v: str, want: bool) -> str:
            xs = [(c[v] >= threshold) == label for label, c in some if label == want]
            return f"{sum(xs)}/{len(xs)}"

        shown = ", ".join(
            f"{v} {statistics.fmean((c[v] >= threshold) == label for label, c in some):.3f} "
            f"(supported {right(v, True)}, unsupported {right(v, False)})" for v in ("claim", "plain", "own")
            if all(v in c for _, c in some))
        print(f"claims the words left {offline}: {len(some)} ({pos} labelled supported); the model right at P >= {threshold}: {shown}")


def thresholds(group: list[dict[str, Any]], cap: float) -> None:
    """For each claim variant and threshold (a proven claim unsupported whatever its P): faithful
    summaries fully supported, and flawed ones with a claim judged unsupported."""
    for variant in ("claim", "plain", "own"):
        if not all(variant in c for r in group for i in r["items"] for c in i["claims"]):
            continue
        cells = []
        for t in (0.15, 0.25, 0.35, 0.45, 0.5, 0.55, 0.65):
            def whole(item: dict[str, Any]) -> bool:
                return all(c[variant] >= t and c["offline"] != "error" for c in item["claims"])
            faithful = [whole(i) for r in group for i in r["items"] if not _flawed(i)]
            flagged = [not whole(i) for r in group for i in r["items"] if _flawed(i)]
            cells.append(f"{t:.2f}: {statistics.fmean(faithful):.2f}/{statistics.fmean(flagged):.2f}")
        print(f"{variant:<6} faithful fully supported / flawed with an unsupported claim, by threshold: {'  '.join(cells)}")


def _by(items: list[dict[str, Any]], key: Any) -> dict[Any, list[dict[str, Any]]]:
    out: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for i in items:
        out[key(i)].append(i)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("data")
    p.add_argument("--set", choices=("bump", "summeval", "fresh"), required=True)
    p.add_argument("--half", choices=("tune", "held", "all"), default="tune")
    p.add_argument("--n", type=int, default=12, help="pairs (bump) or documents (summeval)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opt", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--spread", type=int, default=4, help="summeval: documents with at least this many distinct consistency ratings")
    p.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    p.add_argument("--out", required=True)
    p.set_defaults(fn=run)
    p = sub.add_parser("report")
    p.add_argument("files", nargs="+")
    p.add_argument("--cap", type=float, default=0.1)
    p.set_defaults(fn=report)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
