"""``sumjudge estimate``: the calls, tokens and price of scoring a dataset, without calling the judge.

It reads DATA with the same reader and the same input flags as ``sumjudge score``
(:func:`~sumjudge.cli.common.input_options`), so whatever ``score`` reads, ``estimate`` forecasts.
"""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import SumjudgeError
from ..guards.limits import MAX_WINDOW_TOKENS
from .common import ESTIMATE_EXIT_CODES, FORMATS_HELP, fail, input_options, open_dataset, stdout_console
from .help import SectionedCommand
from .options import max_claims_option, max_questions_option, per_kind_option, samples_option, scorer_options


HELP = f"""Forecast what `sumjudge score DATA --model M` would spend: judge calls, prompt and completion
tokens, and the price for models with known prices. Sends nothing to the judge; the offline judge
spends no tokens and costs nothing.

DATA is read as `sumjudge score` reads it: {FORMATS_HELP}, or '-' for standard input."""


@click.command(cls=SectionedCommand, help=HELP, epilog=ESTIMATE_EXIT_CODES, common=("model", "as_json", "batch"))
@click.argument("data", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--model", "-m", default=None, metavar="PROVIDER/MODEL",
              help="The judge to forecast for (default: SUMJUDGE_MODEL, else offline/lexical). No key needed.")
@click.option("--context-window", type=click.IntRange(min=512, max=MAX_WINDOW_TOKENS), default=None, metavar="TOKENS",
              help="The judge's context window: the window a local server (Ollama, llama.cpp, LM Studio) loads "
                   "the model with, or a model the built-in table does not know. Default: see the first line.")
@max_questions_option("Upper bound on coverage questions per source, as for `sumjudge score`.")
@max_claims_option
@samples_option("Independent evaluations per summary, as for `sumjudge score --samples`: K times the calls.")
@input_options
@click.option("--json", "as_json", is_flag=True, help="The forecast as one JSON object on standard output.")
@click.option("--batch", "batch", is_flag=True, help="Also the price through provider batch jobs (`score --batch`).")
@click.option("--probe", "probe_kinds", default=None, metavar="all|K,...",
              help="Forecast `sumjudge probe DATA` (these variant kinds) instead of `score`.")
@per_kind_option("With --probe: its --per-kind")
def estimate(
    data: str, model: str | None, context_window: int | None, max_questions: int, max_claims: int, samples: int,
    source_field: str, summary_field: str, id_field: str, fmt: str | None, encoding: str | None,
    delimiter: str | None, as_json: bool, batch: bool = False, probe_kinds: str | None = None,
    per_kind: int | None = None,
) -> None:
    """See :data:`HELP`."""
    from ..judges.base import ModelConfig
    from ..judges.registry import default_model_id
    from ..summarization.forecast import Forecaster

    model_id = model or default_model_id()
    options = scorer_options(max_questions=max_questions, max_claims=max_claims, samples=samples)
    dataset = open_dataset(
        data, source_field=source_field, summary_field=summary_field, id_field=id_field,
        fmt=fmt, encoding=encoding, delimiter=delimiter,
    )
    try:
        config = ModelConfig(id=model_id, context_window=context_window)
        forecaster = Forecaster(config, options)
        if probe_kinds is not None:  # the originals and variants a probe would score
            from ..data.datasets import Fields
            from ..runs.probe import probe_items

            fields = Fields(source=source_field, summary=summary_field, id=id_field)
            for source, summary in probe_items(data, fields, kinds=probe_kinds, per_kind=per_kind, format=fmt):
                forecaster.item(source, summary)
        else:
            with dataset:
                dataset.validate()
                for row in dataset.rows():
                    forecaster.item(row.source, row.summary)
    except SumjudgeError as exc:
        fail(str(exc))
    figures = _figures(model_id, forecaster, samples, batch)
    if as_json:
        click.echo(json.dumps(figures))
    else:
        _print(figures, forecaster.total, batch)


def _figures(model_id: str, forecaster: Any, samples: int, batch: bool) -> dict[str, Any]:
    """The forecast as ``--json`` prints it: calls, tokens, the context window and the price."""
    from ..summarization.forecast import is_offline, price

    f = forecaster.total
    cost, note = price(model_id, f.prompt_tokens, f.completion_tokens)
    window = forecaster.budget.window
    figures = {
        "model": model_id, "items": f.items, "samples": samples, "calls": f.calls, "calls_by_step": f.by_step,
        "prompt_tokens": f.prompt_tokens, "completion_tokens": f.completion_tokens, "long_sources": f.long_sources,
        "context_window": forecaster.budget.context_window,
        "context_window_origin": window.origin if window else None,
        "context_window_note": window.describe() if window else None,
        "counted_by": forecaster.budget.counter.name,
        "price_usd": None if cost is None else float(cost), "price_note": note,
    }
    if batch:  # provider batch jobs bill every token at half the list price
        from ..report.batch_cost import BATCH_PRICE_FACTOR

        figures["price_batch_usd"] = None if cost is None else float(cost * BATCH_PRICE_FACTOR)
    if is_offline(model_id):
        # an offline judge has no context window and makes no calls: it answers in this process,
        # reads every source whole, and spends nothing
        figures.update(calls=0, calls_by_step={}, context_window=None, context_window_origin=None,
                       context_window_note=None, counted_by=None, price_usd=0.0)
        if batch:
            figures["price_batch_usd"] = 0.0
    return figures


def _print(figures: dict[str, Any], f: Any, batch: bool) -> None:
    """The forecast in lines, for a person."""
    console = stdout_console()
    samples = figures["samples"]
    console.print(f"forecast for {figures['model']}")
    if figures["counted_by"] is None:  # an offline judge
        console.print(f"items              {f.items:,}" + (f" x {samples} samples" if samples > 1 else ""))
        console.print("cost               nothing: the offline judge runs in this process; it calls no model, "
                      "sends nothing and spends no tokens, so there is no context window, call count or price "
                      "to forecast", markup=False)
        return
    console.print(f"context window     {figures['context_window_note']}")
    console.print(f"tokens counted by  {figures['counted_by']}")
    console.print(f"items              {f.items:,}" + (f" x {samples} samples" if samples > 1 else ""))
    steps = ", ".join(f"{k} {v:,}" for k, v in sorted(f.by_step.items()))
    console.print(f"judge calls        {f.calls:,} ({steps})")
    console.print(f"prompt tokens      {f.prompt_tokens:,}")
    console.print(f"completion tokens  {f.completion_tokens:,}")
    if f.long_sources:
        console.print(f"long sources       {f.long_sources:,} items take the chunked path")
    cost, note = figures["price_usd"], figures["price_note"]
    console.print(f"price              {'unknown' if cost is None else f'${cost:,.4f}'}  ({note})", markup=False)
    if batch:
        shown = "unknown" if figures["price_batch_usd"] is None else f"${figures['price_batch_usd']:,.4f}"
        console.print(f"price with --batch {shown}  (provider batch jobs: half the list price)", markup=False)
