"""What ``score --batch``, ``runs show`` and ``runs cancel`` print about a run's provider batch jobs:
each job's state as it changes, and the billed cost at the batch price beside the live price."""

from __future__ import annotations

from typing import Any

from ..figures import number


def waited(seconds: float) -> str:
    """``42s``, ``3m12s``, ``1h04m``."""
    s = int(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{(s % 3600) // 60:02d}m"


class JobPrinter:
    """Prints one line per change of a job's state or count (an ``on_job`` of :class:`BatchMode`)."""

    def __init__(self, console: Any) -> None:
        self.console = console

    def __call__(self, view: Any) -> None:
        state = view.state.replace("_", " ")
        counts = f" {view.done:,} of {view.total:,}" if view.state == "in_progress" or view.state == "uploading" else ""
        if view.state == "uploading":
            counts = f" {view.total:,} requests"
        job = view.job_id or "(new job)"
        self.console.print(
            f"sumjudge: batch round {view.round}, job {job}: {state}{counts} (waited {waited(view.waited)})",
            markup=False, highlight=False,
        )


def cost_lines(model: str, usage: Any) -> list[str]:
    """The batch figures of a run: jobs, rounds, requests, tokens, and what they cost."""
    from ..report.batch_cost import billed_cost

    batch, live, note = billed_cost(model, usage)
    lines = [
        f"batch    {usage.jobs} job(s) in {usage.rounds} round(s), {usage.succeeded:,} of {usage.requests:,} "
        f"requests answered, {usage.prompt_tokens + usage.completion_tokens:,} tokens",
    ]
    if batch is None or live is None:
        lines.append(f"billed   unknown ({note})")
    else:
        source = "list prices from genai-prices" if note.startswith("genai-prices") else note
        lines.append(f"billed   ${number(float(batch), 4)} at the batch price (live calls: ${number(float(live), 4)}; {source})")
    return lines


def batch_usage(store_path: Any, run_id: str) -> Any:
    """The run's batch figures from the store (``None`` when it used no batch job)."""
    from ..store.provider_jobs import ProviderJobs

    with ProviderJobs(store_path, readonly=True) as jobs:
        return jobs.usage(run_id)




def provider_rounds(batch: dict[str, Any] | None, console: Any, *, quiet: bool) -> Any:
    """The rounds of ``--batch`` (``{"poll_interval", "fallback"}``), printing each job's state unless
    quiet; ``None`` for live calls."""
    if batch is None:
        return None
    from ..runs.provider_batch import BatchMode, ProviderRounds

    return ProviderRounds(BatchMode(**batch, on_job=None if quiet else JobPrinter(console)))


__all__ = ["JobPrinter", "batch_usage", "cost_lines", "provider_rounds", "waited"]
