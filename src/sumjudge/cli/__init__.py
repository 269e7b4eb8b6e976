"""The ``sumjudge`` command: click commands only (flags, printing, exit codes), one module per command.

- :mod:`.score`: ``sumjudge score`` (the data set tool);
- :mod:`.check`: ``sumjudge check`` (one pair from the shell);
- :mod:`.runs`: ``sumjudge runs list|show|export``;
- :mod:`.agreement`: ``sumjudge agreement``;
- :mod:`.compare`: ``sumjudge compare A B``;
- :mod:`.estimate`: ``sumjudge estimate`` (calls, tokens and price before spending);
- :mod:`.view`: ``sumjudge view`` (the run store as a local web page; labels);
- :mod:`.probe`: ``sumjudge probe`` (what a judge catches, from controlled variants);
- :mod:`.questions`: ``sumjudge questions`` (a data set's coverage questions, kept as an exam);
- :mod:`.calibrate`: ``sumjudge calibrate`` (a judge fitted to a team's labels, as a calibration file);
- :mod:`.common`: exit codes, consoles, the run-store option.

A new command is a new module here with a ``click.command`` (or group), added to :func:`main` below.
click (not typer): it is already a dependency, and typer would add a layer over it for no gain here.
"""

from __future__ import annotations

import click

from .agreement import agreement
from .calibrate import calibrate
from .check import check
from .common import CHECK_EXIT_CODES, COMPARE_EXIT_CODES
from .compare import compare
from .estimate import estimate
from .probe import probe
from .questions import questions
from .runs import runs
from .score import score
from .view import view


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sumjudge", prog_name="sumjudge")
def main() -> None:
    """Score LLM summaries against their source: alignment (claims supported) and coverage (facts kept)."""


# The exit codes of `check` and `compare` in their --help (those of `score` and `estimate` are set
# where they are defined).
check.epilog = check.epilog or CHECK_EXIT_CODES
compare.epilog = compare.epilog or COMPARE_EXIT_CODES

main.add_command(score)
main.add_command(check)
main.add_command(runs)
main.add_command(agreement)
main.add_command(compare)
main.add_command(estimate)
main.add_command(view)
main.add_command(probe)
main.add_command(questions)
main.add_command(calibrate)

__all__ = ["main"]
