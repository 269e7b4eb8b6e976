"""What the adapters for evaluation frameworks share (:mod:`.mlflow`, :mod:`.pydantic_evals`,
:mod:`.inspect_ai`, :mod:`.deepeval`): importing the framework with an error that names the extra,
making the one scorer an adapter keeps for its lifetime, and turning a result into the plain values
(score, per-axis reasons, verdicts as JSON-ready dicts) that each framework's own types carry.

Nothing here imports a framework: each adapter does, on first use.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigurationError, InputError, MissingDependencyError
from ..judges.base import JudgeModel, ModelConfig
from ..summarization.item_gates import ItemGates
from ..summarization import (
    SummarizationOptions,
    SummarizationResult,
    SummarizationScorer,
    create_summarization_scorer,
)

Model = str | ModelConfig | JudgeModel | SummarizationScorer | None
"""What an adapter judges with: a judge name (``"offline/lexical"``, ``"openai/gpt-4o-mini"``), a
:class:`ModelConfig`, a judge object, or a scorer already made (kept as it is, with its options)."""

LISTED = 5
"""Unsupported claims or unanswered questions quoted in an axis reason; the rest are counted."""


def install_line(extra: str) -> str:
    return f"pip install 'sumjudge[{extra}]'"


def import_framework(module: str, what: str, extra: str) -> Any:
    """``module``, or :class:`MissingDependencyError` naming the line to run (``pip install 'sumjudge[extra]'``)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(f"{what} ({exc})", install_line(extra)) from exc


def make_scorer(model: Model, options: SummarizationOptions | Mapping[str, Any] | None,
                option_kwargs: Mapping[str, Any]) -> SummarizationScorer:
    """The one scorer an adapter keeps: ``model`` itself when it is a scorer, else one made from
    ``model`` and the options (``options`` first, then the keywords: ``max_questions``, ``scale``,
    ``samples``, ``questions=`` a kept exam...). Options are checked here, before any item."""
    if isinstance(model, SummarizationScorer):
        if options is not None or option_kwargs:
            raise ConfigurationError(
                "a scorer passed in keeps its own options; give the options to create_summarization_scorer instead"
            )
        return model
    return create_summarization_scorer(model, merge_options(options, option_kwargs))


def merge_options(options: SummarizationOptions | Mapping[str, Any] | None,
                  option_kwargs: Mapping[str, Any]) -> SummarizationOptions:
    """``options`` (an object, a dict or ``None``) with the keywords laid over it, checked."""
    opts = SummarizationOptions.coerce(options)
    if option_kwargs:
        known = {f.name for f in dataclasses.fields(SummarizationOptions)}
        unknown = sorted(set(option_kwargs) - known)
        if unknown:
            raise ConfigurationError(f"unknown options {unknown}; known: {sorted(known)}")
        opts = dataclasses.replace(opts, **dict(option_kwargs))
    return opts


def text(value: Any, what: str) -> str:
    """``value`` when it is text; :class:`InputError` naming ``what`` otherwise (never judged as ``str(value)``)."""
    if not isinstance(value, str):
        raise InputError(f"the {what} must be text, got {type(value).__name__}: {value!r:.80}")
    return value


def alignment_reason(result: SummarizationResult) -> str:
    """Why alignment is what it is: the count, then the unsupported claims with the judge's reasons."""
    verdicts = result.preprocess_step_result.alignment
    if not verdicts:
        return f"alignment {result.alignment_score:.2f}: no claims were judged. {result.reason}"
    bad = [v for v in verdicts if not v.supported]
    said = f"alignment {result.alignment_score:.2f}: {len(verdicts) - len(bad)} of {len(verdicts)} claims supported"
    if bad:
        said += ". Unsupported: " + _listed([f'"{v.claim}" ({v.reason})' for v in bad])
    return said + "."


def coverage_reason(result: SummarizationResult) -> str:
    """Why coverage is what it is: the count, then the questions the summary leaves unanswered."""
    questions = result.preprocess_step_result.questions
    verdicts = result.analyze_step_result.coverage
    if not questions:
        return f"coverage {result.coverage_score:.2f}: no questions were drawn. {result.reason}"
    missed = [v for v in verdicts if not v.answered]
    said = f"coverage {result.coverage_score:.2f}: {len(verdicts) - len(missed)} of {len(questions)} questions answered"
    if missed:
        said += ". Unanswered: " + _listed([f'"{v.question}"' for v in missed])
    return said + "."


def _listed(items: list[str]) -> str:
    """The first :data:`LISTED` of ``items`` joined by "; ", the rest counted ("; and 3 more")."""
    more = f"; and {len(items) - LISTED} more" if len(items) > LISTED else ""
    return "; ".join(items[:LISTED]) + more


def verdicts(result: SummarizationResult) -> dict[str, Any]:
    """The verdicts behind a result as JSON-ready values: ``alignment`` (one dict per claim),
    ``questions``, ``coverage`` (one dict per question), the judge, and with samples their scores."""
    out: dict[str, Any] = {
        "model": result.model,
        "alignment": [v.model_dump(mode="json", exclude_none=True) for v in result.preprocess_step_result.alignment],
        "questions": list(result.preprocess_step_result.questions),
        "coverage": [v.model_dump(mode="json", exclude_none=True) for v in result.analyze_step_result.coverage],
    }
    samples = getattr(result, "samples", None)
    if samples:
        out["sample_scores"] = [s.score for s in samples]
        out["score_spread"] = getattr(result, "score_spread", None)
    return out


GATE_KEYWORDS = ("max_unsupported", "min_alignment", "min_coverage")
"""The keywords every adapter takes beside the scorer's options: the item gates (:class:`ItemGates`)."""


def split_gates(option_kwargs: Mapping[str, Any]) -> tuple[ItemGates, dict[str, Any]]:
    """The item gates among an adapter's keywords (checked here), and the rest: the scorer's options."""
    gates = ItemGates(**{k: option_kwargs[k] for k in GATE_KEYWORDS if k in option_kwargs})
    return gates, {k: v for k, v in option_kwargs.items() if k not in GATE_KEYWORDS}


def gate_outcome(result: SummarizationResult, gates: ItemGates) -> tuple[bool, str]:
    """Whether ``result`` meets ``gates``, and why not (the broken gates, the claims that broke them)."""
    broken = gates.breaks(result)
    if not broken:
        return True, "every gate met: " + ", ".join(f"{k} {v:g}" for k, v in gates.bounds().items())
    return False, "; ".join(b.text() for b in broken)


def scores(result: SummarizationResult) -> dict[str, float]:
    """``score``, ``alignment`` and ``coverage`` of a result (the axes as shares, 0 to 1)."""
    return {"score": result.score, "alignment": result.alignment_score, "coverage": result.coverage_score}


__all__ = [
    "GATE_KEYWORDS",
    "Model",
    "alignment_reason",
    "coverage_reason",
    "gate_outcome",
    "import_framework",
    "install_line",
    "make_scorer",
    "merge_options",
    "scores",
    "split_gates",
    "text",
    "verdicts",
]
