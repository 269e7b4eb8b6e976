"""``sumjudge check``: score one summary against its source from the shell and show why.

``--source`` and ``--summary`` each take a file path or the text itself (a value that names an
existing file is read from it; ``-`` reads standard input). Prints the score, both axes, every
verdict and the reason; ``--json`` prints the whole result instead. Exit codes: 0 scored (and
at least ``--fail-under`` when given), 1 below ``--fail-under`` or the judge failed, 2 bad input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import JudgeError, SumjudgeError
from .common import EXIT_BELOW, EXIT_OK, fail, stdout_console


def _text(value: str, option: str) -> str:
    if value == "-":
        return sys.stdin.read()
    path = Path(value)
    try:
        if len(value) < 4096 and path.is_file():
            return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        fail(f"{option} {value}: not a UTF-8 text file")
    except OSError as exc:
        fail(f"{option} {value}: cannot be read ({exc.strerror or exc})")
    return value


@click.command()
@click.option("--source", "source_arg", required=True, metavar="FILE|TEXT",
              help="The source document: a file, the text itself, or '-' for standard input.")
@click.option("--summary", "summary_arg", required=True, metavar="FILE|TEXT",
              help="The summary to judge: a file, the text itself, or '-' for standard input.")
@click.option("--model", "-m", default=None, metavar="PROVIDER/MODEL",
              help="Judge model. Default: $SUMJUDGE_MODEL, else offline/lexical.")
@click.option("--max-questions", type=click.IntRange(min=1), default=10, show_default=True,
              help="Upper bound on coverage questions.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Seconds to wait for one judge reply (default 60).")
@click.option("--fail-under", type=float, default=None, metavar="X", help="Exit 1 when the score is below X.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole result as JSON.")
def check(
    source_arg: str, summary_arg: str, model: str | None, max_questions: int, timeout: float | None,
    fail_under: float | None, as_json: bool,
) -> None:
    """Score one SUMMARY against its SOURCE and print the verdicts behind the score."""
    from ..judges.base import ModelConfig
    from ..judges.registry import default_model_id
    from ..scorers.summarization import create_summarization_scorer

    if source_arg == "-" and summary_arg == "-":
        fail("only one of --source and --summary can read standard input")
    source, summary = _text(source_arg, "--source"), _text(summary_arg, "--summary")
    judge_id = model or default_model_id()
    try:
        chosen = None  # None: the default judge, and its notice
        if model is not None or timeout is not None:
            chosen = ModelConfig(id=judge_id, **({"timeout": timeout} if timeout is not None else {}))
        scorer = create_summarization_scorer(model=chosen, options={"max_questions": max_questions})
        result = scorer.run_sync(input=source, output=summary)
    except JudgeError as exc:
        click.echo(f"sumjudge: the judge failed: {exc}", err=True)
        sys.exit(EXIT_BELOW)
    except SumjudgeError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        _print(result)
    sys.exit(EXIT_BELOW if fail_under is not None and result.score < fail_under else EXIT_OK)


def _print(result: Any) -> None:
    console = stdout_console()
    console.print(f"score      {result.score:.2f}   (judge {result.model})")
    console.print(f"alignment  {result.alignment_score:.2f}   coverage {result.coverage_score:.2f}")
    claims = result.preprocess_step_result.alignment
    if claims:
        console.print(f"\nclaims ({sum(c.supported for c in claims)} of {len(claims)} supported)")
        for c in claims:
            console.print(f"  {'yes' if c.supported else 'NO '}  {c.claim}" + (f"  - {c.reason}" if c.reason else ""))
    answers = result.analyze_step_result.coverage
    if answers:
        console.print(f"\nquestions ({sum(a.answered for a in answers)} of {len(answers)} answered by the summary)")
        for a in answers:
            console.print(f"  {'yes' if a.answered else 'NO '}  {a.question}" + (f"  - {a.reason}" if a.reason else ""))
    console.print(f"\n{result.reason}")
