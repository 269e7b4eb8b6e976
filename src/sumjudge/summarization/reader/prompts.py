"""The reader's closed questions. Each prompt puts what a run of questions shares first (the source's
passages; the summary) and what changes last (the claim; the question), so that llama.cpp evaluates
the shared part once (:mod:`~sumjudge.judges.next_token`). With ``instruction_first`` the instruction
too comes before the text it asks about, and each claim or question costs only its own words."""

from __future__ import annotations

import re
from dataclasses import dataclass

PROMPT_VERSION = "3"
"""Raise it with any change to the wording below: it is part of the judge's identity (run and cache keys)."""

SYSTEM = "You check facts carefully. Answer with Yes or No only."


_BRACKETS = {"-lrb-": "(", "-rrb-": ")", "-lsb-": "[", "-rsb-": "]", "-lcb-": "{", "-rcb-": "}"}
_BRACKET = re.compile(r"-(?:lrb|rrb|lsb|rsb|lcb|rcb)-", re.IGNORECASE)
_SPACED = re.compile(r" (?=[,.;:!?%)\]}]|'s\b|'re\b|'ve\b|'ll\b|'d\b|'m\b|n't\b)|(?<=[(\[{$]) ")
_QUOTES = re.compile(r"``\s*|\s*''")


def readable(text: str) -> str:
    """``text`` as a reader reads it: Penn-Treebank tokenised text (``-lrb- cnn -rrb-``, ``team 's``,
    ```` word ''``, a space before each comma) put back as written; other text unchanged. What the
    model is shown only: quotes and offsets keep the text as it is."""
    text = _BRACKET.sub(lambda m: _BRACKETS[m.group(0).lower()], text)
    text = _QUOTES.sub('"', text)
    return _SPACED.sub("", text)


def excerpt(sentences: tuple[str, ...], numbers: list[int]) -> str:
    """The source sentences ``numbers`` (0-based), each shown with its 1-based number in the whole source."""
    return "\n".join(f"[{i + 1}] {readable(sentences[i])}" for i in numbers)


def _about(label: str, text: str, after: str, before: str, instruction_first: bool) -> str:
    """A text and the question about it: ``after`` it, or (``instruction_first``) ``before`` it, in its
    "below" wording, so that the texts of one run of questions differ only in their own words."""
    return f"{before}\n\n{label} {text}" if instruction_first else f"{label} {text}\n\n{after}"


def alignment_prompt(passages: str, claim: str, w: Wording | None = None, instruction_first: bool = False) -> str:
    w = w or ENGLISH
    asked = _about(w.claim, readable(claim), w.passages_question, w.passages_first, instruction_first)
    return f"{w.passages}\n{passages}\n\n{asked}"


def source_head(sentences: tuple[str, ...], w: Wording | None = None) -> str:
    """The whole source, numbered: what every claim of every summary of it is read after (the
    ``source`` layout: llama.cpp reads it once, :meth:`~sumjudge.judges.next_token.YesNoModel.ask_after`)."""
    return (w or ENGLISH).article + "\n" + excerpt(sentences, list(range(len(sentences)))) + "\n\n"


def claim_tail(claim: str, w: Wording | None = None, instruction_first: bool = False) -> str:
    """What follows :func:`source_head` for one claim."""
    w = w or ENGLISH
    return _about(w.claim, readable(claim), w.claim_question, w.claim_first, instruction_first)


def sentence_tail(sentence: str, w: Wording | None = None, instruction_first: bool = False) -> str:
    """What follows :func:`source_head` for one summary sentence (``claims="sentences"``): the plain question."""
    w = w or ENGLISH
    return _about(w.sentence, readable(sentence), w.sentence_question, w.sentence_first, instruction_first)


def sentence_prompt(passages: str, sentence: str, w: Wording | None = None, instruction_first: bool = False) -> str:
    """One summary sentence after the source's passages (``claims="sentences"``, a layout other than ``source``)."""
    w = w or ENGLISH
    asked = _about(w.sentence, readable(sentence), w.passages_sentence_question, w.passages_sentence_first, instruction_first)
    return f"{w.passages}\n{passages}\n\n{asked}"


def coverage_prompt(summary: str, question: str, w: Wording | None = None, instruction_first: bool = False) -> str:
    """One question after the summary."""
    w = w or ENGLISH
    return f"{w.summary}\n{summary}\n\n" + _about(w.question, question, w.coverage_question, w.coverage_first, instruction_first)


@dataclass(frozen=True)
class Wording:
    """The instructions around the text, in one language; what the model answers is always Yes or No."""

    system: str
    article: str
    passages: str
    claim: str
    claim_question: str
    passages_question: str
    sentence: str
    sentence_question: str
    passages_sentence_question: str
    summary: str
    question: str
    coverage_question: str
    claim_first: str
    passages_first: str
    sentence_first: str
    passages_sentence_first: str
    coverage_first: str
    """The five questions above as asked before their text (``instruction_first``): "the claim below"."""


ENGLISH = Wording(
    SYSTEM, "An article (numbered sentences):", "Passages from an article (numbered sentences):", "Claim:",
    "Is every detail of the claim (names, numbers, places, who did what) supported by the article? Answer Yes or No.",
    "Is every detail of the claim (names, numbers, who did what) supported by these passages? Answer Yes or No.",
    "Sentence:", "Is this sentence supported by the article? Answer Yes or No.",
    "Is this sentence supported by these passages? Answer Yes or No.", "Summary:", "Question:",
    "Does the summary alone answer this question with yes? Answer Yes or No.",
    "Is every detail of the claim below (names, numbers, places, who did what) supported by the article? Answer Yes or No.",
    "Is every detail of the claim below (names, numbers, who did what) supported by these passages? Answer Yes or No.",
    "Is the sentence below supported by the article? Answer Yes or No.",
    "Is the sentence below supported by these passages? Answer Yes or No.",
    "Does the summary alone answer the question below with yes? Answer Yes or No.",
)
KOREAN = Wording(
    "당신은 사실을 꼼꼼히 확인합니다. Yes 또는 No로만 답하세요.", "기사 (번호를 붙인 문장):", "기사의 일부 (번호를 붙인 문장):",
    "주장:", "주장의 모든 세부 내용(이름, 숫자, 장소, 누가 무엇을 했는지)이 기사로 뒷받침됩니까? Yes 또는 No로 답하세요.",
    "주장의 모든 세부 내용(이름, 숫자, 누가 무엇을 했는지)이 이 문장들로 뒷받침됩니까? Yes 또는 No로 답하세요.",
    "문장:", "이 문장은 기사로 뒷받침됩니까? Yes 또는 No로 답하세요.", "이 문장은 이 문장들로 뒷받침됩니까? Yes 또는 No로 답하세요.",
    "요약:", "질문:", "요약만 읽고 이 질문에 '예'라고 답할 수 있습니까? Yes 또는 No로 답하세요.",
    "아래 주장의 모든 세부 내용(이름, 숫자, 장소, 누가 무엇을 했는지)이 기사로 뒷받침됩니까? Yes 또는 No로 답하세요.",
    "아래 주장의 모든 세부 내용(이름, 숫자, 누가 무엇을 했는지)이 이 문장들로 뒷받침됩니까? Yes 또는 No로 답하세요.",
    "아래 문장은 기사로 뒷받침됩니까? Yes 또는 No로 답하세요.", "아래 문장은 이 문장들로 뒷받침됩니까? Yes 또는 No로 답하세요.",
    "요약만 읽고 아래 질문에 '예'라고 답할 수 있습니까? Yes 또는 No로 답하세요.",
)
IN_TEXT_LANGUAGE: dict[str, Wording] = {}
"""Languages whose text is read with instructions in that language; every other with :data:`ENGLISH`.
Around Korean text the 1.5B reader did better with English instructions (docs/results.md: both measured
on the Korean dev articles), so none is listed; ``{"ko": KOREAN}`` is the other choice measured."""


def wording(lang: str) -> Wording:
    """The instructions for a text in ``lang``."""
    return IN_TEXT_LANGUAGE.get(lang, ENGLISH)


__all__ = ["ENGLISH", "IN_TEXT_LANGUAGE", "KOREAN", "PROMPT_VERSION", "Wording", "wording", "SYSTEM", "alignment_prompt", "claim_tail", "coverage_prompt", "excerpt", "readable",
           "sentence_prompt", "sentence_tail", "source_head"]
