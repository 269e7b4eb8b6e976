"""Which variants a probe scores: every kind tried on every row, capped per kind, the same for the
same seed; and the same plan for pairs made by people (``--pairs``)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from ...errors import InputError
from . import controls, rules
from .variants import KINDS, ProbeRow, Rule, Variant, axis_of

RULES: dict[str, Rule] = {
    "number": rules.number, "date": rules.date, "name_swap": rules.name_swap, "name_new": rules.name_new,
    "negation": rules.negation, "antonym": rules.antonym, "role_swap": rules.role_swap,
    "added_claim": rules.added_claim, "dropped_fact": rules.dropped_fact,
    "reorder": controls.reorder, "rescore": controls.rescore, "format": controls.format_,
}


def make_variant(kind: str, row: ProbeRow, others: Sequence[str], *, seed: int) -> Variant | None:
    """The variant of ``kind`` for ``row``, the same for the same seed; ``None`` when not applicable."""
    rng = random.Random(f"{seed}\x00{row.id}\x00{kind}")
    return RULES[kind](row, others, rng)


class ProbePlan(BaseModel):
    """The originals and variants a probe scores, and how many rows each kind could be made for."""

    model_config = ConfigDict(frozen=True)

    seed: int
    kinds: list[str]
    per_kind: int | None
    applicable: dict[str, int]
    """Per kind: the rows the kind could be made for safely (before ``per_kind`` capped them)."""
    originals: list[ProbeRow]
    """The rows some variant was made from, in input order (each is scored once)."""
    variants: list[Variant]

    @property
    def evaluations(self) -> int:
        """How many summaries the probe scores: the originals and the variants."""
        return len(self.originals) + len(self.variants)

    def original(self, row_id: str) -> ProbeRow:
        return self._by_id()[row_id]

    def _by_id(self) -> dict[str, ProbeRow]:
        return {r.id: r for r in self.originals}


def _rank(seed: int, kind: str, row_id: str) -> str:
    return hashlib.sha256(f"{seed}\x00{kind}\x00{row_id}".encode()).hexdigest()


def parse_kinds(text: str | None) -> list[str]:
    """``"number,date"`` as a list of known kinds (every kind when empty)."""
    if not text:
        return list(KINDS)
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise InputError(f"unknown probe kind(s) {', '.join(map(repr, unknown))}; known: {', '.join(KINDS)}")
    return list(dict.fromkeys(kinds))


def plan_probe(
    rows: Sequence[ProbeRow], *, kinds: Sequence[str] = KINDS, per_kind: int | None = None, seed: int = 0
) -> ProbePlan:
    """Make every kind for every row (``None`` where unsafe), keep at most ``per_kind`` per kind (the
    rows picked by a hash of the seed, so the same seed picks the same rows), and the originals they need."""
    _check_ids(rows)
    sources = [r.source for r in rows]
    made: dict[str, list[Variant]] = {}
    for kind in kinds:
        found = []
        for row in rows:
            others = [s for s in sources if s != row.source] if kind == "added_claim" else []
            v = make_variant(kind, row, others, seed=seed)
            if v is not None:
                found.append(v)
        made[kind] = found
    applicable = {k: len(v) for k, v in made.items()}
    chosen: set[tuple[str, str]] = set()
    for kind, found in made.items():
        keep = sorted(found, key=lambda v: _rank(seed, kind, v.row_id))
        if per_kind is not None:
            keep = keep[:per_kind]
        chosen.update((kind, v.row_id) for v in keep)
    variants = [v for row in rows for kind in kinds for v in made[kind] if v.row_id == row.id and (kind, row.id) in chosen]
    used = {v.row_id for v in variants}
    return ProbePlan(
        seed=seed, kinds=list(kinds), per_kind=per_kind, applicable=applicable,
        originals=[r for r in rows if r.id in used], variants=variants,
    )


def _check_ids(rows: Sequence[ProbeRow]) -> None:
    ids = {r.id for r in rows}
    for r in rows:
        if any(f"{r.id}/{k}/0" in ids for k in KINDS):
            raise InputError(f"row id {r.id!r}: another row's id looks like one of its variants; give the rows plain ids")


class Pair(BaseModel):
    """A pair made by a person: a faithful summary and an edited one with an error of ``error_type``."""

    model_config = ConfigDict(frozen=True)

    id: str
    source: str
    reference: str
    edited: str
    error_type: str


def plan_pairs(pairs: Sequence[Pair]) -> ProbePlan:
    """A plan whose variants are the people's edits, one kind per error type (alignment); each
    original (source and reference) is scored once however many edits share it."""
    originals: dict[tuple[str, str], ProbeRow] = {}
    variants: list[Variant] = []
    counts: dict[tuple[str, str], int] = {}
    applicable: dict[str, int] = {}
    for p in pairs:
        if p.edited == p.reference:
            continue
        original = originals.setdefault((p.source, p.reference), ProbeRow(id=p.id, source=p.source, summary=p.reference))
        kind = p.error_type or "unknown"
        index = counts[(original.id, kind)] = counts.get((original.id, kind), -1) + 1
        a, b = p.reference, p.edited
        head = 0
        while head < min(len(a), len(b)) and a[head] == b[head]:
            head += 1
        tail = 0
        while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
            tail += 1
        variants.append(Variant(
            row_id=original.id, kind=kind, axis="alignment", index=index, summary=b,
            original_span=(head, len(a) - tail), variant_span=(head, len(b) - tail),
            change=f"{a[head:len(a) - tail]!r} -> {b[head:len(b) - tail]!r}",
        ))
        applicable[kind] = applicable.get(kind, 0) + 1
    return ProbePlan(seed=0, kinds=sorted(applicable), per_kind=None, applicable=applicable,
                     originals=list(originals.values()), variants=variants)


__all__ = ["Pair", "ProbePlan", "axis_of", "make_variant", "parse_kinds", "plan_pairs", "plan_probe"]
