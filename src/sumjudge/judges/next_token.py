"""Yes or no, read from a local model's next-token distribution: ``P(yes)`` of a closed question.

A :class:`YesNoModel` renders a (system, user) prompt with the model's chat template, evaluates it
in the llama.cpp context that :func:`~sumjudge.judges.local.load_model` shares in the process, and
reads the logits of the first token of the answer: ``P(yes) = e^y / (e^y + e^n)``, ``y`` and ``n``
the log-sum-exp of the logits of the single-token spellings of yes and of no ("Yes", " yes", ...).
Nothing is generated.

The context keeps the tokens it last evaluated; a prompt that begins with them evaluates only what
follows the common prefix (what llama.cpp's own completion does): lay out a run of prompts with the
shared part first (a source's passages, a summary) and the changing part last (a claim, a question),
and each prompt after the first costs only its tail. :attr:`YesNoAnswer.evaluated` says how many
tokens a prompt cost.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import JudgeRequestError
from .local import LocalSettings, _LoadedModel, import_llama_cpp, load_model

YES_SPELLINGS = ("Yes", "yes", " Yes", " yes", "YES")
NO_SPELLINGS = ("No", "no", " No", " no", "NO")


@dataclass(frozen=True)
class YesNoAnswer:
    p_yes: float
    prompt_tokens: int
    evaluated: int
    """Tokens evaluated for this prompt: those after the prefix it shared with the one before."""


def _chatml(system: str, user: str) -> str:
    return f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


class YesNoModel:
    """A GGUF model asked closed questions. Calls are serialized on the shared model's lock."""

    def __init__(self, path: Path, settings: LocalSettings, verify: Callable[[Path], None] | None = None) -> None:
        import_llama_cpp()
        self.path = path
        self._settings = settings
        self._verify = verify
        self._render: Callable[[str, str], str] | None = None
        self._answer_tokens: tuple[list[int], list[int]] | None = None

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

    def ask(self, prompts: list[tuple[str, str]]) -> list[YesNoAnswer]:
        """``P(yes)`` for each ``(system, user)`` prompt, in order (evaluate them in that order: each
        reuses the prefix it shares with the one before)."""
        model = self._model()
        out: list[YesNoAnswer] = []
        with model.lock:
            llama = model.llama
            render = self._renderer(llama)
            yes, no = self._answers(llama)
            n_ctx = int(llama.n_ctx())
            for system, user in prompts:
                tokens = llama.tokenize(render(system, user).encode("utf-8"), add_bos=True, special=True)
                if len(tokens) >= n_ctx:
                    raise JudgeRequestError(
                        f"a reader prompt of {len(tokens)} tokens does not fit the model's context of {n_ctx}; "
                        "raise ModelConfig.extra['n_ctx']"
                    )
                evaluated, logits = _eval_suffix(llama, tokens)
                out.append(YesNoAnswer(_p_yes(logits, yes, no), len(tokens), evaluated))
        return out


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


__all__ = ["NO_SPELLINGS", "YES_SPELLINGS", "YesNoAnswer", "YesNoModel"]
