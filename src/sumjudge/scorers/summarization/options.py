"""The summarization scorer's options, checked when the scorer is created."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ...errors import ConfigurationError
from ...messages import SourceExtractor
from .samples import DEFAULT_SAMPLE_TEMPERATURE, REDUCERS, Reducer


@dataclass(frozen=True)
class SummarizationOptions:
    """Options of the summarization scorer (a plain dict with these keys works too)."""

    source: str | None = None
    """The text to judge against (default: the run input's first user message)."""
    source_extractor: SourceExtractor | None = None
    """``callable(input, output) -> str``; wins over ``source``."""
    max_questions: int = 10
    """Upper bound on coverage questions; at least 1."""
    scale: float = 1
    """Multiplies the final score; must be > 0."""
    max_claims: int = 100
    """Upper bound on the summary's claims judged; at least 1. A summary with more is judged on its
    first ``max_claims`` claims, and the reason says so."""
    samples: int = 1
    """Independent evaluations per summary (at least 1). Above 1, ``score`` is the ``reducer`` of
    the sample scores and the result keeps every sample (see :mod:`.samples`); 1 is one evaluation,
    the plain result, at the plain cost."""
    reducer: Reducer = "mean"
    """How ``samples`` scores become ``score``: ``mean``, ``median`` or ``min``."""
    sample_temperature: float = DEFAULT_SAMPLE_TEMPERATURE
    """The temperature samples are drawn at when the judge is set to 0 (a judge set above 0 keeps
    its own). Unused with one sample."""
    graded: bool = False
    """Score each axis as the mean probability of its verdicts (of the claims being supported, of
    the questions being answered), each verdict without a probability counting as its boolean;
    ``False`` (the default) keeps the spec's formula, the shares of true verdicts. The result says
    which was used (``graded`` and its reason). Only judges that give probabilities (OpenAI-compatible
    servers that return token log-probabilities, the reader) grade anything."""

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
        k = self.samples
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ConfigurationError(f"samples must be an integer >= 1, got {k!r}")
        if self.reducer not in REDUCERS:
            raise ConfigurationError(f"reducer must be one of {', '.join(REDUCERS)}, got {self.reducer!r}")
        t = self.sample_temperature
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t <= 2:
            raise ConfigurationError(f"sample_temperature must be a number in (0, 2], got {t!r}")
        if not isinstance(self.graded, bool):
            raise ConfigurationError(f"graded must be True or False, got {self.graded!r}")
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
        aliases = {
            "sourceExtractor": "source_extractor",
            "maxQuestions": "max_questions",
            "maxClaims": "max_claims",
            "sampleTemperature": "sample_temperature",
        }
        known = {f.name for f in fields(cls)}
        kwargs = {aliases.get(k, k): v for k, v in options.items()}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise ConfigurationError(f"unknown options {unknown}; known: {sorted(known)}")
        return cls(**kwargs)
