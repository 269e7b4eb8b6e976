"""The files of a data set run, as one :class:`~sumjudge.data.files.OutputPlan`: what it reads (the data
file), its SQLite files (the run store, the reply cache), what it replaces (``--out``, ``--report``,
``--junit``) and what it appends to (``$GITHUB_STEP_SUMMARY``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.files import OutputPlan

if TYPE_CHECKING:
    from ..data.datasets import Dataset

STEP_SUMMARY = "$GITHUB_STEP_SUMMARY"
"""How the job summary is named in messages (and its key in the plan's appends)."""


def output_plan(
    dataset: Dataset, store_path: str | Path | None, cache: bool | str | Path | None, *, out: str | None,
    report: str | None, junit: str | None, step_summary: bool,
) -> OutputPlan:
    """Every file a data set run reads and writes: the data file, the run store and the reply cache
    (with their sidecars), and every data file and reply cache that any run of the store reads, are never
    written over, nor appended to by the job summary."""
    from ..judges.cache import DEFAULT_CACHE_PATH
    from ..store.database import DEFAULT_STORE_PATH

    summary = os.environ.get("GITHUB_STEP_SUMMARY", "").strip() if step_summary else ""
    read_by_runs, caches_of_runs = store_reads(store_path or DEFAULT_STORE_PATH)
    return OutputPlan(
        inputs={**read_by_runs, "the data file": getattr(dataset, "path", None)},  # rows made in memory have none
        databases={
            **caches_of_runs,
            "the run store": store_path or DEFAULT_STORE_PATH,
            "the reply cache": (DEFAULT_CACHE_PATH if cache is True else cache) or None,
        },
        outputs={"--out": out, "--report": report, "--junit": junit},
        appends={STEP_SUMMARY: summary or None},
    )


def store_reads(store_path: str | Path) -> tuple[dict[str, str], dict[str, str]]:
    """What every run of the store reads, ``(data files, reply caches)``, named for a refusal: no command
    that writes a file may write over one (:func:`sumjudge.store.run_files.files_runs_read`)."""
    from ..store.run_files import files_runs_read

    return files_runs_read(store_path)


__all__ = ["STEP_SUMMARY", "output_plan", "store_reads"]
