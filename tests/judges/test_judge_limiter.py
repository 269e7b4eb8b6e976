"""The adaptive limiter: fewer requests in flight after a 429, slowly more after clean replies."""

from __future__ import annotations

import asyncio
import threading

import pytest

from sumjudge.judges.base import ChatMessage, JudgeRequest, ModelConfig
from sumjudge.judges.limiter import AdaptiveLimiter, Ticket
from sumjudge.judges.openai_compat import OpenAICompatJudge
from sumjudge.judges.registry import PROVIDERS, resolve_judge
from sumjudge.summarization.verdicts import QuestionsOutput
from sumjudge.testing.judge_server import JudgeServer


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


async def test_a_429_halves_the_limit_once_per_burst():
    lim = AdaptiveLimiter(8)
    tickets = [await lim.acquire() for _ in range(8)]
    for t in tickets:  # eight requests refused by one burst lower the limit once
        lim.on_rate_limited(t)
        lim.release()
    assert lim.limit == 4
    t = await lim.acquire()
    lim.on_rate_limited(t)
    lim.release()
    assert lim.limit == 2
    for _ in range(5):
        t = await lim.acquire()
        lim.on_rate_limited(t)
        lim.release()
    assert lim.limit == 1 and lim.lowest_limit == 1  # never below one


async def test_clean_replies_raise_the_limit_by_one_up_to_the_max():
    lim = AdaptiveLimiter(4, raise_after=3)
    t = await lim.acquire()
    lim.on_rate_limited(t)
    lim.release()
    assert lim.limit == 2
    for expected in (2, 2, 3, 3, 3, 4):
        async with lim.slot() as t:
            lim.on_success(t)
        assert lim.limit == expected
    for _ in range(20):
        async with lim.slot() as t:
            lim.on_success(t)
    assert lim.limit == 4  # never above the max


async def test_retry_after_pauses_every_new_request():
    clock = FakeClock()
    lim = AdaptiveLimiter(4, clock=clock, sleep=clock.sleep)
    t = await lim.acquire()
    lim.on_rate_limited(t, retry_after=12.0)
    lim.release()
    assert lim.paused_for() == 12.0
    await lim.acquire()
    assert sum(clock.slept) >= 12.0


async def test_a_retry_after_past_the_retry_budget_pauses_no_one():
    """The retry layer gives that call up; holding every other request for an hour would freeze
    the batch for nothing. A wait within the budget still pauses everyone."""
    clock = FakeClock()
    lim = AdaptiveLimiter(4, max_pause=120.0, clock=clock, sleep=clock.sleep)
    t = await lim.acquire()
    lim.on_rate_limited(t, retry_after=3600.0)
    lim.release()
    assert lim.paused_for() == 0.0
    assert lim.limit == 2  # the limit still halves
    await lim.acquire()
    assert clock.slept == []
    lim.on_rate_limited(Ticket(lim._epoch), retry_after=30.0)
    assert lim.paused_for() == 30.0


def test_the_judges_limiter_pauses_at_most_for_the_retry_budget():
    judge = resolve_judge(ModelConfig(id="ollama/m", max_concurrency=3, max_retry_time=42))
    assert judge.limiter is not None and judge.limiter.max_pause == 42


async def test_waiters_are_admitted_as_slots_free_and_cancelled_waiters_lose_nothing():
    lim = AdaptiveLimiter(1)
    first = await lim.acquire()
    cancelled = asyncio.create_task(lim.acquire())
    waiting = asyncio.create_task(lim.acquire())
    await asyncio.sleep(0)
    cancelled.cancel()
    lim.release()
    await asyncio.wait_for(waiting, 1)
    assert lim.in_flight == 1
    assert first.epoch == 0


def test_shared_across_event_loops_in_threads_never_exceeds_the_limit():
    lim = AdaptiveLimiter(3)
    state = {"now": 0, "peak": 0}
    lock = threading.Lock()

    async def work():
        async with lim.slot():
            with lock:
                state["now"] += 1
                state["peak"] = max(state["peak"], state["now"])
            await asyncio.sleep(0.002)
            with lock:
                state["now"] -= 1

    async def many():
        await asyncio.gather(*(work() for _ in range(30)))

    threads = [threading.Thread(target=lambda: asyncio.run(many())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert 1 <= state["peak"] <= 3 and lim.in_flight == 0


def test_max_concurrency_is_a_model_config_setting():
    with pytest.raises(ValueError):
        ModelConfig(id="openai/x", max_concurrency=0)
    judge = resolve_judge(ModelConfig(id="ollama/x", max_concurrency=5))
    assert judge.limiter is not None and judge.limiter.max_concurrency == 5
    assert resolve_judge(ModelConfig(id="ollama/x")).limiter is None


def _request(i: int) -> JudgeRequest:
    return JudgeRequest(step="questions", messages=[ChatMessage(role="user", content=f"text {i}")],
                        output_type=QuestionsOutput)


async def test_over_http_requests_in_flight_never_exceed_max_concurrency():
    with JudgeServer(latency=0.02) as server:
        cfg = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="t", max_concurrency=3)
        judge = OpenAICompatJudge(PROVIDERS["openai"], "test-model", cfg)
        replies = await asyncio.gather(*(judge.generate(_request(i)) for i in range(24)))
        assert len(replies) == 24
        assert server.peak_in_flight <= 3 and judge.limiter.peak_in_flight <= 3
        assert judge.limiter.peak_in_flight == 3  # and the cap is actually used


async def test_over_http_a_429_storm_lowers_concurrency_and_every_call_still_succeeds():
    # The server accepts two requests at once and answers 429 (Retry-After: 0) beyond that.
    with JudgeServer(latency=0.02, max_in_flight=2, retry_after=0) as server:
        cfg = ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="t",
                          max_concurrency=8, max_retries=50)
        judge = OpenAICompatJudge(PROVIDERS["openai"], "test-model", cfg)
        replies = await asyncio.gather(*(judge.generate(_request(i)) for i in range(40)))
        assert all(r.output.questions for r in replies)
        assert server.rate_limited > 0  # there was a storm
        assert judge.limiter.lowest_limit <= 2  # the judge slowed down to what the server takes
        assert judge.limiter.peak_in_flight <= 8  # and never went above its max
