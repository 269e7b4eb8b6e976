"""BUMP task 1 (minimal pairs on CNN/DailyMail): does the offline judge score the summary with one
error lower than the faithful reference it was made from?

    python bench/quality/bump_pairs.py DATA/bump_task1_pairs.jsonl [--judge offline/lexical] [--half tune|held|all]
                               [--show N] [--kind reference|edited]

The judge's number is the **alignment score** (supported claims / claims), the axis that reads
faithfulness; coverage asks the same source questions of both summaries and is left out. For each
error type of the file it prints: the share of pairs where the edited summary scores strictly
lower (BUMP's "consistency"), the share of ties, the share of references the judge finds fully
supported (alignment 1.0), beside ROUGE-2 precision of the summary against the source (computed
here) and every published metric in the file (its ``<metric>_reference`` / ``<metric>_edited``
scores, compared the same way).

Articles are split in two halves by ``sha256(article_id)`` parity: rules are chosen on the
``tune`` half, the ``held`` half is reported apart and not looked at while choosing. ``--show N``
prints N pairs the judge gets wrong (ties and inversions; with ``--kind reference``: references
not fully supported) with the reasons, from the half asked for.
"""
from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable

from sumjudge.summarization.offline import create_offline_judge


def half_of(article_id: object) -> str:
    """``tune`` or ``held``: a fixed split of the articles, the same in every process."""
    return "tune" if hashlib.sha256(str(article_id).encode()).digest()[0] % 2 == 0 else "held"


def rouge2_precision(summary: str, source: str) -> float:
    """Share of the summary's word bigrams (lower case, no punctuation) that the source has."""
    import regex

    def bigrams(text: str) -> list[tuple[str, str]]:
        words = regex.findall(r"[\p{L}\p{N}]+", text.lower())
        return list(zip(words, words[1:]))

    mine, theirs = bigrams(summary), set(bigrams(source))
    return sum(b in theirs for b in mine) / len(mine) if mine else 0.0


_NUMBER_WORDS = frozenset(
    """two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen
    eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion
    dozen half""".split()
)


def provable(r: dict) -> bool:
    """Whether the pair's edit is of a kind words can prove: an extrinsic entity or
    circumstance error whose edit brings in a number (digits, a number word) or a name (a capitalised
    word; at a sentence start only in place of a word the article capitalises mid-sentence) that the
    article does not have. Decided from the three texts alone, never from a judge's verdict."""
    import difflib

    import regex

    if r["error_type"] not in ("Extrinsic Entity Error", "Extrinsic Circumstance Error"):
        return False
    source = r["source"]
    words = {w.lower() for w in regex.findall(r"[\p{L}\p{N}]+", source)}
    old, new = r["reference_summary"].split(), r["edited_summary"].split()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op not in ("replace", "insert"):
            continue
        for j in range(j1, j2):
            for w in regex.findall(r"[\p{L}\p{N}]+", new[j]):
                if w.lower() in words:
                    continue
                if any(c.isdigit() for c in w) or w.lower() in _NUMBER_WORDS:
                    return True
                if not w[:1].isupper():
                    continue
                opens = j == 0 or new[j - 1].endswith((".", "!", "?", ":"))
                if not opens or any(
                    o[:1].isupper() and regex.search(r"[\p{Ll},;] " + regex.escape(o.strip(".,;:'\"")), source)
                    for o in old[i1:i2]
                ):
                    return True
    return False


def consistency(pairs: Iterable[tuple[float, float]]) -> tuple[float, float, int]:
    """(share edited < reference, share of ties, n) over (reference, edited) scores."""
    pairs = list(pairs)
    n = len(pairs)
    if not n:
        return 0.0, 0.0, 0
    lower = sum(e < r - 1e-12 for r, e in pairs)
    ties = sum(abs(e - r) <= 1e-12 for r, e in pairs)
    return lower / n, ties / n, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="bump_task1_pairs.jsonl")
    ap.add_argument("--judge", default="offline/lexical", help="an offline judge id (default offline/lexical)")
    ap.add_argument("--half", choices=("tune", "held", "all"), default=None, help="one half only")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--kind", choices=("pair", "reference"), default="pair")
    args = ap.parse_args()

    judge = create_offline_judge(args.judge.split("/", 1)[-1])
    rows = [json.loads(line) for line in open(args.data, encoding="utf-8")]
    metrics = sorted({k[: -len("_reference")] for r in rows for k in r["published_scores"] if k.endswith("_reference")})

    def alignment(source: str, summary: str) -> tuple[float, list]:
        verdicts = judge.align(source, summary).alignment  # type: ignore[attr-defined]
        return (sum(v.supported for v in verdicts) / len(verdicts) if verdicts else 0.0), verdicts

    if args.half in ("tune", "held"):
        rows = [r for r in rows if half_of(r["article_id"]) == args.half]  # score only the half asked for
    references: dict[tuple[str, str], tuple[float, list]] = {}
    scored = []
    for r in rows:
        key = (r["source"], r["reference_summary"])
        if key not in references:  # an article's reference recurs in each of its pairs
            references[key] = alignment(*key)
        ref, ref_v = references[key]
        edi, edi_v = alignment(r["source"], r["edited_summary"])
        scored.append((r, ref, edi, ref_v, edi_v))

    halves = [args.half] if args.half else ["tune", "held", "all"]
    for half in halves:
        chosen = [s for s in scored if half == "all" or half_of(s[0]["article_id"]) == half]
        print(f"\n== {half} half: {len(chosen)} pairs, {len({s[0]['article_id'] for s in chosen})} articles "
              f"(judge {getattr(judge, 'model_id', args.judge)}, score = alignment)")
        groups: dict[str, list] = defaultdict(list)
        for s in chosen:
            groups[s[0]["error_type"]].append(s)
            groups["ALL"].append(s)
            if provable(s[0]):
                groups["provable (extrinsic, new number/name)"].append(s)
        extra = ["ROUGE-2-src", *metrics]
        print(f"{'error type':30s} {'n':>4s} {'lower':>6s} {'ties':>5s} {'ref=1':>6s} | "
              + " ".join(f"{m[:10]:>10s}" for m in extra))
        for kind in sorted(groups, key=lambda k: (k == "ALL", k.startswith("provable"), k)):
            group = groups[kind]
            lower, ties, n = consistency((s[1], s[2]) for s in group)
            full = sum(s[1] >= 1.0 for s in group) / n
            cells = [consistency((rouge2_precision(s[0]["reference_summary"], s[0]["source"]),
                                  rouge2_precision(s[0]["edited_summary"], s[0]["source"])) for s in group)[0]]
            for m in metrics:
                got = [(s[0]["published_scores"].get(f"{m}_reference"), s[0]["published_scores"].get(f"{m}_edited"))
                       for s in group]
                cells.append(consistency((a, b) for a, b in got if a is not None and b is not None)[0])
            print(f"{kind[:30]:30s} {n:4d} {lower:6.1%} {ties:5.1%} {full:6.1%} | "
                  + " ".join(f"{c:10.1%}" for c in cells))
        refs = {(s[0]["article_id"], s[0]["reference_summary"]): s[3] for s in chosen}
        claims = [v for vs in refs.values() for v in vs]
        full = sum(all(v.supported for v in vs) for vs in refs.values())
        unsupported = sum(not v.supported for v in claims)
        unchecked = sum(bool(getattr(v, "unchecked", False)) for v in claims)
        print(f"references: {len(refs)}, fully supported {full} ({full / max(1, len(refs)):.1%}); "
              f"their claims {len(claims)}: unsupported {unsupported}, unchecked {unchecked} "
              f"({unchecked / max(1, len(claims)):.1%})")
        if args.show:
            _show(chosen, args.show, args.kind)


def _show(chosen: list, limit: int, kind: str) -> None:
    wrong: Callable[[tuple], bool]
    if kind == "reference":
        wrong = lambda s: s[1] < 1.0  # noqa: E731
    else:
        wrong = lambda s: not s[2] < s[1]  # noqa: E731
    shown = 0
    for r, ref, edi, ref_v, edi_v in chosen:
        if not wrong((r, ref, edi)) or shown >= limit:
            continue
        shown += 1
        print(f"\n--- pair {r['pair_id']} ({r['error_type']}): reference {ref:.2f}, edited {edi:.2f}")
        print("REF:", r["reference_summary"])
        print("EDI:", r["edited_summary"])
        for v in ref_v if kind == "reference" else edi_v:
            print(f"  [{'+' if v.supported else '-'}] {v.claim[:100]!r}: {v.reason[:300]}")


if __name__ == "__main__":
    main()
