"""Does ``local/reader`` read Korean better with Korean or with English instructions around the text?

    python bench/quality/korean_reader_instructions.py [--data DIR] [--file FILE] [--verbose]

Scores a Korean article file (as bench/quality/korean_targets.py reads it) with ``local/reader`` twice in
one process, first with the English instructions (the default), then with Korean ones
(``reader/prompts.py``: ``KOREAN``; the answer is Yes or No either way), and prints each summary's
score and the four targets of each. Slow: the model reads every source and claim (2 cores: minutes).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from korean_targets import read_items, score, targets  # noqa: E402

from sumjudge import create_summarization_scorer  # noqa: E402
from sumjudge.summarization.reader import prompts  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("SUMJUDGE_DATA_DIR", "../shared/data"))
    ap.add_argument("--file", default="fresh_articles_ko_dev.jsonl")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    items = read_items(args.data, args.file)
    lines = []
    for name, wording in (("English", None), ("Korean", prompts.KOREAN)):
        prompts.IN_TEXT_LANGUAGE.clear()
        if wording is not None:
            prompts.IN_TEXT_LANGUAGE["ko"] = wording
        print(f"== local/reader, {name} instructions")
        started = time.perf_counter()
        by_doc = score(create_summarization_scorer(model="local/reader"), items, args.verbose)
        lines.append(f"local/reader, {name} instructions ({time.perf_counter() - started:.0f} s): {targets(by_doc)}")
    prompts.IN_TEXT_LANGUAGE.clear()
    print("\n" + "\n".join(lines))


if __name__ == "__main__":
    main()
