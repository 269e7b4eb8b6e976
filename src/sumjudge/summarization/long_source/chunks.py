"""A long source cut into sentence-aligned pieces that keep their character offsets.

Two cuts of the same sentences: :func:`make_chunks` gives small overlapping *chunks* (the
evidence a claim is checked against: each chunk repeats the last sentences of the one before, so
a fact that straddles a boundary is whole in one of them), and :func:`make_parts` gives large
disjoint *parts* (what questions are drawn from: every sentence in exactly one part).
Offsets are into the source as given, so ``source[c.start:c.end] == c.text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

# A sentence ends at . ! ? (or their CJK forms) followed by space, or at a blank line. Closing
# quotes and brackets stay with the sentence they end.
_BOUNDARY = regex.compile(r"""(?:[.!?。！？]+["'’”)\]]*\s+|[。！？]+|\n\s*\n)""")
_MAX_SENTENCE_CHARS = 2000
"""Longer runs without a boundary (tables, transcripts) are cut at spaces into pieces this long."""


@dataclass(frozen=True)
class Span:
    """``text == source[start:end]``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Chunk(Span):
    """A run of whole sentences; ``index`` is its position among the chunks."""

    index: int
    tokens: int
    first_sentence: int = 0
    """How many sentences of the whole text come before this chunk (a reason can number its sentences
    in the whole source)."""


def sentence_spans(text: str) -> list[Span]:
    """The sentences of ``text`` with their offsets (whitespace between them left out)."""
    spans: list[Span] = []
    pos = 0
    for m in _BOUNDARY.finditer(text):
        _add(text, pos, m.end(), spans)
        pos = m.end()
    _add(text, pos, len(text), spans)
    return spans


def _add(text: str, start: int, end: int, out: list[Span]) -> None:
    while start < end and text[start].isspace():
        start += 1
    stop = end
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    while stop - start > _MAX_SENTENCE_CHARS:
        cut = text.rfind(" ", start + 1, start + _MAX_SENTENCE_CHARS)
        cut = cut if cut > start else start + _MAX_SENTENCE_CHARS
        out.append(Span(start, cut, text[start:cut]))
        start = cut
        while start < stop and text[start].isspace():
            start += 1
    if stop > start:
        out.append(Span(start, stop, text[start:stop]))


def _pack(text: str, sentences: list[Span], first: int, last: int, index: int, tokens: int) -> Chunk:
    start, end = sentences[first].start, sentences[last].end
    return Chunk(start, end, text[start:end], index, tokens, first)


def make_chunks(
    text: str, count: Callable[[str], int], max_tokens: int, overlap_sentences: int = 1
) -> list[Chunk]:
    """Chunks of whole sentences of at most ``max_tokens`` each (a longer sentence stands alone,
    cut at spaces), each starting with the last ``overlap_sentences`` of the chunk before."""
    sentences = _fit_sentences(sentence_spans(text), count, max_tokens - 1)  # +1 joins it to the next
    sizes = [count(s.text) + 1 for s in sentences]
    chunks: list[Chunk] = []
    i = 0
    while i < len(sentences):
        j, total = i, sizes[i]
        while j + 1 < len(sentences) and total + sizes[j + 1] <= max_tokens:
            j += 1
            total += sizes[j]
        chunks.append(_pack(text, sentences, i, j, len(chunks), total))
        if j + 1 >= len(sentences):
            break
        i = max(i + 1, j + 1 - overlap_sentences)
    return chunks


def make_parts(text: str, count: Callable[[str], int], max_tokens: int) -> list[Chunk]:
    """Disjoint runs of whole sentences, each of at most ``max_tokens``, covering the text."""
    return make_chunks(text, count, max_tokens, overlap_sentences=0)


def _fit_sentences(sentences: list[Span], count: Callable[[str], int], max_tokens: int) -> list[Span]:
    """Sentences, with any longer than ``max_tokens`` cut at spaces into pieces that fit."""
    out: list[Span] = []
    for s in sentences:
        if count(s.text) <= max_tokens:
            out.append(s)
            continue
        words = s.text.split(" ")
        start, piece = s.start, ""
        for word in words:
            trial = f"{piece} {word}" if piece else word
            if piece and count(trial) > max_tokens:
                out.append(Span(start, start + len(piece), piece))
                start += len(piece) + 1
                piece = word
            else:
                piece = trial
        if piece:
            out.append(Span(start, start + len(piece), piece))
    return out
