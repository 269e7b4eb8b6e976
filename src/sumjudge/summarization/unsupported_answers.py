"""Coverage read against alignment: an answer whose only evidence is a claim the source does not support
does not count.

Alignment (A) and coverage (C) run side by side, and C never sees the source, so a sentence the summary
invents can answer a question as well as a true one can: "Governor Ruiz said the pool opened in 1964"
answers "did the pool open in 1964?" though the source never says it. Once both steps are in, the
scorer finds where each claim lies in the summary; a question counted as answered whose quote overlaps
claims found unsupported (or contradicted) and no supported claim is re-decided as unanswered, so a
summary never gains coverage by what it gets wrong. Where a supported claim cannot be placed in the
summary (a judge that rewrote its claims), nothing is re-decided: the support may lie in the quote.

A claim the judge showed wrong only in details that its passage states otherwise ("closed for six
months" where the passage that states the rest says "six weeks", each differing word located there) is
not counted among them: the rest of it is what the source says, and the detail already costs alignment
and any question about it; counting those too would take a second point off a summary for one wrong
detail. Only firm answers are re-decided: an *unchecked* verdict's quote is just the nearest sentence.

An invented sentence can also lend a name to an answer quoted from elsewhere: "a new budget plan is due
in January" answers "did the board ask Carver to present a budget plan in January?" only with the
'Carver' of "Diane Carver resigned in 2019". So a firm answer whose quote lacks a name of the
question's fact, where the summary writes that name only after the quote and only inside unsupported
claims that share no other word with the fact, is re-decided as unanswered too. A name written before
the quote is left alone (the quote's "he" may refer back to it), and so is one in a claim that carries
the fact's words: it is part of the answer. A claim the judge left *unchecked* lends its names the same
way only where none of its other words is the source's ("Diane Carver said she would resign", where the
source never resigns or says): an unchecked claim that shares the source's words is most often a true
paraphrase, the second half of a fact the answer needs.
"""

from __future__ import annotations

import regex

from .language.lexicon import STOPWORDS
from .language.questions import fact_of_question
from .language.segment import detect_language
from .language.word_lookups import lemma, stem
from .quotes import locate
from .verdicts import AlignmentVerdict, CoverageVerdict

RESTS_ON_UNSUPPORTED = "its answer rests only on a claim the source does not support"
"""The start of the reason of an answer re-decided here."""


def _span(claim: AlignmentVerdict, summary: str) -> tuple[int, int] | None:
    """Where the claim lies in the summary, or ``None`` where it cannot be placed."""
    found = locate(claim.claim, summary)
    return None if found is None else (found.start, found.end)


def _overlaps(span: tuple[int, int], quote: list[int], summary: str) -> bool:
    """Whether ``span`` shares a letter or digit with the quote's span of the summary."""
    lo, hi = max(span[0], quote[0]), min(span[1], quote[1])
    return any(c.isalnum() for c in summary[lo:hi])


def _detail_stated_otherwise(claim: AlignmentVerdict) -> bool:
    """Whether the judge showed the claim wrong only in details that its passage states otherwise: each
    differing word with the source's word in its place ("six months" where the passage that states the
    rest has "six weeks"). The rest of such a claim is what the source says, and may answer a question."""
    return bool(claim.differs) and all(d.source and d.source_offsets for d in claim.differs or [])


LENT_NAME = "the name it needs, {name!r}, is only in a claim the source does not support"
"""The start of the reason of an answer whose name comes only from such a claim."""

_CAPITALISED = r"\p{Lu}[\p{L}\p{M}'’-]+"
_NAME = regex.compile(rf"(?<=\S\s+){_CAPITALISED}")
"""A capitalised word that does not open the fact: a name ("Carver", "January")."""


def _words(text: str) -> frozenset[str]:
    """A text's content words of three letters or more, by their dictionary form and stem ("gave" meets "give",
    "signed" meets "signing"), in the text's language."""
    lang = detect_language(text)
    stop = STOPWORDS.get(lang, frozenset())
    return frozenset(stem(lang, lemma(lang, w)) for w in regex.findall(r"\p{L}{3,}", text.lower()) if w not in stop)


def _lent_name(
    v: CoverageVerdict, summary: str, lenders: list[tuple[int, int, str]], others: list[tuple[int, int]]
) -> str | None:
    """A name the answer needs that its quote lacks and that the summary writes only after the quote,
    inside unsupported claims that share no other word with the fact (``lenders``: a sentence about
    something else), never in a supported claim (``others``); else ``None``. A name
    written before the quote may be what its "he" refers back to; a claim that shares the fact's words
    ("he legally changed his name") is part of the answer, not a lender."""
    quote = v.quote_offsets
    if not quote:
        return None
    fact = fact_of_question(v.question)
    needed = sorted({m.group() for m in _NAME.finditer(fact)})
    if not needed:
        return None
    others_words = _words(fact) - _words(" ".join(needed))
    apart = [(s, e) for s, e, text in lenders if not _words(text) & others_words]
    for name in needed:
        found = [(m.start(), m.end()) for m in regex.finditer(rf"\b{regex.escape(name)}\b", summary, regex.IGNORECASE)]
        if found and not any(quote[0] <= a and b <= quote[1] for a, b in found) and all(
            a >= quote[1] and _inside(apart, a, b) and not _inside(others, a, b) for a, b in found
        ):
            return name
    return None


def _inside(spans: list[tuple[int, int]], a: int, b: int) -> bool:
    return any(s <= a and b <= e for s, e in spans)


def _firm_answer(v: CoverageVerdict) -> bool:
    """Whether the verdict is an answer its quote stands for: answered and not *unchecked*. An
    unchecked verdict counts how often such a fact is present; its quote is only the nearest sentence
    (the first of equals, so it moves when the summary's sentences are reordered), not what answers."""
    return v.answered and not v.unchecked


def _apart_from_source(claim: str, source_words: frozenset[str]) -> bool:
    """Whether a claim's words, its capitalised words aside, are none of them the source's: a sentence
    about something the source never mentions ("Diane Carver said she would resign")."""
    own = _words(regex.sub(_CAPITALISED, " ", claim))  # the opening word goes too: "Diane Carver"
    return bool(own) and not own & source_words


def answers_on_unsupported_claims(
    alignment: list[AlignmentVerdict], coverage: list[CoverageVerdict], summary: str, source: str | None = None
) -> list[CoverageVerdict]:
    """``coverage`` with every answer that rests only on unsupported claims re-decided as unanswered
    (module notes): its quote, located in the summary, overlaps at least one unsupported claim and no
    supported one; or a name it needs is only in unsupported claims about something else (or unchecked
    ones none of whose other words is in ``source``, when given). The verdict keeps its quote and says
    why in its reason."""
    holds = [v.supported or _detail_stated_otherwise(v) for v in alignment]  # what may answer a question
    if not any(_firm_answer(v) and v.quote_offsets for v in coverage):
        return coverage
    invented = [False] * len(alignment)  # unchecked claims about nothing the source mentions
    if source is not None and any(v.unchecked for v in alignment):
        source_words = _words(source)
        invented = [v.unchecked and _apart_from_source(v.claim, source_words) for v in alignment]
    if all(holds) and not any(invented):
        return coverage
    spans = [_span(v, summary) for v in alignment]
    if any(at is None for at, ok in zip(spans, holds) if ok):
        return coverage
    wrong = [(v.claim, at) for v, ok, at in zip(alignment, holds, spans) if not ok and at is not None]
    right = [at for at, ok in zip(spans, holds) if ok and at is not None]
    lenders = [(*at, v.claim) for v, at, ok, new in zip(alignment, spans, holds, invented)
               if (not ok or new) and at is not None]
    givers = [at for at, ok, new in zip(spans, holds, invented) if ok and not new and at is not None]
    out = []
    for v in coverage:
        quote = v.quote_offsets
        if _firm_answer(v) and quote:
            on = [claim for claim, at in wrong if _overlaps(at, quote, summary)]
            if on and not any(_overlaps(at, quote, summary) for at in right):
                v = _unanswered(v, f'{RESTS_ON_UNSUPPORTED} ("{on[0]}")')
            elif (name := _lent_name(v, summary, lenders, givers)) is not None:
                v = _unanswered(v, LENT_NAME.format(name=name))
        out.append(v)
    return out


def _unanswered(v: CoverageVerdict, why: str) -> CoverageVerdict:
    return v.model_copy(update={"answered": False, "probability": None, "reason": f"{why}; the judge said: {v.reason}"})


__all__ = ["LENT_NAME", "RESTS_ON_UNSUPPORTED", "answers_on_unsupported_claims"]
