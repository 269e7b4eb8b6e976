"""The reader's closed questions. Each prompt puts what a run of questions shares first (the source's
passages; the summary) and what changes last (the claim; the question), so that llama.cpp evaluates
the shared part once (:mod:`~sumjudge.judges.next_token`)."""

from __future__ import annotations

import re

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


def alignment_prompt(passages: str, claim: str) -> str:
    return (
        "Passages from an article (numbered sentences):\n"
        f"{passages}\n\n"
        f"Claim: {readable(claim)}\n\n"
        "Is every detail of the claim (names, numbers, who did what) supported by these passages? "
        "Answer Yes or No."
    )


def source_head(sentences: tuple[str, ...]) -> str:
    """The whole source, numbered: what every claim of every summary of it is read after (the
    ``source`` layout: llama.cpp reads it once, :meth:`~sumjudge.judges.next_token.YesNoModel.ask_after`)."""
    return "An article (numbered sentences):\n" + excerpt(sentences, list(range(len(sentences)))) + "\n\n"


def claim_tail(claim: str) -> str:
    """What follows :func:`source_head` for one claim."""
    return (
        f"Claim: {readable(claim)}\n\n"
        "Is every detail of the claim (names, numbers, places, who did what) supported by the article? "
        "Answer Yes or No."
    )


def sentence_tail(sentence: str) -> str:
    """What follows :func:`source_head` for one summary sentence (``claims="sentences"``): the plain question."""
    return f"Sentence: {readable(sentence)}\n\nIs this sentence supported by the article? Answer Yes or No."


def sentence_prompt(passages: str, sentence: str) -> str:
    """One summary sentence after the source's passages (``claims="sentences"``, a layout other than ``source``)."""
    return (
        "Passages from an article (numbered sentences):\n"
        f"{passages}\n\n"
        f"Sentence: {readable(sentence)}\n\n"
        "Is this sentence supported by these passages? Answer Yes or No."
    )


def coverage_prompt(summary: str, question: str) -> str:
    return (
        f"Summary:\n{summary}\n\n"
        f"Question: {question}\n\n"
        "Does the summary alone answer this question with yes? Answer Yes or No."
    )


__all__ = ["PROMPT_VERSION", "SYSTEM", "alignment_prompt", "claim_tail", "coverage_prompt", "excerpt", "readable",
           "sentence_prompt", "sentence_tail", "source_head"]
