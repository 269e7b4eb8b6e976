"""``sumjudge check``: score one summary against its source from the shell and show why.

``--source`` and ``--summary`` each take a file path or the text itself; ``-`` reads standard input.
The rule that tells a path from text: a value that names an existing file is read from it; a value
that names no file but looks like a path (one word, no spaces, with a ``/`` or ``\\`` in it or ending
in a file extension such as ``.txt``) is an error naming the missing file (exit 2), never judged
as text; anything else (words with spaces) is the text itself. To judge one word that looks like a
file name, pipe it in with ``-``. Prints the score, both axes, every verdict and the reason;
``--json`` prints the whole result instead. Takes the scorer's options of ``sumjudge score``
(``--scale``, ``--samples``, ``--reducer``, ``--cache``; the same definitions). Exit codes: 0 scored
(and at least ``--fail-under`` when given), 1 below ``--fail-under`` or the judge failed (the reason
on standard error), 2 bad input.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import JudgeError, SumjudgeError
from .common import CHECK_EXIT_CODES, EXIT_BELOW, EXIT_OK, fail, say, stderr_console, stdout_console
from .help import SectionedCommand
from .options import (
    Finite, cache_options, calibration_option, gate_flag, item_gate_options, item_gates, judge_option_option,
    model_option, read_calibration_option, ScorerFlags, scorer_options_decorator, scorer_spec, timeout_option,
)

_LOOKS_LIKE_A_PATH = re.compile(r"^\S+$")
_FILE_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


def looks_like_a_path(value: str) -> bool:
    """One word with a path separator in it or a file extension at its end (``report.txt``, ``docs/a``)."""
    if not _LOOKS_LIKE_A_PATH.match(value) or value.startswith(("http://", "https://")):
        return False
    return "/" in value or "\\" in value or bool(_FILE_EXTENSION.search(value))


def _names_a_file(path: Path) -> bool:
    """Whether ``path`` is an existing file; a value no file system takes as a name (longer than a name
    may be, a NUL in it) names none: it is text."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _text(value: str, option: str) -> str:
    if value == "-":
        return sys.stdin.read()
    path = Path(value)
    try:
        if _names_a_file(path):
            return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        fail(f"{option} {value}: not a UTF-8 text file")
    except OSError as exc:
        fail(f"{option} {value}: cannot be read ({exc.strerror or exc})")
    if looks_like_a_path(value):
        fail(f"{option} {value}: no such file (a value with no spaces that looks like a path is read as a file; "
             f"to judge the text itself, pass it on standard input with {option} -)")
    return value


@click.command(cls=SectionedCommand, epilog=CHECK_EXIT_CODES, common=("source_arg", "summary_arg", "model", "judge_option", "fail_under", "as_json"))
@click.option("--source", "source_arg", required=True, metavar="FILE|TEXT",
              help="The source document: a file, the text itself, or '-' for standard input. One word that "
                   "looks like a path (report.txt, docs/a) must name a file.")
@click.option("--summary", "summary_arg", required=True, metavar="FILE|TEXT",
              help="The summary to judge: a file, the text itself, or '-' for standard input (the same rule).")
@model_option
@judge_option_option
@scorer_options_decorator  # --max-questions --scale --samples --reducer --sample-temperature --graded (as score)
@timeout_option
@cache_options
@click.option("--fail-under", type=Finite(), default=None, metavar="X", help="Exit 1 when the score is below X.")
@item_gate_options
@calibration_option
@click.option("--json", "as_json", is_flag=True, help="Print the whole result as JSON.")
def check(
    source_arg: str, summary_arg: str, model: str | None, judge_option: tuple[str, ...], scorer_flags: ScorerFlags,
    timeout: float | None, use_cache: bool,
    cache_path: str | None, fail_under: float | None, max_unsupported: int | None, min_alignment: float | None,
    min_coverage: float | None, calibration_path: str | None, as_json: bool,
) -> None:
    """Score one SUMMARY against its SOURCE and print the verdicts behind the score."""
    from ..judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user
    from .notices import JudgeNotices

    if source_arg == "-" and summary_arg == "-":
        fail("only one of --source and --summary can read standard input")
    scale = scorer_flags.scale
    if fail_under is not None and not 0 <= fail_under <= scale:
        fail(f"--fail-under must be from 0 to the scale ({scale:g}): outside it the gate can never pass or never "
             f"fail, got {fail_under:g}")
    asked = (max_unsupported, min_alignment, min_coverage)  # no gate asked: none built, none loaded
    gates = item_gates(*asked) if any(a is not None for a in asked) else None
    calibration = read_calibration_option(calibration_path)
    if calibration is not None and fail_under is None and calibration.bound is not None:
        fail_under = calibration.bound  # the bound fitted on the team's labels
    spec = scorer_spec(model, judge_option, scorer_flags, calibration=calibration)
    source, summary = _text(source_arg, "--source"), _text(summary_arg, "--summary")
    try:  # one pair: the spec's own scorer, none of the batch runner's machinery
        scorer = spec.scorer(concurrency=4, timeout=timeout, cache=cache_path or use_cache)
        if default_chosen_for_user(model):
            say(DEFAULT_JUDGE_NOTICE)
        with JudgeNotices(stderr_console(), spinner=True):  # a model loading and reading: said as it goes
            result = scorer.run_sync(input=source, output=summary)
    except JudgeError as exc:
        say(f"sumjudge: the judge failed: {exc}")
        sys.exit(EXIT_BELOW)
    except (SumjudgeError, ValueError) as exc:  # a bad model id or option: one line, exit 2
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        _print(result)
    broken = [f"sumjudge: {b.text(gate_flag(b.gate))}" for b in (gates.breaks(result) if gates is not None else [])]
    if fail_under is not None and result.score < fail_under:
        named = "--fail-under" if calibration is None or calibration.bound != fail_under else "the calibration's bound"
        broken.insert(0, f"sumjudge: the score {result.score:.4g} is below {named} {fail_under:g}")
    for line in broken:
        say(line)
    sys.exit(EXIT_BELOW if broken else EXIT_OK)


def _doubt(verdict: Any) -> str:
    """What a verdict whose quote was not found gets after it (quotes.py: unverified)."""
    if getattr(verdict, "verified", None) is not False:
        return ""
    quote = getattr(verdict, "quote", "")
    return f"  [unverified: the quote {quote!r} is not where it should be]" if quote else "  [unverified: no quote]"
def _p(verdict: Any) -> str:
    """`` p=0.93`` for a verdict with a probability (of yes), else nothing."""
    from ..figures import verdict_probability

    shown = verdict_probability(verdict.probability, unchecked=getattr(verdict, "unchecked", False))
    return f" {shown}" if shown else ""


def _print(result: Any) -> None:
    console = stdout_console()
    console.print(f"score      {result.score:.2f}   (judge {result.model})")
    graded = "   (graded: mean verdict probabilities)" if result.graded else ""
    console.print(f"alignment  {result.alignment_score:.2f}   coverage {result.coverage_score:.2f}{graded}")
    claims = result.preprocess_step_result.alignment
    if claims:
        console.print(f"\nclaims ({sum(c.supported for c in claims)} of {len(claims)} supported)")
        for c in claims:
            console.print(f"  {'yes' if c.supported else 'NO '}{_p(c)}  {c.claim}" + (f"  - {c.reason}" if c.reason else "")
                          + _doubt(c), markup=False)
    answers = result.analyze_step_result.coverage
    if answers:
        console.print(f"\nquestions ({sum(a.answered for a in answers)} of {len(answers)} answered by the summary)")
        for a in answers:
            console.print(f"  {'yes' if a.answered else 'NO '}{_p(a)}  {a.question}" + (f"  - {a.reason}" if a.reason else "")
                          + _doubt(a), markup=False)
    console.print(f"\n{result.reason}")
