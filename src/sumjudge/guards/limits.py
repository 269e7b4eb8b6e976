"""The most that a count may ask for, one number each, read by the CLI's flags (:mod:`sumjudge.cli.options`)
and by the library's options (:class:`~sumjudge.scorers.summarization.SummarizationOptions`): a value above
one is refused before anything is read or called, so no loop, pool or list is ever sized by it.

A module of constants with no imports, so the CLI's flags can name them without loading the scorer."""

MAX_QUESTIONS = 100
"""Coverage questions per source (``max_questions``, ``--max-questions``)."""
MAX_QUESTION_CHARS = 1000
"""Characters of one coverage question: a kept exam's longer question is refused, a drawn one is cut at
a word (a run-on sentence made a 20,000-character question past the judge's window)."""
MAX_CLAIMS = 1000
"""Claims of a summary judged (``max_claims``, ``--max-claims``)."""
MAX_SAMPLES = 100
"""Independent evaluations per summary (``samples``, ``--samples``)."""
MAX_CONCURRENCY = 1024
"""Items (and judge requests) in flight (``--concurrency``)."""
MAX_WORKERS = 256
"""Worker processes (``--workers``)."""
MAX_PER_KIND = 100_000
"""Probe variants per kind (``--per-kind``)."""
MAX_POLL_INTERVAL = 3600.0
"""Seconds between two polls of provider batch jobs (``--poll-interval``)."""

__all__ = [
    "MAX_CLAIMS", "MAX_CONCURRENCY", "MAX_PER_KIND", "MAX_POLL_INTERVAL", "MAX_QUESTIONS", "MAX_QUESTION_CHARS", "MAX_SAMPLES", "MAX_WORKERS",
]
