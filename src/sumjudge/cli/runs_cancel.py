"""``sumjudge runs cancel RUN``: cancel the provider batch jobs a run has in flight."""

from __future__ import annotations

import asyncio
from typing import Any

import click

from .common import fail, stdout_console, store_option


@click.command("cancel")
@click.argument("run_ref", metavar="RUN")
@store_option
def runs_cancel(run_ref: str, store_path: str | None) -> None:
    """Cancel RUN's provider batch jobs that have not ended (`score --batch`). What they answered
    before stopping is kept; running the score command again sends the rest in new jobs."""
    from ..errors import SumjudgeError
    from ..judges.base import ModelConfig
    from ..judges.batch.services import batch_service
    from ..judges.registry import resolve_judge
    from ..store.database import DEFAULT_STORE_PATH, RunStore
    from ..store.provider_jobs import ProviderJobs

    path = store_path or DEFAULT_STORE_PATH
    try:
        with RunStore(path, readonly=True) as store:
            run = store.get_run(run_ref)
    except KeyError as exc:
        fail(str(exc.args[0]))
    except SumjudgeError as exc:
        fail(str(exc))
    with ProviderJobs(path) as jobs:
        open_jobs = [j for j in jobs.jobs(run.id) if not j.ended]
        if not open_jobs:
            stdout_console().print(f"run {run.id} has no batch job in flight", markup=False)
            return
        try:
            service = batch_service(resolve_judge(ModelConfig(id=run.model)))
        except SumjudgeError as exc:
            fail(str(exc))
        asyncio.run(_cancel_all(service, jobs, open_jobs))


async def _cancel_all(service: Any, jobs: Any, open_jobs: list[Any]) -> None:
    from ..judges.batch.protocol import JobStatus

    console = stdout_console()
    try:
        for job in open_jobs:
            job_id = job.job_id or await service.find(job.marker)
            if job_id is None:  # never reached the provider
                jobs.drop_job(job.marker)
                console.print(f"job {job.marker} never reached the provider: forgotten", markup=False)
                continue
            if job.job_id is None:
                jobs.set_submitted(job.marker, job_id)
            await service.cancel(job_id)
            jobs.set_status(job.marker, JobStatus(job_id=job_id, state="cancelling", done=job.done, failed=job.failed))
            console.print(f"job {job_id} (round {job.round}): cancelling", markup=False)
    finally:
        await service.aclose()


__all__ = ["runs_cancel"]
