"""Each long command's --help lists its common options first, the rest under headings."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sumjudge.cli import main


def _help(*args: str) -> str:
    return CliRunner().invoke(main, [*args, "--help"], terminal_width=80).output


def test_score_help_shows_the_common_options_on_its_first_screen() -> None:
    text = _help("score")
    first = "\n".join(text.splitlines()[:40])
    assert "Common options:" in first
    for flag in ("--model", "--out", "--report", "--fail-under", "--quiet", "--help"):
        assert flag in first, flag
    headings = [line for line in text.splitlines() if line and not line.startswith(" ") and line.endswith(":")]
    assert headings[0] == "Common options:"
    assert {"Gates (exit 1 when not met):", "Input:", "Scoring:", "Runs, speed and cache:"} <= set(headings)


@pytest.mark.parametrize("command", ["score", "check", "probe", "estimate", "agreement", "questions", "compare"])
def test_every_option_is_listed_once_under_some_heading(command: str) -> None:
    text = _help(command)
    cmd = main.get_command(None, command)
    for param in cmd.params:
        if getattr(param, "opts", None) and param.param_type_name == "option" and not param.hidden:
            longest = max(param.opts, key=len)
            assert text.count(f"{longest} ") + text.count(f"{longest},") + text.count(f"{longest}\n") >= 1, longest
    assert text.count("-h, --help") == 1


@pytest.mark.parametrize("command", sorted(name for name in main.list_commands(None)  # type: ignore[arg-type]
                                           if type(main.get_command(None, name)).__name__ == "SectionedCommand"))
def test_no_command_leaves_its_own_options_under_other_options(command: str) -> None:
    assert "Other options:" not in _help(command), command
    assert "Comparison:" in _help("compare") and "Agreement:" in _help("agreement")
