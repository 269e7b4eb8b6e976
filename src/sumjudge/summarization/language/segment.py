"""Where texts break: the language of a text, its sentences, and the clauses of a sentence.

- :func:`detect_language`: the script decides CJK, Hangul and Cyrillic; for Latin script a vote of
  function words picks among the languages we have lists for.
- :func:`split_sentences`: ``syntok`` (a rule-based segmenter for European languages that knows
  abbreviations, initials, ordinals and quotes; pure Python), after a pre-split at the unambiguous
  CJK full stops (``。！？``), and a post-split at a stand-alone `` . `` token, which tokenized
  corpora use and no abbreviation ever produces. syntok's tokens are made per run of non-space
  text and memoised (the same tokens, half of syntok's time spared), and paragraphs keep their
  offsets into the text, so a sentence after a blank line is cut where it starts.

Clauses within a sentence are :mod:`.clauses`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import regex

from .lexicon import STOPWORDS
from .word_lookups import MAX_WORDS

_HANGUL = regex.compile(r"\p{Hangul}")
_HAN = regex.compile(r"\p{Han}")
_KANA = regex.compile(r"[\p{Hiragana}\p{Katakana}]")
_CYRILLIC = regex.compile(r"\p{Cyrillic}")
_LATIN_WORD = regex.compile(r"\p{Latin}+")
_NON_LATIN = regex.compile(r"[\p{Hangul}\p{Han}\p{Hiragana}\p{Katakana}\p{Cyrillic}]")
_CJK_STOP = regex.compile(r"(?<=[。！？])")
_SPACED_STOP = regex.compile(r"(?<=\s[.!?])\s+")
_WS = regex.compile(r"\s+")
_PARAGRAPH_SEP = regex.compile("\r?\n(?:\\s*\r?\n)+")  # syntok's own
_SPACES = regex.compile(r"[^\s\u200b]+")  # syntok's own: its tokenizer's runs


def detect_language(text: str) -> str:
    """A two-letter code for the text's language, or ``"xx"`` when it is none we know."""
    sample = text[:4000]
    latin_words = _LATIN_WORD.findall(sample)
    latin = sum(map(len, latin_words))
    if _NON_LATIN.search(sample):  # else Hangul, Han, Kana and Cyrillic all count 0
        hangul = len(_HANGUL.findall(sample))
        han = len(_HAN.findall(sample))
        kana = len(_KANA.findall(sample))
        cyr = len(_CYRILLIC.findall(sample))
    else:
        hangul = han = kana = cyr = 0
    script_max = max(hangul, han + kana, cyr, latin)
    if script_max == 0:
        return "xx"
    if hangul == script_max:
        return "ko"
    if han + kana == script_max:
        return "ja" if kana > 0 else "zh"
    if cyr == script_max:
        return "ru"
    words = Counter(w.lower() for w in latin_words)  # each distinct word looked up once per list
    best, best_hits = "en", 0
    for lang, stops in STOPWORDS.items():
        hits = sum(n for w, n in words.items() if w in stops)
        if hits > best_hits:
            best, best_hits = lang, hits
    return best


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, in order, stripped; never empty strings."""
    from syntok import segmenter  # syntok imports in ~20 ms; keep it off the `import sumjudge` path

    out: list[str] = []
    for block in _CJK_STOP.split(text):
        if not block.strip():
            continue
        starts = [
            sentence[0].offset
            for at, paragraph in _paragraphs(block)
            for sentence in segmenter.segment(_tokens(paragraph, at))
            if sentence
        ]
        # Cut the block itself at the sentence starts: syntok's token values rewrite some words
        # ("n't" becomes "not"), and a quoted claim must read as the summary wrote it.
        # A sentence is a stretch of the block, so it holds a stand-alone stop only if the block does.
        spaced_stop = _SPACED_STOP.search(block) is not None
        for a, b in zip(starts, [*starts[1:], len(block)]):
            raw = block[a:b].strip()
            if raw:
                if not spaced_stop:
                    out.append(raw)
                    continue
                for part in _SPACED_STOP.split(raw):
                    part = part.strip()
                    if part:
                        out.append(part)
    return out


def _paragraphs(block: str) -> list[tuple[int, str]]:
    """(offset, paragraph): syntok's paragraphs (split at blank lines), each with where it starts
    in ``block``, so that every sentence start is an offset into the block itself."""
    out, at = [], 0
    for m in _PARAGRAPH_SEP.finditer(block):
        out.append((at, block[at : m.start()]))
        at = m.end()
    out.append((at, block[at:]))
    return out


def _tokens(paragraph: str, base: int) -> Iterator[Any]:
    """syntok's tokens of ``paragraph`` (``Tokenizer().tokenize``), offsets counted from ``base``,
    with each stretch of tokens that syntok never decides on passed to it as one token.

    syntok's tokenizer cuts the text at white space and then splits each run on its own, so a
    run's tokens depend on nothing but the run: they are memoised per run (:func:`_run_tokens`).
    Its segmenter then walks every token, but looks at what a token says only near a terminal
    (the words before and after it) and within 50 tokens of an opening bracket; everywhere else a
    token is just passed into the sentence (its inner state asks of a token only whether it is a
    terminal or an opening bracket, and those are always decisive). Those tokens, words or symbols
    away from both, are passed as one token each stretch, which spares most of the segmenter's
    steps: the sentence starts are the same (checked on every SummEval and REALSumm text, and on
    thousands of random texts of abbreviations, quotes, brackets and stops against syntok given
    every token), only fewer tokens carry them.
    """
    from syntok.tokenizer import Token

    toks: list[tuple[str, str, int]] = []
    append = toks.append
    offset = 0
    for m in _SPACES.finditer(paragraph):
        start = m.start()
        run_toks = _run_tokens(m.group())
        if run_toks:
            _, value, at = run_toks[0]
            append((paragraph[offset:start], value, start + base + at))
            for spacing, value, at in run_toks[1:]:
                append((spacing, value, start + base + at))
        offset = m.end()
    if offset < len(paragraph):
        append((paragraph[offset:], "", base + len(paragraph)))
    decisive = _decisive(toks)
    i, n = 0, len(toks)
    while i < n:
        tok = toks[i]
        yield Token(*tok)
        i += 1
        if not decisive[i - 1]:
            while i < n and not decisive[i]:
                i += 1


def _decisive(toks: list[tuple[str, str, int]]) -> list[bool]:
    """For each token, whether syntok's segmenter may look at its value: the two tokens before a
    terminal (or a "(", which it treats alike), the symbols after it and three tokens past them,
    and an opening bracket with the two tokens before and the 53 after it (it scans 50)."""
    terminals, brackets, either = _marks()
    n = len(toks)
    out = [False] * n
    for t, (_, value, _) in enumerate(toks):
        if value not in either:  # most tokens: one set look-up
            continue
        if value in terminals:
            end = t + 1
            while end < n and not toks[end][1].isalnum():
                end += 1
            out[max(0, t - 2) : end + _AFTER_TERMINAL] = [True] * (min(n, end + _AFTER_TERMINAL) - max(0, t - 2))
        if value in brackets:
            stop = min(n, t + _BRACKET_SCAN)
            out[max(0, t - 2) : stop] = [True] * (stop - max(0, t - 2))
    return out


@lru_cache(maxsize=1)
def _marks() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """syntok's terminals (with "("), its opening brackets, and both: fixed sets, built once."""
    from syntok._segmentation_states import State

    terminals = frozenset(State.terminals) | {"("}
    brackets = frozenset(State.opening_brackets)
    return terminals, brackets, terminals | brackets


_AFTER_TERMINAL = 3
_BRACKET_SCAN = 54  # the bracket, the 50 tokens syntok scans past it, and the three after those


@lru_cache(maxsize=MAX_WORDS)
def _run_tokens(run: str) -> tuple[tuple[str, str, int], ...]:
    """(spacing, value, offset in the run) of the tokens syntok makes of one run of non-space text."""
    from syntok.tokenizer import Tokenizer

    return tuple((t.spacing, t.value, t.offset) for t in Tokenizer().tokenize(run))


def normalise_space(text: str) -> str:
    return _WS.sub(" ", text).strip()


_QUOTE = 160


def quote(text: str, limit: int = _QUOTE) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = normalise_space(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
