"""One side of a comparison: a run's items, read from a ``sumjudge score --out`` file or from the run
store, each typed (:class:`~sumjudge.store.records.ScoredItem` / :class:`~sumjudge.store.records.FailedItem`),
with the judge and options that scored them where known; :class:`ComparisonError` for what cannot be
read as such. :mod:`.compare` pairs two of them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError, field_validator

from ..data.jsonl import jsonl_records
from ..errors import InputError
from ..store.records import FailedItem, ItemOutcome, ScoredItem, outcome_from_json, source_digest


class ComparisonError(InputError):
    """The two runs cannot be compared (no items, different data sets, different scorers)."""


def item_outcome(record: ItemOutcome | Mapping[str, Any]) -> ItemOutcome:
    """One item of a run: a typed outcome as it is, or an ``--out`` line's JSON object read into one
    (a line that carries its ``source`` instead of ``source_sha256`` gets the digest of it).
    Raises :class:`ComparisonError` naming what the line lacks."""
    if isinstance(record, (ScoredItem, FailedItem)):
        return record
    data = dict(record)
    if "id" in data:
        data["id"] = str(data["id"])
    if data.get("error") is None:
        _check_figures(data)
    if not data.get("source_sha256") and isinstance(data.get("source"), str):
        data["source_sha256"] = source_digest(data["source"])
    try:
        outcome = outcome_from_json(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors()[:3])
        raise ComparisonError(f"item {data.get('id')!r} is not a result line ({problems})") from None
    if isinstance(outcome, ScoredItem):
        for name in ("score", "alignment_score", "coverage_score"):
            if not math.isfinite(value := getattr(outcome, name)):
                raise ComparisonError(f"item {outcome.id!r}: {name} is {value}, not a number that can be compared")
    return outcome


_UNKNOWN_SCALE = 1e9
"""The bound of a score whose line does not say its scale: any scale a person sets, and far from where a
sum of scores overflows."""


def _check_figures(data: Mapping[str, Any]) -> None:
    """A result line's figures as a score writes them, checked where the line is read: numbers (not
    ``true``, not ``"0.9"``), the axes from 0 to 1, the score from 0 to the line's scale (its
    ``options.scale``, 1 by default; a line written before options were recorded: at most
    :data:`_UNKNOWN_SCALE`). Raises :class:`ComparisonError` naming the figure."""
    options = data.get("options")
    scale = options.get("scale", 1) if isinstance(options, Mapping) else _UNKNOWN_SCALE
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not _finite(scale) or scale <= 0:
        raise ComparisonError(f"item {data.get('id')!r}: options.scale is {_shown(scale)}, not a positive finite number")
    for name, top in (("score", float(scale)), ("alignment_score", 1.0), ("coverage_score", 1.0)):
        value = data.get(name)
        if value is None:
            continue  # a line without it is refused as a result line below
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ComparisonError(f"item {data.get('id')!r}: {name} is {_shown(value)}, not a number")
        if not _finite(value) or not 0.0 <= value <= top:
            raise ComparisonError(f"item {data.get('id')!r}: {name} is {_shown(value)}, outside 0 to {top:g}"
                                  + (" (the scale)" if name == "score" else ""))


def _finite(value: int | float) -> bool:
    """Whether ``value`` is a finite number a float holds (an integer of 400 digits is not: no float is)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _shown(value: Any) -> str:
    """``value`` for a message: an integer too long to read as its number of digits."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        try:
            return f"an integer of {len(str(abs(value)))} digits"
        except ValueError:  # past Python's 4,300 digits, str() refuses
            return f"an integer of about {int(abs(value).bit_length() * math.log10(2)) + 1} digits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class RunItems(BaseModel):
    """One side of a comparison: a run's items (as ``--out`` writes them) and what scored them."""

    label: str
    """How the run is named in messages and on the page: a run id or a file name."""
    records: list[ItemOutcome]
    """The run's items; JSON objects (``--out`` lines) are read into :class:`ScoredItem` / :class:`FailedItem`."""
    model: str | None = None
    """The judge that scored the run, when known (runs from the store know it)."""
    options: dict[str, Any] | None = None
    """The scorer's options (``max_questions``, ``scale``, ...), when known."""

    @field_validator("records", mode="before")
    @classmethod
    def _typed(cls, records: Iterable[ItemOutcome | Mapping[str, Any]]) -> list[ItemOutcome]:
        return [item_outcome(r) for r in records]

    @classmethod
    def from_records(cls, records: Iterable[ItemOutcome | Mapping[str, Any]], label: str = "run") -> RunItems:
        return cls(label=label, records=[item_outcome(r) for r in records])



def read_result_file(path: str | Path) -> RunItems:
    """A ``sumjudge score --out`` file (one JSON object per line) as one side of a comparison."""
    p = Path(path)
    records: list[tuple[int, dict[str, Any]]] = []
    if not p.is_file():
        raise ComparisonError(f"cannot read {p}: no such file")
    try:
        for number, where, rec in jsonl_records(p, str(p), label=lambda row, line: f"{p}:{line}"):
            if not isinstance(rec, dict) or "id" not in rec:
                raise ComparisonError(f"{p}: row {number}{where}: not a result line (a JSON object with an 'id')")
            records.append((number, rec))
    except ComparisonError:
        raise
    except InputError as exc:
        raise ComparisonError(str(exc)) from None
    except OSError as exc:
        raise ComparisonError(f"cannot read {p}: {exc.strerror or exc}") from None
    items: list[ItemOutcome] = []
    for number, rec in records:
        try:
            items.append(item_outcome(rec))
        except ComparisonError as exc:
            raise ComparisonError(f"{p}: row {number}: {exc}") from None
    # lines written since the judge and options were recorded carry them (older lines: unknown)
    scorers = {json.dumps([rec.get("judge"), rec.get("options")], sort_keys=True, default=str) for _, rec in records}
    if len(scorers) > 1:
        raise ComparisonError(f"{p}: its lines were scored by different judges or options (more than one run)")
    first = records[0][1] if records else {}
    judge, options = first.get("judge"), first.get("options")
    return RunItems(label=str(p), records=items, model=judge if isinstance(judge, str) else None,
                    options=options if isinstance(options, dict) else None)


def run_items_from_store(store: Any, ref: str) -> RunItems:
    """A run of the :class:`~sumjudge.store.RunStore` (id, unique prefix, or ``latest``)."""
    try:
        run = store.get_run(ref)
    except KeyError as exc:
        raise ComparisonError(str(exc.args[0])) from None
    return RunItems(
        label=run.id,
        records=[item.outcome for item in store.iter_items(run.id)],
        model=run.model,
        options=dict(run.options),
    )


__all__ = ["ComparisonError", "RunItems", "item_outcome", "read_result_file", "run_items_from_store"]
