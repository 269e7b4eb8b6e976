"""``sumjudge agreement``: how far a judge agrees with human ratings (see :mod:`sumjudge.analysis.agreement`),
or, with ``--run``, with the labels people left on a stored run's verdicts in ``sumjudge view``
(see :mod:`sumjudge.analysis.labels`).

Exit codes: 0 success, 2 bad input or configuration (a missing field, an unreadable file, an
unknown judge, ``--no-judge`` without a ``--metric``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import click

from ..analysis import agreement as protocol
from ..errors import InputError, SumjudgeError
from .common import AGREEMENT_EXIT_CODES, EXIT_USAGE, fail, open_store, store_option
from .help import SectionedCommand
from .options import (
    MAX_CONCURRENCY, calibration_option, concurrency_option, graded_option, judge_extra, judge_option_option,
    max_questions_option, read_calibration_option, scorer_options,
)


@click.command(cls=SectionedCommand, epilog=AGREEMENT_EXIT_CODES,
               common=("human_field", "docs", "run_ref", "model", "as_json"))
@click.argument("data", type=click.Path(dir_okay=False), required=False)
@click.option("--human-field", default=None, help="Field holding the human score, e.g. consistency (needed with DATA).")
@click.option("--run", "run_ref", default=None, metavar="RUN",
              help="Instead of DATA: the labels people left on this stored run (id, prefix or 'latest') in `sumjudge view`.")
@click.option("--labels-from", "labels_from", default=None, metavar="RUN",
              help="With --run: correct RUN's rates with the labels of this other run (same judge and options, "
                   "data of the same kind); named in the output.")
@store_option
@click.option("--docs", default=None, type=click.Path(dir_okay=False),
              help="JSONL of documents {doc_id, source, references|reference}, joined by doc_id.")
@click.option("--group-field", default="doc_id", show_default=True, help="Rows with the same value form a group.")
@click.option("--model", default=None, metavar="PROVIDER/MODEL",
              help="Judge model. Default: $SUMJUDGE_MODEL, else offline/lexical.")
@judge_option_option
@click.option("--limit", type=int, default=None, help="Use only the first N rows.")
@concurrency_option(f"Evaluations at a time (at most {MAX_CONCURRENCY}).", short=False)
@max_questions_option("Coverage questions per source.")
@graded_option
@calibration_option
@click.option("--metric", "metrics", multiple=True, type=click.Choice(sorted(protocol.ROUGE_METRICS)),
              help="Also measure a reference-based baseline (repeatable).")
@click.option("--no-judge", is_flag=True, help="Measure only the --metric baselines.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def agreement(
    data: str | None,
    human_field: str | None,
    run_ref: str | None,
    labels_from: str | None,
    store_path: str | None,
    docs: str | None,
    group_field: str,
    model: str | None,
    judge_option: tuple[str, ...],
    limit: int | None,
    concurrency: int,
    max_questions: int,
    graded: bool,
    calibration_path: str | None,
    metrics: tuple[str, ...],
    no_judge: bool,
    as_json: bool,
) -> None:
    """Summary-level agreement of the summarization scorer (and ROUGE baselines) with human ratings in DATA (JSONL);
    or, with --run, the judge against the labels of a stored run (precision, recall and F1 of
    "unsupported", kappa, coverage answer accuracy, Spearman with ratings; reviewers with each other)."""
    if run_ref is not None:
        if data is not None:
            fail("give DATA or --run, not both")
        _label_agreement(run_ref, store_path, as_json, labels_from)
        return
    if labels_from is not None:
        fail("--labels-from goes with --run")
    scorer_options(max_questions=max_questions, graded=graded)  # a bad value: its flag named, exit 2
    if data is None or human_field is None:
        fail("give DATA and --human-field (ratings in a file), or --run RUN (labels in the run store)")
    assert data is not None and human_field is not None
    judge: Any = model
    if not no_judge:
        from ..judges.base import ModelConfig
        from ..judges.registry import default_model_id

        model_id = model or default_model_id()
        extra = judge_extra(model_id, judge_option)
        judge = ModelConfig(id=model_id, extra=extra) if extra else model
    if no_judge and not metrics:
        click.echo("sumjudge agreement: --no-judge needs at least one --metric", err=True)
        sys.exit(EXIT_USAGE)
    try:
        rows = protocol.load_rows(data, human_field, docs=docs, group_field=group_field, limit=limit)
        if not rows:
            raise InputError(f"{data} holds no rows")
        report = asyncio.run(
            protocol.measure_agreement(
                rows,
                model=judge,
                use_judge=not no_judge,
                metrics=list(metrics),
                concurrency=concurrency,
                max_questions=max_questions,
                human_field=human_field,
                graded=graded,
                calibration=read_calibration_option(calibration_path),
            )
        )
    except (SumjudgeError, OSError) as exc:
        click.echo(f"sumjudge agreement: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(json.dumps(report.as_dict(), indent=2) if as_json else protocol.render(report))


def _label_agreement(run_ref: str, store_path: str | None, as_json: bool, labels_from: str | None = None) -> None:
    from ..analysis.corrected import correction_from_store, correction_lines
    from ..analysis.labels import measure_label_agreement, render_label_agreement
    from ..store.item_lookup import item_rows
    from ..store.labels import LabelBook

    with open_store(store_path) as store:
        try:
            run = store.get_run(run_ref)
            source = store.get_run(labels_from) if labels_from is not None else run
        except KeyError as exc:
            fail(str(exc.args[0]))
        book = LabelBook(store)
        verdicts, items = book.verdict_labels(source.id), book.item_labels(source.id)
        scores = {i.item_id: i.score for i in item_rows(store, source.id) if i.score is not None}
        if not verdicts and not items:
            fail(f"run {source.id} has no labels yet: label its verdicts in `sumjudge view` first")
        try:
            correction = correction_from_store(store, run.id, source.id)
        except InputError as exc:
            fail(str(exc))
    report = measure_label_agreement(source.id, verdicts, items, scores)
    if as_json:
        click.echo(json.dumps({**report.model_dump(), "corrected": correction.model_dump()}, indent=2))
    else:
        click.echo(render_label_agreement(report) + "\n" + "\n".join(correction_lines(correction)))
