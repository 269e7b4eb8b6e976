"""The offline judge's sentences are syntok's: the tokens it spares syntok change no sentence start."""
from __future__ import annotations

import random

import pytest

from sumjudge.summarization.language.segment import split_sentences

syntok_segmenter = pytest.importorskip("syntok.segmenter")

_PIECES = (
    "the Dr. U.S. e.g. Mr. No. A. J. iii. Inc. said ( ) [ ] \" ' “ ” — - , ; : ... … ?! 's n't 1. 2 "
    "3.5 1990s $4.2 % Jan. Sept. vs. etc. end. end! end? end?! end.\" end.) end... The He she It London can't a b x. X (see below) a.m. p.m. "
    "—\" \". ). .) ?\" !\" – > * # @x camelCase C++"
).split() + ["\n\n"]


def syntok_sentences(text: str) -> list[str]:
    """syntok given every token of the text (its own ``analyze``), cut where its sentences start."""
    starts = [s[0].offset for paragraph in syntok_segmenter.analyze(text) for s in paragraph if s]
    return [text[a:b].strip() for a, b in zip(starts, [*starts[1:], len(text)]) if text[a:b].strip()]


def test_sentences_start_where_syntok_given_every_token_starts_them() -> None:
    rng = random.Random(15)
    tried = 0
    for _ in range(400):
        text = " ".join(rng.choice(_PIECES) for _ in range(rng.randint(5, 200)))
        if " . " in text or " ! " in text or " ? " in text or "\n. " in text:
            continue  # the stand-alone stop split is the judge's own, on top of syntok's
        tried += 1
        assert split_sentences(text) == syntok_sentences(text), text
    assert tried > 100
