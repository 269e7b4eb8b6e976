"""What every judge reads: one :class:`Reading` per judge turns a source into its analysed
sentences (names resolved across the whole text), a summary into its claims (one fact each), a
claim into its best passages of the source, and a source into its key facts (the questions).

No verdict is made here: the offline judge's rules (:mod:`..offline`) and the reader's model
(:mod:`..reader`) decide on what this gives them.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import regex

from . import word_lookups
from .units import Document, Sentence, TextAnalyzer, analyse_document, capitalised_words
from .clauses import split_clauses
from .korean_units import KoreanAnalyzer
from .passages import derived_forms, name_aliases, passages
from .lexicon import CORE
from .names import acronyms
from .questions import FactRanking, phrase_question, select_facts
from .segment import detect_language, split_sentences

_ONE = regex.compile(r"\b[Oo]ne\b")


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
    """The source's sentences, as :meth:`Reading.document` splits them."""
    claims: tuple[DraftClaim, ...]


class Reading:
    """Analysers per language and a bounded memo of analysed sources. Safe to share: it keeps only
    memos of pure functions. ``data``: the word lists read (``core``, or the opt-in ``wordfreq``)."""

    _MAX_DOCS = 256

    def __init__(self, data: str = CORE) -> None:
        word_lookups.require(data)
        self.data = data
        self._analysers: dict[str, TextAnalyzer] = {}
        self._docs: OrderedDict[str, Document] = OrderedDict()

    def analyser(self, lang: str) -> TextAnalyzer:
        a = self._analysers.get(lang)
        if a is None:
            # Korean is read by morphemes (kiwipiepy, loaded on its first text); every other language by words
            a = self._analysers[lang] = KoreanAnalyzer(lang, self.data) if lang == "ko" else TextAnalyzer(lang, self.data)
        return a

    def document(self, source: str) -> Document:
        """``source`` analysed: its sentences, their units, and the names resolved across it."""
        doc = self._docs.get(source)
        if doc is not None:
            self._docs.move_to_end(source)
            return doc
        lang = detect_language(source)
        doc = analyse_document(source, self.analyser(lang), split_sentences(source))
        doc.aliases = name_aliases(source, doc.sentences, lang, self.data)
        doc.parts = frozenset(p for u in doc.units if "-" in u for p in u.split("-") if p)
        doc.acronyms = acronyms(source)
        doc.writes_one = _ONE.search(source) is not None
        self._docs[source] = doc
        if len(self._docs) > self._MAX_DOCS:
            self._docs.popitem(last=False)
        return doc

    # -- the summary: its claims

    def claims(self, summary: str, lang: str, names: frozenset[str] = frozenset()) -> list[Sentence]:
        """The summary's clauses; ``names`` (lower-cased words a source capitalises mid-sentence)
        stay names when a claim opens with one."""
        analyser = self.analyser(lang)
        caps = capitalised_words(summary) | names
        out: list[Sentence] = []
        for sentence in split_sentences(summary):
            for clause in split_clauses(sentence, lang):
                claim = analyser.analyse(clause, capitalised_elsewhere=caps)
                if claim.content:
                    out.append(claim)
        return out

    def claim_texts(self, summary: str) -> list[str]:
        """The summary's claims as text, in the summary's own language."""
        return [c.text for c in self.claims(summary, detect_language(summary))] if summary.strip() else []

    def drafts(
        self, source: str, summary: str | None = None, claims: list[str] | None = None,
        *, window: int = 2, k: int = 2,
    ) -> Drafts:
        """The claims of ``summary`` (or ``claims`` as given) with the ``k`` best passages of at most
        ``window`` sentences of ``source`` each (names resolved across the whole source)."""
        doc = self.document(source)
        if claims is None:
            analysed = self.claims(summary or "", doc.lang, doc.caps) if (summary or "").strip() else []
        else:
            analyser = self.analyser(doc.lang)
            caps = capitalised_words(" ".join(claims)) | doc.caps
            analysed = [analyser.analyse(c, capitalised_elsewhere=caps) for c in claims]
        out: list[DraftClaim] = []
        for c in analysed:
            found = passages(c, doc, doc.aliases, derived_forms(c, doc), window, k) if doc.sentences else []
            out.append(DraftClaim(c.text, tuple(Passage(e.start, e.end, e.where) for e in found)))
        return Drafts(tuple(s.text for s in doc.sentences), tuple(out))

    # -- the source: its key facts

    def key_facts(self, source: str, limit: int, ranking: FactRanking | None = None) -> list[Sentence]:
        """The source's most salient facts, most important first."""
        doc = self.document(source)
        return select_facts(doc, self.analyser(doc.lang), limit, ranking or FactRanking())

    def questions(self, source: str, limit: int, ranking: FactRanking | None = None) -> list[str]:
        """One closed question per key fact, in the source's language."""
        if not source.strip():
            return []
        doc = self.document(source)
        return [phrase_question(f.text, doc.lang, doc.caps) for f in self.key_facts(source, max(0, limit), ranking)]


__all__ = ["DraftClaim", "Drafts", "Passage", "Reading"]
