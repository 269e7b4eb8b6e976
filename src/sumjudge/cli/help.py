"""Each command's ``--help`` with its options under headings: the common ones first, the rest by what
they are for, so that a long option list still starts with what most runs need.

The headings and their order are data (:data:`SECTIONS`); a command names its common options with
``@click.command(cls=SectionedCommand, common=(...))``. The rows are click's own help records and the
layout is click's formatter (``HelpFormatter.section`` and ``write_dl``), so every option reads as click
prints it, only grouped. (rich-click groups options too, but it also redraws every usage error as a
panel, and the refusals' one-line messages are part of the interface.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Gates (exit 1 when not met)", (
        "fail_under", "max_unsupported", "min_alignment", "min_coverage", "gate_kind", "on_inconclusive", "min_item_score",
        "allow_errors", "pass_rate", "threshold",
        "min_detection", "max_false_alarm", "fail_if_worse", "margin", "detect", "junit",
    )),
    ("Input", (
        "source_field", "summary_field", "id_field", "edited_field", "type_field", "fmt", "encoding", "delimiter",
        "pairs_file", "docs", "group_field", "human_field",
    )),
    ("Scoring", (
        "max_questions", "max_claims", "scale", "samples", "reducer", "sample_temperature", "graded", "exam_path",
        "draw_missing", "question_draws", "strict_evidence", "calibration_path", "kinds", "per_kind", "probe_kinds", "seed",
        "judge_option",
    )),
    ("Comparison", ("alpha", "moved")),
    ("Agreement", ("metrics", "no_judge", "limit", "labels_from")),
    ("Runs, speed and cache", (
        "concurrency", "workers", "timeout", "store_path", "fresh", "use_cache", "cache_path", "context_window",
    )),
    ("Provider batches (half price, hours)", ("use_batch", "batch", "poll_interval", "batch_fallback")),
)
"""The headings after the common options, in order, and the options (by parameter name) under each;
an option a command has that is under none goes under "Other options"."""


class SectionedCommand(click.Command):
    """A click command whose help lists ``common`` options first, then the rest under :data:`SECTIONS`."""

    def __init__(self, *args: Any, common: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.common = tuple(common)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        records = {
            p.name or "": record for p in self.get_params(ctx) if (record := p.get_help_record(ctx)) is not None
        }
        placed: set[str] = set()
        groups: list[tuple[str, list[tuple[str, str]]]] = []
        for heading, names in (("Common options", (*self.common, "help")), *SECTIONS):
            rows = [records[n] for n in names if n in records and n not in placed]
            placed.update(n for n in names if n in records)
            if rows:
                groups.append((heading, rows))
        rest = [r for n, r in records.items() if n not in placed]
        if rest:
            groups.append(("Other options", rest))
        for heading, rows in groups:
            with formatter.section(heading):
                formatter.write_dl(rows)


__all__ = ["SECTIONS", "SectionedCommand"]
