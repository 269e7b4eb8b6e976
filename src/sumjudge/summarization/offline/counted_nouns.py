"""A Korean count moved to another noun: the claim counts a noun with its counter (주택 5채) where
the source counts the same noun with the same counter otherwise (주택 2채와 창고 5동). Korean writes
what is counted twice, as the noun before the number and as the counter after it, so the pair names
the slot the number stands in even where the claim's words sit in another sentence than the rest."""

from __future__ import annotations

import regex

from ..language.units import Document, Sentence
from ..language.korean_units import KoreanSentence

_COUNTER = regex.compile(r"(\p{Hangul}+)$")


def counted_otherwise(claim: Sentence, n: str, doc: Document) -> tuple[str, str, str] | None:
    """(the claim's count, the source's count of the same noun, the source sentence that has it),
    or ``None`` when the claim is no Korean count of a number the source has elsewhere, or the source
    counts that noun as the claim does."""
    if not isinstance(claim, KoreanSentence) or n.rstrip("%") not in doc.number_values:
        return None  # a number the source lacks is shown as such (:mod:`.wrong_numbers`)
    form = claim.number_forms[n]
    counter = _COUNTER.search(form)
    noun = regex.search(rf"(\p{{Hangul}}{{2,}})\s+{regex.escape(form)}", claim.text)
    if counter is None or noun is None:
        return None
    mine = f"{noun.group(1)} {form}"
    if any(mine in s.text for s in doc.sentences):
        return None
    for s in doc.sentences:
        if form in s.text:
            continue  # the sentence counts it the claim's way too: a change (3억 원에서 5억 원으로) or a list
        for m, theirs in s.number_forms.items():
            if m == n or not theirs.endswith(counter.group(1)) or not s.number_keys.get(m, frozenset()).isdisjoint(
                claim.number_keys.get(n, frozenset({n}))
            ):
                continue
            if f"{noun.group(1)} {theirs}" in s.text:
                return mine, f"{noun.group(1)} {theirs}", s.text
    return None


__all__ = ["counted_otherwise"]
