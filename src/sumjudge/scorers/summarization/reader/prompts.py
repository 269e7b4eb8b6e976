"""The reader's closed questions. Each prompt puts what a run of questions shares first (the source's
passages; the summary) and what changes last (the claim; the question), so that llama.cpp evaluates
the shared part once (:mod:`~sumjudge.judges.next_token`)."""

from __future__ import annotations

PROMPT_VERSION = "2"
"""Raise it with any change to the wording below: it is part of the judge's identity (run and cache keys)."""

SYSTEM = "You check facts carefully. Answer with Yes or No only."


def excerpt(sentences: tuple[str, ...], numbers: list[int]) -> str:
    """The source sentences ``numbers`` (0-based), each shown with its 1-based number in the whole source."""
    return "\n".join(f"[{i + 1}] {sentences[i]}" for i in numbers)


def alignment_prompt(passages: str, claim: str) -> str:
    return (
        "Passages from an article (numbered sentences):\n"
        f"{passages}\n\n"
        f"Claim: {claim}\n\n"
        "Is every detail of the claim (names, numbers, who did what) supported by these passages? "
        "Answer Yes or No."
    )


def coverage_prompt(summary: str, question: str) -> str:
    return (
        f"Summary:\n{summary}\n\n"
        f"Question: {question}\n\n"
        "Does the summary alone answer this question with yes? Answer Yes or No."
    )


__all__ = ["PROMPT_VERSION", "SYSTEM", "alignment_prompt", "coverage_prompt", "excerpt"]
