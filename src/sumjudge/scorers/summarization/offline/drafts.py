"""The offline judge's deterministic drafts, for a judge that reads (``local/reader``): the summary's
claims (its clauses) and, for each, the source passages that hold most of it (names resolved across the
whole source), found exactly as :class:`~.lexical.LexicalJudge` finds them; no verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from .analysis import capitalised_words
from .evidence import derived_forms, passages
from .lexical import LexicalJudge


@dataclass(frozen=True)
class Passage:
    start: int
    """Index of the passage's first sentence in the source (0-based)."""
    end: int
    """Exclusive."""
    where: str
    """``"sentence 3"`` / ``"sentences 3-4"``: numbered in the whole source."""


@dataclass(frozen=True)
class DraftClaim:
    text: str
    passages: tuple[Passage, ...]
    """Best first."""


@dataclass(frozen=True)
class Drafts:
    sentences: tuple[str, ...]
    """The source's sentences, as the offline judge splits them."""
    claims: tuple[DraftClaim, ...]


def claim_drafts(
    judge: LexicalJudge, source: str, summary: str | None = None, claims: list[str] | None = None,
    *, window: int = 2, k: int = 2,
) -> Drafts:
    """The claims of ``summary`` (or ``claims`` as given) with the ``k`` best passages of at most
    ``window`` sentences of ``source`` each."""
    doc = judge._doc(source)  # the offline judge's analysed document (names resolved), memoised there
    if claims is None:
        analysed = judge.claims(summary or "", doc.lang, doc.caps) if (summary or "").strip() else []
    else:
        analyser = judge._analyser(doc.lang)
        caps = capitalised_words(" ".join(claims)) | doc.caps
        analysed = [analyser.analyse(c, capitalised_elsewhere=caps) for c in claims]
    out: list[DraftClaim] = []
    for c in analysed:
        found = passages(c, doc, doc.aliases, derived_forms(c, doc), window, k) if doc.sentences else []
        out.append(DraftClaim(c.text, tuple(Passage(e.start, e.end, e.where) for e in found)))
    return Drafts(tuple(s.text for s in doc.sentences), tuple(out))


__all__ = ["DraftClaim", "Drafts", "Passage", "claim_drafts"]
