"""The sumjudge pytest plugin: summaries tested like code.

Installed with sumjudge (entry point ``pytest11``, name ``sumjudge``; ``-p no:sumjudge`` turns it
off) and inert until a test scores a summary: at start-up it imports only pytest and two small
modules (the scorer, the judges and pydantic come with the first check). It gives:

- :func:`assert_summary` / :func:`assert_summary_async` (also in ``sumjudge.testing``), using the
  session's judge: ``--sumjudge-model``, else ini ``sumjudge_model``, else ``SUMJUDGE_MODEL``, else
  the offline judge;
- ``sumjudge_scorer``, a session-scoped fixture with that judge's scorer (one per session, or per
  pytest-xdist worker, so the question cache is shared across tests);
- each check recorded on its test with ``record_property`` (``sumjudge_score``,
  ``sumjudge_alignment``, ``sumjudge_coverage``, ``sumjudge_judge``, ``sumjudge_passed``), so
  ``--junitxml`` carries them, and a "sumjudge scores" terminal section listing the scored tests,
  lowest first.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from ..judges.default import DEFAULT_MODEL, MODEL_ENV_VAR
from .scopes import close_scope, open_scope

if TYPE_CHECKING:
    from ..summarization import SummarizationScorer
    from .assertions import Model, ScorerPool, SummaryCheck

PLUGIN_NAME = "sumjudge-session"
PROPERTY_PREFIX = "sumjudge_"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sumjudge", "scoring summaries with sumjudge")
    group.addoption(
        "--sumjudge-model",
        dest="sumjudge_model",
        default=None,
        metavar="PROVIDER/MODEL",
        help="judge for assert_summary and the sumjudge_scorer fixture "
        f"(else ini sumjudge_model, else {MODEL_ENV_VAR}, else {DEFAULT_MODEL})",
    )
    parser.addini(
        "sumjudge_model",
        f"judge for assert_summary and the sumjudge_scorer fixture (else {MODEL_ENV_VAR}, else {DEFAULT_MODEL})",
        default="",
    )
    _session_setting(parser, group, "on_inconclusive", choices=("inconclusive", "pass", "fail"),
                     help="what an assert_summary bound whose samples' interval crosses it counts as (else ini "
                     "sumjudge_on_inconclusive, else inconclusive: the test fails with SummaryInconclusive)")
    _session_setting(parser, group, "max_unsupported", metavar="N",
                     help="every assert_summary that does not say otherwise fails when more than N claims are shown "
                     "unsupported (0: none), whatever the coverage (else ini sumjudge_max_unsupported, else no bound)")
    _session_setting(parser, group, "calibration", metavar="FILE.json",
                     help="a calibration (`sumjudge calibrate`) every assert_summary applies unless it names its own "
                     "(else ini sumjudge_calibration)")


def _session_setting(parser: pytest.Parser, group: Any, name: str, *, help: str, **kw: Any) -> None:
    """A setting of the session given as ``--sumjudge-NAME`` or, else, as ini ``sumjudge_NAME``."""
    flag = "--sumjudge-" + name.replace("_", "-")
    group.addoption(flag, dest="sumjudge_" + name, default=None, help=help, **kw)
    parser.addini("sumjudge_" + name, f"see {flag}", default="")


def setting(config: pytest.Config, name: str) -> str:
    """A session setting as given: the flag, else the ini value, else ""."""
    return config.getoption("sumjudge_" + name) or config.getini("sumjudge_" + name).strip()


def chosen_model(config: pytest.Config) -> tuple[str, str]:
    """The session's judge and what named it. A judge named in pytest's own settings is checked
    here, so a typo stops the session at once; ``SUMJUDGE_MODEL`` is checked on first use only."""
    for value, named_by in (
        (config.getoption("sumjudge_model"), "--sumjudge-model"),
        (config.getini("sumjudge_model"), "ini sumjudge_model"),
    ):
        if value and value.strip():
            from ..errors import ConfigurationError
            from ..judges.providers import parse_model_id

            try:
                parse_model_id(value.strip())
            except ConfigurationError as err:
                raise pytest.UsageError(f"{named_by}: {err}") from None
            return value.strip(), named_by
    env = os.environ.get(MODEL_ENV_VAR, "").strip()
    if env:
        return env, MODEL_ENV_VAR
    return DEFAULT_MODEL, "default"


def chosen_on_inconclusive(config: pytest.Config) -> str:
    """``--sumjudge-on-inconclusive``, else the ini value, else ``inconclusive``."""
    value = setting(config, "on_inconclusive")
    if value and value not in ("inconclusive", "pass", "fail"):
        raise pytest.UsageError(f"ini sumjudge_on_inconclusive takes inconclusive, pass or fail, got {value!r}")
    return value or "inconclusive"


def chosen_max_unsupported(config: pytest.Config) -> int | None:
    """``--sumjudge-max-unsupported``, else the ini value, else ``None`` (no bound); checked at start-up."""
    value = setting(config, "max_unsupported")
    if not value:
        return None
    from ..guards.limits import MAX_CLAIMS

    if not value.isdigit() or int(value) > MAX_CLAIMS:
        raise pytest.UsageError(f"sumjudge max_unsupported takes a whole number from 0 to {MAX_CLAIMS}, got {value!r}")
    return int(value)


def pytest_configure(config: pytest.Config) -> None:
    session = SumjudgeSession(*chosen_model(config), is_worker=hasattr(config, "workerinput"))
    session.on_inconclusive = chosen_on_inconclusive(config)
    session.max_unsupported = chosen_max_unsupported(config)
    session.calibration = setting(config, "calibration") or None
    config.pluginmanager.register(session, PLUGIN_NAME)
    open_scope(session)
    config.add_cleanup(lambda: close_scope(session))


@pytest.fixture(scope="session")
def sumjudge_scorer(pytestconfig: pytest.Config) -> SummarizationScorer:
    """The session's summarization scorer (its judge as ``--sumjudge-model`` etc. name it); pass
    it on as ``assert_summary(..., model=sumjudge_scorer)`` or call ``run``/``run_sync`` on it."""
    session = pytestconfig.pluginmanager.get_plugin(PLUGIN_NAME)
    assert isinstance(session, SumjudgeSession)
    return session.scorer_for(None, {})


@dataclass(frozen=True)
class ScoredSummary:
    """One check as its test's report carries it (also across pytest-xdist workers)."""

    nodeid: str
    score: float
    alignment: float
    coverage: float
    judge: str
    passed: bool
    """Whether the check met its bounds (a test may expect it not to, in ``pytest.raises``)."""
    scale: float = 1.0
    unsupported: int = 0
    """Claims the judge showed unsupported."""
    test: str = "ok"
    """The test's own outcome: ``ok``, ``FAILED``, ``xfail``, ``xpass`` or ``skipped``."""


def check_properties(check: SummaryCheck) -> list[tuple[str, object]]:
    res = check.result
    return [
        (PROPERTY_PREFIX + "score", res.score),
        (PROPERTY_PREFIX + "alignment", round(res.alignment_score, 4)),
        (PROPERTY_PREFIX + "coverage", round(res.coverage_score, 4)),
        (PROPERTY_PREFIX + "judge", check.judge),
        (PROPERTY_PREFIX + "passed", check.passed),
        (PROPERTY_PREFIX + "scale", res.scale),
        (PROPERTY_PREFIX + "unsupported_claims", res.unsupported_claims),
    ]


def scored_from_properties(nodeid: str, properties: list[tuple[str, object]], test: str = "ok") -> list[ScoredSummary]:
    """The checks in a report's ``user_properties``, in order (a test may score several summaries)."""
    found: list[dict[str, object]] = []
    for name, value in properties:
        if not name.startswith(PROPERTY_PREFIX):
            continue
        key = name[len(PROPERTY_PREFIX) :]
        if key == "score":
            found.append({})
        if found:
            found[-1][key] = value
    return [
        ScoredSummary(
            nodeid=nodeid,
            score=float(f["score"]),  # type: ignore[arg-type]
            alignment=float(f.get("alignment", 0)),  # type: ignore[arg-type]
            coverage=float(f.get("coverage", 0)),  # type: ignore[arg-type]
            judge=str(f.get("judge", "")),
            passed=bool(f.get("passed", False)),
            scale=float(f.get("scale", 1.0)) or 1.0,  # type: ignore[arg-type]
            unsupported=int(f.get("unsupported_claims", 0)),  # type: ignore[call-overload]
            test=test,
        )
        for f in found
    ]


def test_outcome(report: pytest.TestReport, so_far: str | None) -> str | None:
    """The test's outcome after one of its phases: a failure in any phase is ``FAILED``; the call
    phase says whether it passed, was skipped or was an expected failure."""
    if report.failed:
        return "FAILED"
    if so_far == "FAILED" or report.when != "call" and not report.skipped:
        return so_far
    if hasattr(report, "wasxfail"):
        return "xfail" if report.skipped else "xpass"
    return "skipped" if report.skipped else "ok"


class SumjudgeSession:
    """The plugin's state for one pytest session (one per xdist worker, and one on the controller)."""

    def __init__(self, model: str, named_by: str, *, is_worker: bool = False) -> None:
        self.model = model
        self.named_by = named_by
        self.is_worker = is_worker
        self._pool: ScorerPool | None = None
        self.current: pytest.Item | None = None
        self.scored: list[ScoredSummary] = []
        self.outcomes: dict[str, str | None] = {}
        """Each running test's outcome so far (by node id), until its teardown report."""
        self.on_inconclusive = "inconclusive"
        """What an inconclusive ``assert_summary`` counts as when the call does not say."""
        self.max_unsupported: int | None = None
        """The claims shown unsupported an ``assert_summary`` allows when the call does not say."""
        self.calibration: str | None = None
        """The calibration file a check applies when its options name none."""

    # -- the scope assert_summary uses
    @property
    def pool(self) -> ScorerPool:
        """The session's scorers, one per judge and options (the scorer is imported here, on first use)."""
        if self._pool is None:
            from .assertions import ScorerPool

            self._pool = ScorerPool(self.model)
        return self._pool

    def scorer_for(self, model: Model, options: Mapping[str, Any]) -> SummarizationScorer:
        from ..summarization import SummarizationScorer  # loaded by the check that asks

        # the session's calibration, unless the call names one or passes a scorer (which keeps its own)
        if self.calibration and "calibration" not in options and not isinstance(model, SummarizationScorer):
            options = {**options, "calibration": self.calibration}
        return self.pool.get(model, options)

    def record(self, check: SummaryCheck) -> None:
        if self.current is not None:  # user_properties is what record_property writes to
            self.current.user_properties.extend(check_properties(check))

    # -- hooks
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Generator[None, Any, Any]:
        previous, self.current = self.current, item
        try:
            return (yield)
        finally:
            self.current = previous

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
        report = yield
        hide_credentials(report)
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # each phase decides the test's outcome; the teardown report carries every property of the test
        outcome = test_outcome(report, self.outcomes.get(report.nodeid))
        if report.when != "teardown":
            self.outcomes[report.nodeid] = outcome
            return
        self.outcomes.pop(report.nodeid, None)
        self.scored.extend(scored_from_properties(report.nodeid, list(report.user_properties), outcome or "ok"))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or not self.scored:
            return
        tr = terminalreporter
        tr.section("sumjudge scores")
        judges = sorted({s.judge for s in self.scored})
        default_used = self.named_by == "default" and self.model in judges
        note = f" ({self.model} is the default; name a judge with --sumjudge-model)" if default_used else ""
        count = len(self.scored)
        tr.line(
            f"{count} summar{'y' if count == 1 else 'ies'} scored by {', '.join(judges)}{note}, lowest first:"
        )
        for s in sorted(self.scored, key=lambda s: (s.score / s.scale, s.nodeid)):  # as shares: scales may differ
            # labelled by the test's outcome, not the check's: a test may expect a summary to fail its bounds
            odd = "" if s.passed == (s.test in ("ok", "xpass")) else (
                "  (its check failed its bounds, as the test expected)" if not s.passed
                else "  (its check met its bounds; the test failed otherwise)")
            shown = f"{s.score:5.2f}" if s.scale == 1 else f"{s.score:.2f}/{s.scale:g}"
            flagged = f"  unsupported {s.unsupported}" if s.unsupported else ""
            tr.line(
                f"  {shown}  alignment {s.alignment:.2f}  coverage {s.coverage:.2f}{flagged}  {s.test:<6}  {s.nodeid}{odd}",
                red=s.test == "FAILED",
            )


def hide_credentials(report: pytest.TestReport) -> None:
    """A failure that went through sumjudge shows no credential (:func:`sumjudge.guards.redact.redact`) on the
    terminal or in ``--junitxml``: a judge's URL password, its key, or a key a server echoed back."""
    if report.longrepr is None:
        return
    text = str(report.longrepr)
    if "sumjudge" not in text:  # another library's failure: left as it is
        return
    from ..guards.redact import redact

    hidden = redact(text)
    if hidden != text:
        report.longrepr = hidden
    report.sections = [(name, redact(content)) for name, content in report.sections]


def __getattr__(name: str) -> Any:
    """``assert_summary`` and ``assert_summary_async``, imported from :mod:`.assertions` on first use."""
    if name in ("assert_summary", "assert_summary_async"):
        from . import assertions

        return getattr(assertions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ScoredSummary",
    "SumjudgeSession",
    "assert_summary",  # noqa: F822 (module __getattr__)
    "assert_summary_async",  # noqa: F822 (module __getattr__)
    "chosen_model",
    "sumjudge_scorer",
]
