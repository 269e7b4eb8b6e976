"""``sumjudge agreement``: how far a judge agrees with human ratings (see :mod:`sumjudge.analysis.agreement`).

Exit codes: 0 success, 2 bad input or configuration (a missing field, an unreadable file, an
unknown judge, ``--no-judge`` without a ``--metric``).
"""

from __future__ import annotations

import asyncio
import json
import sys

import click

from ..analysis import agreement as protocol
from ..errors import InputError, SumjudgeError
from .common import EXIT_USAGE


@click.command()
@click.argument("data", type=click.Path(dir_okay=False))
@click.option("--human-field", required=True, help="Field holding the human score, e.g. consistency.")
@click.option("--docs", default=None, type=click.Path(dir_okay=False),
              help="JSONL of documents {doc_id, source, references|reference}, joined by doc_id.")
@click.option("--group-field", default="doc_id", show_default=True, help="Rows with the same value form a group.")
@click.option("--model", default=None, metavar="PROVIDER/MODEL",
              help="Judge model. Default: $SUMJUDGE_MODEL, else offline/lexical.")
@click.option("--limit", type=int, default=None, help="Use only the first N rows.")
@click.option("--concurrency", type=int, default=8, show_default=True, help="Evaluations at a time.")
@click.option("--max-questions", type=int, default=10, show_default=True, help="Coverage questions per source.")
@click.option("--metric", "metrics", multiple=True, type=click.Choice(sorted(protocol.ROUGE_METRICS)),
              help="Also measure a reference-based baseline (repeatable).")
@click.option("--no-judge", is_flag=True, help="Measure only the --metric baselines.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def agreement(
    data: str,
    human_field: str,
    docs: str | None,
    group_field: str,
    model: str | None,
    limit: int | None,
    concurrency: int,
    max_questions: int,
    metrics: tuple[str, ...],
    no_judge: bool,
    as_json: bool,
) -> None:
    """Summary-level agreement of the summarization scorer (and ROUGE baselines) with human ratings in DATA (JSONL)."""
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
                model=model,
                use_judge=not no_judge,
                metrics=list(metrics),
                concurrency=concurrency,
                max_questions=max_questions,
                human_field=human_field,
            )
        )
    except (SumjudgeError, OSError) as exc:
        click.echo(f"sumjudge agreement: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(json.dumps(report.as_dict(), indent=2) if as_json else protocol.render(report))
