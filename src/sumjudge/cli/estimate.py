"""``sumjudge estimate``: the calls, tokens and price of scoring a dataset, without calling the judge."""

from __future__ import annotations

import json

import click

from ..errors import SumjudgeError
from .common import fail, stdout_console


@click.command()
@click.argument("data", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--model", "-m", default=None, metavar="PROVIDER/MODEL",
              help="The judge to forecast for (default: SUMJUDGE_MODEL, else offline/lexical). No key needed.")
@click.option("--context-window", type=click.IntRange(min=512), default=None, metavar="TOKENS",
              help="The judge's context window, when the built-in table does not know it.")
@click.option("--max-questions", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--max-claims", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--source-field", default="source", show_default=True)
@click.option("--summary-field", default="summary", show_default=True)
@click.option("--id-field", default="id", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json", "csv"]), default=None)
@click.option("--json", "as_json", is_flag=True, help="The forecast as one JSON object on standard output.")
@click.option("--probe", "probe_kinds", default=None, metavar="all|K,...",
              help="Forecast `sumjudge probe DATA` (these variant kinds) instead of `score`.")
@click.option("--per-kind", type=click.IntRange(min=1), default=None, metavar="N", help="With --probe: its --per-kind.")
def estimate(
    data: str,
    model: str | None,
    context_window: int | None,
    max_questions: int,
    max_claims: int,
    source_field: str,
    summary_field: str,
    id_field: str,
    fmt: str | None,
    as_json: bool,
    probe_kinds: str | None = None,
    per_kind: int | None = None,
) -> None:
    """Forecast what `sumjudge score DATA --model M` would spend: judge calls, prompt and completion
    tokens, and the price for models with known prices. Sends nothing to the judge."""
    from ..data.datasets import Dataset, Fields
    from ..judges.base import ModelConfig
    from ..judges.registry import default_model_id
    from ..scorers.summarization.forecast import Forecaster, price

    model_id = model or default_model_id()
    try:
        config = ModelConfig(id=model_id, context_window=context_window)
        forecaster = Forecaster(config, max_questions=max_questions, max_claims=max_claims)
        fields = Fields(source=source_field, summary=summary_field, id=id_field)
        if probe_kinds is not None:  # the originals and variants a probe would score
            from ..runs.probe import probe_items

            for source, summary in probe_items(data, fields, kinds=probe_kinds, per_kind=per_kind, format=fmt):
                forecaster.item(source, summary)
        else:
            with Dataset(data, fields=fields, format=fmt) as ds:  # type: ignore[arg-type]
                ds.validate()
                for row in ds.rows():
                    forecaster.item(row.source, row.summary)
    except SumjudgeError as exc:
        fail(str(exc))
    f = forecaster.total
    cost, note = price(model_id, f.prompt_tokens, f.completion_tokens)
    figures = {
        "model": model_id,
        "items": f.items,
        "calls": f.calls,
        "calls_by_step": f.by_step,
        "prompt_tokens": f.prompt_tokens,
        "completion_tokens": f.completion_tokens,
        "long_sources": f.long_sources,
        "context_window": forecaster.budget.context_window,
        "counted_by": forecaster.budget.counter.name,
        "price_usd": None if cost is None else float(cost),
        "price_note": note,
    }
    if as_json:
        click.echo(json.dumps(figures))
        return
    console = stdout_console()
    console.print(f"forecast for {model_id} (context {figures['context_window']:,} tokens, counted by {figures['counted_by']})")
    console.print(f"items              {f.items:,}")
    steps = ", ".join(f"{k} {v:,}" for k, v in sorted(f.by_step.items()))
    console.print(f"judge calls        {f.calls:,} ({steps})")
    console.print(f"prompt tokens      {f.prompt_tokens:,}")
    console.print(f"completion tokens  {f.completion_tokens:,}")
    if f.long_sources:
        console.print(f"long sources       {f.long_sources:,} items take the chunked path")
    console.print(f"price              {'unknown' if cost is None else f'${cost:,.4f}'}  ({note})", markup=False)
