"""``sumjudge probe``: what a judge catches, learnt without labels from controlled variants of faithful summaries.

Exit codes as ``score``: 0 the probe ran and every gate passed, 1 a gate failed (``--min-detection``,
``--max-false-alarm``: the rate's Wilson interval lies on the wrong side), 3 no gate failed but one is
inconclusive (the interval crosses the threshold; ``--on-inconclusive pass|fail``), 2 usage or input errors, 130/143 interrupted (saved; the same command resumes).
The work is in :func:`sumjudge.runs.probe.run_probe` (the same path as ``score``); this module parses
flags, prints the table and picks the exit code.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import click

from ..data.datasets import FORMATS
from ..errors import SumjudgeError
from .common import (
    EXIT_BELOW, EXIT_INCONCLUSIVE, EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED, PROBE_EXIT_CODES, fail,
    on_inconclusive_option, stderr_console, stdout_console,
)
from .help import SectionedCommand
from .options import (
    PositiveNumber, Seconds, batch_options, calibration_option, concurrency_option, graded_option,
    judge_option_option, max_questions_option, per_kind_option, read_calibration_option, ScorerFlags, scorer_spec, workers_option,
)


def _rate(text: str | None, option: str) -> float | None:
    if text is None:
        return None
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        fail(f"{option} takes a rate between 0 and 1 (0.8) or a percentage (80%), got {text!r}")
    return value


@click.command(cls=SectionedCommand, epilog=PROBE_EXIT_CODES,
               common=("models", "judge_option", "kinds", "report", "as_json", "quiet"))
@click.argument("data", type=click.Path(dir_okay=False, allow_dash=True), required=False)
@click.option("--pairs", "pairs_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Probe with pairs made by people (BUMP's layout) instead of variants of DATA.")
@click.option("--model", "-m", "models", multiple=True, metavar="PROVIDER/MODEL",
              help="The judge (default $SUMJUDGE_MODEL, else offline/lexical); twice to put two judges side by side.")
@judge_option_option
@click.option("--kinds", default=None, metavar="K,...", help="Variant kinds to make (default: all).")
@per_kind_option("At most N variants per kind (rows picked by the seed): caps the spend")
@click.option("--seed", type=int, default=0, show_default=True, help="The same seed makes the same variants.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as one JSON object on standard output.")
@click.option("--report", type=click.Path(dir_okay=False), default=None, metavar="FILE.html",
              help="Write a self-contained HTML page: the rates drawn, and examples of what the judge said.")
@click.option("--min-detection", default=None, metavar="R", help="Exit 1 when a kind's detection rate is below R.")
@click.option("--max-false-alarm", default=None, metavar="R", help="Exit 1 when a control is flagged more often than R.")
@on_inconclusive_option
@max_questions_option()
@click.option("--scale", type=PositiveNumber(), default=1.0, show_default=True, help="Multiplies every score.")
@graded_option
@calibration_option
@concurrency_option()
@click.option("--source-field", default="source", show_default=True, help="Field holding the source text.")
@click.option("--summary-field", default=None,
              help="Field holding the summary (default 'summary'; with --pairs, 'reference_summary'). A list "
                   "of summaries (SummEval's 'references'): the first is probed.")
@click.option("--edited-field", default="edited_summary", show_default=True, help="With --pairs: the edited summary.")
@click.option("--type-field", default="error_type", show_default=True, help="With --pairs: the error type.")
@click.option("--id-field", default="id", show_default=True, help="Field holding the item id (else the row number).")
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default=None,
              help="Format of the file (default: from its extension).")
@click.option("--encoding", default=None, metavar="NAME", help="Text encoding of the file (default UTF-8).")
@click.option("--delimiter", default=None, metavar="CHAR", help="CSV field delimiter (default ',', tab for .tsv).")
@click.option("--timeout", type=Seconds(), default=None, metavar="SECONDS",
              help="Seconds to wait for one judge reply (default 60).")
@click.option("--store", "store_path", type=click.Path(dir_okay=False), default=None,
              help="Run store (SQLite). Default: .sumjudge/runs.db")
@click.option("--fresh", is_flag=True, help="Start a new run instead of resuming the same probe's last run.")
@click.option("--cache", "use_cache", is_flag=True, help="Answer repeated judge requests from a local cache.")
@click.option("--cache-path", type=click.Path(dir_okay=False), default=None,
              help="Reply cache file (implies --cache). Default: .sumjudge/cache.db")
@click.option("--quiet", "-q", is_flag=True, help="No progress.")
@workers_option
@batch_options
def probe(
    data: str | None, pairs_file: str | None, models: tuple[str, ...], judge_option: tuple[str, ...], kinds: str | None, per_kind: int | None,
    seed: int, as_json: bool, report: str | None, min_detection: str | None, max_false_alarm: str | None,
    on_inconclusive: str,
    max_questions: int, scale: float, graded: bool, calibration_path: str | None, concurrency: int, source_field: str, summary_field: str | None,
    edited_field: str, type_field: str, id_field: str, fmt: str | None, encoding: str | None,
    delimiter: str | None, timeout: float | None, store_path: str | None, fresh: bool, use_cache: bool,
    cache_path: str | None, quiet: bool, workers: int | None = None, use_batch: bool = False,
    poll_interval: float = 30.0, batch_fallback: str = "rebatch",
) -> None:
    """Probe a judge: score faithful summaries of DATA and controlled variants of them (a changed number,
    date or name, a negation, a swapped role, an added claim, a dropped fact; and controls that must not
    lower the score), and report per kind how often the judge caught the change."""
    from ..analysis.probe.selection import parse_kinds
    from ..data.datasets import Fields
    from ..data.files import OutputPlan
    from ..judges.cache import DEFAULT_CACHE_PATH
    from ..judges.registry import default_model_id
    from ..runs.outputs import store_reads
    from ..runs.probe import make_plan, read_pairs, read_rows
    from ..store.database import DEFAULT_STORE_PATH

    if (data is None) == (pairs_file is None):
        fail("give DATA (rows to make variants of) or --pairs FILE (pairs made by people), not both")
    if len(models) > 2:
        fail("--model takes one judge, or two to compare")
    calibration = read_calibration_option(calibration_path)
    flags = ScorerFlags(max_questions=max_questions, scale=scale, graded=graded)
    specs = [scorer_spec(m, judge_option, flags,  # a calibration applies to the judge it names
                         calibration=calibration if calibration is not None and (len(models) < 2 or calibration.judge == m)
                         else None)
             for m in list(models) or [default_model_id()]]
    gates = {"min_detection": _rate(min_detection, "--min-detection"),
             "max_false_alarm": _rate(max_false_alarm, "--max-false-alarm"), "on_inconclusive": on_inconclusive}
    path = str(pairs_file or data)
    cache_file = cache_path or (str(DEFAULT_CACHE_PATH) if use_cache else None)
    reader = {"format": fmt, "encoding": encoding, "delimiter": delimiter}
    try:
        read_by_runs, caches_of_runs = store_reads(store_path or DEFAULT_STORE_PATH)
        OutputPlan(inputs={**read_by_runs, "the data file": path},
                   databases={**caches_of_runs, "the run store": store_path or str(DEFAULT_STORE_PATH),
                              "the reply cache": cache_file}, outputs={"--report": report}).check()
        if pairs_file is not None:
            fields = Fields(source=source_field, summary=summary_field or "reference_summary", id=id_field)
            pairs = read_pairs(path, fields, edited_field=edited_field, type_field=type_field, **reader)
            plan = make_plan(pairs=pairs, per_kind=per_kind)
        else:
            fields = Fields(source=source_field, summary=summary_field or "summary", id=id_field)
            plan = make_plan(read_rows(path, fields, **reader), kinds=parse_kinds(kinds), per_kind=per_kind, seed=seed)
    except SumjudgeError as exc:
        fail(str(exc))
    if not plan.variants:
        fail(f"{path}: no variant could be made safely for any row (kinds: {', '.join(plan.kinds)})")
    console = stderr_console(quiet)
    code = asyncio.run(_probe(
        plan, console, specs=specs, data_name=path, concurrency=concurrency, timeout=timeout, cache=cache_path or use_cache, store_path=store_path, fresh=fresh,
        quiet=quiet, as_json=as_json, report=report, workers=workers,
        batch={"poll_interval": poll_interval, "fallback": batch_fallback} if use_batch else None, **gates,
    ))
    sys.exit(code)


async def _probe(
    plan: Any, console: Any, *, specs: list[Any], data_name: str, concurrency: int,
    timeout: float | None, cache: bool | str, store_path: str | None, fresh: bool, quiet: bool, as_json: bool,
    report: str | None, min_detection: float | None, max_false_alarm: float | None, workers: int | None = None,
    batch: dict[str, Any] | None = None, on_inconclusive: str = "inconclusive",
) -> int:
    """Each judge's probe run and table (one spec per judge; a calibration is in the spec of the judge it
    names, and with one judge it must be that judge's, else refused as `score` refuses it)."""
    from ..analysis.probe.table import paired_kinds
    from ..runs.dataset import Meter
    from ..runs.probe import run_probe
    from .batch_view import provider_rounds
    from ..store.database import DEFAULT_STORE_PATH
    from .score import _cancel_on_sigterm, _ShownEvents

    terminated = _cancel_on_sigterm()
    results = []
    for spec in specs:
        meter = Meter()
        events = _ShownEvents(console, meter, model_id=spec.model, quiet=quiet,  # --batch on a live probe: said
                              batch_store=(store_path or DEFAULT_STORE_PATH) if batch is not None else None)
        try:
            result = await run_probe(
                plan, spec, data_name=data_name, concurrency=concurrency, timeout=timeout,
                cache=cache, store_path=store_path, fresh=fresh, min_detection=min_detection,
                max_false_alarm=max_false_alarm, on_inconclusive=on_inconclusive, meter=meter, events=events, workers=workers,
                batch=provider_rounds(batch, console, quiet=quiet),
            )
        except (SumjudgeError, ValueError) as exc:
            fail(str(exc))
        if result.interrupted:
            console.print(f"sumjudge: interrupted; what finished is saved in run {result.run.id}. "
                          "Run the same command again to resume.")
            return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
        results.append(result)
    tables = [r.table for r in results]
    paired = paired_kinds(plan, results[0].outcomes, results[1].outcomes) if len(results) == 2 else []
    if as_json:
        doc = tables[0].as_json() if len(tables) == 1 else {
            "judges": [t.as_json() for t in tables], "paired": [p.model_dump() for p in paired],
            "passed": all(t.passed for t in tables),
            "outcome": "fail" if any(t.outcome == "fail" for t in tables) else
            "inconclusive" if any(t.outcome == "inconclusive" for t in tables) else "pass"}
        click.echo(json.dumps(doc))
    else:
        out = stdout_console()
        for table in tables:
            _print_table(out, table, plan)
        if paired:
            _print_paired(out, paired, models)
    if report is not None:
        from ..data.files import AtomicFile
        from ..report.probe_html import write_probe_report

        try:
            AtomicFile(report, option="--report").write_with(
                lambda tmp: write_probe_report(tmp, plan, [(r.table, r.outcomes) for r in results], paired))
        except SumjudgeError as exc:
            fail(str(exc))
        console.print(f"sumjudge: report written to {report}")
    outcomes = {t.outcome for t in tables}
    return EXIT_BELOW if "fail" in outcomes else EXIT_INCONCLUSIVE if "inconclusive" in outcomes else EXIT_OK


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _print_table(out: Any, table: Any, plan: Any) -> None:
    from rich.table import Table

    j = table.judge
    out.print(f"judge {j['model']}  options {json.dumps(j['options'], sort_keys=True)}  seed {j['seed']}  "
              f"per-kind {j['per_kind'] or 'all'}  run {j['run']}  items {table.items}")
    t = Table(title=None, show_edge=False)
    for col in ("kind", "axis", "applicable", "probes", "detected", "rate", "95% CI", "localized", "axis lower",
                "failed"):
        t.add_column(col, justify="left" if col in ("kind", "axis") else "right")
    for k in table.kinds:
        t.add_row(k.kind, k.axis, str(k.applicable), str(k.probes), str(k.detected), _pct(k.rate),
                  f"{_pct(k.ci_low)}–{_pct(k.ci_high)}", "–" if k.localized is None else str(k.localized),
                  str(k.axis_lower), str(k.failed))
    for k in table.controls:
        t.add_row(k.kind, "control", str(k.applicable), str(k.probes), f"{k.flagged} flagged", _pct(k.rate),
                  f"{_pct(k.ci_low)}–{_pct(k.ci_high)}", "–", "–", str(k.failed))
    out.print(t)
    for gate in table.gates:
        out.print(f"gate {gate.line}")
    out.print(_outcome_line(table))


def _outcome_line(table: Any) -> str:
    """The probe's last line, true with or without gates: without a gate it states what was detected
    and says that nothing was gated, never "passed"."""
    if not table.gates:
        found = sum(k.detected or 0 for k in table.kinds)
        probes = sum(k.probes for k in table.kinds)
        return (f"no gate set: {found} of {probes} probes detected; --min-detection and --max-false-alarm "
                "hold the rates to a bar")
    n = len(table.gates)
    return {"pass": f"every gate met ({n})",
            "fail": f"FAILED: {sum(g.outcome == 'fail' for g in table.gates)} of {n} gates not met",
            "inconclusive": f"INCONCLUSIVE: {sum(g.outcome == 'inconclusive' for g in table.gates)} of {n} gates "
                            "cannot tell yet"}[table.outcome]


def _print_paired(out: Any, paired: list[Any], models: list[str]) -> None:
    from rich.table import Table

    out.print(f"A = {models[0]}, B = {models[1]}: detected by one judge only, exact McNemar test per kind")
    t = Table(show_edge=False)
    for col in ("kind", "pairs", "both", "A only", "B only", "neither", "p"):
        t.add_column(col, justify="left" if col == "kind" else "right")
    for p in paired:
        t.add_row(p.kind, str(p.pairs), str(p.both), str(p.only_a), str(p.only_b), str(p.neither), f"{p.p_value:.3g}")
    out.print(t)
