"""The two axes from the verdicts, counted (the spec's formula, the default) or graded (opt in).

Counted: ``alignment = supported_claims / total_claims``, ``coverage = answered_questions /
total_questions`` (section 1 of the spec), where a coverage verdict the judge marked ``unchecked``
counts as its probability (its expected share of an answer). Graded (``SummarizationOptions(graded=True)``): each
verdict counts as its probability of being supported / answered, where the judge gave one
(:attr:`~.verdicts.AlignmentVerdict.probability`), else as its boolean (1 or 0), and an axis is the
mean over its verdicts, with the same denominators. A judge that gives no probability at all scores
the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from .verdicts import AlignmentVerdict, CoverageVerdict


def weight(verdict: AlignmentVerdict | CoverageVerdict, graded: bool) -> float:
    """What one verdict adds to its axis: its boolean, or graded, its probability where it has one.
    An unchecked coverage verdict (the judge could show neither the answer nor its absence) counts as
    its probability either way: how often such a fact is present, not a yes or a no it did not see."""
    said = verdict.supported if isinstance(verdict, AlignmentVerdict) else verdict.answered
    if verdict.probability is not None and (graded or (isinstance(verdict, CoverageVerdict) and verdict.unchecked)):
        return float(verdict.probability)
    return 1.0 if said else 0.0


def alignment_value(claims: Sequence[AlignmentVerdict], graded: bool = False) -> float:
    """The alignment axis over the summary's claims (0 when there are none)."""
    return sum(weight(v, graded) for v in claims) / len(claims) if claims else 0.0


def coverage_value(answers: Sequence[CoverageVerdict], questions: int, graded: bool = False) -> float:
    """The coverage axis over the ``questions`` asked (0 when none were): a missing verdict adds 0."""
    return sum(weight(v, graded) for v in answers) / questions if questions else 0.0


def with_probability(verdicts: Sequence[AlignmentVerdict | CoverageVerdict]) -> int:
    """How many of ``verdicts`` carry a probability (what a graded axis is made of; the rest count
    as their boolean)."""
    return sum(1 for v in verdicts if v.probability is not None)


__all__ = ["alignment_value", "coverage_value", "weight", "with_probability"]
