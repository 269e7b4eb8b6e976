"""Is run B better than run A? A paired comparison of two runs over the same items.

Items are paired by id. Each pair must be the same task: when the records carry their source's
digest (``source_sha256``, written by ``sumjudge score``) or the source itself (``source``), the two
must match, else the comparison stops and names the item. Items present in one run only, and items
that failed in either run, are counted and named in the result, never silently dropped.

The figures (:mod:`sumjudge.figures.stats`): the mean of each run over the paired items, ``diff`` = mean of
B - A with a 95% paired bootstrap interval, the Wilcoxon signed-rank p-value, wins / ties / losses
of B against A, and a ``verdict`` at ``alpha`` (``better`` / ``worse`` / ``equivalent`` within
``margin`` / ``inconclusive``, with the minimum detectable difference ``mdd``: :mod:`.compare_doubt`);
the same for each axis (alignment, coverage); and the
items whose score moved most, with both runs' reasons.

The verdict is the Wilcoxon signed-rank test's alone (exact on few items and ties, where a bootstrap
interval is too narrow); the interval sizes the change, and where it points another way the text
and the page mark it and say so (:func:`sumjudge.analysis.compare_text.disagreement_note`).

Each side is a :class:`~.run_items.RunItems`, read from an ``--out`` file or the run store by
:mod:`.run_items` (its names are importable from here too).

    from sumjudge.analysis.compare import compare_runs, read_result_file
    result = compare_runs(read_result_file("a.jsonl"), read_result_file("b.jsonl"))
    print(result.verdict, result.diff, result.ci_low, result.ci_high, result.p_value)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..store.database import JUDGE_OPTIONS
from ..store.records import ItemOutcome, ScoredItem
from ..figures.stats import CONFIDENCE, DEFAULT_SEED, PairedComparison, Verdict, paired_comparison, verdict
from .compare_doubt import ComparisonVerdict, default_detect, power_figures, split_verdict
from .run_items import ComparisonError, RunItems, item_outcome, read_result_file, run_items_from_store

DEFAULT_ALPHA = 0.05
DEFAULT_MOVED = 10
AXES = ("alignment", "coverage")
_SHOWN_IDS = 5  # ids quoted in an error message before "and N more"


class AxisComparison(PairedComparison):
    """One figure (the score, or one axis) of B against A, with its verdict."""

    verdict: ComparisonVerdict
    """``better`` / ``worse`` (the signed-rank test at ``alpha``), else ``equivalent`` (the interval
    inside +-``margin``) or ``inconclusive`` (see :mod:`.compare_doubt`)."""
    tested: Verdict = "no difference"
    """The signed-rank test's verdict alone."""
    mdd: float | None = None
    """Minimum detectable difference: the smallest true B - A these pairs detect with 80% power at the
    5% level (paired t, at the spread of the per-item differences); ``None`` under two pairs."""
    detect: float | None = None
    """The difference ``items_needed`` is for (``--detect``, else the margin, else 5% of the scale)."""
    items_needed: int | None = None
    """Paired items a true difference of ``detect`` needs (80% power, 5% level, this spread)."""


class MovedItem(BaseModel):
    """An item whose score changed between the runs, with both runs' reasons."""

    id: str
    score_a: float
    score_b: float
    diff: float
    reason_a: str | None
    reason_b: str | None


class ComparisonResult(AxisComparison):
    """B against A. The top-level figures are those of ``score``; ``alignment`` and ``coverage``
    hold the same figures for each axis."""

    model_config = ConfigDict(frozen=True)

    a: str
    b: str
    alpha: float
    margin: float = 0.0
    """Within +-margin the runs count as equivalent (``--margin``)."""
    confidence: float = CONFIDENCE
    alignment: AxisComparison
    coverage: AxisComparison
    only_in_a: list[str] = Field(default_factory=list)
    """Ids scored in A only: not compared."""
    only_in_b: list[str] = Field(default_factory=list)
    failed_a: list[str] = Field(default_factory=list)
    """Ids present in both runs that failed in A (left out of the pairs)."""
    failed_b: list[str] = Field(default_factory=list)
    sources_checked: int = 0
    """Pairs whose source digests were compared (records without a source or its digest cannot be)."""
    moved: list[MovedItem] = Field(default_factory=list)
    """Items whose score moved most, largest change first (at most ``moved`` of them)."""
    changed: int = 0
    """Paired items whose score changed at all (``moved`` lists the largest of them)."""
    decided_by: str = "Wilcoxon signed-rank test"
    """What decides the verdicts (never the interval: see the module's notes)."""
    scale: float | None = None
    """The largest possible score, when the runs say (their ``scale`` option)."""
    exam_a: str | None = None
    """The digest of the kept exam run A sat (``score --questions``); ``None``: it drew its own questions
    (or, where ``exam_known`` is false, it is not known)."""
    exam_b: str | None = None
    exam_known: bool = False
    """Whether both runs say what exam they sat (runs and ``--out`` lines made since exams exist)."""
    questions_checked: int = 0
    """Paired items both runs asked coverage questions of (an empty summary is asked none)."""
    questions_differ: int = 0
    """Of those, the items asked other questions in B than in A."""
    pairs: list[tuple[str, float, float]] = Field(default_factory=list, exclude=True, repr=False)
    """``(id, score in A, score in B)`` of every paired item, in A's order (not in the JSON form)."""


# -- checks ----------------------------------------------------------------------------------------


def id_list(ids: Sequence[str]) -> str:
    """Item ids for a message: the first few quoted, then how many more."""
    shown = ", ".join(repr(i) for i in ids[:_SHOWN_IDS])
    return shown + (f" and {len(ids) - _SHOWN_IDS} more" if len(ids) > _SHOWN_IDS else "")


def _check_scorers(a: RunItems, b: RunItems) -> None:
    if a.model is not None and b.model is not None and a.model != b.model:
        raise ComparisonError(
            f"the runs were scored by different judges: A ({a.label}) by {a.model!r}, B ({b.label}) by "
            f"{b.model!r}; compare runs scored the same way"
        )
    if a.options is not None and b.options is not None:
        ja, jb = a.options.get(JUDGE_OPTIONS) or {}, b.options.get(JUDGE_OPTIONS) or {}
        if ja != jb:
            raise ComparisonError(
                f"the runs were scored with different judge options: A ({a.label}) {_said(ja)}, B ({b.label}) "
                f"{_said(jb)}; compare runs scored the same way"
            )
        differ = sorted(k for k in set(a.options) | set(b.options)
                        if k not in (*EXAM_OPTIONS, JUDGE_OPTIONS) and a.options.get(k) != b.options.get(k))
        if differ:
            detail = "; ".join(f"{k}: A {a.options.get(k)!r}, B {b.options.get(k)!r}" for k in differ)
            raise ComparisonError(f"the runs were scored with different scorer options ({detail})")


def _served(by_id: Mapping[str, ItemOutcome]) -> set[str]:
    return {m for o in by_id.values() if isinstance(o, ScoredItem) and o.usage is not None for m in o.usage.served_models}


def _same_served_models(a: RunItems, b: RunItems, by_a: Mapping[str, ItemOutcome], by_b: Mapping[str, ItemOutcome]) -> None:
    """Two runs under one judge name whose server said other models answered are other judges: refused.
    Runs whose replies named no model (offline and in-process judges, older records) are not held to it."""
    sa, sb = _served(by_a), _served(by_b)
    if sa and sb and sa != sb:
        raise ComparisonError(
            f"the runs were answered by different models behind the judge name {a.model or b.model or 'given'}: "
            f"A ({a.label}) by {', '.join(sorted(sa))}, B ({b.label}) by {', '.join(sorted(sb))}; compare runs "
            "scored the same way"
        )


def _said(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in sorted(options.items())) if options else "none"


def _by_id(run: RunItems, side: str) -> dict[str, ItemOutcome]:
    out: dict[str, ItemOutcome] = {}
    for rec in run.records:
        key = rec.id
        if key in out:
            raise ComparisonError(f"run {side} ({run.label}) holds item {key!r} twice")
        out[key] = rec
    if not out:
        raise ComparisonError(f"run {side} ({run.label}) has no items")
    return out


def _scored(by_id: Mapping[str, ItemOutcome], keys: Iterable[str]) -> dict[str, ScoredItem]:
    return {k: o for k in keys if isinstance(o := by_id[k], ScoredItem)}


# -- comparing -------------------------------------------------------------------------------------


def compare_runs(
    a: RunItems | Iterable[ItemOutcome | Mapping[str, Any]],
    b: RunItems | Iterable[ItemOutcome | Mapping[str, Any]],
    *,
    alpha: float = DEFAULT_ALPHA,
    moved: int = DEFAULT_MOVED,
    seed: int = DEFAULT_SEED,
    confidence: float = CONFIDENCE,
    margin: float = 0.0,
    detect: float | None = None,
) -> ComparisonResult:
    """B against A over the items both runs scored.

    ``a`` and ``b`` are :class:`RunItems` or plain iterables of items (:class:`ScoredItem` /
    :class:`FailedItem`, or the ``--out`` lines' JSON objects: ``id``, ``score``, ``alignment_score``,
    ``coverage_score``, ``reason``, ``error``). Raises
    :class:`ComparisonError` when a run is empty or scored nothing, when the runs share no item,
    when a paired item's sources differ, or when the runs were scored by different judges or options.
    """
    if not 0 < alpha < 1:
        raise ComparisonError(f"alpha must lie between 0 and 1, not {alpha}")
    if not math.isfinite(margin) or margin < 0 or (detect is not None and not (math.isfinite(detect) and detect > 0)):
        raise ComparisonError(f"the margin must be 0 or more and the difference to detect above 0, not {margin}, {detect}")
    ra = a if isinstance(a, RunItems) else RunItems.from_records(a, "A")
    rb = b if isinstance(b, RunItems) else RunItems.from_records(b, "B")
    _check_scorers(ra, rb)
    by_a, by_b = _by_id(ra, "A"), _by_id(rb, "B")
    _same_served_models(ra, rb, by_a, by_b)
    for side, run, recs in (("A", ra, by_a), ("B", rb, by_b)):
        if not _scored(recs, recs):
            raise ComparisonError(f"run {side} ({run.label}) has no scored item: all {len(recs)} failed")

    common, only_a, only_b = _shared_items(ra, rb, by_a, by_b)
    checked = _same_sources(ra, rb, by_a, by_b, common)

    scored_a, scored_b = _scored(by_a, common), _scored(by_b, common)
    failed_a = [k for k in common if k not in scored_a]
    failed_b = [k for k in common if k not in scored_b]
    paired = [k for k in common if k in scored_a and k in scored_b]
    if not paired:
        raise ComparisonError(
            f"no item was scored in both runs ({len(failed_a)} failed in A, {len(failed_b)} in B)"
        )

    scale = _scale(ra, rb)
    wanted = detect if detect is not None else default_detect(margin, scale)
    exam_known = ra.options is not None and rb.options is not None
    # only items both runs asked questions of: an empty summary gets none in either, and is not
    # "asked other questions"
    asked = [(va.questions, vb.questions) for k in paired
             if (va := scored_a[k].verdicts) is not None and (vb := scored_b[k].verdicts) is not None
             and va.questions and vb.questions]

    def axis(field: str) -> AxisComparison:
        xa = [float(getattr(scored_a[k], field)) for k in paired]
        xb = [float(getattr(scored_b[k], field)) for k in paired]
        cmp = paired_comparison(xa, xb, confidence=confidence, seed=seed)
        tested = verdict(cmp, alpha)
        mdd, need = power_figures([y - x for x, y in zip(xa, xb)], wanted)
        return AxisComparison(**cmp.model_dump(), verdict=split_verdict(cmp, tested, margin), tested=tested,
                              mdd=mdd, detect=wanted, items_needed=need)

    overall = axis("score")
    movers = _movers(scored_a, scored_b, paired, moved)
    return ComparisonResult(
        **overall.model_dump(), a=ra.label, b=rb.label, alpha=alpha, margin=margin, confidence=confidence,
        alignment=axis("alignment_score"), coverage=axis("coverage_score"), only_in_a=only_a, only_in_b=only_b,
        failed_a=failed_a, failed_b=failed_b, sources_checked=checked, moved=movers,
        changed=sum(1 for k in paired if scored_a[k].score != scored_b[k].score), scale=scale, exam_a=_exam(ra),
        exam_b=_exam(rb), exam_known=exam_known, questions_checked=len(asked),
        questions_differ=sum(1 for qa, qb in asked if qa != qb),
        pairs=[(k, scored_a[k].score, scored_b[k].score) for k in paired],
    )


def _shared_items(ra: RunItems, rb: RunItems, by_a: Mapping[str, Any], by_b: Mapping[str, Any],
                  ) -> tuple[list[str], list[str], list[str]]:
    """The ids both runs hold, A's alone and B's alone; none shared is a :class:`ComparisonError`."""
    common = [k for k in by_a if k in by_b]
    only_a = [k for k in by_a if k not in by_b]
    only_b = [k for k in by_b if k not in by_a]
    if not common:
        raise ComparisonError(
            f"the runs share no item id, so they are not runs over the same data set: A ({ra.label}) has "
            f"{id_list(only_a)}; B ({rb.label}) has {id_list(only_b)}"
        )
    return common, only_a, only_b


def _same_sources(ra: RunItems, rb: RunItems, by_a: Mapping[str, Any], by_b: Mapping[str, Any],
                  common: list[str]) -> int:
    """How many shared items' sources were checked equal (both runs recorded a digest); a differing
    source is a :class:`ComparisonError`."""
    checked = 0
    for k in common:
        da, db = by_a[k].source_sha256, by_b[k].source_sha256
        if da and db:
            if da != db:
                raise ComparisonError(
                    f"item {k!r} has a different source in A ({ra.label}) and B ({rb.label}): the runs are "
                    f"not over the same data set"
                )
            checked += 1
    return checked


def _movers(scored_a: Mapping[str, Any], scored_b: Mapping[str, Any], paired: list[str], moved: int) -> list[MovedItem]:
    """The ``moved`` items whose score changed most, largest change first."""
    return sorted(
        (
            MovedItem(id=k, score_a=scored_a[k].score, score_b=scored_b[k].score,
                      diff=scored_b[k].score - scored_a[k].score, reason_a=scored_a[k].reason,
                      reason_b=scored_b[k].reason)
            for k in paired
            if scored_a[k].score != scored_b[k].score
        ),
        key=lambda m: (-abs(m.diff), m.id),
    )[: max(moved, 0)]


EXAM_OPTIONS = ("exam", "draw_missing")
"""Options that say which exam a run sat: compared apart (:func:`exam_note`), never refused."""


def _exam(run: RunItems) -> str | None:
    exam = (run.options or {}).get("exam")
    return exam if isinstance(exam, str) else None


def exam_note(result: ComparisonResult) -> tuple[str, bool] | None:
    """Whether the two runs sat the same exam, as a sentence, and whether it is a warning; ``None``
    where a run does not say (older records)."""
    a, b = result.exam_a, result.exam_b
    if a is not None and a == b:
        return f"both runs sat the same exam ({a[:12]}): the same questions for every source", False
    differ, checked = result.questions_differ, result.questions_checked
    if not result.exam_known and not checked:
        return None
    if checked and not differ:
        return f"the runs asked the same coverage questions of all {checked} paired items", False
    shown = {k: (v[:12] if v else "questions drawn by the run") for k, v in (("A", a), ("B", b))}
    asked = f"{differ} of {checked} paired items were asked other questions, " if checked else ""
    return (f"the runs did not sit the same exam (A: {shown['A']}; B: {shown['B']}): {asked}so coverage moves "
            "with the questions drawn as well as with the summaries (keep an exam: `sumjudge questions`, then "
            "`score --questions`)"), True


def _scale(a: RunItems, b: RunItems) -> float | None:
    for run in (a, b):
        if run.options and isinstance(run.options.get("scale"), (int, float)):
            return float(run.options["scale"])
    return None


__all__ = [
    "AXES", "DEFAULT_ALPHA", "DEFAULT_MOVED", "EXAM_OPTIONS", "AxisComparison", "ComparisonError", "ComparisonResult",
    "MovedItem", "RunItems", "compare_runs", "exam_note", "id_list", "item_outcome", "read_result_file",
    "run_items_from_store",
]
