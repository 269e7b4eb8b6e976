"""Test helpers shipped with sumjudge: a simulated Chat Completions judge server (see ``judge_server``),
and ``assert_summary`` / ``assert_summary_async`` for test suites (from
``sumjudge.integrations.assertions``; imported on first use, so importing this package stays light)."""

from __future__ import annotations

from typing import Any

__all__ = ["assert_summary", "assert_summary_async"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ..integrations import assertions

        return getattr(assertions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
