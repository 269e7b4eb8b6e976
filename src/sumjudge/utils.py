"""Public helpers on run input and output, for writing a ``source_extractor``."""

from __future__ import annotations

from typing import Any

from .messages import RunInput, RunOutput, first_user_text, last_assistant_text, result_text, tool_results

__all__ = [
    "extract_tool_results",
    "get_assistant_message_from_run_output",
    "get_user_message_from_run_input",
]


def extract_tool_results(output: RunOutput) -> list[dict[str, Any]]:
    """Every finished tool result: ``[{"tool_name", "tool_call_id", "args", "result"}]``.

    ``result`` is text: a string result as it is, anything else as JSON (never ``str()``),
    so ``"\\n\\n".join(r["result"] for r in extract_tool_results(output))`` is a source.
    """
    return [{**r, "result": result_text(r["result"])} for r in tool_results(output)]


def get_user_message_from_run_input(input: RunInput) -> str | None:
    """The text of the first user message of a run input (a plain string is that message)."""
    return first_user_text(input)


def get_assistant_message_from_run_output(output: RunOutput) -> str | None:
    """The text of the last assistant message with non-blank text (the summary)."""
    return last_assistant_text(output)
