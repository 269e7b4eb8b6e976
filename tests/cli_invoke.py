"""The hostile suites' one way to run the CLI in process: exit code and all it printed, with no
traceback and no exception but SystemExit allowed through."""

from __future__ import annotations

from click.testing import CliRunner

from sumjudge.cli import main


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    text = result.output + (getattr(result, "stderr", "") or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), text
    assert "Traceback" not in text, text
    return result.exit_code, text
