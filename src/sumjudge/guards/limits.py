"""The most that a count may ask for, one number each, read by the CLI's flags (:mod:`sumjudge.cli.options`)
and by the library's options (:class:`~sumjudge.summarization.SummarizationOptions`): a value above
one is refused before anything is read or called, so no loop, pool or list is ever sized by it.

A module of constants with no imports, so the CLI's flags can name them without loading the scorer."""

DEFAULT_MAX_QUESTIONS = 10
"""Coverage questions per source when none is asked for (``SummarizationOptions.max_questions``): the one
default, which every flag and function that takes the count leaves to the options."""
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
MAX_ITEMS_IN_FLIGHT = 100_000
"""Items ``run_evals`` holds at once (its ``concurrency``): a provider batch round gathers 10,000 items'
requests into one job, so the library's bound is wider than the HTTP one above, and still keeps a typo
of ``10**9`` from creating that many workers."""
MAX_WORKERS = 256
"""Worker processes (``--workers``)."""
MAX_PER_KIND = 100_000
"""Probe variants per kind (``--per-kind``)."""
MAX_POLL_INTERVAL = 3600.0
"""Seconds between two polls of provider batch jobs (``--poll-interval``)."""

MAX_CONTEXT_TOKENS = 131_072
"""Context tokens of a model run in process (``n_ctx``): llama.cpp allocates its key-value cache for all
of them when the model loads, so a larger number is memory asked for, not a longer window."""
MAX_THREADS = 1024
"""Threads of a model run in process (``n_threads``, ``n_threads_batch``)."""
MAX_REPLY_ITEMS = MAX_CLAIMS
"""Items of a grammar-bound reply list (``max_items``)."""
MAX_REPLY_CHARS = 100_000
"""Characters of a grammar-bound reply string (``max_string_chars``)."""
MAX_MEMORY_MB = 65_536
"""Megabytes a cache kept in memory may hold (``state_cache_mb``)."""
MAX_DISK_MB = 1_048_576
"""Megabytes a cache kept on disk may hold (``state_disk_mb``)."""
MAX_PASSAGES = 100
"""Passages per claim, sentences per passage (the reader's ``passages``, ``window``)."""
MAX_SENTENCES = 10_000
"""Source sentences shown before a summary's claims (the reader's ``max_sentences``)."""
MAX_SEED = 2**32 - 1
"""A seed of a model run in process (llama.cpp's is 32 bits)."""
MAX_SERVER_REPLY_BYTES = 1_048_576
"""Bytes of one reply of a server asked for next-token log-probabilities (a few kilobytes are an answer;
a longer body is a fault, read no further)."""

MAX_RETRIES = 100
"""Retries of a transient failure per call (``ModelConfig.max_retries``)."""
MAX_REASKS = 10
"""Re-asks of an invalid or cut-off reply per call (``ModelConfig.max_reasks``): each is a paid call."""
MAX_WINDOW_TOKENS = 10_485_760
"""Tokens of a judge's context window or reply (``ModelConfig.context_window``, ``max_output_tokens``)."""
MAX_LISTED = 1_000_000
"""Runs or items a listing shows (``runs list --limit``, ``runs show --worst``/``--best``)."""

__all__ = [
    "DEFAULT_MAX_QUESTIONS", "MAX_CLAIMS", "MAX_LISTED", "MAX_REASKS", "MAX_RETRIES", "MAX_WINDOW_TOKENS", "MAX_CONCURRENCY", "MAX_ITEMS_IN_FLIGHT", "MAX_CONTEXT_TOKENS", "MAX_DISK_MB", "MAX_MEMORY_MB", "MAX_PASSAGES", "MAX_PER_KIND",
    "MAX_POLL_INTERVAL", "MAX_QUESTIONS", "MAX_QUESTION_CHARS", "MAX_REPLY_CHARS", "MAX_REPLY_ITEMS", "MAX_SAMPLES", "MAX_SEED",
    "MAX_SENTENCES", "MAX_SERVER_REPLY_BYTES", "MAX_THREADS", "MAX_WORKERS",
]
