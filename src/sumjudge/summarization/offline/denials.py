"""(English) Claims that deny by reference: a frame around a statement ("It is false that the building will
cost $4.2 million.") or a sentence that denies what came before it ("None of this is true.").

A word judge reads the statement inside the frame, so without this rule "It is false that X" passes
wherever X does. :func:`denial_frame` returns that statement, for the judge to read: when the source
states it, the claim denies what the source states and is unsupported. :func:`denies_what_came_before`
tells a sentence whose only content is a denial of the sentences before it; the source, which makes no
such denial, cannot support it.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from ..language.units import Document, Sentence, TextAnalyzer
from ..verdicts import AlignmentVerdict, Difference

_FRAME = regex.compile(
    r"^\s*(?:but\s+|and\s+)?it\s+(?:is|was|'s)\s+(?:(?:simply|entirely|completely)\s+)?"
    r"(?:false|untrue|not\s+true|a\s+lie|a\s+myth|not\s+the\s+case|wrong)\s+(?:to\s+say\s+)?that[\s:,]+(?P<rest>.+)$",
    regex.IGNORECASE | regex.DOTALL,
)
_BY_REFERENCE = regex.compile(
    r"^\s*(?:but\s+|and\s+|however,?\s+)?(?:none\s+of\s+(?:this|that|it|these|those|the\s+above)\s+(?:is|was|are|were)"
    r"\s+(?:true|correct|accurate|real)|(?:this|that|it|all\s+of\s+(?:this|that|it))\s+(?:is|was)\s+(?:all\s+)?"
    r"(?:false|untrue|not\s+true|a\s+lie|made\s+up|fabricated)|none\s+of\s+(?:this|that|it)\s+(?:happened|took\s+place))"
    r"\s*[.!]?\s*$",
    regex.IGNORECASE,
)


def denial_frame(text: str) -> str | None:
    """The statement a denying frame wraps ("the building will cost $4.2 million." of "It is false that
    the building will cost $4.2 million."), with its first letter raised; ``None`` for any other claim."""
    m = _FRAME.match(text)
    if not m:
        return None
    rest = m.group("rest").strip()
    return rest[:1].upper() + rest[1:] if rest else None


def denies_what_came_before(text: str) -> bool:
    """Whether ``text`` is nothing but a denial of what was said before it ("None of this is true.")."""
    return bool(_BY_REFERENCE.match(text))


_ANY_DENIAL = regex.compile(r"\b(?:none\s+of\s+(?:this|that|it)|(?:this|that|it)\s+(?:is|was)\s+(?:all\s+)?(?:false|untrue|not\s+true)"
                            r"|it\s+is\s+(?:false|untrue|not\s+true|not\s+the\s+case)\s+that)\b", regex.IGNORECASE)


def source_denies(sentences: list[str]) -> bool:
    """Whether the source itself makes such a denial anywhere in a sentence ("None of this is true, her
    office said."): then a summary may repeat it."""
    return any(_ANY_DENIAL.search(s) for s in sentences)


def denial_verdict(claim: Sentence, doc: Document, analyser: TextAnalyzer,
                   judge: Callable[[Sentence, Document], AlignmentVerdict]) -> AlignmentVerdict | None:
    """The verdict on an English claim that denies by reference, or ``None`` for any other claim (and in
    other languages). ``judge`` judges an analysed claim against ``doc``. A framed statement the source
    states makes the claim unsupported; one it contradicts or cannot confirm leaves the denial unchecked."""
    if doc.lang != "en":
        return None
    if denies_what_came_before(claim.text):
        if source_denies([s.text for s in doc.sentences]):
            return None
        return AlignmentVerdict(claim=claim.text, supported=False, differs=[Difference(claim=claim.text)],
                                reason="it denies what the summary said before it; the source makes no such denial")
    inner = denial_frame(claim.text)
    if inner is None or source_denies([s.text for s in doc.sentences]):  # the source denies too: words decide
        return None
    said = judge(analyser.analyse(inner, capitalised_elsewhere=doc.caps), doc)
    if said.supported and not said.unchecked:
        return AlignmentVerdict(
            claim=claim.text, quote=said.quote, supported=False, differs=[Difference(claim=claim.text[: len(claim.text) - len(inner)].strip())],
            reason=f"it denies what the source states ({said.reason})")
    return AlignmentVerdict(claim=claim.text, supported=True, unchecked=True, probability=0.5,
                            reason=f"it denies a statement the source does not state as such ({said.reason})")


__all__ = ["denial_frame", "denial_verdict", "denies_what_came_before", "source_denies"]
