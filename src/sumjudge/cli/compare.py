"""``sumjudge compare A B``: is run B better than run A on the same items?

A and B are run ids in the run store (a unique prefix, or ``latest``) or ``--out`` files of
``sumjudge score``; a path that exists as a file is read as a file. The work is
:func:`sumjudge.analysis.compare_runs`; this module parses flags, prints and picks the exit code.

Exit codes: 0 compared, 1 the verdict is "worse" and ``--fail-if-worse`` was given, 2 the runs
cannot be compared (no such run or file, an empty run, different data sets or scorers), 3
``--fail-if-worse`` could not decide: B is not significantly worse, but the interval of B - A reaches
below ``-margin`` (:func:`sumjudge.analysis.compare_doubt.worse_gate`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from ..analysis.compare import DEFAULT_ALPHA, DEFAULT_MOVED
from ..analysis.run_items import ComparisonError
from .common import (
    COMPARE_EXIT_CODES, default_databases, fail, gate_exit, on_inconclusive_option, store_errors, store_option,
)
from .help import SectionedCommand


def _side(ref: str, which: str, store_path: str | None, store: list[Any]) -> Any:
    from ..analysis.run_items import read_result_file, run_items_from_store
    from ..store.database import DEFAULT_STORE_PATH, RunStore

    if Path(ref).is_file():
        return read_result_file(ref)
    path = Path(store_path) if store_path else DEFAULT_STORE_PATH
    if not path.exists():
        raise ComparisonError(f"{which}: {ref!r} is not a file, and there is no run store at {path} to look it up in")
    if not store:
        store.append(RunStore(path))
    items = run_items_from_store(store[0], ref)
    return items


@click.command(cls=SectionedCommand, epilog=COMPARE_EXIT_CODES,
               common=("report", "as_json", "fail_if_worse", "store_path"))
@click.argument("run_a", metavar="A")
@click.argument("run_b", metavar="B")
@store_option
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=DEFAULT_ALPHA,
              show_default=True, help="Significance level of the verdict.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as one JSON object on standard output.")
@click.option("--fail-if-worse", is_flag=True,
              help="Exit 1 when B is significantly worse than A, 3 when too few items tell whether it is worse "
                   "by more than --margin (for CI).")
@click.option("--margin", type=click.FloatRange(min=0), default=0.0, show_default=True, metavar="D",
              help="Runs whose B - A interval lies inside +-D are 'equivalent'; --fail-if-worse tolerates a loss of D.")
@click.option("--detect", type=click.FloatRange(min=0, min_open=True), default=None, metavar="D",
              help="Say how many paired items a true difference of D would need (default: --margin, else 5% of "
                   "the scale).")
@on_inconclusive_option
@click.option("--report", type=click.Path(dir_okay=False), default=None, metavar="FILE.html",
              help="Write a self-contained comparison page.")
@click.option("--moved", type=click.IntRange(min=0), default=DEFAULT_MOVED, show_default=True,
              help="How many of the items that moved most to list.")
def compare(
    run_a: str,
    run_b: str,
    store_path: str | None,
    alpha: float,
    as_json: bool,
    fail_if_worse: bool,
    margin: float,
    detect: float | None,
    on_inconclusive: str,
    report: str | None,
    moved: int,
) -> None:
    """Compare run B against run A, item by item (A, B: run ids in the store or --out files).

    Items are paired by id and must share their source. Prints the mean of each run, B - A with a
    95% paired bootstrap interval, the Wilcoxon signed-rank p-value, B's wins / ties / losses, the
    verdict (better or worse at --alpha, else equivalent within --margin or inconclusive), the
    minimum detectable difference and the items a chosen difference would need, the same for alignment and coverage, the
    items present in one run only, and the items whose score moved most with both reasons.
    """
    from ..analysis.compare import compare_runs
    from ..analysis.compare_text import render_text
    from ..data.files import OutputPlan
    from ..errors import SumjudgeError

    from ..runs.outputs import store_reads
    from ..store.database import DEFAULT_STORE_PATH

    data, caches = store_reads(store_path or DEFAULT_STORE_PATH)
    plan = OutputPlan(
        inputs={**data, **{f"run {side} ({ref})": ref for side, ref in (("A", run_a), ("B", run_b))
                           if Path(ref).is_file()}},
        databases={**caches, **default_databases(store_path)},
        outputs={"--report": report},
    )
    opened: list[Any] = []
    with store_errors(store_path):
        try:
            plan.check()
            a = _side(run_a, "A", store_path, opened)
            b = _side(run_b, "B", store_path, opened)
            result = compare_runs(a, b, alpha=alpha, moved=moved, margin=margin, detect=detect)
            if fail_if_worse and margin >= (result.scale or 1.0):
                raise ComparisonError(f"--margin {margin:g} is not below the score's scale ({result.scale or 1.0:g}): "
                                      "--fail-if-worse could never fail")
        except (ComparisonError, SumjudgeError) as exc:
            fail(str(exc))
        finally:
            for store in opened:
                store.close()
        if report:
            from ..report import write_comparison_report

            plan.write("--report", lambda tmp: write_comparison_report(tmp, result))
    click.echo(result.model_dump_json(indent=2) if as_json else render_text(result, warnings=False))
    from ..analysis.compare import exam_note

    if (said := exam_note(result)) is not None and said[1]:
        click.echo(f"sumjudge: warning: {said[0]}", err=True)
    if report and not as_json:
        click.echo(f"comparison page written to {report}")
    if not fail_if_worse:
        raise SystemExit(0)
    from ..analysis.compare_doubt import worse_gate
    from ..figures.decide import resolve

    decision = resolve(worse_gate(result, result.verdict, margin, scale=result.scale or 1.0,
                                  confidence=result.confidence), on_inconclusive)  # type: ignore[arg-type]
    if decision.outcome == "fail" and result.verdict == "worse":
        decision = replace(decision, line=f"B ({result.b}) is worse than A ({result.a}) at alpha {alpha:g}: "
                           f"p = {result.p_value:.3g}")
    failures = [decision.text()] if decision.outcome == "fail" else []
    unsure = [decision.text()] if decision.outcome == "inconclusive" else []
    raise SystemExit(gate_exit(failures, unsure))
