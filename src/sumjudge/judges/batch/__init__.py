"""Provider batch jobs (OpenAI and Azure Batch API, Anthropic Message Batches), used by
:mod:`sumjudge.runs.provider_batch`: the job services, and the judge that gathers requests into rounds."""
