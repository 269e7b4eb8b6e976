"""The examples a calibration shows an LLM judge: verdicts of the run that the team's labels corrected.

A judge that reads prompts cannot be re-thresholded (its verdicts carry no probability), but it can be
shown how the team decides, the way DSPy's and MLflow's ``align()`` put labelled examples in a prompt.
From the per-verdict truths people gave (``"claims"`` / ``"questions"`` in a label file, or the verdicts
marked wrong in the viewer), the disagreements are taken in this order, alternating between the two
steps: claims the judge passed that people said are unsupported (the costly miss) first, then claims it
failed that people passed, then questions. Each example is cut to a few hundred characters and they are
added while they fit ``budget_tokens`` (counted as characters / 4, the usual rough measure of a token).
Which examples helps is only measured by scoring again with the calibration (no call is made here).
"""

from __future__ import annotations

from ..summarization.calibration import EXAMPLE_CHARS, EXAMPLES_HEAD, Example
from ..store.database import RunStore
from ..store.records import ScoredItem
from .calibration_labels import Labels

CHARS_PER_TOKEN = 4
"""The rough size of a token in characters, for the examples' budget."""
DEFAULT_BUDGET_TOKENS = 600
"""The tokens a calibration's examples may add to each request by default (``--examples-tokens``)."""


def _cut(text: str, limit: int = EXAMPLE_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"


def disagreements(store: RunStore, run_id: str, labels: Labels) -> list[Example]:
    """Every verdict of the run whose truth the labels give otherwise, in the order examples are taken."""
    missed: list[Example] = []
    refused: list[Example] = []
    asked: list[Example] = []
    for rec in store.iter_items(run_id):
        o = rec.outcome
        if not isinstance(o, ScoredItem) or o.verdicts is None:
            continue
        claims, answers = o.verdicts.alignment, o.verdicts.coverage
        for pos, truth in sorted(labels.claims.get(o.id, {}).items()):
            if pos < len(claims) and claims[pos].supported != truth and claims[pos].claim.strip():
                example = Example(step="alignment", text=_cut(claims[pos].claim), passage=_cut(claims[pos].quote),
                                  truth=truth)
                (refused if truth else missed).append(example)
        for pos, truth in sorted(labels.questions.get(o.id, {}).items()):
            if pos < len(answers) and answers[pos].answered != truth and answers[pos].question.strip():
                asked.append(Example(step="coverage", text=_cut(answers[pos].question),
                                     passage=_cut(answers[pos].quote), truth=truth))
    claims = missed + refused
    merged = []
    for i in range(max(len(claims), len(asked))):
        merged += [*claims[i:i + 1], *asked[i:i + 1]]
    return merged


def choose_examples(found: list[Example], budget_tokens: int) -> tuple[Example, ...]:
    """The first of ``found`` that fit ``budget_tokens`` in each step's prompt (the block's heading counted)."""
    room = {"alignment": budget_tokens * CHARS_PER_TOKEN - len(EXAMPLES_HEAD),
            "coverage": budget_tokens * CHARS_PER_TOKEN - len(EXAMPLES_HEAD)}
    chosen = []
    for example in found:
        size = len(example.line()) + 1
        if size <= room[example.step]:
            chosen.append(example)
            room[example.step] -= size
    return tuple(chosen)


__all__ = ["CHARS_PER_TOKEN", "DEFAULT_BUDGET_TOKENS", "choose_examples", "disagreements"]
