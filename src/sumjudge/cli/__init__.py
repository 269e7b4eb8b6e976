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

A new command is a new module here with a ``click.command`` (or group) of its name, added to :data:`COMMANDS`.
click (not typer): it is already a dependency, and typer would add a layer over it for no gain here.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

COMMANDS = {
    "score": ".score", "check": ".check", "runs": ".runs", "agreement": ".agreement", "compare": ".compare",
    "estimate": ".estimate", "view": ".view", "probe": ".probe", "questions": ".questions", "calibrate": ".calibrate",
}
"""Each command and the module that defines it (a ``click`` command of the same name)."""


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command runs or its help is shown
    (click's lazy-loading recipe): ``sumjudge check`` loads neither the batch runner nor the analyses."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:  # type: ignore[override]
        if name not in COMMANDS:
            return None
        command: click.Command = getattr(importlib.import_module(COMMANDS[name], __package__), name)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sumjudge", prog_name="sumjudge")
def main() -> None:
    """Score LLM summaries against their source: alignment (claims supported) and coverage (facts kept)."""


def command(name: str) -> Any:
    """The ``sumjudge NAME`` command object (its module imported)."""
    return main.get_command(None, name)


__all__ = ["COMMANDS", "command", "main"]
