"""`--batch`: the judge requests of a run go into provider batch jobs (OpenAI's Batch API, Anthropic's
Message Batches on the bundled servers), in two rounds, with the same requests and the same results as
live calls; faults (validation failure, errored lines, expiry, invalid replies) end every item as a
result or a recorded failure."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from batch_helpers import TextBrain, results, write_data
from sumjudge.summarization.spec import ScorerSpec
from sumjudge.data.datasets import Dataset
from sumjudge.errors import ConfigurationError
from sumjudge.runs.dataset import RunOutputs, run_dataset_sync
from sumjudge.runs.provider_batch import BatchMode, ProviderRounds
from sumjudge.store.provider_jobs import ProviderJobs
from sumjudge.testing.anthropic_server import AnthropicServer
from sumjudge.testing.faults import Fault
from sumjudge.testing.judge_server import JudgeServer

pytestmark = pytest.mark.integration

OPTIONS = {"max_questions": 10, "scale": 1.0}
N = 8


@pytest.fixture(params=["openai", "anthropic"])
def provider(request, monkeypatch):
    """A server with a text-deterministic brain, set as the provider's endpoint: (server, model)."""
    if request.param == "openai":
        with JudgeServer(TextBrain()) as srv:
            monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
            monkeypatch.setenv("OPENAI_API_KEY", "k")
            yield srv, "openai/test-model"
    else:
        with AnthropicServer(TextBrain()) as srv:
            monkeypatch.setenv("ANTHROPIC_BASE_URL", srv.url)
            monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
            yield srv, "anthropic/claude-test"


def score(tmp_path, model, name, *, batch=None, cache=None, data=None):
    data = data or write_data(tmp_path / "data.jsonl", N, sources=N // 2)
    out = tmp_path / f"{name}.jsonl"
    with Dataset(str(data)) as ds:
        info = ds.validate()
        result = run_dataset_sync(
            ds, info, spec=ScorerSpec.make(model, OPTIONS), store_path=tmp_path / f"{name}.db", cache=cache,
            outputs=RunOutputs(out=str(out), step_summary=False), batch=batch,
        )
    return result, results(out)


def rounds(**kwargs):
    return ProviderRounds(BatchMode(poll_interval=0.01, **kwargs))


_FENCE = re.compile(r"[0-9a-f]{16,64}")


def masked(body):
    text = json.dumps(body, sort_keys=True, ensure_ascii=False)
    return _FENCE.sub("<fence>", text)


def test_a_batch_run_gives_the_live_results_in_two_rounds_with_the_live_requests(tmp_path, provider):
    server, model = provider
    _, live = score(tmp_path, model, "live")
    live_bodies = sorted(masked(r.body) for r in server.requests if r.path.endswith(("/chat/completions", "/v1/messages")))
    server.reset()

    result, batched = score(tmp_path, model, "batch", batch=rounds())

    assert batched == live and all(r["error"] is None for r in batched)
    desk = server.batches
    assert len(desk.jobs) == 2  # round 1: alignment and questions; round 2: coverage
    steps = [sorted({json.loads(line.text).get("model") and _step(line) for line in _lines(desk, job)})
             for job in desk.jobs.values()]
    assert steps == [["alignment", "questions"], ["coverage"]]
    assert not [r for r in server.requests if r.path.endswith(("/chat/completions", "/v1/messages"))]  # no live call
    # each request sent as a live call sends it: same model, prompt, schema, fences, cache marks
    assert sorted(masked(r.body) for r in desk.line_requests) == live_bodies
    with ProviderJobs(tmp_path / "batch.db") as jobs:
        usage = jobs.usage(result.run.id)
    assert (usage.jobs, usage.rounds, usage.requests, usage.succeeded) == (2, 2, N + N // 2 + N, N + N // 2 + N)
    assert usage.prompt_tokens > 0 and result.stats.tokens == usage.prompt_tokens + usage.completion_tokens


def _lines(desk, job):
    return [r for r in desk.line_requests if any(json.dumps(line["body"], ensure_ascii=False).encode() == r.raw
                                                 for line in job.lines)]


def _step(request):
    from sumjudge.testing.anthropic_server import as_chat_request

    return request.step or as_chat_request(request).step


def test_anthropic_batch_requests_keep_the_prompt_cache_marks(tmp_path, monkeypatch):
    with AnthropicServer(TextBrain()) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
        score(tmp_path, "anthropic/claude-test", "batch", batch=rounds())
        bodies = [r.text for r in server.batches.line_requests]
    assert bodies and all('"cache_control"' in b for b in bodies if '"alignment"' in b)


@pytest.mark.parametrize(
    "fault",
    ["validation", "errored", "expired", "invalid reply"],
)
def test_every_item_ends_scored_after_a_fault_with_the_live_results(tmp_path, provider, fault):
    server, model = provider
    _, live = score(tmp_path, model, "live")
    desk = server.batches
    if fault == "validation":
        desk.fail_validation = 1
    elif fault == "errored":
        desk.error_every = 5
    elif fault == "expired":
        desk.expire_jobs = 1
    else:
        server.script(Fault.invalid_json('{"coverage": [ not JSON'), step="coverage")

    _, batched = score(tmp_path, model, "batch", batch=rounds())

    assert batched == live
    assert desk.count("create") >= 3  # the round that failed is followed by one for what it did not answer


def test_with_fallback_live_what_a_job_did_not_answer_is_a_live_call(tmp_path, provider):
    server, model = provider
    _, live = score(tmp_path, model, "live")
    server.reset()
    server.batches.error_every = 4

    _, batched = score(tmp_path, model, "batch", batch=rounds(fallback="live"))

    assert batched == live
    live_calls = [r for r in server.requests if r.path.endswith(("/chat/completions", "/v1/messages"))]
    assert live_calls and len(server.batches.jobs) == 2


def test_a_live_fallback_slower_than_any_pause_still_belongs_to_its_round(tmp_path, provider):
    """The rounds wait on the live calls in flight, not on a pause: a live answer that takes longer than
    the driver's settling (a loaded machine, a slow provider) is not left out of the round it serves, so
    the coverage of its item goes in the second job with the others."""
    server, model = provider
    _, live = score(tmp_path, model, "live")
    server.reset()
    server.batches.error_every = 4
    server.latency = 0.3  # each live call, only: the batch desk answers at once

    _, batched = score(tmp_path, model, "batch", batch=rounds(fallback="live"))

    assert batched == live
    assert len(server.batches.jobs) == 2


def test_requests_no_job_answers_end_as_recorded_failures_not_lost(tmp_path, provider):
    server, model = provider
    server.batches.error_every = 1  # every line errors, every round
    result, batched = score(tmp_path, model, "batch", batch=rounds(max_resubmits=1))
    assert [r["id"] for r in batched] == [f"doc-{i:03d}" for i in range(N)]
    assert all(r["score"] is None and "no batch job answered" in r["error"] for r in batched)
    assert result.stats.errors == N
    assert len(server.batches.jobs) == 2  # round 1, then its requests once more; no coverage round

    server.batches.error_every = 0  # the provider recovers: the same command retries the failed items
    result, again = score(tmp_path, model, "batch", batch=rounds(max_resubmits=1))
    assert all(r["error"] is None for r in again) and result.stats.errors == 0


def test_batch_replies_fill_the_reply_cache(tmp_path, provider):
    server, model = provider
    cache = tmp_path / "cache.db"
    _, batched = score(tmp_path, model, "batch", batch=rounds(), cache=str(cache))
    server.reset()
    _, again = score(tmp_path, model, "live", cache=str(cache))
    assert again == batched
    assert not server.requests  # every request answered from the cache the batch filled


def test_a_judge_without_batch_jobs_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(ConfigurationError, match="--batch needs"):
        score(tmp_path, "offline/lexical", "batch", batch=rounds())
    assert not (tmp_path / "batch.db").exists()


def test_a_store_that_never_used_batch_opens_unchanged(tmp_path, provider):
    _, model = provider
    result, _ = score(tmp_path, model, "live")
    db = tmp_path / "live.db"
    tables = {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert not {"provider_jobs", "provider_requests"} & tables
    with ProviderJobs(db, readonly=True) as jobs:
        assert jobs.usage(result.run.id) is None and jobs.jobs(result.run.id) == []


def test_azure_batch_jobs_go_to_the_resource_with_its_deployment_as_model(tmp_path, monkeypatch):
    with JudgeServer(TextBrain(), api_key="azure-key") as server:
        monkeypatch.setenv("AZURE_OPENAI_API_KEY", "azure-key")
        monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", server.url)
        _, live = score(tmp_path, "azure/judge-deploy", "live")
        _, batched = score(tmp_path, "azure/judge-deploy", "batch", batch=rounds())
        desk = server.batches
        uploads = [r for r in server.requests if r.path.endswith("/files") and r.method == "POST"]
    assert batched == live and len(desk.jobs) == 2
    assert all(r.path == "/openai/files" and r.headers.get("api-key") == "azure-key" for r in uploads)
    lines = [json.loads(raw) for job in desk.jobs.values() for raw in desk.files[job.input_file_id].decode().splitlines()]
    assert {line["url"] for line in lines} == {"/chat/completions"}
    assert {line["body"]["model"] for line in lines} == {"judge-deploy"}


def test_a_slow_job_is_polled_through_every_state_and_each_state_is_reported(tmp_path, monkeypatch):
    with JudgeServer(TextBrain()) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        server.batches.polls_per_state = 3  # slow completion: three polls in each state
        views = []
        _, batched = score(tmp_path, "openai/test-model", "batch", batch=rounds(on_job=views.append))
        polls = server.batches.seen
    assert all(r["error"] is None for r in batched)
    assert polls["poll:validating"] == polls["poll:in_progress"] == polls["poll:finalizing"] == 2 * 3
    for round_no, total in ((1, N + N // 2), (2, N)):
        states = [v.state for v in views if v.round == round_no]
        assert states == ["uploading", "validating", "in_progress", "finalizing", "completed", "downloading"]
        assert {v.total for v in views if v.round == round_no} == {total}
        waited = [v.waited for v in views if v.round == round_no]
        assert waited == sorted(waited)
