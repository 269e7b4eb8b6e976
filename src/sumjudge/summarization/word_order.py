"""Whether a claim made of a summary's words keeps who does what to whom: "Bob paid Alice" is not
"Alice paid Bob", though it has the same words.

Each word that the claim and the summary each hold once is a pivot (a content word, or a word that
orders two others: "after", "than", "to", ...). A claim *swaps* at a pivot when a word before it in the
claim is after it in the summary and a word after it in the claim is before it in the summary: the two
sides changed places ("Bob paid Alice"; "Prices rose after they fell" for "Prices fell after they
rose"; "from Rome to Paris"). Moving only one side is a judge's ordinary rewrite ("On Tuesday, the
council approved ..." for "The council approved ... on Tuesday"; "Building starts in May after the
council approved ..."), and so is a verb of saying ("Police said the road was closed" for "The road
was closed, police said").

A passive turns the sides round: the swap is the same claim where exactly one of the two texts makes
the pivot a passive's verb ("by" just after it, or "was" before it and "by" later) ("The homes were approved by the council"; "Ada Lind designed the bridge"
for "The bridge, designed by Ada Lind"); and the sides kept where exactly one does is a swap ("Alice
was paid by Bob" for "Alice paid Bob").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

ORDERING_WORDS = frozenset({"after", "before", "than", "to", "from", "over", "against", "into", "toward", "towards",
                            "behind", "above", "below", "under", "beat", "beats", "defeated"})
"""Small words that order the words around them (a route, a sequence, a comparison): pivots too."""
SAYING = frozenset({"said", "says", "say", "told", "tells", "reported", "reports", "added", "adds", "stated", "states",
                    "wrote", "writes", "announced", "explained", "noted", "according", "confirmed", "insisted"})
"""Verbs of saying, never pivots: "X, police said" is "Police said X"."""


_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})


def _passive(words: Sequence[str], clause: Sequence[int], at: int) -> bool:
    """Whether the word at ``at`` is a passive's verb: "by" just after it ("designed by"), or a form of
    "be" just before it and "by" within a few words after it ("was paid 5 dollars by"), in its clause."""
    near = [words[j] for j in range(at + 1, min(len(words), at + 5)) if clause[j] == clause[at]]
    before = {words[j] for j in range(max(0, at - 2), at) if clause[j] == clause[at]}
    return "by" in near[:2] or (bool(_BE & before) and "by" in near)


def _placed(claim: Sequence[str], summary: Sequence[str], content: Callable[[str], bool],
            same: Callable[[str, str], bool]) -> list[tuple[int, int]]:
    """``(position in the claim, position in the summary)`` of each word the claim holds once that the
    summary holds once (exactly, or else as one form of it)."""
    placed: list[tuple[int, int]] = []
    for i, word in enumerate(claim):
        if not (content(word) or word in ORDERING_WORDS) or claim.count(word) != 1:
            continue
        at = [j for j, h in enumerate(summary) if h == word] or [j for j, h in enumerate(summary) if same(word, h)]
        if len(at) == 1:
            placed.append((i, at[0]))
    return placed


def swapped(claim: Sequence[str], summary: Sequence[str], content: Callable[[str], bool],
            same: Callable[[str, str], bool], clauses: tuple[Sequence[int], Sequence[int]] | None = None) -> bool:
    """Whether ``claim`` (its words) puts two of ``summary``'s words on each other's side of a pivot
    (module notes). ``content``: whether a word carries a fact; ``same``: two forms of one word;
    ``clauses``: the clause of each word of the claim and of the summary (a passive's "by" is in its
    verb's clause); ``None``: each text one clause."""
    claim_clause, summary_clause = clauses or ([0] * len(claim), [0] * len(summary))
    placed = _placed(claim, summary, content, same)
    for ci, sj in placed:
        if claim[ci] in SAYING:
            continue
        sides = [(i, j) for i, j in placed if content(claim[i]) and i != ci]
        moved_right = any(i < ci and j > sj for i, j in sides)
        moved_left = any(i > ci and j < sj for i, j in sides)
        kept = any(i < ci and j < sj for i, j in sides) and any(i > ci and j > sj for i, j in sides)
        turned = _passive(claim, claim_clause, ci) != _passive(summary, summary_clause, sj)
        if (moved_right and moved_left and not turned) or (turned and kept and not (moved_right or moved_left)):
            return True
    return False


__all__ = ["ORDERING_WORDS", "SAYING", "swapped"]
