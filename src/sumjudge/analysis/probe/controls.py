"""The rules of the controls, changes that must not lower the score: ``reorder`` (a later sentence
moved to the front), ``rescore`` (the same summary again), ``format`` (quotes, spacing, a final period)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import text as tx
from .variants import ProbeRow, Variant, pick, swap
from .word_lists import SENTENCE_OPENERS_TO_KEEP


# -- controls ----------------------------------------------------------------------------------


def reorder(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """A later sentence moved to the front: one that does not lean on the one before it."""
    parts = tx.sentences(row.summary)
    if len(parts) < 2 or any(p.text.rstrip("\"'”’)") [-1:] not in ".!?" for p in parts):
        return None
    movable = [i for i in range(1, len(parts)) if tx.words(parts[i].text)[:1]
               and tx.words(parts[i].text)[0].text.lower() not in SENTENCE_OPENERS_TO_KEEP]
    k = pick(rng, movable)
    if k is None:
        return None
    assert isinstance(k, int)
    start, end = parts[0].start, parts[k].end
    order = [parts[k]] + parts[:k]
    seps = [row.summary[parts[i].end:parts[i + 1].start] for i in range(k)]
    region = order[0].text + "".join(sep + p.text for sep, p in zip(seps, order[1:]))
    return Variant(
        row_id=row.id, kind="reorder", axis="control", summary=tx.replace(row.summary, start, end, region),
        original_span=(start, end), variant_span=(start, start + len(region)), change=f"sentence {k + 1} moved to the front",
    )


def rescore(row: ProbeRow, _others: Sequence[str], _rng: random.Random) -> Variant | None:
    """The same summary again: the judge's agreement with itself."""
    return Variant(row_id=row.id, kind="rescore", axis="control", summary=row.summary, original_span=(0, 0),
                   variant_span=(0, 0), change="none (scored again)")


def format_(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """One change of form: curly quotes, a space before punctuation closed up, or a final period."""
    s = row.summary
    options: list[tuple[int, int, str]] = []
    first = s.find('"')
    second = s.find('"', first + 1) if first >= 0 else -1
    if second > first >= 0:
        options.append((first, second + 1, "“" + s[first + 1:second] + "”"))
    for mark in (" .", " ,"):
        at = s.find(mark)
        if at > 0 and s[at - 1].isalnum():
            options.append((at, at + 2, mark[1]))
            break
    body = s.rstrip()
    if body and body[-1] not in ".!?\"'”’)":
        options.append((len(body), len(body), "."))
    elif body.endswith(".") and not body.endswith(" .") and len(tx.sentences(s)) > 1:
        options.append((len(body) - 1, len(body), ""))
    choice = pick(rng, options)
    if choice is None:
        return None
    start, end, new = choice  # type: ignore[misc]
    return swap(row, "format", start, end, new)
