"""``sumjudge calibrate RUN``: fit the run's judge to the labels people left on it, and write a calibration.

The labels come from the viewer (the run store) or from ``--labels FILE.jsonl``
(:mod:`sumjudge.analysis.calibration_labels`); the verdicts are the run's own, read from the store, so
no judge is called. Prints agreement with the labels before and after by cross-validation, with
intervals, and what was fitted; writes the calibration (``--out``) for ``--calibration FILE`` on
``check`` and ``score``. Exit codes: 0 written, 2 bad input or labels too few to fit (nothing written).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import SumjudgeError
from .common import default_databases, fail, open_store, say, store_errors, store_option

if TYPE_CHECKING:
    from ..analysis.calibration_fit import Fit
    from ..summarization.calibration import Calibration


@click.command()
@click.argument("run_ref", metavar="RUN")
@click.option("--labels", "labels_path", type=click.Path(dir_okay=False, exists=True), default=None,
              metavar="FILE.jsonl", help="Labels as JSON lines ({\"id\", \"label\": pass/fail or 1-5}; or \"claims\" / "
                                         "\"questions\": one truth per verdict). Default: the labels left in `sumjudge view`.")
@click.option("--pass-at", type=click.IntRange(1, 5), default=4, show_default=True, metavar="R",
              help="A 1-5 rating passes from R up.")
@click.option("--folds", type=click.IntRange(2, 20), default=5, show_default=True, metavar="K",
              help="Cross-validation folds: each fold is scored by what was fitted on the others; one "
                   "source's summaries stay in one fold.")
@click.option("--examples-tokens", type=click.IntRange(0, 100_000), default=None, metavar="N",
              help="For a judge that reads prompts (an LLM over HTTP): put the verdicts your labels corrected in "
                   "its prompts as examples, at most about N tokens a request (default 600; 0: none).")
@click.option("--out", "-o", type=click.Path(dir_okay=False), default="calibration.json", show_default=True,
              help="Where to write the calibration (replaced whole).")
@store_option
def calibrate(run_ref: str, labels_path: str | None, pass_at: int, folds: int, examples_tokens: int | None, out: str,
              store_path: str | None) -> None:
    """Fit RUN's judge to your labels (thresholds, how unchecked verdicts count, the score's bound; examples
    in the prompts of an LLM judge)."""
    from ..analysis.calibration_examples import DEFAULT_BUDGET_TOKENS, choose_examples, disagreements
    from ..analysis.calibration_fit import fit, light_items
    from ..analysis.calibration_labels import read_label_file, store_labels
    from ..data.files import OutputPlan
    from ..summarization.calibration import Calibration

    plan = OutputPlan(inputs={"the labels": labels_path} if labels_path else {},
                      databases=default_databases(store_path), outputs={"--out": out})
    store = open_store(store_path)
    with store, store_errors(store_path):
        plan.check()
        run = store.get_run(run_ref)
        reads_prompts = _reads_prompts(run.model)
        if examples_tokens and not reads_prompts:
            fail(f"--examples-tokens: the judge {run.model} reads no prompt of ours, so examples cannot reach it")
        labels = read_label_file(labels_path, pass_at=pass_at) if labels_path else store_labels(store, run.id, pass_at=pass_at)
        scale = float(run.options.get("scale", 1) or 1)
        try:
            found = fit(run.model, light_items(store, run.id), labels, scale=scale,
                        graded=bool(run.options.get("graded")), folds=folds)
        except SumjudgeError as exc:
            fail(str(exc))
        found_examples = disagreements(store, run.id, labels) if reads_prompts else []
        budget = DEFAULT_BUDGET_TOKENS if examples_tokens is None else examples_tokens
        calibration = Calibration(
            judge=run.model, options=dict(run.options), labels_digest=labels.digest(), labels=found.items,
            bound=round(found.bound, 4), bound_interval=(round(found.bound_interval[0], 4), round(found.bound_interval[1], 4)),
            agreement={"metric": "balanced accuracy of pass/fail", "folds": found.folds, "before": found.before.as_dict(),
                       "bound_only": found.bound_only.as_dict(), "after": found.after.as_dict(), "gain": found.gain.as_dict(),
                       **({"spearman": {k: round(v, 4) for k, v in found.spearman.items()}} if found.spearman else {})},
            examples=choose_examples(found_examples, budget), **found.params.as_dict(),
        )
        plan.write("--out", lambda tmp: Path(tmp).write_text(calibration.text(), encoding="utf-8"))
    _report(run.id, run.model, found, calibration, out)
    if reads_prompts:
        click.echo(f"examples for the judge's prompts: {len(calibration.examples)} of the {len(found_examples)} "
                   f"verdicts your labels corrected (at most about {budget} tokens a request); their effect shows "
                   "only when the run is scored again with this calibration")


def _reads_prompts(model: str) -> bool:
    """Whether ``model`` is an LLM asked with this package's prompts (over HTTP), not a judge with its own
    reading (offline, in process, or a method on a server)."""
    from ..errors import ConfigurationError
    from ..judges.providers import PROVIDERS, parse_model_id, split_method

    try:
        provider, _ = parse_model_id(model)
    except ConfigurationError:
        return False
    method, server = split_method(provider)
    return method is None and PROVIDERS[server].kind in ("openai_compat", "azure", "anthropic")


def _report(run_id: str, model: str, f: Fit, calibration: Calibration, out: str) -> None:
    click.echo(f"calibrate run {run_id} (judge {model}): {f.items} labelled items, {f.passes} pass and "
               f"{f.items - f.passes} fail, {f.folds} folds")
    click.echo("balanced accuracy of pass/fail (out of fold, 95% bootstrap interval over items):")
    for label, fig in (("before (the judge as shipped, bound at half the scale)", f.before),
                       ("the bound alone fitted", f.bound_only), ("calibrated", f.after)):
        click.echo(f"  {label:<56}{fig.value:.3f}  [{fig.interval[0]:.3f}, {fig.interval[1]:.3f}]")
    gain = f.gain
    click.echo(f"  {'calibrated - before':<56}{gain.value:+.3f}  [{gain.interval[0]:+.3f}, {gain.interval[1]:+.3f}]")
    if f.spearman:
        click.echo(f"Spearman with the ratings: before {f.spearman['before']:.3f}, after {f.spearman['after']:.3f}")
    if not f.tells:
        click.echo("The labels are too few to tell a difference: the interval of the gain holds 0. Label more "
                   "items (the viewer's review queue picks the most telling) before trusting either figure.")
    fitted = ", ".join(f"{k} {v}" for k, v in f.params.as_dict().items()) or "nothing but the bound"
    if not f.params.as_dict() and f.kind != "plain":
        fitted += " (re-deciding the judge's verdicts did not beat the bound alone out of fold)"
    lo, hi = f.bound_interval
    click.echo(f"fitted on every label: {fitted}; bound {f.bound:.3f} [{lo:.3f}, {hi:.3f}]")
    say(f"sumjudge: calibration {calibration.short} written to {out}; use it with "
        f"--calibration {out} on check and score")


__all__ = ["calibrate"]
