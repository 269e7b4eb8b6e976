"""The summarization scorer's options, checked when the scorer is created."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ...errors import ConfigurationError
from ...messages import SourceExtractor


@dataclass(frozen=True)
class SummarizationOptions:
    """Options of the summarization scorer (a plain dict with these keys works too)."""

    source: str | None = None
    """The text to judge against (default: the run input's first user message)."""
    source_extractor: SourceExtractor | None = None
    """``callable(input, output) -> str``; wins over ``source``."""
    max_questions: int = 10
    """Upper bound on coverage questions; at least 1."""
    max_claims: int = 100
    """Upper bound on the summary's claims judged; at least 1. A summary with more is judged on its
    first ``max_claims`` claims, and the reason says so."""
    scale: float = 1
    """Multiplies the final score; must be > 0."""

    def __post_init__(self) -> None:
        mq = self.max_questions
        if isinstance(mq, bool) or not isinstance(mq, int) or mq < 1:
            raise ConfigurationError(f"max_questions must be an integer >= 1, got {mq!r}")
        mc = self.max_claims
        if isinstance(mc, bool) or not isinstance(mc, int) or mc < 1:
            raise ConfigurationError(f"max_claims must be an integer >= 1, got {mc!r}")
        sc = self.scale
        if isinstance(sc, bool) or not isinstance(sc, (int, float)) or not sc > 0 or sc == float("inf"):
            raise ConfigurationError(f"scale must be a number > 0, got {sc!r}")
        if self.source is not None and not isinstance(self.source, str):
            raise ConfigurationError(f"source must be a str, got {type(self.source).__name__}")
        if self.source_extractor is not None and not callable(self.source_extractor):
            raise ConfigurationError("source_extractor must be callable(input, output) -> str")

    @classmethod
    def coerce(cls, options: SummarizationOptions | Mapping[str, Any] | None) -> SummarizationOptions:
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        if not isinstance(options, Mapping):
            raise ConfigurationError(f"options must be SummarizationOptions or a dict, got {type(options).__name__}")
        aliases = {"sourceExtractor": "source_extractor", "maxQuestions": "max_questions", "maxClaims": "max_claims"}
        known = {f.name for f in fields(cls)}
        kwargs = {aliases.get(k, k): v for k, v in options.items()}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise ConfigurationError(f"unknown options {unknown}; known: {sorted(known)}")
        return cls(**kwargs)
