"""Yes or no, read from a local model's next-token distribution: ``P(yes)`` of a closed question.

A :class:`YesNoModel` renders a (system, user) prompt with the model's chat template, evaluates it
in the llama.cpp context that :func:`~sumjudge.judges.llama_models.load_model` shares in the process, and
reads the logits of the first token of the answer: ``P(yes) = e^y / (e^y + e^n)``, ``y`` and ``n``
the log-sum-exp of the logits of the single-token spellings of yes and of no ("Yes", " yes", ...).
Nothing is generated.

The context keeps the tokens it last evaluated; a prompt that begins with them evaluates only what
follows the common prefix (what llama.cpp's own completion does): lay out a run of prompts with the
shared part first (a source's passages, a summary) and the changing part last (a claim, a question),
and each prompt after the first costs only its tail. :attr:`YesNoAnswer.evaluated` says how many
tokens a prompt cost.

:meth:`YesNoModel.ask_after` asks a run of questions after one shared head (a whole source): the head
is evaluated once, and its state (llama.cpp's key-value cache of that sequence,
``llama_state_seq_get_data``) is kept in a small LRU bounded in bytes (``state_cache_mb``), so a
head asked about again after other prompts (another summary of the same source, after the first's
coverage questions) is restored instead of read again; with :class:`~.state_files.StateFiles`,
also one that an earlier process read (kept on disk).
"""

from __future__ import annotations

import ctypes
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import JudgeRequestError
from .llama_models import _LoadedModel, import_llama_cpp, load_model
from .local_settings import LocalSettings
from .state_files import StateFiles

YES_SPELLINGS = ("Yes", "yes", " Yes", " yes", "YES")
NO_SPELLINGS = ("No", "no", " No", " no", "NO")


@dataclass(frozen=True)
class YesNoAnswer:
    p_yes: float
    prompt_tokens: int
    evaluated: int
    """Tokens evaluated for this prompt: those after the prefix it shared with the one before."""


class PromptTooLong(JudgeRequestError):
    """A prompt that does not fit the model's context (the caller may lay it out shorter)."""


@dataclass(frozen=True)
class _Saved:
    tokens: tuple[int, ...]
    state: bytes


class StateCache:
    """The states of heads already read, by their tokens, least recently used first out; at most
    ``max_bytes`` in all (a state larger than that is not kept). Thread-safe."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._states: OrderedDict[tuple[int, ...], _Saved] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, tokens: tuple[int, ...]) -> _Saved | None:
        with self._lock:
            saved = self._states.get(tokens)
            if saved is not None:
                self._states.move_to_end(tokens)
            return saved

    def put(self, tokens: tuple[int, ...], state: bytes) -> None:
        if len(state) > self.max_bytes:
            return
        with self._lock:
            old = self._states.pop(tokens, None)
            if old is not None:
                self.bytes -= len(old.state)
            self._states[tokens] = _Saved(tokens, state)
            self.bytes += len(state)
            while self.bytes > self.max_bytes:
                _, dropped = self._states.popitem(last=False)
                self.bytes -= len(dropped.state)

    def __len__(self) -> int:
        return len(self._states)


def _chatml(system: str, user: str) -> str:
    return f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


class YesNoModel:
    """A GGUF model asked closed questions. Calls are serialized on the shared model's lock."""

    def __init__(
        self, path: Path, settings: LocalSettings, verify: Callable[[Path], None] | None = None,
        files: StateFiles | None = None,
    ) -> None:
        """``files``: heads read by earlier processes, kept on disk (:mod:`.state_files`); None keeps
        them in memory only."""
        import_llama_cpp()
        self.path = path
        self._settings = settings
        self._verify = verify
        self.files = files
        self._render: Callable[[str, str], str] | None = None
        self._answer_tokens: tuple[list[int], list[int]] | None = None
        self.states = StateCache(settings.state_cache_mb * 1024 * 1024)
        """The heads already read (:meth:`ask_after`)."""

    def _model(self) -> _LoadedModel:
        return load_model(self.path, self._settings, self._verify)

    def _renderer(self, llama: Any) -> Callable[[str, str], str]:
        if self._render is None:
            template = str((getattr(llama, "metadata", None) or {}).get("tokenizer.chat_template", ""))
            if not template or "<|im_start|>" in template:
                self._render = _chatml  # Qwen, SmolLM2 and other ChatML models (and a model with no template)
            else:
                from llama_cpp.llama_chat_format import Jinja2ChatFormatter

                def eos_bos(token: int) -> str:
                    return "" if token < 0 else llama.detokenize([token], special=True).decode("utf-8", "replace")

                formatter = Jinja2ChatFormatter(
                    template=template, eos_token=eos_bos(llama.token_eos()), bos_token=eos_bos(llama.token_bos())
                )

                def render(system: str, user: str) -> str:
                    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
                    return str(formatter(messages=messages).prompt)

                self._render = render
        return self._render

    def _answers(self, llama: Any) -> tuple[list[int], list[int]]:
        if self._answer_tokens is None:

            def single(spellings: tuple[str, ...]) -> list[int]:
                out: list[int] = []
                for s in spellings:
                    toks = llama.tokenize(s.encode("utf-8"), add_bos=False, special=False)
                    if len(toks) == 1 and toks[0] not in out:
                        out.append(toks[0])
                return out

            yes, no = single(YES_SPELLINGS), single(NO_SPELLINGS)
            if not yes or not no:
                raise JudgeRequestError(f"{self.path.name}: its vocabulary has no single token for yes or for no")
            self._answer_tokens = (yes, no)
        return self._answer_tokens

    @contextmanager
    def _held(self) -> Iterator[tuple[Any, Callable[[str, str], str], list[int], list[int], int]]:
        """The shared model, held under its lock for one run of questions, with what every question
        needs of it: the llama, its prompt renderer, the yes and the no tokens, its context size."""
        model = self._model()
        with model.lock:
            llama = model.llama
            render = self._renderer(llama)
            yes, no = self._answers(llama)
            yield llama, render, yes, no, int(llama.n_ctx())

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        """``P(yes)`` for each ``(system, user)`` prompt, in order (evaluate them in that order: each
        reuses the prefix it shares with the one before)."""
        out: list[YesNoAnswer] = []
        with self._held() as (llama, render, yes, no, n_ctx):
            for system, user in prompts:
                tokens = llama.tokenize(render(system, user).encode("utf-8"), add_bos=True, special=True)
                _fits(tokens, n_ctx)
                evaluated, logits = _eval_suffix(llama, tokens)
                out.append(YesNoAnswer(_p_yes(logits, yes, no), len(tokens), evaluated))
        return out

    def ask_after(self, system: str, head: str, tails: list[str]) -> list[YesNoAnswer]:
        """``P(yes)`` for each prompt ``(system, head + tail)``, the head read once: evaluated, or
        restored from :attr:`states` when it was read before (its tokens are the head's own, each
        tail's follow them), or already in the context. :class:`PromptTooLong` when the head and the
        longest tail do not fit the context."""
        out: list[YesNoAnswer] = []
        with self._held() as (llama, render, yes, no, n_ctx):
            prompts = [render(system, head + tail) for tail in tails]
            cut = prompts[0].find(head) + len(head) if prompts and head else 0
            head_tokens = llama.tokenize(prompts[0][:cut].encode("utf-8"), add_bos=True, special=True) if prompts else []
            tails_tokens = [llama.tokenize(p[cut:].encode("utf-8"), add_bos=False, special=True) for p in prompts]
            longest = max((len(t) for t in tails_tokens), default=0)
            if len(head_tokens) + longest >= n_ctx:
                raise PromptTooLong(
                    f"a reader prompt of {len(head_tokens) + longest} tokens does not fit the model's context of "
                    f"{n_ctx}; raise n_ctx (--judge-option n_ctx=N)"
                )
            spent = self._read_head(llama, head_tokens)
            for tail in tails_tokens:
                tokens = head_tokens + tail
                evaluated, logits = _eval_suffix(llama, tokens)
                out.append(YesNoAnswer(_p_yes(logits, yes, no), len(tokens), evaluated + spent))
                spent = 0
        return out

    def _read_head(self, llama: Any, head: list[int]) -> int:
        """Put ``head`` in the context; the tokens that cost (0 when it was there or restored)."""
        import numpy as np

        n = len(head)
        if n == 0:
            return 0
        have = llama.input_ids[: llama.n_tokens]
        if len(have) >= n and np.array_equal(have[:n], np.asarray(head, dtype=have.dtype)):
            return 0
        key = tuple(head)
        saved = self.states.get(key)
        if saved is not None and _restore(llama, head, saved.state):
            return 0
        kept = self.files.get(key) if self.files is not None else None
        if kept is not None:
            if _restore(llama, head, kept):
                self.states.put(key, kept)
                return 0
            self.files.discard(key)  # type: ignore[union-attr]  # llama.cpp refused it: read again
        llama.n_tokens = 0
        llama.eval(head)
        state = _save(llama)
        if state is not None:
            self.states.put(key, state)
            if self.files is not None:
                self.files.put(key, state)
        return n


def _fits(tokens: list[int], n_ctx: int) -> None:
    if len(tokens) >= n_ctx:
        raise PromptTooLong(
            f"a reader prompt of {len(tokens)} tokens does not fit the model's context of {n_ctx}; "
            "raise n_ctx (--judge-option n_ctx=N)"
        )


def _save(llama: Any) -> bytes | None:
    """The context's sequence 0 (its key-value cache) as bytes, or None when llama.cpp cannot."""
    from llama_cpp import llama_cpp as lib

    ctx = llama._ctx.ctx
    size = int(lib.llama_state_seq_get_size(ctx, 0))
    if size <= 0:
        return None
    buffer = (ctypes.c_uint8 * size)()
    written = int(lib.llama_state_seq_get_data(ctx, buffer, size, 0))
    return bytes(buffer[:written]) if 0 < written <= size else None


def _restore(llama: Any, tokens: list[int], state: bytes) -> bool:
    """Sequence 0 set from ``state`` (saved after evaluating ``tokens``); False when llama.cpp refused it
    or it holds another number of positions than ``tokens`` (another head's state: every later decode
    would fail with ``llama_decode returned -1``)."""
    from llama_cpp import llama_cpp as lib

    llama._ctx.kv_cache_seq_rm(-1, 0, -1)
    llama.n_tokens = 0
    buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
    restored = int(lib.llama_state_seq_set_data(llama._ctx.ctx, buffer, len(state), 0)) != 0
    memory = getattr(llama._ctx, "memory", None)
    if restored and memory is not None and hasattr(lib, "llama_memory_seq_pos_max"):
        restored = int(lib.llama_memory_seq_pos_max(memory, 0)) == len(tokens) - 1
    if not restored:
        llama._ctx.kv_cache_seq_rm(-1, 0, -1)
        return False
    llama.input_ids[: len(tokens)] = tokens
    llama.n_tokens = len(tokens)
    return True


def _eval_suffix(llama: Any, tokens: list[int]) -> tuple[int, Any]:
    """Evaluate ``tokens`` after the prefix already in the context; the last token's logits."""
    import numpy as np

    cached = llama.input_ids[: llama.n_tokens]
    limit = min(len(cached), len(tokens) - 1)  # at least one token is evaluated, for fresh logits
    prefix = 0
    if limit > 0:
        diff = np.nonzero(cached[:limit] != np.asarray(tokens[:limit], dtype=cached.dtype))[0]
        prefix = int(diff[0]) if len(diff) else limit
    llama.n_tokens = prefix  # eval() drops the cache after n_tokens
    llama.eval(tokens[prefix:])
    logits = np.ctypeslib.as_array(llama._ctx.get_logits_ith(-1), shape=(llama.n_vocab(),))
    return len(tokens) - prefix, logits


def _p_yes(logits: Any, yes: list[int], no: list[int]) -> float:
    def lse(ids: list[int]) -> float:
        values = [float(logits[i]) for i in ids]
        top = max(values)
        return top + math.log(sum(math.exp(v - top) for v in values))

    y, n = lse(yes), lse(no)
    d = n - y  # the logistic of y - n, without math.exp overflowing on a difference past 709
    return 1.0 / (1.0 + math.exp(d)) if d <= 0 else math.exp(-d) / (1.0 + math.exp(-d))


__all__ = ["NO_SPELLINGS", "YES_SPELLINGS", "PromptTooLong", "StateCache", "YesNoAnswer", "YesNoModel"]
