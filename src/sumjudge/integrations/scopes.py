"""Where ``assert_summary`` runs: the scoring scope a test runner opens (the pytest plugin opens one
per session). Free of sumjudge's heavier imports, so the plugin can open its scope at start-up and
the scorer is imported only when a test scores a summary."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..summarization import SummarizationScorer


class ScoringScope(Protocol):
    """What a test runner gives ``assert_summary``: scorers to use and a place to record checks.
    (``model`` is an :data:`~.assertions.Model`, ``check`` a :class:`~.assertions.SummaryCheck`; they
    are typed loosely here because this module must not import the assertions it serves.)"""

    def scorer_for(self, model: Any, options: Mapping[str, Any]) -> SummarizationScorer: ...

    def record(self, check: Any) -> None: ...


_scopes: list[ScoringScope] = []
"""The test sessions running in this process, innermost last. A free function called from a test
body, or from a thread it started, can reach its session no other way; the pytest plugin pushes its
scope at configure time and pops it at unconfigure, so nothing outlives the session."""


def open_scope(scope: ScoringScope) -> None:
    """Make ``scope`` the one ``assert_summary`` uses, until :func:`close_scope`."""
    _scopes.append(scope)


def close_scope(scope: ScoringScope) -> None:
    if scope in _scopes:
        _scopes.remove(scope)


@contextmanager
def scoring_scope(scope: ScoringScope) -> Iterator[ScoringScope]:
    """Make ``scope`` the one ``assert_summary`` uses until the block ends."""
    open_scope(scope)
    try:
        yield scope
    finally:
        close_scope(scope)


def current_scope() -> ScoringScope | None:
    return _scopes[-1] if _scopes else None


__all__ = ["ScoringScope", "close_scope", "current_scope", "open_scope", "scoring_scope"]
