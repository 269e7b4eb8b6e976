"""``local/reader``'s ``source`` layout (the whole source first, each claim after it, the source read once)
and its evidence (each verdict quotes the passage it was read against; the scorer verifies it). The model
is scripted here; tests/summarization/reader/test_reader_judge.py runs the real one (llama.cpp's state kept and restored)."""

from __future__ import annotations

from pathlib import Path

from sumjudge import create_summarization_scorer
from sumjudge.judges.base import JudgeRequest, ModelConfig, StepInputs
from sumjudge.judges.next_token import PromptTooLong, StateCache, YesNoAnswer
from sumjudge.summarization.reader.judge import ReaderJudge
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput

SOURCE = (
    "The city council of Springfield voted 7 to 2 on Tuesday to build a new public library downtown. "
    "The library will cost 12 million dollars and is due to open in 2027. "
    "Mayor Ana Lopez said it would serve about 40,000 residents."
)


class HeadModel:
    """A scripted model that reads a head once and each tail after it (as YesNoModel.ask_after does)."""

    def __init__(self, p: float = 0.9, too_long: bool = False) -> None:
        self.p, self.too_long = p, too_long
        self.heads: list[str] = []
        self.tails: list[str] = []
        self.asked: list[str] = []

    def ask_after(self, system: str, head: str, tails: list[str]) -> list[YesNoAnswer]:
        if self.too_long:
            raise PromptTooLong("too long")
        self.heads.append(head)
        self.tails += tails
        return [YesNoAnswer(self.p, 100 + 10, (100 if i == 0 else 0) + 10) for i, _ in enumerate(tails)]

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        self.asked += [u for _, u in prompts]
        return [YesNoAnswer(self.p, 30, 30) for _ in prompts]


def _judge(tmp_path: Path, model: HeadModel, **extra: object) -> ReaderJudge:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    return ReaderJudge(f"reader:{gguf}", ModelConfig(id=f"local/reader:{gguf}", extra=dict(extra)), llm=model)  # type: ignore[arg-type]


def _align(judge: ReaderJudge, summary: str) -> tuple[AlignmentOutput, object]:
    reply = judge.answer(JudgeRequest(step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
                                      inputs=StepInputs(source=SOURCE, summary=summary)))
    return reply.output, reply.usage


def test_the_source_comes_first_whole_and_each_claim_after_it(tmp_path: Path) -> None:
    model = HeadModel()
    judge = _judge(tmp_path, model)
    assert judge.settings.layout == "source"  # the default
    out, usage = _align(judge, "The library will cost 12 million dollars. The mayor is Ana Lopez.")
    assert len(out.alignment) == 2 and len(model.heads) == 1 and not model.asked
    head = model.heads[0]
    assert "[1] The city council" in head and "[3] Mayor Ana Lopez" in head  # every sentence, numbered
    assert "12 million" not in model.tails[0].split("Claim:")[0]  # the tail holds the claim, not the source
    assert model.tails[0].startswith("Claim: The library will cost 12 million dollars.")
    assert usage.prompt_tokens == 220 and usage.cached_tokens == 100  # the head counted once
    # a minimal pair: the claim the two summaries share is not asked again, the other after the same head
    _align(judge, "The library will cost 12 million dollars. The mayor is John Smith.")
    assert model.heads == [head, head] and len(model.tails) == 3


def test_a_source_too_long_for_the_context_falls_back_to_each_claims_own_passages(tmp_path: Path) -> None:
    model = HeadModel(too_long=True)
    out, _ = _align(_judge(tmp_path, model), "The library will cost 12 million dollars.")
    assert len(out.alignment) == 1 and len(model.asked) == 1
    assert model.asked[0].startswith("Passages from an article") and "[2] The library" in model.asked[0]


def test_every_verdict_quotes_what_it_was_read_against_and_the_scorer_verifies_it(tmp_path: Path) -> None:
    for p in (0.9, 0.02):  # supported and unsupported verdicts alike
        judge = _judge(tmp_path, HeadModel(p), word_gaps=0)
        scorer = create_summarization_scorer(model=judge, options={"max_questions": 3})
        result = scorer.run_sync(input=SOURCE, output="The library will cost 12 million dollars. It opens in 2027.")
        claims = result.preprocess_step_result.alignment
        assert claims and all(v.quote and v.verified for v in claims)
        assert all(SOURCE[v.quote_offsets[0]:v.quote_offsets[1]] in SOURCE for v in claims)
        assert "12 million dollars" in claims[0].quote
        questions = result.analyze_step_result.coverage
        answered = [v for v in questions if v.answered]
        assert all(v.verified for v in questions) and (p < 0.5 or answered)
        assert all(v.quote for v in answered)


def test_the_state_cache_keeps_the_most_recent_heads_within_its_bytes() -> None:
    cache = StateCache(max_bytes=10)
    cache.put((1,), b"aaaa")
    cache.put((2,), b"bbbb")
    assert cache.get((1,)) is not None  # (1,) is now the most recent
    cache.put((3,), b"cccc")  # 12 bytes: the least recent, (2,), goes
    assert cache.get((2,)) is None and cache.get((1,)) is not None and cache.get((3,)) is not None
    cache.put((4,), b"x" * 11)  # larger than the whole cache: not kept
    assert cache.get((4,)) is None and cache.bytes <= 10


def test_check_says_while_the_model_loads(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from sumjudge.cli import main
    from sumjudge.judges.progress import notify
    from sumjudge.summarization import reader

    class Loading(HeadModel):
        def ask_after(self, system: str, head: str, tails: list[str]) -> list[YesNoAnswer]:
            notify("load", "loading model.gguf (1.12 GB, 2 threads)")  # what the real model's first use says
            notify("loaded", "model.gguf loaded in 3.0 s")
            return super().ask_after(system, head, tails)

    monkeypatch.setattr(reader, "create_reader_judge", lambda name, config: ReaderJudge(name, config, llm=Loading()))
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    result = CliRunner().invoke(main, ["check", "--model", f"local/reader:{gguf}", "--source", SOURCE,
                                       "--summary", "The library will cost 12 million dollars.", "--max-questions", "1"])
    assert result.exit_code == 0, result.output
    assert "sumjudge: loading model.gguf (1.12 GB, 2 threads)" in result.output
    assert "sumjudge: model.gguf loaded in 3.0 s" in result.output
    assert result.output.index("loaded in") < result.output.index("score ")


def test_tokenised_text_is_shown_to_the_model_as_written_and_quoted_as_it_stands(tmp_path: Path) -> None:
    from sumjudge.summarization.reader.prompts import readable

    assert readable("-lrb- cnn -rrb- his team 's 0-0 draw , said `` no '' .") == "(cnn) his team's 0-0 draw, said \"no\"."
    assert readable("The council met. It was fine (mostly).") == "The council met. It was fine (mostly)."
    source = "-lrb- cnn -rrb- the council of springfield voted 7 to 2 on tuesday , officials said ."
    model = HeadModel()
    out = _judge(tmp_path, model).answer(JudgeRequest(
        step=ALIGNMENT_STEP, messages=[], output_type=AlignmentOutput,
        inputs=StepInputs(source=source, summary="the council voted 7 to 2 on tuesday ."))).output
    assert "[1] (cnn) the council of springfield voted 7 to 2 on tuesday, officials said." in model.heads[0]
    assert out.alignment[0].quote in source  # the quote is the source's own text, for the scorer to locate


def test_model_path_reads_with_the_users_file_and_its_digest_is_the_judges_identity(tmp_path: Path) -> None:
    import hashlib

    import pytest

    from sumjudge.errors import ConfigurationError
    from sumjudge.summarization.reader.settings import check_options

    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF mine")
    judge = ReaderJudge("reader", ModelConfig(id="local/reader", extra={"model_path": str(gguf)}), llm=HeadModel())  # type: ignore[arg-type]
    assert judge.model_id == f"local/reader:{gguf}" and judge.model_path == str(gguf)
    assert f"sha256:{hashlib.sha256(b'GGUF mine').hexdigest()[:16]}" in judge.fingerprint
    assert str(gguf) not in judge.fingerprint  # the file's bytes are the identity, not where it lies
    with pytest.raises(ConfigurationError, match="model_path"):
        check_options({"model_path": str(tmp_path / "mine.bin")})
    with pytest.raises(ConfigurationError, match="names its file already"):
        ReaderJudge(f"reader:{gguf}", ModelConfig(id="local/reader", extra={"model_path": str(gguf)}), llm=HeadModel())  # type: ignore[arg-type]


def _cover(judge: ReaderJudge, questions: list[str]) -> None:
    from sumjudge.summarization.verdicts import COVERAGE_STEP, CoverageOutput

    judge.answer(JudgeRequest(step=COVERAGE_STEP, messages=[], output_type=CoverageOutput,
                              inputs=StepInputs(summary="A new library will cost 12 million dollars.", questions=questions)))


QUESTIONS = ["Is it true that the library will cost 12 million dollars?", "Did the council vote 7 to 2?"]


def test_with_the_instruction_first_a_summary_s_questions_differ_only_in_their_own_words(tmp_path: Path) -> None:
    model = HeadModel()
    _cover(_judge(tmp_path, model, word_gaps=0, instruction_first=1), QUESTIONS)
    first, second = model.asked
    shared = first.removesuffix(QUESTIONS[0])
    assert second == shared + QUESTIONS[1]  # the summary and the instruction, then only the question
    assert "Does the summary alone answer the question below" in shared and shared.endswith("Question: ")


def test_by_default_the_instruction_follows_each_question(tmp_path: Path) -> None:
    model = HeadModel()
    judge = _judge(tmp_path, model, word_gaps=0)
    _cover(judge, QUESTIONS)
    assert all(p.endswith("Does the summary alone answer this question with yes? Answer Yes or No.") for p in model.asked)
    other = _judge(tmp_path, HeadModel(), word_gaps=0, instruction_first=1)
    assert other.fingerprint != judge.fingerprint  # another prompt, another judge: runs and caches are apart


def test_with_the_instruction_first_claims_read_after_the_source_differ_only_in_their_own_words(tmp_path: Path) -> None:
    model = HeadModel()
    _align(_judge(tmp_path, model, instruction_first=1, alternatives=0, peer_margin=0),
           "The library will cost 12 million dollars. The mayor is Ana Lopez.")
    first, second = model.tails
    shared = first[: first.index("Claim:") + len("Claim:")]
    assert second.startswith(shared) and "the claim below" in shared  # the question, then only the claim
    assert first.endswith("12 million dollars.") and second.endswith("Ana Lopez.")
