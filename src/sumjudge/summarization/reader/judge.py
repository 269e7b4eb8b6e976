"""``local/reader``: the offline judge's claims and questions, each verdict a yes/no question to a small
model in this process, its probability read from the model's next-token distribution.

- alignment: the summary's claims (the offline judge's clauses), each asked "is every detail of the
  claim supported by the source". The default ``layout="source"`` shows the whole source first,
  numbered, and the claim last: llama.cpp evaluates a source once and keeps its state (an LRU bounded
  by ``state_cache_mb``), so every claim of every summary of that source evaluates only its own tail.
  ``layout="own"`` shows each claim after its best few passages of the source (names resolved as the
  offline judge resolves them): claims with the same passages share that prefix in llama.cpp's cache;
  ``layout="shared"`` shows every claim's passages once, before all the summary's claims. Each verdict
  quotes the passage that holds most of its claim;
- questions: the offline judge's (the source's most salient facts), no model call;
- coverage: "does the summary alone answer this question with yes", the summary first, the question last.

Words first, where words can prove: a claim the offline judge shows wrong (a number, date or name the
source lacks or states otherwise, a negation, a role swap) is unsupported whatever the model says, its
probability the model's times ``proof_scale``, its reason the offline proof beside the model's P; a question whose
number or date the summary lacks, or that shares no word with the summary, is "not answered" without a
model call (the offline judge's ``coverage_gaps``).

The reader imports no other judge: it reads with its own :class:`~..language.Reading` and asks for word
proofs of a judge made by name (``offline/lexical``, through the registry) that offers
:class:`WordProofs`.

``probability`` is P(yes) normalised over yes and no; the verdict is ``P >= threshold``. A memo of
answers by prompt (a pure function of prompt and model) makes a claim that two summaries share, as
a minimal pair's do, cost nothing the second time.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Any, Protocol, runtime_checkable

from ...errors import ConfigurationError, JudgeError
from ...judges.base import JudgeReply, JudgeRequest, ModelConfig, Usage
from ...judges.local_settings import LocalSettings
from ...judges.next_token import PromptTooLong, YesNoAnswer, YesNoModel
from ...judges.next_token_server import ServerYesNoModel
from ...judges.progress import notify
from ...judges.registry import resolve_judge
from ...judges.state_files import StateFiles
from ..language import DraftClaim, Drafts, Reading, fact_of_question
from ..language.units import capitalised_words
from ..language.segment import detect_language, split_sentences
from ..verdicts import (
    ALIGNMENT_STEP,
    CLAIMS_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    AlignmentVerdict,
    CoverageOutput,
    CoverageVerdict,
)
from . import prompts
from .claim_verdict import Contrast, best_of_others, claim_verdict
from .contrast import alternatives
from .models import ReaderModel, resolve_reader_model
from .settings import DEFAULT_N_CTX, ReaderSettings, check_options

WORDS_JUDGE = "offline/lexical"
"""The judge whose word proofs the reader takes first (made through the registry, by name)."""


@runtime_checkable
class WordProofs(Protocol):
    """What the reader asks of a judge of words: its verdicts on claims, and the questions a
    summary's words already settle. ``offline/lexical`` offers it."""

    @property
    def fingerprint(self) -> str: ...

    def answer(self, request: JudgeRequest[Any]) -> JudgeReply[Any]: ...

    def align(self, source: str, summary: str) -> AlignmentOutput: ...

    def check(self, source: str, claims: list[str]) -> AlignmentOutput: ...

    def coverage_gaps(self, questions: list[str], summary: str) -> list[str | None]: ...


def words_judge() -> WordProofs:
    judge = resolve_judge(WORDS_JUDGE)
    if not isinstance(judge, WordProofs):  # pragma: no cover - a registry entry that changed shape
        raise ConfigurationError(f"{WORDS_JUDGE} does not offer the word proofs the reader takes")
    return judge


class ReaderJudge:
    """A judge that reads: see the module. Safe to share; calls into the model are serialized."""

    cpu_bound = False
    """llama.cpp already spreads one evaluation over the cores with its threads; a process per core
    would load the model once each (1.9 GB apiece), so a batch runs in one process."""

    _MEMO = 4096

    def __init__(
        self, name: str = "reader", config: ModelConfig | None = None, llm: YesNoModel | ServerYesNoModel | None = None,
        words: WordProofs | None = None,
    ) -> None:
        """``llm``: the model that answers (tests give a scripted one); by default the GGUF file of
        ``name``. A :class:`~sumjudge.judges.next_token_server.ServerYesNoModel` reads on a server
        (``reader+llamacpp/<model>``, :mod:`.served`): then ``config`` holds the reader's settings only,
        and the judge's identity names the model as the server reports it. ``words``: the word proofs
        (by default :data:`WORDS_JUDGE`'s)."""
        self.config: ModelConfig = config or ModelConfig(id=f"local/{name}")
        self._words: WordProofs = words or words_judge()
        self._reading = Reading()
        self._memo: OrderedDict[tuple[str, str], YesNoAnswer] = OrderedDict()
        self._lock = threading.Lock()
        self._served = llm if isinstance(llm, ServerYesNoModel) else None
        if self._served is not None:
            self.settings, _ = ReaderSettings.split_extra(dict(self.config.extra))
            self._llm: YesNoModel | ServerYesNoModel = self._served
            return
        extra = dict(self.config.extra)
        check_options(extra)  # an unknown key is named beside every key the reader takes
        extra.setdefault("n_ctx", DEFAULT_N_CTX)
        self.settings, local_extra = ReaderSettings.split_extra(extra)
        if self.settings.model_path:
            if name.strip().lower().startswith("reader:"):
                raise ConfigurationError(f"local/{name} names its file already; model_path={self.settings.model_path} names another")
            name = f"reader:{self.settings.model_path}"
        self._model: ReaderModel = resolve_reader_model(name)
        local_settings = LocalSettings.from_extra(local_extra)
        files = StateFiles(lambda: state_identity(self._model.digest(), local_settings.n_ctx), self.settings.state_disk_mb * 2**20)
        self._llm = llm or YesNoModel(self._model.path, local_settings, self._model.verify, files if self.settings.state_disk_mb else None)

    @property
    def model_id(self) -> str:
        return self.config.id if self._served is not None else f"local/{self._model.name}"

    @property
    def model_path(self) -> str:
        """The GGUF file read in this process; on a server, the server's base URL."""
        return self._served.base_url if self._served is not None else str(self._model.path)

    @property
    def fingerprint(self) -> str:
        """Model digest, prompt version, the offline drafts' rules and the settings: two judges with the
        same fingerprint give the same verdicts (it goes in the run key and the reply-cache key)."""
        s = self.settings  # every setting, defaults too: a new default threshold is another judge
        if self._served is not None:  # the model as the server names it: its weights are the server's
            served = self._served
            model = f"{self.config.id.partition('/')[0]}@prompt{prompts.PROMPT_VERSION}+served:{served.served_model()}+top{served.top}"
        else:
            model = f"local/reader@prompt{prompts.PROMPT_VERSION}+sha256:{self._model.digest()[:16]}"
        return (
            f"{model}"
            f"+drafts:{self._words.fingerprint}+t{s.threshold:g}/{s.coverage_threshold:g}~{s.unsure_margin:g}"
            f"+{s.claims}+k{s.passages}w{s.window}{s.layout}{s.max_sentences}+proof{s.proof_scale:g}+gaps{s.word_gaps}"
            f"+alt{s.alternatives}m{s.contrast_margin:g}+peer{s.peer_margin:g}"
            f"{'+first' if s.instruction_first else ''}"  # named only when on: runs stored with the default keep their key
        )

    async def generate(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        return await asyncio.to_thread(self.answer, request)

    def answer(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        """The synchronous core of :meth:`generate` (for scripts and benchmarks)."""
        inputs = request.inputs
        usage = Usage(calls=1)
        if request.step == ALIGNMENT_STEP:
            output, usage = self.align(inputs.source or "", inputs.summary or "", inputs.claims)
        elif request.step in (CLAIMS_STEP, QUESTIONS_STEP):
            output = self._words.answer(request).output
        elif request.step == COVERAGE_STEP:
            notify("read", f"reading {len(inputs.questions or [])} question(s) against the summary")
            output, usage = self.cover(list(inputs.questions or []), inputs.summary or "")
            output = self.quote_summary(output, inputs.summary or "")
        else:
            raise JudgeError(f"the reader answers the summarization scorer's steps, not {request.step!r}", step=request.step)
        if not isinstance(output, request.output_type):
            output = request.output_type.model_validate(output.model_dump())
        return JudgeReply(output=output, usage=usage, raw=None)

    # -- alignment

    def drafts(self, source: str, summary: str, claims: list[str] | None = None) -> Drafts:
        s = self.settings
        return self._reading.drafts(source, summary, claims, window=s.window, k=s.passages)

    def shown_sentences(self, drafts: Drafts) -> list[int]:
        """The source sentences shown before the claims: every claim's best passage, then the others,
        up to ``max_sentences``, in source order."""
        chosen: list[int] = []
        for rank in range(self.settings.passages):
            for c in drafts.claims:
                if rank < len(c.passages):
                    for i in range(c.passages[rank].start, c.passages[rank].end):
                        if i not in chosen and len(chosen) < self.settings.max_sentences:
                            chosen.append(i)
        return sorted(chosen)

    def align(self, source: str, summary: str, claims: list[str] | None = None) -> tuple[AlignmentOutput, Usage]:
        if not source.strip() or (claims is None and not summary.strip()):
            return AlignmentOutput(alignment=[]), Usage(calls=1)
        if claims is None and self.settings.claims == "sentences":
            claims = split_sentences(summary)
        drafts = self.drafts(source, summary, claims)
        if not drafts.claims:
            return AlignmentOutput(alignment=[]), Usage(calls=1)
        plain = self.settings.claims == "sentences"
        tail, prompt = (prompts.sentence_tail, prompts.sentence_prompt) if plain else (prompts.claim_tail, prompts.alignment_prompt)
        first = bool(self.settings.instruction_first)
        w = prompts.wording(detect_language(source))  # the instructions around the text, in the language chosen for it
        notify("read", f"reading {len(drafts.claims)} claim(s) against the source ({len(drafts.sentences)} sentences)")
        head = prompts.source_head(drafts.sentences, w) if self.settings.layout == "source" else None

        def read(asked: list[tuple[DraftClaim, str]]) -> tuple[list[YesNoAnswer], Usage]:
            """Each text as its claim is read: after the whole source (read once), else after passages."""
            nonlocal head
            if head is not None:
                try:
                    return self._ask_after(head, [tail(text, w, first) for _, text in asked], w.system)
                except PromptTooLong:  # a source longer than the context: each claim after its own passages
                    head = None
            if self.settings.layout == "shared":
                shown = prompts.excerpt(drafts.sentences, self.shown_sentences(drafts))
                return self._ask([prompt(shown, text, w, first) for _, text in asked], system=w.system)
            return self._ask([prompt(prompts.excerpt(drafts.sentences, own_sentences(c)), text, w, first) for c, text in asked],
                             system=w.system)

        words: list[AlignmentVerdict | None] = [None] * len(drafts.claims)
        if self.settings.proof_scale < 1:
            words = list(offline_verdicts(self._words, source, summary, [c.text for c in drafts.claims], claims))
        built = [  # a claim the words prove wrong needs no alternative
            [] if v is not None and not v.supported else alternatives(c.text, drafts.sentences, self.settings.alternatives)
            for c, v in zip(drafts.claims, words)
        ]
        # each claim, then its alternatives, the latest change first: each shares the most words with
        # the one read before it, and llama.cpp reads only what follows them
        order = [[c.text, *(a.text for a in sorted(alts, key=lambda a: -a.at))] for c, alts in zip(drafts.claims, built)]
        read_all, usage = read([(c, text) for c, texts in zip(drafts.claims, order) for text in texts])
        got = iter(read_all)
        answers: list[YesNoAnswer] = []
        contrasts: list[Contrast | None] = []
        for texts, alts in zip(order, built):
            by_text = {text: next(got) for text in texts}
            answers.append(by_text[texts[0]])
            top = max(alts, key=lambda a: by_text[a.text].p_yes, default=None)
            contrasts.append(None if top is None else Contrast(top, by_text[top.text], len(alts)))
        peers = best_of_others(answers)
        verdicts = [claim_verdict(c, a, drafts, self.settings, v, k, top)
                    for c, a, v, k, top in zip(drafts.claims, answers, words, contrasts, peers)]
        return AlignmentOutput(alignment=verdicts), usage

    # -- coverage

    def quote_summary(self, output: CoverageOutput, summary: str) -> CoverageOutput:
        """Each answered question's verdict with its quote: the summary sentence that carries most of
        the question's fact (the sentence sharing the most of its weighted words), for the scorer to locate and verify."""
        todo = [i for i, v in enumerate(output.coverage) if v.answered and not v.quote]
        if not todo or not summary.strip():
            return output
        questions = [output.coverage[i].question for i in todo]
        analyser = self._reading.analyser(detect_language(" ".join(questions)))
        caps = capitalised_words(summary)
        sentences = [analyser.analyse(s, capitalised_elsewhere=caps) for s in split_sentences(summary)]
        if not sentences:
            return output
        verdicts = list(output.coverage)
        for i, question in zip(todo, questions):
            fact = analyser.analyse(fact_of_question(question), capitalised_elsewhere=caps)
            best = max(sentences, key=lambda s: fact.weight_of(s.units & fact.units))
            verdicts[i] = verdicts[i].model_copy(update={"quote": best.text})
        return CoverageOutput(coverage=verdicts)

    def cover(self, questions: list[str], summary: str) -> tuple[CoverageOutput, Usage]:
        if not questions:
            return CoverageOutput(coverage=[]), Usage(calls=1)
        gaps = self._words.coverage_gaps(questions, summary) if self.settings.word_gaps else [None] * len(questions)
        read = [q for q, gap in zip(questions, gaps) if gap is None]
        w = prompts.wording(detect_language(" ".join(questions)))
        first = bool(self.settings.instruction_first)  # each question a tail on the shared prefix
        asked = [prompts.coverage_prompt(summary, q, w, first) for q in read]
        answers, usage = self._ask(asked, system=w.system) if read else ([], Usage(calls=1))
        by_question = dict(zip(read, answers))
        t = self.settings.coverage_threshold
        verdicts = []
        for q, gap in zip(questions, gaps):
            if gap is not None:  # settled by words, no model call: no probability to give
                verdicts.append(CoverageVerdict(question=q, reason=f"not answered, shown by words: {gap}", answered=False))
                continue
            a = by_question[q]
            yes = a.p_yes >= t
            unsure = abs(a.p_yes - t) < self.settings.unsure_margin
            kept = round(a.p_yes, 4)  # one rounding: the reason shows the number the verdict carries
            reason = f"{'answered' if yes else 'not answered'} by the summary alone: P(yes) = {kept:.2f} (threshold {t:.2f})"
            if unsure:  # counts as its P in the axis, as the offline judge's unsettled questions do
                reason = f"unchecked: the model is unsure, P(yes) = {kept:.2f} within {self.settings.unsure_margin:g} of the threshold {t:.2f}"
            verdicts.append(CoverageVerdict(question=q, reason=reason, answered=yes, probability=kept, unchecked=unsure))
        return CoverageOutput(coverage=verdicts), usage

    # -- the model, with a memo of answers by prompt

    def _ask(self, users: list[str], head: str | None = None, system: str = prompts.SYSTEM) -> tuple[list[YesNoAnswer], Usage]:
        """The answers to ``users`` (each after ``head`` when given: the head read once), from the
        memo where asked before."""
        keys = [(system, (head or "") + u) for u in users]
        with self._lock:
            known = {k: self._memo[k] for k in keys if k in self._memo}
        todo = [k for k in dict.fromkeys(keys) if k not in known]
        if not todo:
            fresh: dict[tuple[str, str], YesNoAnswer] = {}
        elif head is not None and hasattr(self._llm, "ask_after"):
            tails = [user[len(head):] for _, user in todo]
            fresh = dict(zip(todo, self._llm.ask_after(system, head, tails)))
        else:
            fresh = dict(zip(todo, self._llm.ask(todo)))
        with self._lock:
            for k, a in fresh.items():
                self._memo[k] = a
                if len(self._memo) > self._MEMO:
                    self._memo.popitem(last=False)
        answers = [fresh.get(k) or known[k] for k in keys]
        prompt = sum(a.prompt_tokens for a in answers)
        evaluated = sum(a.evaluated for a in fresh.values())
        return answers, Usage(prompt_tokens=prompt, cached_tokens=max(0, prompt - evaluated), calls=1)

    def _ask_after(self, head: str, tails: list[str], system: str = prompts.SYSTEM) -> tuple[list[YesNoAnswer], Usage]:
        return self._ask(tails, head=head, system=system)


def offline_verdicts(
    words: WordProofs, source: str, summary: str, texts: list[str], given: list[str] | None = None
) -> list[AlignmentVerdict]:
    """The offline judge's verdict on each claim of ``texts``: read from the whole summary where the
    claims are the summary's own (``given`` is None), so that an opening pronoun with no one before it
    is shown too; else each claim as given."""
    if given is None:
        whole = words.align(source, summary).alignment
        if [v.claim for v in whole] == texts:
            return whole
    return words.check(source, texts).alignment


def state_identity(model_digest: str, n_ctx: int) -> str:
    """What a kept llama.cpp state depends on besides its tokens: the model file, llama.cpp's build, the context."""
    import importlib.metadata

    try:
        version = importlib.metadata.version("llama-cpp-python")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a model is loaded through it
        version = "?"
    return f"sha256:{model_digest}|llama-cpp-python {version}|n_ctx {n_ctx}"


def own_sentences(claim: DraftClaim) -> list[int]:
    """The source sentences of a claim's passages, in source order."""
    return sorted({i for p in claim.passages for i in range(p.start, p.end)})


def create_reader_judge(name: str, config: ModelConfig) -> ReaderJudge:
    """The registry's factory for ``local/reader``, ``local/reader-0.5b``, ``local/reader:/path.gguf``."""
    return ReaderJudge(name, config)


__all__ = ["DEFAULT_N_CTX", "OPTIONS", "WORDS_JUDGE", "ReaderJudge", "ReaderSettings", "WordProofs", "create_reader_judge", "offline_verdicts", "words_judge"]
