"""Test helpers shipped with sumjudge, shared by the tests, the benchmarks and users trying a setup offline.

- ``judge_server``: a simulated Chat Completions server on 127.0.0.1 (``python -m sumjudge.testing.judge_server``);
- ``anthropic_server``: the same for the Messages API;
- ``recorded``: a received request and what a brain reads off it; ``faults``: scripted replies and
  faults; ``brains``: what answers when nothing is scripted;
- ``fixtures``: a pytest fixture with a fresh server;
- ``assert_summary`` / ``assert_summary_async`` for test suites (from
  ``sumjudge.integrations.assertions``; imported on first use, so importing this package stays light).
"""

from .._lazy import lazy_exports

_EXPORTS = dict.fromkeys(["assert_summary", "assert_summary_async"], "..integrations.assertions")
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["assert_summary", "assert_summary_async"]
