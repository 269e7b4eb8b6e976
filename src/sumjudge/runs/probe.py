"""A probe run: the originals and variants of a :class:`~sumjudge.analysis.probe.ProbePlan` scored
through :func:`sumjudge.runs.dataset.run_dataset`, the same path as ``sumjudge score``.

A probe run is a run in the store like any other: its items are the originals (their own ids) and the
variants (``row7/number/0``), its data fingerprint covers every one of them, so running the same probe
again resumes it (a killed probe loses nothing that finished) and a changed seed, kind list or cap is
a new run. The variants are not stored apart: the plan is made again from the data and the seed, and
the table is read from the run's items.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analysis.probe.selection import Pair, ProbePlan, plan_pairs, plan_probe
from ..analysis.probe.table import ProbeTable, probe_table
from ..analysis.probe.variants import KINDS, ProbeRow
from ..data.datasets import Dataset, DatasetInfo, Fields, Row, add_to_fingerprint
from ..errors import InputError
from ..store.database import RunRecord, RunStore
from ..summarization.spec import ScorerSpec
from ..store.records import ItemOutcome
from .dataset import RunEvents, JudgeRounds, Meter, run_dataset


class ProbeDataset:
    """The plan's originals and variants as the rows of a data set run (what :func:`run_dataset` reads)."""

    def __init__(self, plan: ProbePlan, name: str) -> None:
        self.plan = plan
        self.display_name = f"probe:{name}"
        self._rows: list[Row] = []
        by_row = {r.id: r for r in plan.originals}
        for row in plan.originals:
            self._rows.append(Row(number=len(self._rows) + 1, id=row.id, source=row.source, summary=row.summary))
        for v in plan.variants:
            source = by_row[v.row_id].source
            self._rows.append(Row(number=len(self._rows) + 1, id=v.id, source=source, summary=v.summary))

    def rows(self) -> Iterator[Row]:
        return iter(self._rows)

    def info(self) -> DatasetInfo:
        digest = hashlib.sha256(b"sumjudge probe\x00")
        seen: set[str] = set()
        for row in self._rows:
            if row.id in seen:
                raise InputError(f"{self.display_name}: two probe items have the id {row.id!r}; give the rows plain ids")
            seen.add(row.id)
            add_to_fingerprint(digest, row)
        return DatasetInfo(count=len(self._rows), fingerprint=digest.hexdigest())


class _FirstOfList(Dataset):
    """Rows whose summary field may hold a list of summaries (SummEval's ``references``): the first is probed."""

    def _row(self, number: int, where: str, record: Any) -> Row:
        if isinstance(record, dict):
            value = record.get(self.fields.summary)
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                record = {**record, self.fields.summary: value[0]}
        return super()._row(number, where, record)


def read_rows(path: str, fields: Fields, **reader: Any) -> list[ProbeRow]:
    """The rows of DATA to probe (validated as ``score`` validates them); a list-valued summary gives its first."""
    with _FirstOfList(path, fields=fields, **reader) as ds:
        ds.validate()
        return [ProbeRow(id=r.id, source=r.source, summary=r.summary) for r in ds.rows()]


def read_pairs(path: str, fields: Fields, *, edited_field: str, type_field: str, **reader: Any) -> list[Pair]:
    """Pairs made by people (BUMP's layout): a source, a faithful summary, an edited one and its error type."""
    columns: list[list[Row]] = []
    for summary in (fields.summary, edited_field, type_field):
        with Dataset(path, fields=Fields(source=fields.source, summary=summary, id=fields.id), **reader) as ds:
            ds.validate()
            columns.append(list(ds.rows()))
    return [Pair(id=a.id, source=a.source, reference=a.summary, edited=b.summary, error_type=c.summary)
            for a, b, c in zip(*columns)]


def make_plan(
    rows: Sequence[ProbeRow] | None = None, *, pairs: Sequence[Pair] | None = None, kinds: Sequence[str] = KINDS,
    per_kind: int | None = None, seed: int = 0,
) -> ProbePlan:
    """The plan of a probe of ``rows``, or of people's ``pairs`` (which are taken as they are)."""
    if pairs is not None:
        plan = plan_pairs(pairs)
        return plan if per_kind is None else _cap_pairs(plan, per_kind)
    return plan_probe(rows or [], kinds=kinds, per_kind=per_kind, seed=seed)


def _cap_pairs(plan: ProbePlan, per_kind: int) -> ProbePlan:
    kept, seen = [], {}  # type: ignore[var-annotated]
    for v in plan.variants:
        seen[v.kind] = seen.get(v.kind, 0) + 1
        if seen[v.kind] <= per_kind:
            kept.append(v)
    used = {v.row_id for v in kept}
    return plan.model_copy(update={"variants": kept, "originals": [r for r in plan.originals if r.id in used],
                                   "per_kind": per_kind})


def probe_evaluations(plan: ProbePlan) -> Iterator[tuple[str, str]]:
    """The (source, summary) of every evaluation a probe makes."""
    for row in ProbeDataset(plan, "-").rows():
        yield row.source, row.summary


def probe_items(
    path: str, fields: Fields, *, kinds: str = "all", per_kind: int | None = None, seed: int = 0, **reader: Any
) -> Iterator[tuple[str, str]]:
    """What ``sumjudge estimate --probe`` counts: the (source, summary) of every evaluation that
    ``sumjudge probe DATA --kinds K --per-kind N`` would make (``kinds`` ``"all"``, or a list)."""
    from ..analysis.probe.selection import parse_kinds

    plan = make_plan(read_rows(path, fields, **reader), kinds=parse_kinds(None if kinds == "all" else kinds),
                     per_kind=per_kind, seed=seed)
    return probe_evaluations(plan)


@dataclass(frozen=True)
class ProbeResult:
    """A finished (or interrupted) probe: the run, its items by id, and the table."""

    run: RunRecord
    plan: ProbePlan
    outcomes: Mapping[str, ItemOutcome]
    table: ProbeTable | None
    """``None`` when the run was interrupted (run the same command again to resume)."""
    interrupted: bool


async def run_probe(
    plan: ProbePlan, spec: ScorerSpec, *, data_name: str, concurrency: int = 8,
    timeout: float | None = None, cache: bool | str | None = None, store_path: str | Path | None = None,
    fresh: bool = False, min_detection: float | None = None, max_false_alarm: float | None = None,
    meter: Meter | None = None, events: RunEvents | None = None, workers: int | None = None,
    batch: JudgeRounds | None = None, on_inconclusive: str = "inconclusive",
) -> ProbeResult:
    """Score the plan's originals and variants into the run store (resumed when the same probe ran
    before) and make the table. ``workers`` and ``batch`` are :func:`run_dataset`'s: processes for a
    CPU-bound judge, provider batch jobs for an LLM judge (``score --batch``). Raises :class:`~sumjudge.errors.SumjudgeError` as :func:`run_dataset` does."""
    from ..runs.gates import ErrorAllowance, Gates
    from ..store.database import DEFAULT_STORE_PATH

    dataset = ProbeDataset(plan, data_name)
    info = dataset.info()
    result = await run_dataset(
        dataset, info, spec, concurrency=concurrency,  # type: ignore[arg-type]
        timeout=timeout, cache=cache, store_path=store_path, fresh=fresh, meter=meter, events=events,
        gates=Gates(allow_errors=ErrorAllowance(share=1.0)),  # failed items are left out of the table
        workers=workers, batch=batch,
    )
    with RunStore(store_path or DEFAULT_STORE_PATH, readonly=True) as store:
        outcomes = {item.item_id: item.outcome for item in store.iter_items(result.run.id)}
    table = None
    if not result.interrupted:
        judge = {"model": spec.model, "options": spec.identity(), "run": result.run.id, "seed": plan.seed,
                 "per_kind": plan.per_kind, "data": data_name}
        table = probe_table(plan, outcomes, judge, min_detection=min_detection, max_false_alarm=max_false_alarm,
                            on_inconclusive=on_inconclusive)  # type: ignore[arg-type]
    return ProbeResult(run=result.run, plan=plan, outcomes=outcomes, table=table, interrupted=result.interrupted)


def run_probe_sync(plan: ProbePlan, **kwargs: Any) -> ProbeResult:
    """:func:`run_probe` for scripts."""
    from .._aio import run_sync

    return run_sync(lambda: run_probe(plan, **kwargs))
