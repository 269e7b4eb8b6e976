"""What a data set run shows on standard error: a live progress line and the end-of-run summary table."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..figures import number as _fmt

if TYPE_CHECKING:  # annotations only: `check` shows its notices without loading the batch runner or the store
    from ..runs.dataset import Meter
    from ..store.database import RunStats


def _human(n: float) -> str:
    for unit, size in (("M", 1e6), ("k", 1e3)):
        if abs(n) >= size:
            return f"{n / size:.1f}{unit}"
    return f"{n:.0f}"


def pace(done: int, elapsed: float) -> str:
    """How fast items finish, in the unit that reads as more than zero: ``3.2 items/s``, or for a judge
    slower than an item a second (a model on the CPU) ``12.5 s/item``; ``– s/item`` before the first."""
    if done <= 0:
        return "– s/item"
    rate = done / elapsed
    return f"{rate:.1f} items/s" if rate >= 1 else f"{elapsed / done:.1f} s/item"


class _MeterColumn(ProgressColumn):
    """Pace, judge calls, tokens (and those the judge computed, a second) and errors, read live from
    the run's meter."""

    def __init__(self, meter: Meter) -> None:
        super().__init__()
        self.meter = meter

    def render(self, task: Task) -> Text:
        m = self.meter
        elapsed = max(time.monotonic() - m.started, 1e-9)
        text = Text()
        text.append(pace(m.done, elapsed), style="cyan")
        computed = m.tokens - m.cached_tokens  # a cached prompt token was not read again
        text.append(f"  calls {_human(m.calls)}  tokens {_human(m.tokens)} ({_human(computed / elapsed)}/s)  ")
        text.append(f"errors {m.errors}", style="red" if m.errors else "green")
        return text


class BatchProgress:
    """A rich progress bar over the items still to score; silent when ``enabled`` is false."""

    def __init__(self, console: Console, *, total: int, already_done: int, meter: Meter, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Progress | None = None
        self._task: Any = None
        if enabled:
            self._progress = Progress(
                TextColumn("[bold]scoring"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("left {task.fields[left]}"),
                TimeRemainingColumn(),
                _MeterColumn(meter),
                console=console,
                transient=False,
                refresh_per_second=4,
            )
            self._task = self._progress.add_task(
                "scoring", total=total, completed=already_done, left=total - already_done
            )

    def __enter__(self) -> BatchProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def advance(self) -> None:
        if self._progress is not None:
            task = self._progress.tasks[0]
            self._progress.update(self._task, advance=1, left=max(0, int(task.total or 0) - int(task.completed) - 1))


def _ci(interval: tuple[float, float] | None) -> str:
    return "" if interval is None else f"[{_fmt(interval[0])}, {_fmt(interval[1])}]"


def _unchecked(stats: RunStats) -> str:
    """ "12% (30 of 250)": claims the judge could neither confirm nor show wrong."""
    share = stats.unchecked_share
    return "-" if share is None else f"{share:.0%} ({stats.unchecked_claims:,} of {stats.claims:,})"


def _unchecked_questions(stats: RunStats) -> str:
    """ "20% (12 of 60)": questions the judge could neither answer nor show missing."""
    share = stats.unchecked_question_share
    return "-" if share is None else f"{share:.0%} ({stats.unchecked_questions:,} of {stats.questions:,})"


def summary_table(stats: RunStats, *, title: str = "summary", empty_sources: int = 0) -> Table:
    """count, mean, median, p10, mean alignment, mean coverage, zero scores (and, when there are any,
    how many of them had an empty source), errors, total tokens; the three means with their bootstrap
    interval beside them."""
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right")
    table.add_column(f"{round(stats.confidence * 100)}% CI", justify="left", style="dim")
    for name, value, ci in (
        ("count", str(stats.count), ""),
        ("mean", _fmt(stats.mean) + (f"  ({stats.errors} failed, not in the mean)" if stats.errors else ""),
         _ci(stats.mean_ci)),
        ("median", _fmt(stats.median), ""),
        ("p10", _fmt(stats.p10), ""),
        ("mean alignment", _fmt(stats.mean_alignment), _ci(stats.alignment_ci)),
        ("mean coverage", _fmt(stats.mean_coverage), _ci(stats.coverage_ci)),
        ("zero scores", str(stats.zero_scores), ""),
        ("unchecked claims", _unchecked(stats), ""),
        ("unchecked questions", _unchecked_questions(stats), ""),
        *([("empty sources", str(empty_sources), "scored 0")] if empty_sources else []),
        ("errors", str(stats.errors), ""),
        ("judge calls", f"{stats.calls:,}", ""),
        ("total tokens", f"{stats.tokens:,}", ""),
        ("cached prompt tokens", f"{stats.cached_tokens:,}", ""),
    ):
        table.add_row(name, value, ci)
    if stats.evidence_line is not None:
        table.add_row("evidence", stats.evidence_line.removeprefix("evidence "), "")
    if stats.mean_ci is not None:
        table.caption = f"CI: {round(stats.confidence * 100)}% bootstrap interval over items"
        table.caption_justify = "left"
    return table
