"""retry.py: which failures heal, how long we wait, and when we stop (no real sleeping)."""

from __future__ import annotations

import random
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

import pytest

from sumjudge.errors import JudgeRequestError, JudgeUnavailableError
from sumjudge.judges.retry import (
    Permanent,
    RetryPolicy,
    Transient,
    call_with_retries,
    classify_status,
    parse_retry_after,
)


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class Boom(Exception):
    def __init__(self, verdict):
        super().__init__(str(verdict))
        self.verdict = verdict


def classify(exc: BaseException):
    return exc.verdict if isinstance(exc, Boom) else None


def failing_then_ok(failures: list):
    calls = {"n": 0}

    async def attempt():
        calls["n"] += 1
        if failures:
            raise Boom(failures.pop(0))
        return "ok"

    return attempt, calls


def test_retry_after_seconds_and_http_date():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("0.25") == 0.25
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None
    base = datetime(2030, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    date = format_datetime(base + timedelta(seconds=30), usegmt=True)
    assert parse_retry_after(date, now=base.timestamp()) == pytest.approx(30.0)
    # a date in the past means "now"
    assert parse_retry_after(format_datetime(base - timedelta(seconds=5), usegmt=True), now=base.timestamp()) == 0


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504, 408])
def test_transient_statuses(status):
    verdict = classify_status(status, "busy", {"retry-after": "3"})
    assert isinstance(verdict, Transient)
    assert verdict.retry_after == 3.0


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_permanent_statuses(status):
    verdict = classify_status(status, "nope")
    assert isinstance(verdict, Permanent)
    assert str(status) in verdict.reason and "nope" in verdict.reason


async def test_heals_after_transient_failures_honouring_retry_after():
    t = FakeTime()
    attempt, calls = failing_then_ok([Transient("429", retry_after=5.0, status=429), Transient("500", status=500)])
    result = await call_with_retries(
        attempt, classify=classify, policy=RetryPolicy(max_retries=3, base_delay=0.1), sleep=t.sleep, clock=t.clock,
        rng=random.Random(1),
    )
    assert result == "ok" and calls["n"] == 3
    assert t.sleeps[0] >= 5.0  # Retry-After is a lower bound
    assert t.sleeps[1] < 5.0  # a plain 500 waits the (short) backoff


async def test_permanent_failure_is_raised_at_once_with_status():
    t = FakeTime()
    attempt, calls = failing_then_ok([Permanent("HTTP 401: bad key", status=401)])
    with pytest.raises(JudgeRequestError) as info:
        await call_with_retries(attempt, classify=classify, policy=RetryPolicy(), step="alignment",
                                sleep=t.sleep, clock=t.clock)
    assert calls["n"] == 1 and t.sleeps == []
    assert info.value.status == 401 and info.value.step == "alignment"
    assert "401" in str(info.value) and "bad key" in str(info.value)


async def test_gives_up_after_max_retries():
    t = FakeTime()
    attempt, calls = failing_then_ok([Transient("HTTP 503", status=503)] * 10)
    with pytest.raises(JudgeUnavailableError, match="HTTP 503"):
        await call_with_retries(attempt, classify=classify, policy=RetryPolicy(max_retries=2), sleep=t.sleep, clock=t.clock)
    assert calls["n"] == 3 and len(t.sleeps) == 2


async def test_backoff_grows_with_jitter_and_is_capped():
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0)
    rng = random.Random(0)
    for n in range(1, 8):
        step = min(8.0, 2 ** (n - 1))
        d = policy.backoff(n, rng)
        assert step / 2 <= d <= step
    # jitter: not every client waits the same
    assert len({round(policy.backoff(3, rng), 6) for _ in range(20)}) > 1


async def test_retry_after_beyond_the_time_budget_stops_without_waiting():
    t = FakeTime()
    attempt, calls = failing_then_ok([Transient("HTTP 429", retry_after=600.0, status=429)])
    with pytest.raises(JudgeUnavailableError, match="budget"):
        await call_with_retries(attempt, classify=classify, policy=RetryPolicy(max_retry_time=60), sleep=t.sleep, clock=t.clock)
    assert calls["n"] == 1 and t.sleeps == []


async def test_unclassified_exceptions_propagate_unchanged():
    async def attempt():
        raise KeyError("bug")

    with pytest.raises(KeyError):
        await call_with_retries(attempt, classify=classify, policy=RetryPolicy())
