"""How far a judge agrees with people: summary-level correlation with human ratings.

The protocol is the one the field publishes for SummEval (G-Eval 2023, UniEval 2022): for each
group of summaries of one document, Spearman's rho and Kendall's tau between the metric and the
human score; the mean over groups. Groups whose human score is constant are skipped, and so are
groups where the metric is constant (as G-Eval's ``meta_eval_summeval.py`` does; the report says
how many). Beside it, the pooled Pearson r over all rows.

Rows come from a JSONL file; each carries the summary (``summary`` or ``output``), the human
score (``--human-field``), a group id (``--group-field``, default ``doc_id``) and the source
inline (``source``) or joined from ``--docs`` by ``doc_id``. ROUGE baselines (``--metric
rouge-2``) need references (``references`` list or ``reference`` string) on the doc.

    sumjudge agreement summeval_summaries.jsonl --docs summeval_docs.jsonl \\
        --human-field consistency --metric rouge-2

(the command line is :mod:`sumjudge.cli.agreement`; this module is the protocol).

The ROUGE baselines need the ``agreement`` extra (rouge-score): ``pip install 'sumjudge[agreement]'``;
scipy, for the statistics, is a core dependency.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, MissingDependencyError
from ..guards.limits import DEFAULT_MAX_QUESTIONS
from ..figures import number
from ..data.jsonl import jsonl_records

JUDGE_METRICS = ("score", "alignment", "coverage")
ROUGE_METRICS = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeLsum"}
_INSTALL = "pip install 'sumjudge[agreement]'"


@dataclass(frozen=True)
class AgreementRow:
    """One rated summary, with what it is judged against."""

    group: str
    human: float
    source: str
    summary: str
    references: tuple[str, ...] = ()


@dataclass(frozen=True)
class Correlation:
    """Agreement of one metric with the human score."""

    metric: str
    spearman: float
    kendall: float
    pearson: float
    groups: int
    """Groups that entered the summary-level mean."""
    skipped_constant_human: int
    skipped_constant_metric: int
    items: int


@dataclass
class AgreementReport:
    human_field: str
    model: str | None
    correlations: list[Correlation] = field(default_factory=list)
    seconds: float = 0.0
    failed_items: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "human_field": self.human_field,
            "model": self.model,
            "seconds": round(self.seconds, 2),
            "failed_items": self.failed_items,
            "correlations": [c.__dict__ for c in self.correlations],
        }


# -------------------------------------------------------------------------------------------------
# Reading


def _read_jsonl(path: Path) -> list[Any]:
    return [value for _, _, value in jsonl_records(path, str(path), label=lambda row, line: f"{path}:{line}")]


def load_rows(
    data: str | Path,
    human_field: str,
    *,
    docs: str | Path | None = None,
    group_field: str = "doc_id",
    limit: int | None = None,
) -> list[AgreementRow]:
    """Read rated summaries, joining sources (and references) from ``docs`` by ``doc_id``."""
    by_doc: dict[str, dict[str, Any]] = {}
    if docs is not None:
        for d in _read_jsonl(Path(docs)):
            if "doc_id" not in d:
                raise InputError(f"{docs}: every doc needs a 'doc_id'")
            by_doc[str(d["doc_id"])] = d
    out: list[AgreementRow] = []
    for n, r in enumerate(_read_jsonl(Path(data)), 1):
        if limit is not None and len(out) >= limit:
            break
        where = f"{data}: row {n}"
        if human_field not in r:
            raise InputError(f"{where} has no human field {human_field!r}; it has: {', '.join(sorted(r))}")
        if group_field not in r:
            raise InputError(f"{where} has no group field {group_field!r}")
        doc = by_doc.get(str(r.get("doc_id", r[group_field])), {}) if by_doc else {}
        source = r.get("source", doc.get("source"))
        if not isinstance(source, str):
            hint = "" if docs else " (pass --docs to join sources by doc_id)"
            raise InputError(f"{where} has no source{hint}")
        summary = r.get("summary", r.get("output"))
        if not isinstance(summary, str):
            raise InputError(f"{where} has no 'summary' (or 'output') string")
        refs = r.get("references", doc.get("references"))
        if refs is None:
            ref = r.get("reference", doc.get("reference"))
            refs = [ref] if isinstance(ref, str) else []
        try:
            human = float(r[human_field])
        except (TypeError, ValueError):
            raise InputError(f"{where}: {human_field!r} is not a number: {r[human_field]!r}") from None
        out.append(
            AgreementRow(
                group=str(r[group_field]), human=human, source=source, summary=summary, references=tuple(refs)
            )
        )
    return out


# -------------------------------------------------------------------------------------------------
# Statistics


def correlate(metric: str, rows: Sequence[AgreementRow], values: Sequence[float]) -> Correlation:
    """Summary-level Spearman and Kendall (per group, averaged) and pooled Pearson."""
    try:
        from scipy.stats import kendalltau, pearsonr, spearmanr
    except ImportError:  # pragma: no cover - depends on the environment
        raise MissingDependencyError("scipy (for the agreement statistics)", _INSTALL) from None
    if len(rows) != len(values):
        raise ValueError("one metric value per row is needed")
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault(r.group, []).append(i)
    rhos: list[float] = []
    taus: list[float] = []
    const_h = const_m = 0
    for idx in groups.values():
        h = [rows[i].human for i in idx]
        m = [float(values[i]) for i in idx]
        if len(set(h)) <= 1:
            const_h += 1
            continue
        if len(set(m)) <= 1:
            const_m += 1
            continue
        rhos.append(float(spearmanr(m, h)[0]))
        taus.append(float(kendalltau(m, h)[0]))
    all_h = [r.human for r in rows]
    all_m = [float(v) for v in values]
    pooled = float(pearsonr(all_m, all_h)[0]) if len(set(all_m)) > 1 and len(set(all_h)) > 1 else math.nan
    return Correlation(
        metric=metric,
        spearman=sum(rhos) / len(rhos) if rhos else math.nan,
        kendall=sum(taus) / len(taus) if taus else math.nan,
        pearson=pooled,
        groups=len(rhos),
        skipped_constant_human=const_h,
        skipped_constant_metric=const_m,
        items=len(rows),
    )


# -------------------------------------------------------------------------------------------------
# Metrics


def rouge_values(rows: Sequence[AgreementRow], metric: str) -> list[float]:
    """ROUGE F1 of each summary, averaged over its references (Porter stemming on)."""
    if metric not in ROUGE_METRICS:
        raise InputError(f"unknown metric {metric!r}; known: {', '.join(ROUGE_METRICS)}")
    try:
        from rouge_score import rouge_scorer
    except ImportError:  # pragma: no cover
        raise MissingDependencyError("rouge-score (for the ROUGE baselines)", _INSTALL) from None
    kind = ROUGE_METRICS[metric]
    scorer = rouge_scorer.RougeScorer([kind], use_stemmer=True)
    out = []
    for n, r in enumerate(rows, 1):
        if not r.references:
            raise InputError(f"row {n} has no references; {metric} needs 'references' or 'reference'")
        summary = r.summary.replace(" . ", " .\n") if kind == "rougeLsum" else r.summary
        f1 = []
        for ref in r.references:
            target = ref.replace(" . ", " .\n") if kind == "rougeLsum" else ref
            f1.append(scorer.score(target, summary)[kind].fmeasure)
        out.append(sum(f1) / len(f1))
    return out


async def judge_values(
    rows: Sequence[AgreementRow],
    *,
    model: Any = None,
    concurrency: int = 8,
    max_questions: int = DEFAULT_MAX_QUESTIONS,
    on_progress: Callable[[int], None] | None = None,
    graded: bool = False,
    calibration: Any = None,
) -> tuple[dict[str, list[float]], int]:
    """Score every row with the summarization scorer: overall score, alignment and coverage.

    A row the judge could not score counts as NaN and is left out of the statistics; the count of
    such rows is returned beside the values.
    """
    from ..evals import run_evals
    from ..summarization import SummarizationOptions, create_summarization_scorer

    scorer = create_summarization_scorer(model, SummarizationOptions(max_questions=max_questions, graded=graded,
                                                                      calibration=calibration))
    done = 0

    def tick(*_: Any) -> None:
        nonlocal done
        done += 1
        if on_progress is not None:
            on_progress(done)

    result = await run_evals(
        [{"input": r.source, "output": r.summary} for r in rows],
        [scorer],
        concurrency=concurrency,
        on_item_complete=tick,
        on_error="record",
    )
    values: dict[str, list[float]] = {m: [] for m in JUDGE_METRICS}
    for item in result.items:
        res = item.results.get(scorer.id)
        if res is None:
            for m in JUDGE_METRICS:
                values[m].append(math.nan)
            continue
        values["score"].append(float(res.score))
        values["alignment"].append(float(res.alignment_score))
        values["coverage"].append(float(res.coverage_score))
    return values, result.summary.failed_items


async def measure_agreement(
    rows: Sequence[AgreementRow],
    *,
    model: Any = None,
    use_judge: bool = True,
    metrics: Sequence[str] = (),
    concurrency: int = 8,
    max_questions: int = DEFAULT_MAX_QUESTIONS,
    human_field: str = "human",
    graded: bool = False,
    calibration: Any = None,
) -> AgreementReport:
    """Correlate the scorer (overall, alignment, coverage) and any ROUGE ``metrics`` with people;
    ``calibration`` re-decides the judge's verdicts first (a team's calibration file)."""
    started = time.perf_counter()
    report = AgreementReport(human_field=human_field, model=None)
    if use_judge:
        values, failed = await judge_values(
            rows, model=model, concurrency=concurrency, max_questions=max_questions, graded=graded,
            calibration=calibration,
        )
        report.failed_items = failed
        from ..judges.registry import resolve_judge

        report.model = model if isinstance(model, str) else getattr(model, "id", None) or resolve_judge(model).model_id
        for m in JUDGE_METRICS:
            keep = [i for i, v in enumerate(values[m]) if not math.isnan(v)]
            report.correlations.append(correlate(m, [rows[i] for i in keep], [values[m][i] for i in keep]))
    for metric in metrics:
        report.correlations.append(correlate(metric, rows, rouge_values(rows, metric)))
    report.seconds = time.perf_counter() - started
    return report


# -------------------------------------------------------------------------------------------------
# The report as text


def render(report: AgreementReport) -> str:
    lines = [
        f"agreement with human {report.human_field!r}"
        + (f", judge {report.model}" if report.model else "")
        + f" ({report.seconds:.1f}s"
        + (f", {report.failed_items} rows failed" if report.failed_items else "")
        + ")",
        f"{'metric':<10} {'spearman':>8} {'kendall':>8} {'pearson':>8} {'groups':>7}  skipped (constant human/metric)",
    ]
    for c in report.correlations:
        rho, tau, r = (number(x, missing="n/a") for x in (c.spearman, c.kendall, c.pearson))
        lines.append(
            f"{c.metric:<10} {rho:>8} {tau:>8} {r:>8} {c.groups:>7}  "
            f"{c.skipped_constant_human}/{c.skipped_constant_metric}"
        )
    lines.append("spearman, kendall: per group, averaged (summary-level); pearson: pooled over all rows")
    return "\n".join(lines)
