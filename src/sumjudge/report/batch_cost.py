"""What a run's provider batch jobs cost: every token at the batch price (half the list price at
OpenAI and Anthropic), beside what the same tokens cost through live calls, from the price table that
``sumjudge estimate`` uses (genai-prices, never a network call)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

BATCH_PRICE_FACTOR = Decimal("0.5")
"""OpenAI's Batch API and Anthropic's Message Batches bill every token at half the list price."""


def billed_cost(model: str, usage: Any) -> tuple[Decimal | None, Decimal | None, str]:
    """(cost at the batch price, the same tokens at the live price, a note) for a
    :class:`~sumjudge.store.provider_jobs.BatchUsage`."""
    from ..summarization.forecast import price

    live, note = price(model, usage.prompt_tokens, usage.completion_tokens)
    if live is None:
        return None, None, note
    return live * BATCH_PRICE_FACTOR, live, note


def batch_figures(model: str, usage: Any) -> list[tuple[str, str]]:
    """The batch figures of a run as (label, value): jobs and rounds, requests, billed cost."""
    batch, live, note = billed_cost(model, usage)
    cost = "unknown" if batch is None or live is None else f"${batch:,.4f} (live calls: ${live:,.4f})"
    return [
        ("batch jobs", f"{usage.jobs} in {usage.rounds} round(s)"),
        ("batch requests", f"{usage.succeeded:,} of {usage.requests:,} answered"),
        ("billed at the batch price", cost),
    ]


def run_batch_figures(store: Any, run: Any) -> list[tuple[str, str]]:
    """The billed cost of a stored run's provider batch jobs (``--batch``), for its report; none without."""
    from ..store.provider_jobs import ProviderJobs

    with ProviderJobs(store.path, readonly=True) as jobs:
        usage = jobs.usage(run.id)
    return [] if usage is None else batch_figures(run.model, usage)


__all__ = ["BATCH_PRICE_FACTOR", "batch_figures", "billed_cost", "run_batch_figures"]
