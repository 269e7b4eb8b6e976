"""The offline judge's deterministic drafts, for a judge that reads (``local/reader``): the summary's
claims (its clauses) and, for each, the source passages that hold most of it (names resolved across the
whole source), found exactly as :class:`~.lexical.LexicalJudge` finds them; no verdict. And, for
coverage, the questions whose answer the summary's words already settle (:func:`coverage_gaps`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .analysis import capitalised_words
from .coverage import read_summary
from .evidence import derived_forms, passages
from .lexical import LexicalJudge
from .lexicon import ORDINAL_WORDS
from .proof import key_fact_missing


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


def coverage_gaps(judge: LexicalJudge, questions: list[str], summary: str) -> list[str | None]:
    """For each question, why the summary's words alone show that it cannot answer the question with
    yes, or ``None`` where only reading can tell. Words settle it when the summary shares none of the
    fact's content words, or lacks the fact's number or date (in any of its forms: "two-year" is "two
    years"), or has another number in its place. A missing name settles nothing ("the mayor" may be
    the fact's "Ana Lopez"), nor a spelled ordinal ("the first lady")."""
    if not questions:
        return []
    read = read_summary(judge._analyser, questions, summary)
    gaps: list[str | None] = []
    for fact in read.facts:
        if not fact.content:
            gaps.append(None)
        elif not read.sentences:
            gaps.append("the summary is empty")
        elif not fact.units & read.units:
            gaps.append("the summary shares none of the fact's words")
        else:
            key = key_fact_missing(fact, read.units, read.closest(fact), read.numbers)
            numbers = [
                f for n, f in fact.number_forms.items()
                if "#" + n not in read.units and not fact.number_keys[n] & read.numbers and f.lower() not in ORDINAL_WORDS
            ]
            if key is not None and key[1]:
                gaps.append(f"the summary contradicts it: {key[1]}")
            elif numbers:
                gaps.append(f"the summary lacks the fact's number {numbers[0]!r}")
            elif key is not None and key[0].startswith("date"):
                gaps.append(f"the summary lacks the fact's {key[0]}")
            else:
                gaps.append(None)
    return gaps


__all__ = ["DraftClaim", "Drafts", "Passage", "claim_drafts", "coverage_gaps"]
