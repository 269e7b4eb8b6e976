"""Items for the scale benchmarks: each with its own source, and words no other item uses.

Every source has 20 sentences by default (about 1.7 kB) made of a shared vocabulary plus a made-up name and
numbers of its own, so that each item brings new words (the worst case for anything a process
remembers per word or per source); the summary keeps three of the sentences, one with a changed
number. Deterministic: the same ``n`` gives the same file.

    from scale_data import make_data   # bench/speed/ on sys.path (the scripts run from bench/speed/ or add it)
"""

from __future__ import annotations

import json
from pathlib import Path

WORDS = ("council approved homes river budget school station museum harbour bridge library market "
         "festival hospital tram garden").split()
VERBS = ("opened", "closed", "funded", "delayed", "expanded", "inspected", "renamed", "sold")
SYLLABLES = ("ka", "lo", "mi", "ne", "tor", "vas", "ril", "bo", "ser", "dun", "pel", "gri")


def made_up_name(i: int) -> str:
    """A name no other item has (base-12 digits of ``i`` as syllables)."""
    parts = []
    i += 12**3
    while i:
        i, r = divmod(i, len(SYLLABLES))
        parts.append(SYLLABLES[r])
    return "".join(parts).capitalize()


def item(i: int, sentences: int = 20) -> dict[str, str]:
    name = made_up_name(i)
    lines = [
        f"In {1900 + (i + k) % 120}, the {WORDS[(i + k) % len(WORDS)]} of {name} was "
        f"{VERBS[(i * 3 + k) % len(VERBS)]} after {i * 7 + k} residents signed a petition."
        for k in range(max(sentences, 4))
    ]
    last = len(lines) - 1
    summary = [lines[0], lines[last // 2], lines[last].replace(f"{i * 7 + last} residents", f"{i * 7 + last + 1} residents")]
    return {"id": f"doc-{i}", "source": " ".join(lines), "summary": " ".join(summary)}


def make_data(path: Path, n: int, sentences: int = 20) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps(item(i, sentences)) + "\n")
