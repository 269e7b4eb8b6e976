"""Score a dataset into the run store: the batch work behind ``sumjudge score``.

:func:`run_dataset` is the whole run, in the order it happens: the judge is built once
(:func:`build_scorer`: registry, call meter, reply cache), the output files are proven writable, the
run is opened or resumed in the :class:`~sumjudge.store.RunStore`, the rows are scored
(:func:`score_dataset`), then ``--out`` (input order), the HTML report, JUnit XML and the job summary
are written and the gates judged. The CLI only parses flags, prints what :class:`RunEvents` and
the :class:`DatasetResult` say, and picks the exit code.

:func:`score_dataset` streams rows from the :class:`~sumjudge.data.datasets.Dataset` through
:func:`sumjudge.evals.run_evals` (which pulls items lazily, ``concurrency`` at a time); each finished
item is committed to the store as a typed :class:`~sumjudge.store.records.ScoredItem` or
:class:`~sumjudge.store.records.FailedItem` as soon as it finishes. Items the run already finished are
skipped. An item whose judge keeps failing is recorded with its error; the others go on. A judge that
computes on the CPU (the offline judge) is run on several processes instead (:mod:`.workers`); this
process still commits every record. The scorer and an item's record are built in :mod:`.scoring`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..data.datasets import Dataset, DatasetInfo
from ..errors import InputError, StoreError
from ..evals import run_evals
from ..judges.base import JudgeModel, is_cpu_bound
from ..summarization.spec import ScorerSpec
from ..store.database import ItemRecord, RunRecord, RunStore
from ..store.records import FailedItem, ItemOutcome, run_line
from ..store.run_stats import RunStats
from ..store.run_files import CACHE, DATA, record_run_files
from .scoring import GuardedScorer, Meter, MeteredJudge, build_scorer, outcome_of
from .outputs import STEP_SUMMARY, output_plan
from .workers import WorkerRecipe, score_in_processes, worker_count

if TYPE_CHECKING:
    from ..analysis.spread import SpreadSplit
    from ..data.files import OutputPlan
    from .gates import Gates

RecordCallback = Callable[[ItemOutcome], None]


class JudgeRounds(Protocol):
    """Another way to send a run's judge requests (provider batch jobs:
    :class:`sumjudge.runs.provider_batch.ProviderRounds`): it wraps the judge, then scores the rows."""

    def wrap(self, judge: JudgeModel) -> JudgeModel: ...

    async def score(
        self, dataset: Dataset, scorer: Any, store: RunStore, run: RunRecord, *,
        on_record: RecordCallback | None = None, meter: Meter | None = None,
    ) -> None: ...


async def score_dataset(
    dataset: Dataset,
    scorer: Any,
    store: RunStore,
    run: RunRecord,
    *,
    concurrency: int,
    on_record: RecordCallback | None = None,
    meter: Meter | None = None,
) -> None:
    """Score every row of ``dataset`` that ``run`` has not finished; commit each as it finishes."""
    finished = store.finished_ids(run.id)
    guarded = GuardedScorer(scorer)

    def pending() -> Iterator[dict[str, Any]]:
        for row in dataset.rows():
            if row.id not in finished:
                yield {"input": row.source, "output": row.summary, "row": row}

    async def complete(item: dict[str, Any], _output: Any, results: dict[str, Any]) -> None:
        row = item["row"]
        outcome = outcome_of(row, results[guarded.id])
        store.record_item(run.id, row.number, outcome)
        if meter is not None:
            meter.done += 1
            if isinstance(outcome, FailedItem):
                meter.errors += 1
        if on_record is not None:
            on_record(outcome)

    await run_evals(
        pending(), [guarded], concurrency=concurrency, on_item_complete=complete, keep_items=False
    )


# -- the whole data set run: judge, run store, outputs, gates -----------------------------------------


class RunEvents(Protocol):
    """What :func:`run_dataset` tells its caller while it works (the CLI shows it; by default nothing is shown)."""

    def started(self, run: RunRecord, *, resumed: bool, already_done: int, total: int) -> None:
        """The run is open (new, or resumed with ``already_done`` items finished); scoring begins."""

    def item_done(self, outcome: ItemOutcome) -> None:
        """One item finished (scored or failed) and is committed to the store."""

    def scoring_ended(self) -> None:
        """No item is in flight any more (also after an interruption); the outputs are written next."""


class _Unseen(RunEvents):
    """Nobody watches: every event is ignored."""


@dataclass(frozen=True)
class RunOutputs:
    """The files a data set run writes when it ends, each replaced whole (written beside, then renamed)."""

    out: str | None = None
    """One JSON line per item, in input order; ``"-"`` writes them to standard output."""
    report: str | None = None
    """The self-contained HTML report."""
    junit: str | None = None
    """JUnit XML, one test case per item."""
    step_summary: bool = True
    """Append a Markdown summary to ``$GITHUB_STEP_SUMMARY`` when that is set."""


@dataclass(frozen=True)
class DatasetResult:
    """How a data set run ended."""

    run: RunRecord
    stats: RunStats
    interrupted: bool
    """Stopped by Ctrl-C, SIGTERM or cancellation: what finished is saved; running again resumes."""
    gate_failures: list[str] = field(default_factory=list)
    """Why the run fails its gates (empty: it passes, or it was interrupted before they were judged)."""
    gate_inconclusive: list[str] = field(default_factory=list)
    """Gates whose interval crossed their bar, each with what would settle it (exit code 3 when no
    gate failed; see :mod:`sumjudge.figures.decide`)."""
    notes: list[str] = field(default_factory=list)
    """Things that went wrong without deciding the outcome (the job summary could not be appended)."""
    spread: SpreadSplit | None = None
    """With samples: how much of the score's spread comes from the questions drawn and how much from
    the verdicts (:mod:`sumjudge.analysis.spread`)."""


async def run_dataset(
    dataset: Dataset,
    info: DatasetInfo,
    spec: ScorerSpec,
    *,
    concurrency: int = 8,
    timeout: float | None = None,
    cache: bool | str | None = None,
    store_path: str | Path | None = None,
    fresh: bool = False,
    outputs: RunOutputs = RunOutputs(),
    gates: Gates | None = None,
    meter: Meter | None = None,
    events: RunEvents | None = None,
    batch: JudgeRounds | None = None,
    workers: int | None = None,
    judge_factory: Callable[[], JudgeModel] | None = None,
) -> DatasetResult:
    """Score ``dataset`` (validated: ``info`` is what :meth:`Dataset.validate` said) into the run store.

    In order, so that nothing is opened or called when an input is wrong: the judge is built once;
    every output file is proven writable; the run is opened, or the same command's last run resumed,
    and claimed for this process; every unfinished row is scored and committed as it finishes; the
    outputs are written (also after an interruption: ``--out`` with what was saved); the gates are
    judged. With ``batch`` (``ProviderRounds(BatchMode())``) the judge's requests go into provider batch
    jobs, round by round (:mod:`sumjudge.runs.provider_batch`). Raises
    :class:`~sumjudge.errors.SumjudgeError` for a bad model, an unwritable output, a
    damaged store or a run held by another process, before any judge call.

    ``workers``: processes that score a CPU-bound judge's items (:mod:`.workers`; default: the cores
    available, one per 100 pending items at most); other judges score in this process.
    ``spec``: the judge, its options and the scorer's (:class:`~sumjudge.summarization.spec.ScorerSpec`);
    its :meth:`~ScorerSpec.identity` keys the run in the store (a kept exam and a calibration by their
    digests), with the judge's options recorded beside it.
    ``judge_factory``: an importable function that builds the judge (named ``spec.model`` in the store).
    """
    from ..data.files import AtomicFile
    from ..store.database import DEFAULT_STORE_PATH, JUDGE_OPTIONS

    events = events or _Unseen()
    meter = meter or Meter()
    plan = output_plan(dataset, store_path, cache, out=outputs.out, report=outputs.report, junit=outputs.junit,
                       step_summary=outputs.step_summary)
    plan.check(appends=False)  # a job summary it may not write is a note at the end, not a failure
    scorer = build_scorer(spec, concurrency=concurrency, timeout=timeout, cache=cache, meter=meter,
                          judge_factory=judge_factory, wrap=batch.wrap if batch is not None else None)
    exam, options = spec.exam, spec.identity()
    if exam is not None and not spec.options.draw_missing:  # a source the exam lacks: refused before any call
        exam.check_rows((row.id, row.source) for row in dataset.rows())
    recipe = WorkerRecipe(spec.recipe(), concurrency, timeout, cache, judge_factory)
    files: dict[str, AtomicFile] = {}
    try:
        for option in ("--out", "--report", "--junit"):
            if plan.outputs.get(option) not in (None, "-"):
                files[option] = plan.open(option)
        store = RunStore(store_path or DEFAULT_STORE_PATH)
        with store:
            # the judge's options are recorded with the run: `runs show` says them, `compare` refuses others
            recorded = {**options, JUDGE_OPTIONS: dict(spec.judge_options)} if spec.judge_options else options
            run, resumed = store.open_run(
                model=spec.model, options=recorded, data=dataset.display_name, fingerprint=info.fingerprint,
                total_items=info.count, resume=not fresh, judge=scorer.identity,
                fields=_field_names(dataset),
            )
            record_run_files(store, run.id, {DATA: getattr(dataset, "path", None), CACHE: plan.databases.get("the reply cache")})
            return await _score_run(
                dataset, info, scorer, store, run, resumed=resumed, concurrency=concurrency, outputs=outputs,
                files=files, gates=gates, meter=meter, events=events, scale=float(spec.options.scale),
                workers=(recipe, workers), plan=plan, rounds=batch,
            )
    finally:
        for f in files.values():  # what was not committed leaves no temporary file
            f.discard()


async def _score_run(
    dataset: Dataset, info: DatasetInfo, scorer: Any, store: RunStore, run: RunRecord, *, resumed: bool,
    concurrency: int, outputs: RunOutputs, files: Mapping[str, Any], gates: Gates | None, meter: Meter,
    events: RunEvents, scale: float, workers: tuple[WorkerRecipe, int | None], plan: OutputPlan | None = None,
    rounds: JudgeRounds | None = None,
) -> DatasetResult:
    already_done = len(store.finished_ids(run.id))
    events.started(run, resumed=resumed, already_done=already_done, total=info.count)
    interrupted = False
    recipe, requested = workers
    processes = worker_count(requested, cpu_bound=is_cpu_bound(scorer.judge), pending=info.count - already_done)
    try:
        if rounds is not None:  # provider batch jobs: the judge's requests go out round by round
            await rounds.score(dataset, scorer, store, run, on_record=events.item_done, meter=meter)
        elif processes > 1:
            await score_in_processes(dataset, recipe, store, run, workers=processes, on_record=events.item_done,
                                     meter=meter)
        else:
            await score_dataset(dataset, scorer, store, run, concurrency=concurrency, on_record=events.item_done,
                                meter=meter)
    except (KeyboardInterrupt, asyncio.CancelledError):
        interrupted = True
    except StoreError as exc:  # the store cannot take an item (a full disk): the run is stopped, not "running"
        with contextlib.suppress(StoreError):
            store.finish_run(run.id, "interrupted")
        raise StoreError(f"{exc}; run {run.id} was stopped: run the same command to resume it") from None
    finally:
        events.scoring_ended()
    stats = store.stats(run.id)
    status = "interrupted" if interrupted else "finished" if stats.errors == 0 else "finished with errors"
    store.finish_run(run.id, status)
    run = store.get_run(run.id)
    try:
        _write_out(store, run, outputs.out, files.get("--out"))  # what was done is never lost
    except InputError as exc:  # a full disk, a file-size limit: the store still holds every item
        raise InputError(f"{exc}; run {run.id} is saved in the store: `sumjudge runs export {run.id}`") from None
    if interrupted:
        return DatasetResult(run=run, stats=stats, interrupted=True)

    from ..store.item_lookup import count_at_least, item_rows
    from .gates import ITEM_GATE_FLAGS, Gates, decide_gates, inconclusive

    gates = gates or Gates(scale=scale)
    passing = count_at_least(store, run.id, gates.pass_rate.threshold) if gates.pass_rate else None
    rows = item_rows(store, run.id) if gates.item.active else None
    decisions = decide_gates(stats, info.count, gates, passing=passing, rows=rows)
    failures = [d.text() for d in decisions if d.outcome == "fail"]
    unsure = inconclusive(decisions)
    spread = _spread(store, run)
    notes = _write_reports(store, run, stats, files, outputs, gates, failures, scale, plan, unsure, dataset, spread)
    notes += [f"gate inconclusive: {d.text()}" for d in decisions if d.resolved_by and d.outcome == "pass"]
    notes += [f"gate {d.gate}: {d.text()}" for d in decisions if d.gate in ITEM_GATE_FLAGS and d.outcome == "pass"]
    return DatasetResult(run=run, stats=stats, interrupted=False, gate_failures=failures, gate_inconclusive=unsure,
                       notes=notes, spread=spread)


def _spread(store: RunStore, run: RunRecord) -> SpreadSplit | None:
    """The run's spread split (:mod:`sumjudge.analysis.spread`), with samples only."""
    if int(run.options.get("samples", 1) or 1) < 2:
        return None
    from ..analysis.spread import spread_split
    from ..store.records import ScoredItem

    return spread_split(i.outcome for i in store.iter_items(run.id) if isinstance(i.outcome, ScoredItem))


def _write_out(store: RunStore, run: RunRecord, out: str | None, out_file: Any) -> None:
    """Every item of the run as one JSON line, in input order (what finished early waited in the store)."""
    if out != "-" and out_file is None:
        return
    def write(fh: Any) -> None:
        for item in store.iter_items(run.id):
            fh.write(run_line(item.outcome, run.model, run.options) + "\n")

    if out_file is not None:
        out_file.write_stream(write)
    else:
        write(sys.stdout)
        sys.stdout.flush()


def _write_reports(
    store: RunStore, run: RunRecord, stats: RunStats, files: Mapping[str, Any], outputs: RunOutputs,
    gates: Gates, failures: list[str], scale: float, plan: OutputPlan | None = None,
    unsure: list[str] | None = None, dataset: Dataset | None = None, spread: SpreadSplit | None = None,
) -> list[str]:
    """The HTML report, the JUnit XML and the job summary; the items are streamed from the store."""
    from ..report import write_report
    from ..report.batch_cost import run_batch_figures
    from ..report.junit import write_junit
    from ..report.markdown import append_step_summary, run_markdown

    def items() -> Iterator[ItemRecord]:
        return store.iter_items(run.id)

    threshold = gates.pass_rate.threshold if gates.pass_rate else None
    if "--report" in files:
        texts = (lambda: ((row.id, row.source, row.summary) for row in dataset.rows())) if dataset is not None else None
        figures = (run_batch_figures(store, run) + corrected_figures(store, run)
                   + ([("spread", spread.line())] if spread is not None else []))
        files["--report"].write_with(lambda tmp: write_report(tmp, run, stats, items, scale=scale, extra_figures=figures,
                                                              texts=texts))
    if "--junit" in files:
        files["--junit"].write_with(
            lambda tmp: write_junit(tmp, run, items, threshold=threshold, gate_failures=failures,
                                    gate_inconclusive=unsure or []))
    notes: list[str] = []
    if plan is not None and plan.appends.get(STEP_SUMMARY):
        try:
            markdown = run_markdown(run, stats, items, gate_failures=failures, threshold=threshold,
                                    gate_inconclusive=unsure or [])
            append_step_summary(markdown, plan.appends[STEP_SUMMARY], plan=plan)
        except InputError as exc:  # the job summary is a courtesy; it never decides the outcome
            notes.append(f"the job summary was not written: {exc}")
        except OSError as exc:
            notes.append(f"could not append to {STEP_SUMMARY}: {exc}")
    return notes


def corrected_figures(store: RunStore, run: RunRecord) -> list[tuple[str, str]]:
    """The run's rates corrected for the judge's errors, for the report, when people labelled its
    verdicts (a resumed run, labelled in ``sumjudge view``); none without labels."""
    from ..analysis.corrected import correction_from_store
    from ..figures import number
    from ..store.labels import LabelBook

    if not LabelBook(store).verdict_labels(run.id):
        return []
    c = correction_from_store(store, run.id)
    out = []
    for r in (c.claims, c.answers):
        out.append((f"{r.what}, raw", f"{number(r.raw.value)} [{number(r.raw.ci_low)}, {number(r.raw.ci_high)}]"))
        if r.corrected is None:
            out.append((f"{r.what}, corrected", r.note or "–"))
        else:
            f = r.corrected
            out.append((f"{r.what}, corrected", f"{number(f.value)} [{number(f.ci_low)}, {number(f.ci_high)}] "
                        f"({r.positives} + {r.negatives} labels)"))
    return out


def _field_names(dataset: Any) -> dict[str, str] | None:
    """The names a data file's rows were read with (a probe's made-up rows have none)."""
    fields = getattr(dataset, "fields", None)
    return dataclasses.asdict(fields) if dataclasses.is_dataclass(fields) else None


def run_dataset_sync(dataset: Dataset, info: DatasetInfo, **kwargs: Any) -> DatasetResult:
    """:func:`run_dataset` for scripts; works inside a running event loop too."""
    from .._aio import run_sync

    return run_sync(lambda: run_dataset(dataset, info, **kwargs))


__all__ = [
    "RunEvents", "RunOutputs", "DatasetResult", "JudgeRounds", "Meter", "MeteredJudge", "run_dataset",
    "run_dataset_sync", "score_dataset",
]
