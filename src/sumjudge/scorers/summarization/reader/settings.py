"""``local/reader``'s settings: its own constants (thresholds, passages, layout, the word shortcut),
each settable through ``ModelConfig.extra`` or ``--judge-option``, beside llama.cpp's
(:class:`~sumjudge.judges.local.LocalSettings`), and the one check every way in goes through."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ....errors import ConfigurationError
from ....judges.local import LocalSettings
from ....judges.options import OptionSet

DEFAULT_N_CTX = 4096
LAYOUTS = ("source", "own", "shared")
CLAIMS = ("clauses", "sentences")


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
    word_gaps: int = 1
    """1: questions the summary's words already settle are "not answered" without a model call; 0:
    the model reads every question."""
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
        try:
            values = {
                k: (float(v) if "threshold" in k or k in ("proof_scale", "unsure_margin") else str(v) if k in ("layout", "model_path", "claims") else int(v))
                for k, v in extra.items() if k in mine
            }
        except (TypeError, ValueError) as exc:
            raise ConfigurationError(f"reader settings: {exc}") from exc
        settings = cls(**values)  # type: ignore[arg-type]
        if not (0 < settings.threshold < 1 and 0 < settings.coverage_threshold < 1) or settings.passages < 1 \
                or settings.window < 1 or settings.max_sentences < 1 or settings.layout not in LAYOUTS or settings.claims not in CLAIMS \
                or not 0 <= settings.proof_scale <= 1 or not 0 <= settings.unsure_margin < 0.5 or settings.word_gaps not in (0, 1) or settings.state_disk_mb < 0 \
                or (settings.model_path and not settings.model_path.lower().endswith(".gguf")):
            raise ConfigurationError(
                "reader settings out of range: thresholds in (0, 1), passages, window, max_sentences >= 1, "
                "layout 'source', 'own' or 'shared', claims 'clauses' or 'sentences', proof_scale in [0, 1], unsure_margin in [0, 0.5), word_gaps 0 or 1, state_disk_mb >= 0, model_path a .gguf file"
            )
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
