"""A judge "brain" for cost benchmarks: schema-valid replies whose size follows the texts judged.

The simulated server (:mod:`sumjudge.testing.judge_server`) answers any schema with its
``SchemaBrain`` (a fixed number of items per list). That is enough to run a scorer end to end,
but it makes completion tokens a constant of the simulator. This brain sizes each list the way
a real judge would, with one rule applied identically to every tool:

- a text holds one fact per sentence (``facts(text)``);
- a list of claims or truths extracted from a text has ``facts(text)`` items (sumjudge's claims are the
  summary's sentences, cut to ``item_words``: the scorer refuses a claim the summary does not make);
- a list of questions drawn from a source has ``min(questions, facts(source))`` items;
- a list of verdicts or answers has one item per claim or question listed in the prompt;
- every claim, truth or question is ``item_words`` words; every per-item reason
  ``reason_words``; a free-text overall reason ``summary_reason_words``;
- every verdict is positive ("supported", "yes"), and a reason the prompt makes optional for
  positive verdicts (DeepEval's alignment verdicts) is left out, as its prompt asks.

Which text a request is about is found by looking for the benchmark's own sources and
summaries inside the prompt (:meth:`SizedBrain.register`). Standard library only, so the
DeepEval benchmark environment can import it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_SENTENCE_END = re.compile(r"[.!?](?:\s+|$)")
_NUMBERED = {
    "claim": re.compile(r"Claim (\d+):"),
    "truth": re.compile(r"Truth (\d+):"),
    "question": re.compile(r"Question (\d+) about the source"),
}
_WORDS = ("the report says that officials confirmed a specific figure about this event on monday "
          "after several weeks of public debate in the city").split()


def facts(text: str) -> int:
    """Facts in a text: one per sentence, at least one for non-blank text."""
    if not text.strip():
        return 0
    return max(1, len(_SENTENCE_END.findall(text.strip() + " ")))


def words(n: int, start: int = 0) -> str:
    return " ".join(_WORDS[(start + i) % len(_WORDS)] for i in range(n))


def _key(text: str) -> str:
    return text.strip()[:120]


@dataclass
class SizedBrain:
    """Answers the steps of sumjudge and of DeepEval's SummarizationMetric; any other schema generically."""

    questions: int = 10
    item_words: int = 12
    reason_words: int = 15
    summary_reason_words: int = 50
    sources: dict[str, set[str]] = field(default_factory=dict)
    summaries: dict[str, set[str]] = field(default_factory=dict)
    """Texts by their first 120 characters (several summaries may share them)."""

    def register(self, source: str, summary: str) -> None:
        """Make a source and a summary recognisable inside prompts."""
        if source.strip():
            self.sources.setdefault(_key(source), set()).add(source)
        if summary.strip():
            self.summaries.setdefault(_key(summary), set()).add(summary)

    # -- finding what a prompt is about ------------------------------------------------------------

    @staticmethod
    def _find(table: dict[str, set[str]], prompt: str) -> str | None:
        """The longest registered text found whole in the prompt."""
        best: str | None = None
        for key, texts in table.items():
            if key not in prompt:
                continue
            for text in texts:
                if text in prompt and (best is None or len(text) > len(best)):
                    best = text
        return best

    def source_in(self, prompt: str) -> str:
        return self._find(self.sources, prompt) or ""

    def summary_in(self, prompt: str) -> str:
        """The summary in the prompt, looked for outside the source (an extractive summary is in it too)."""
        source = self.source_in(prompt)
        return self._find(self.summaries, prompt.replace(source, "") if source else prompt) or ""

    @staticmethod
    def numbered(kind: str, prompt: str) -> int:
        return len(set(_NUMBERED[kind].findall(prompt)))

    # -- answering -------------------------------------------------------------------------------

    def answer(self, step: str | None, schema: dict[str, Any] | None, prompt: str) -> Any:
        """A JSON value for one request (``step``: the schema's only top-level property)."""
        item, reason = self.item_words, self.reason_words
        if step == "alignment":  # sumjudge A: claims of the summary, each judged against the source
            # a claim is the summary's own words (the scorer refuses a claim the summary does not make):
            # each sentence's first ``item_words`` words
            said = [s for s in _SENTENCE_END.split(self.summary_in(prompt).strip()) if s.strip()]
            return {"alignment": [{"claim": " ".join(s.split()[:item]), "supported": True,
                                   "reason": words(reason, i + 3)} for i, s in enumerate(said)]}
        if step == "questions":  # sumjudge B and DeepEval's question step
            n = min(self.questions, facts(self.source_in(prompt)))
            return {"questions": [f"Question {i + 1} about the source: {words(item, i)}?" for i in range(n)]}
        if step == "coverage":  # sumjudge C: one verdict per question listed
            n = self.numbered("question", prompt)
            return {"coverage": [{"question": f"Question {i + 1} about the source: {words(item, i)}?",
                                  "answered": True, "reason": words(reason, i + 5)} for i in range(n)]}
        if step == "truths":  # DeepEval: every truth of the source
            n = facts(self.source_in(prompt))
            return {"truths": [f"Truth {i + 1}: {words(item, i)}" for i in range(n)]}
        if step == "claims":  # DeepEval: every claim of the summary
            n = facts(self.summary_in(prompt))
            return {"claims": [f"Claim {i + 1}: {words(item, i)}" for i in range(n)]}
        if step == "verdicts":  # DeepEval alignment: one per claim; reason only for 'no'/'borderline'
            n = self.numbered("claim", prompt)
            return {"verdicts": [{"verdict": "yes", "reason": None} for _ in range(n)]}
        if step == "answers":  # DeepEval coverage: one yes/no per question, once on the source, once on the summary
            return {"answers": ["yes"] * self.numbered("question", prompt)}
        if step == "reason":  # DeepEval's reason call
            return {"reason": words(self.summary_reason_words)}
        return generic(schema or {}, (schema or {}).get("$defs", {}))

    def __call__(self, request: Any) -> Any:
        """The :data:`sumjudge.testing.judge_server.Brain` interface."""
        return self.answer(request.step, request.schema, prompt_text(request.messages))


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return "" if content is None else str(content)


def prompt_text(messages: list[dict[str, Any]]) -> str:
    """Every message's text, joined (what a model reads, without the JSON of the request)."""
    return "\n".join(content_text(m.get("content")) for m in messages if isinstance(m, dict))


def generic(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
    """Some value valid against ``schema`` (three items per list, eight words per string)."""
    if "$ref" in schema:
        return generic(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = [s for s in schema.get(key, []) if s.get("type") != "null"] or schema.get(key, [])
        if options:
            return generic(options[0], defs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        return {k: generic(v, defs, depth + 1) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        n = max(int(schema.get("minItems", 0)), min(3 if depth < 6 else 0, int(schema.get("maxItems", 3))))
        return [generic(schema.get("items", {}), defs, depth + 1) for _ in range(n)]
    if kind == "boolean":
        return True
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "null":
        return None
    return words(8)


def step_of_schema(schema: dict[str, Any] | None) -> str | None:
    """The only top-level property of a schema (how the server tells steps apart)."""
    props = (schema or {}).get("properties")
    if isinstance(props, dict) and len(props) == 1:
        return next(iter(props))
    return None
