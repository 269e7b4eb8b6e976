"""``local/reader``'s settings: its own constants (thresholds, passages, layout, the word shortcut),
each settable through ``ModelConfig.extra`` or ``--judge-option``, beside llama.cpp's
(:class:`~sumjudge.judges.local_settings.LocalSettings`), and the one check every way in goes through."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from ...errors import ConfigurationError
from ...guards.limits import MAX_DISK_MB, MAX_PASSAGES, MAX_SENTENCES
from ...judges.local_settings import LocalSettings
from ...judges.options import OptionSet

DEFAULT_N_CTX = 4096
LAYOUTS = ("source", "own", "shared")
MAX_ALTERNATIVES = 16
"""Alternatives asked per claim, at most: each is a tail read after the source."""
CLAIMS = ("clauses", "sentences")


_FLOATS = ("threshold", "coverage_threshold", "proof_scale", "unsure_margin", "contrast_margin", "peer_margin")
_TEXTS = ("layout", "model_path", "claims")
_KIND_NAMES = {float: "a number", str: "text", int: "an integer"}
_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "threshold": (lambda v: 0 < v < 1, "between 0 and 1"),
    "coverage_threshold": (lambda v: 0 < v < 1, "between 0 and 1"),
    "unsure_margin": (lambda v: 0 <= v < 0.5, "at least 0, below 0.5"),
    "claims": (lambda v: v in CLAIMS, " or ".join(CLAIMS)),
    "passages": (lambda v: 1 <= v <= MAX_PASSAGES, f"1 to {MAX_PASSAGES}"),
    "window": (lambda v: 1 <= v <= MAX_PASSAGES, f"1 to {MAX_PASSAGES}"),
    "max_sentences": (lambda v: 1 <= v <= MAX_SENTENCES, f"1 to {MAX_SENTENCES}"),
    "layout": (lambda v: v in LAYOUTS, " or ".join(LAYOUTS)),
    "proof_scale": (lambda v: 0 <= v <= 1, "0 to 1"),
    "word_gaps": (lambda v: v in (0, 1), "0 or 1"),
    "instruction_first": (lambda v: v in (0, 1), "0 or 1"),
    "alternatives": (lambda v: 0 <= v <= MAX_ALTERNATIVES, f"0 to {MAX_ALTERNATIVES}"),
    "contrast_margin": (lambda v: 0 <= v <= 20, "0 to 20"),
    "peer_margin": (lambda v: 0 <= v <= 20, "0 to 20"),
    "state_disk_mb": (lambda v: 0 <= v <= MAX_DISK_MB, f"0 to {MAX_DISK_MB}"),
    "model_path": (lambda v: not v or v.lower().endswith(".gguf"), "a .gguf file"),
}
"""Each setting's range, said in the refusal that names it (every size a bound: :mod:`sumjudge.guards.limits`)."""


@dataclass(frozen=True)
class ReaderSettings:
    """The reader's own constants (``ModelConfig.extra`` may set each); docs/design-notes.md says how
    they were chosen (on half of BUMP task 1's articles)."""

    threshold: float = 0.5
    """A claim is supported when P(yes) >= this, with the offline proofs at ``proof_scale``: on the tune
    half of BUMP task 1 it flags the most edited summaries while >= .85 of reference claims hold; above
    it reference claims start to fail (docs/design-notes.md)."""
    coverage_threshold: float = 0.6
    """A question is answered when P(yes) >= this: the best balanced accuracy per key fact on REALSumm's
    per-fact labels, tune half, with the word shortcut on (docs/design-notes.md)."""
    unsure_margin: float = 0.1
    """A question whose P(yes) lies within this of ``coverage_threshold`` is *unchecked*: the model
    is unsure, and the question counts in the axis as its P, as the offline judge's unsettled
    questions count as their measured presence (docs/design-notes.md says how it was chosen). 0:
    every question is answered or not."""
    claims: str = "clauses"
    """What the model is asked about: ``clauses`` (the offline judge's claims, each asked "is every
    detail of the claim supported") or ``sentences`` (each summary sentence, asked plainly "is this
    sentence supported"; docs/design-notes.md compares them)."""
    passages: int = 2
    """Best passages per claim."""
    window: int = 2
    """Sentences per passage, at most."""
    max_sentences: int = 16
    """Source sentences shown before a summary's claims, at most (``shared`` layout)."""
    layout: str = "source"
    """``source``: the whole source first, numbered, each claim after it: llama.cpp reads a source
    once for every claim of every summary of it (its state kept, :meth:`~sumjudge.judges.next_token.YesNoModel.ask_after`), and
    the model sees the whole of it (a source longer than the context falls back to ``own``);
    ``own``: each claim after its own best passages (a claim that two summaries share is the same
    prompt, answered once; claims with the same passages share the prefix); ``shared``: every claim's
    passages shown once, all the summary's claims after them (one prefix for the whole summary)."""
    proof_scale: float = 0.1
    """A claim the offline judge proves wrong is unsupported, its P(supported) the model's times this:
    at most this, and two such claims still in the model's order (a cap would tie them). 1: the model
    alone decides."""
    alternatives: int = 4
    """Alternatives of each claim built from its source (:mod:`.contrast`: one of its names, numbers,
    dates or decisions replaced by the value the source writes there, or two swapped), each asked after
    the same read of the source; 0: none, each claim decided by its own P."""
    contrast_margin: float = 0.5
    """A claim is unsupported when its best alternative's log-odds of "yes" exceed the claim's by at
    least this (0.5: the alternative's odds 1.65 times the claim's). On the tune halves the faithful
    claims' best alternatives stayed below +0.2 and the wrong ones caught sat at +0.98 and +2.35: 0.5
    lies between (docs/design-notes.md)."""
    peer_margin: float = 2.0
    """A claim is unsupported when its log-odds of "yes" fall at least this far below the best of its
    summary's other claims' (the model's own P, word proofs aside): a detail the source does not hold
    reads far below the summary's true claims even where its P stays above ``threshold``, and no one
    threshold suits every source. Chosen on the tune halves (2.0: the written fresh cases' faithful
    claims all within it, most added details beyond it; docs/design-notes.md); 0: off."""
    word_gaps: int = 1
    """1: questions the summary's words already settle are "not answered" without a model call; 0:
    the model reads every question."""
    instruction_first: int = 0
    """1: each instruction before the claim or question it asks about ("the claim below"), so that the
    claims and alternatives read after a source, and the questions after a summary, differ only in
    their own words (fewer tokens a summary); 0: the instruction after each (it ranks BUMP's edits
    better; docs/design-notes.md)."""
    state_disk_mb: int = 1024
    """Megabytes of read sources' llama.cpp states kept on disk (``$XDG_CACHE_HOME/sumjudge/states``,
    least recently used out), so that a later process of the same model restores a source instead of
    reading it again (about 28 MB a 1,000-token source); 0 keeps none. Not part of the judge's
    identity: a restored state gives the same answers as the source read."""
    model_path: str = ""
    """A GGUF file to read with instead of the packaged model (``local/reader:/path.gguf`` says the
    same); its sha256 is part of the judge's identity, not its path."""

    @classmethod
    def split_extra(cls, extra: dict[str, Any]) -> tuple[ReaderSettings, dict[str, Any]]:
        """(the reader's settings, what is left for llama.cpp's :class:`LocalSettings`)."""
        mine = {f.name for f in fields(cls)}
        rest = {k: v for k, v in extra.items() if k not in mine}
        values: dict[str, Any] = {}
        for k, v in extra.items():
            if k not in mine:
                continue
            kind = float if k in _FLOATS else str if k in _TEXTS else int
            try:
                if kind is int and (isinstance(v, bool) or not isinstance(v, (int, str))):
                    raise ValueError
                values[k] = kind(v)
            except (TypeError, ValueError, OverflowError):
                raise ConfigurationError(f"reader setting {k} must be {_KIND_NAMES[kind]}, not {v!r}") from None
        settings = cls(**values)
        for k in values:
            rule = _RULES[k]
            if not rule[0](getattr(settings, k)):
                raise ConfigurationError(f"reader setting {k}={getattr(settings, k)!r} is out of range: {rule[1]}")
        return settings, rest

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """Every key the reader takes: its own settings, then llama.cpp's (:class:`LocalSettings`)."""
        return (*(f.name for f in fields(cls)), *LocalSettings.KEYS)


def check_options(extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` for the reader, each value of its type (what ``--judge-option`` gives it, checked
    before the model is loaded); :class:`ConfigurationError` for an unknown key or a bad value."""
    unknown = sorted(set(extra) - set(ReaderSettings.keys()))
    if unknown:
        raise ConfigurationError(f"unknown option(s) {', '.join(unknown)}")
    settings, rest = ReaderSettings.split_extra(extra)
    typed = {k: getattr(settings, k) for k in extra if k not in rest}
    return {**typed, **LocalSettings.check(rest)}


OPTIONS = OptionSet(ReaderSettings.keys(), check_options)
"""The options ``local/reader`` takes (:mod:`sumjudge.judges.options`)."""


__all__ = ["CLAIMS", "DEFAULT_N_CTX", "LAYOUTS", "OPTIONS", "ReaderSettings", "check_options"]
