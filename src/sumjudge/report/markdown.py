"""A Markdown summary of a data set run, for ``$GITHUB_STEP_SUMMARY`` (the page of a GitHub Actions job).

The figures of the run, whether it passed its gates and why not, and the lowest items with the
reason behind each score. Text from the judge or the data is untrusted: table cells are cut short,
kept on one line, and their Markdown and HTML marks escaped, so an item cannot break the table or
inject markup into the page.
"""

from __future__ import annotations

import heapq
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ..data.files import OutputPlan
from ..figures import number
from ..store.records import FailedItem
from ..store.database import ItemRecord, RunRecord, RunStats

LOWEST = 10
"""Items listed in the summary, lowest first (failed items before any score)."""
CELL_CHARS = 240

_MARKS = re.compile(r"([\\|`*_\[\]<>])")


def cell(text: object, limit: int = CELL_CHARS) -> str:
    """One table cell: one line, at most ``limit`` characters, Markdown and HTML marks escaped."""
    flat = " ".join(("" if text is None else str(text)).split())
    if len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return _MARKS.sub(r"\\\1", flat)


def _fig(value: float | None) -> str:
    return number(value, missing="–")


def run_markdown(
    run: RunRecord,
    stats: RunStats,
    items: Callable[[], Iterable[ItemRecord]] | Sequence[ItemRecord],
    *,
    gate_failures: Sequence[str] = (),
    threshold: float | None = None,
    lowest: int = LOWEST,
    gate_inconclusive: Sequence[str] = (),
) -> str:
    """The run's summary as Markdown (``items`` as for :func:`~sumjudge.report.junit.write_junit`)."""
    make_items = items if callable(items) else (lambda: items)
    total = 0
    at_or_above = 0

    def rank(item: ItemRecord) -> tuple[int, float, int]:
        failed = item.status == "error" or item.score is None
        return (0 if failed else 1, 0.0 if failed else float(item.score or 0), item.row_number)

    def counted() -> Iterable[ItemRecord]:
        nonlocal total, at_or_above
        for item in make_items():
            total += 1
            if (
                threshold is not None
                and item.status == "ok"
                and item.score is not None
                and item.score >= threshold
            ):
                at_or_above += 1
            yield item

    low = heapq.nsmallest(lowest, counted(), key=rank)
    verdict = "❌ failed" if gate_failures else "❔ inconclusive" if gate_inconclusive else "✅ passed"
    data_name = " ".join(run.data.replace("`", "'").split())  # shown as code: nothing in it is markup
    lines = [
        f"### sumjudge: `{data_name}`: {verdict}",
        "",
        f"Judge `{cell(run.model, 80)}`, run `{run.id}`: {total} items, {stats.count} scored, {stats.errors} failed.",
        "",
    ]
    header = ["mean", "median", "p10", "mean alignment", "mean coverage", "zero scores"]
    row = [
        _fig(stats.mean),
        _fig(stats.median),
        _fig(stats.p10),
        _fig(stats.mean_alignment),
        _fig(stats.mean_coverage),
        str(stats.zero_scores),
    ]
    if threshold is not None:
        header.append(f"at or above {threshold:g}")
        row.append(f"{at_or_above} of {total} ({at_or_above / total:.0%})" if total else "–")
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), "| " + " | ".join(row) + " |", ""]
    lines += _gate_lines(gate_failures, gate_inconclusive) + _lowest_lines(low, total)
    return "\n".join(lines) + "\n"


def _gate_lines(gate_failures: Sequence[str], gate_inconclusive: Sequence[str]) -> list[str]:
    """What the gates said: each failed or inconclusive one, or that all passed."""
    lines: list[str] = []
    if gate_failures:
        lines.append("**Gates failed:**")
        lines += [f"- {cell(reason, 400)}" for reason in gate_failures]
    if gate_inconclusive:
        lines.append("**Gates inconclusive** (the interval crosses the bar):")
        lines += [f"- {cell(reason, 400)}" for reason in gate_inconclusive]
    if not gate_failures and not gate_inconclusive:
        lines.append("**Gates:** all passed.")
    return [*lines, ""]


def _lowest_lines(low: Sequence[ItemRecord], total: int) -> list[str]:
    """The table of the lowest items (a failed one first, with its error), or nothing."""
    if not low:
        return []
    lines = [f"**Lowest items** ({len(low)} of {total}):", "", "| item | score | alignment | coverage | why |",
             "|---|---|---|---|---|"]
    for item in low:
        o = item.outcome
        if isinstance(o, FailedItem):
            lines.append(f"| {cell(item.item_id, 60)} | error | – | – | {cell(o.error)} |")
        else:
            lines.append(f"| {cell(item.item_id, 60)} | {o.score:.2f} | {_fig(o.alignment_score)} "
                         f"| {_fig(o.coverage_score)} | {cell(o.reason)} |")
    return [*lines, ""]


def append_step_summary(
    markdown: str, path: str | os.PathLike[str] | None = None, *, plan: OutputPlan | None = None
) -> Path | None:
    """Append ``markdown`` to ``path`` or ``$GITHUB_STEP_SUMMARY``; ``None`` when neither is set.

    Through :class:`~sumjudge.data.files.OutputPlan`: with the ``plan`` of the command that writes it,
    a target that is one of its inputs, SQLite files (and sidecars) or outputs raises
    :class:`~sumjudge.errors.InputError` and is left untouched."""
    target = path or os.environ.get("GITHUB_STEP_SUMMARY", "").strip()
    if not target:
        return None
    base = plan or OutputPlan()
    guarded = OutputPlan(inputs=base.inputs, databases=base.databases, outputs=base.outputs,
                         appends={"$GITHUB_STEP_SUMMARY": target})
    guarded.append("$GITHUB_STEP_SUMMARY", markdown)
    return Path(target)


__all__ = ["LOWEST", "append_step_summary", "cell", "run_markdown"]
