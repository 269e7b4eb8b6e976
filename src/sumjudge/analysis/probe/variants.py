"""The probe's variants: what a variant is (:class:`Variant`, made from a :class:`ProbeRow`), the kinds
and the axis each must lower. The rules that make them are in :mod:`.rules` (alignment and coverage)
and :mod:`.controls`; :func:`.plan.make_variant` picks the rule of a kind.

Every rule takes the row (its source and summary), the other rows' sources (for ``added_claim``) and
a seeded :class:`random.Random`, and returns a :class:`Variant` or ``None`` when the change cannot be
made safely for this row (the kind is then "not applicable" to it, never forced). A variant records
what changed: ``summary[original_span]`` became ``variant[variant_span]`` and nothing else differs.

Alignment kinds must lower the share of supported claims, ``dropped_fact`` the share of answered
questions; controls (``reorder``, ``rescore``, ``format``) must lower nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from . import text as tx

Axis = Literal["alignment", "coverage", "control"]

ALIGNMENT_KINDS = ("number", "date", "name_swap", "name_new", "negation", "antonym", "role_swap", "added_claim")
COVERAGE_KINDS = ("dropped_fact",)
CONTROL_KINDS = ("reorder", "rescore", "format")
KINDS = ALIGNMENT_KINDS + COVERAGE_KINDS + CONTROL_KINDS


def axis_of(kind: str) -> Axis:
    if kind in COVERAGE_KINDS:
        return "coverage"
    if kind in CONTROL_KINDS:
        return "control"
    return "alignment"


class ProbeRow(BaseModel):
    """A row to probe: a source and a summary that is faithful, or nearly so."""

    model_config = ConfigDict(frozen=True)

    id: str
    source: str
    summary: str


class Variant(BaseModel):
    """A changed summary: ``original[original_span]`` replaced by ``summary[variant_span]``."""

    model_config = ConfigDict(frozen=True)

    row_id: str
    kind: str
    axis: Axis
    index: int = 0
    summary: str
    original_span: tuple[int, int]
    variant_span: tuple[int, int]
    change: str
    """What changed, in words (``'19' -> '17'``)."""

    @property
    def id(self) -> str:
        return f"{self.row_id}/{self.kind}/{self.index}"


Rule = Callable[[ProbeRow, Sequence[str], random.Random], "Variant | None"]


def swap(row: ProbeRow, kind: str, start: int, end: int, new: str) -> Variant | None:
    old = row.summary[start:end]
    if new == old:
        return None
    return Variant(
        row_id=row.id, kind=kind, axis=axis_of(kind), summary=tx.replace(row.summary, start, end, new),
        original_span=(start, end), variant_span=(start, start + len(new)), change=f"{old!r} -> {new!r}",
    )


def pick(rng: random.Random, items: Sequence[object]) -> object | None:
    return items[rng.randrange(len(items))] if items else None
