"""How far a judge that is strict on extrinsic names and numbers can go on BUMP task 1.

Two things are asked of the default judge at once: a number, date or name the source does not
have makes a claim unsupported, and at least 80% of BUMP's reference summaries are fully
supported. This script counts the references (CNN/DailyMail highlights) that carry such a word, and
the pairs whose edit lands in a reference sentence that carries one: there, a judge that follows
point 2 finds the reference sentence unsupported already, so the pair ties whatever the edit is.

A word counts when it has a digit, or starts with a capital and is not a sentence's first word, and
the article has it in no form: not the word, not its digits (for numbers), not a word sharing its
first five letters (Britain/British, English/England). Every word found is printed with its
article, so the count can be checked by eye; some are harmless (a quotation's "I've"), most are
not (a county, a weekday, an age or a name the article never gives).

    python bench/quality/bump_ceiling.py ../shared/data/bump_task1_pairs.jsonl
"""

from __future__ import annotations

import argparse
import json
import re

WORD = re.compile(r"\w+(?:[-']\w+)*")
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _norm(word: str) -> str:
    return re.sub(r"'s$", "", word).lower()


def absent_names_and_numbers(source: str, text: str) -> list[str]:
    """The numbers and capitalised words of ``text`` that ``source`` has in no form."""
    words = {_norm(w) for w in WORD.findall(source)}
    prefixes = {w[:5] for w in words if len(w) >= 5}
    digits = {re.sub(r"\D", "", w) for w in words if any(c.isdigit() for c in w)}
    found: list[str] = []
    for sentence in SENTENCE.split(text):
        for i, word in enumerate(WORD.findall(sentence)):
            low = _norm(word)
            if any(c.isdigit() for c in word):
                if low not in words and re.sub(r"\D", "", word) not in digits:
                    found.append(word)
            elif word[0].isupper() and i > 0 and low not in words and not (len(low) >= 5 and low[:5] in prefixes):
                found.append(word)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="bump_task1_pairs.jsonl")
    args = ap.parse_args()
    with open(args.data, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    references = {r["article_id"]: (r["source"], r["reference_summary"]) for r in rows}
    flagged = {a: absent_names_and_numbers(s, ref) for a, (s, ref) in references.items()}
    flagged = {a: w for a, w in flagged.items() if w}
    tied = 0
    for r in rows:
        edited = set(SENTENCE.split(r["edited_summary"]))
        changed = " ".join(s for s in SENTENCE.split(r["reference_summary"]) if s not in edited)
        tied += bool(absent_names_and_numbers(r["source"], changed))
    print(f"references with a name or number the article lacks: {len(flagged)} of {len(references)} "
          f"({len(flagged) / len(references):.0%}); a judge strict on them supports at most "
          f"{1 - len(flagged) / len(references):.0%} of the references fully")
    print(f"pairs whose edit lands in a reference sentence with one: {tied} of {len(rows)} ({tied / len(rows):.0%}); "
          f"they tie under such a judge, so it scores at most {1 - tied / len(rows):.0%} of pairs lower")
    for article, words in flagged.items():
        print(f"  article {article}: {', '.join(words)}")


if __name__ == "__main__":
    main()
