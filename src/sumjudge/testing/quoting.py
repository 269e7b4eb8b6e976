"""A brain that cites evidence, faithfully or not: for testing that the scorer checks judges' quotes.

:class:`QuotingBrain` answers the summarization scorer's three steps from the texts in the prompt
(between the scorer's fences). Each claim is a sentence of the summary, judged supported; each
question asks whether the source states one of its sentences, judged answered. How each verdict
quotes is set per verdict (cycled) by a *mode*:

- ``"faithful"``: the passage that holds it (the source sentence sharing most words with the claim;
  the summary sentence sharing most words with the question);
- ``"summary"``: for a claim, the claim itself, quoted from the summary instead of the source;
- ``"invented"``: a sentence found in neither text;
- ``"contradicts"``: says yes while quoting nothing (an empty quote: the judge found no words, then
  judged supported / answered anyway);
- ``"unsupported"`` / ``"unanswered"``: judged no, with no quote (nothing to check).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .recorded import RecordedRequest, content_text

INVENTED = "The board approved the merger on 3 March 2019 after a unanimous vote."
"""The quote a judge in ``"invented"`` mode gives: in neither text of any test."""

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_WORD = re.compile(r"\w+")


def fenced(request: RecordedRequest, name: str) -> str:
    """The text between the scorer's ``<<<NAME token>>>`` fences in the request's prompt ("" if none)."""
    text = "\n".join(content_text(m.get("content")) for m in request.messages if m.get("role") == "user")
    m = re.search(rf"<<<{name} ([0-9a-f]{{16}})>>>\n(.*?)\n<<<END {name} \1>>>", text, re.DOTALL)
    return m.group(2) if m else ""


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def _closest(text: str, among: list[str]) -> str:
    words = set(_WORD.findall(text.lower()))
    return max(among, key=lambda s: len(words & set(_WORD.findall(s.lower()))), default="")


@dataclass
class QuotingBrain:
    """Answers alignment, questions and coverage, quoting by ``alignment`` and ``coverage`` modes
    (one per verdict, cycled; see the module notes)."""

    alignment: tuple[str, ...] = ("faithful",)
    coverage: tuple[str, ...] = ("faithful",)
    questions: int = 3

    def __call__(self, request: RecordedRequest) -> Any:
        if request.step == "alignment":
            source, summary = fenced(request, "SOURCE"), fenced(request, "SUMMARY")
            claims = sentences(summary)
            return {"alignment": [self._claim(c, sentences(source), self.alignment[i % len(self.alignment)])
                                  for i, c in enumerate(claims)]}
        if request.step == "questions":
            facts = sentences(fenced(request, "SOURCE"))[: self.questions]
            return {"questions": [f"Does the source state that {f.rstrip('.!?')}?" for f in facts]}
        if request.step == "coverage":
            summary = fenced(request, "SUMMARY")
            asked = re.findall(r'^\d+\. "(.*)"$', fenced(request, "QUESTIONS"), re.MULTILINE)
            return {"coverage": [self._answer(q, sentences(summary), self.coverage[i % len(self.coverage)])
                                 for i, q in enumerate(asked)]}
        return {}

    @staticmethod
    def _claim(claim: str, source: list[str], mode: str) -> dict[str, Any]:
        quote = {"faithful": _closest(claim, source), "summary": claim, "invented": INVENTED}.get(mode, "")
        supported = mode != "unsupported"
        return {"claim": claim, "quote": quote, "reason": f"({mode}) the source says so", "supported": supported}

    @staticmethod
    def _answer(question: str, summary: list[str], mode: str) -> dict[str, Any]:
        quote = {"faithful": _closest(question, summary), "invented": INVENTED}.get(mode, "")
        answered = mode != "unanswered"
        return {"question": question, "quote": quote, "reason": f"({mode}) the summary says so", "answered": answered}


__all__ = ["INVENTED", "QuotingBrain", "fenced", "sentences"]
