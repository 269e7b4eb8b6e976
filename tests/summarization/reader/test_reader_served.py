"""The reader's method on a server, ``reader+<provider>/<model>``: the same claims, prompts and word
proofs as ``local/reader``, each yes/no question asked of an OpenAI-compatible server.

The first tests run against the bundled test server on 127.0.0.1; the last starts llama.cpp's server
(``python -m llama_cpp.server``) with the packaged Qwen2.5-Coder-1.5B and checks that its verdicts are
the in-process reader's, probabilities within .05.
"""

from __future__ import annotations

import importlib.util
import math

import pytest
from reader_model import reader_model_installed

from sumjudge.errors import ConfigurationError
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs, judge_identity
from sumjudge.judges.options import judge_options
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.reader import ReaderJudge
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, COVERAGE_STEP, AlignmentOutput, CoverageOutput
from sumjudge.testing.judge_server import JudgeServer

SOURCE = (
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
    "The library will cost 12 million dollars and is due to open in 2027. "
    "Mayor Ana Lopez said it would serve about 40,000 residents."
)


def _align(summary: str) -> JudgeRequest:
    return JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                        inputs=StepInputs(source=SOURCE, summary=summary))


def _cover(summary: str, questions: list[str]) -> JudgeRequest:
    return JudgeRequest(step=COVERAGE_STEP, messages=[], output_type=CoverageOutput,
                        inputs=StepInputs(summary=summary, questions=questions))


def _supported_unless_ninety(prompt: str) -> dict[str, float]:
    p = 0.1 if "90 million" in prompt else 0.85
    return {"Yes": math.log(p), "No": math.log(1 - p)}


def test_the_name_makes_a_reader_that_asks_the_server_source_first() -> None:
    with JudgeServer(next_token=_supported_unless_ninety, models=["qwen"]) as server:
        judge = resolve_judge(ModelConfig(id="reader+llamacpp/qwen", base_url=server.base_url))
        assert isinstance(judge, ReaderJudge) and judge.model_id == "reader+llamacpp/qwen"
        reply = judge.answer(_align("The library will cost 12 million dollars. It will cost 90 million dollars."))
        prompts = [r.body["prompt"] for r in server.completion_requests()]
        identity = judge_identity(judge)
    ok, wrong = reply.output.alignment
    assert ok.supported and ok.probability == pytest.approx(0.85)
    assert not wrong.supported  # the words prove it (the source says 12 million) and the model says no
    assert len(prompts) == 2 and all(p.startswith("<|im_start|>system\n") for p in prompts)
    head = prompts[0][: prompts[0].index("Claim:")]
    assert prompts[1].startswith(head) and "Mayor Ana Lopez" in head  # the whole source first, the claims last
    assert identity.startswith("reader+llamacpp@prompt") and "served:qwen" in identity


def test_coverage_questions_go_to_the_server_too() -> None:
    def answered(prompt: str) -> dict[str, float]:
        p = 0.9 if "cost 12 million" in prompt.split("Question:")[1] else 0.2
        return {" Yes": math.log(p), " No": math.log(1 - p)}

    with JudgeServer(next_token=answered) as server:
        judge = resolve_judge(ModelConfig(id="reader+llamacpp/qwen", base_url=server.base_url, extra={"word_gaps": 0}))
        reply = judge.answer(_cover("A new library will cost 12 million dollars.",
                                    ["Is it true that the library will cost 12 million dollars?",
                                     "Is it true that the library will serve about 40,000 residents?"]))
    said, unsaid = reply.output.coverage
    assert said.answered and said.probability == pytest.approx(0.9)
    assert not unsaid.answered and unsaid.probability == pytest.approx(0.2)


def test_options_are_the_readers_own_and_the_servers_address() -> None:
    with JudgeServer() as server:
        options = judge_options("reader+llamacpp/qwen", [f"base_url={server.base_url}", "threshold=0.7", "top_logprobs=10"])
        assert options == {"base_url": server.base_url, "threshold": 0.7, "top_logprobs": 10}
        judge = resolve_judge(ModelConfig(id="reader+llamacpp/qwen", extra=options))
        judge.answer(_align("The library will cost 12 million dollars."))
        assert server.completion_requests()[0].body["logprobs"] == 10
        assert judge.settings.threshold == 0.7 and "+top10" in judge_identity(judge)
    with pytest.raises(ConfigurationError, match="unknown option.*n_ctx.*known keys"):
        judge_options("reader+llamacpp/qwen", ["n_ctx=4096"])  # the server's own setting, not the reader's
    with pytest.raises(ConfigurationError, match="OpenAI-compatible"):
        resolve_judge("reader+anthropic/claude")
    with pytest.raises(ConfigurationError, match="no judge method 'reviewer'"):
        resolve_judge("reviewer+llamacpp/qwen")


_SERVER_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings")
needs_server_and_model = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in _SERVER_MODULES)
    or not reader_model_installed(),
    reason="llama-cpp-python's server or the reader's model parts are not installed: "
    "pip install 'sumjudge[reader]' 'llama-cpp-python[server]' to compare the reader on a server with in process",
)

TOLERANCE = 0.05
"""The most a probability may differ between the server and the process: the same tokens and weights;
llama.cpp's batching (the server computes every prompt token's logits) moves the last digits only."""


@pytest.mark.integration
@pytest.mark.slow
@needs_server_and_model
@pytest.mark.in_subprocess(what="llama.cpp")
def test_on_llamacpps_server_the_verdicts_are_the_in_process_readers() -> None:
    from sumjudge.summarization.reader.models import QWEN_1_5B
    from sumjudge.judges.gguf_parts import joined_model
    from sumjudge.testing.llamacpp_server import LlamaCppServer

    requests = [
        _align("The council voted 7 to 2 to build a library. The library will cost 90 million dollars."),
        _align("The library is due to open in 2027. Mayor Ana Lopez said it would serve 40,000 residents."),
        _cover("A new library will cost 12 million dollars.",
               ["Is it true that the library will cost 12 million dollars?",
                "Is it true that the council voted 7 to 2?"]),
    ]

    def verdicts(judge: ReaderJudge) -> list[tuple[bool, float | None]]:
        out: list[tuple[bool, float | None]] = []
        for r in requests:
            output = judge.answer(r).output
            items = output.alignment if isinstance(output, AlignmentOutput) else output.coverage
            out += [(bool(getattr(v, "supported", getattr(v, "answered", False))), v.probability) for v in items]
        return out

    here = verdicts(resolve_judge(ModelConfig(id="local/reader", extra={"state_disk_mb": 0, "word_gaps": 0})))
    with LlamaCppServer(joined_model(QWEN_1_5B), n_ctx=4096) as server:
        judge = resolve_judge(ModelConfig(id="reader+llamacpp/qwen", base_url=server.base_url, timeout=300,
                                          extra={"word_gaps": 0}))
        there = verdicts(judge)
        assert "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf" in judge_identity(judge)  # the model as the server lists it
    assert len(here) == len(there) == 6
    assert [v for v, _ in there] == [v for v, _ in here]
    for (_, p), (_, q) in zip(here, there):
        assert p is not None and q is not None and abs(p - q) <= TOLERANCE, (here, there)
