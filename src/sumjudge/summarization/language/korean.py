"""Korean read by morphemes: kiwipiepy's analyser (``pip install 'sumjudge[korean]'``) gives each
word's lemma and part of speech, so that 치른, 치렀다 and 치르겠다 are one verb (치르다), a name is a
proper noun (NNP) without needing a capital, and 850억 원 is one number.

The analyser is loaded on first use, once per process, and only for Korean text: its model ships
inside the ``kiwipiepy_model`` wheel (nothing is downloaded at run time). Without kiwipiepy a Korean
text is read by its written words (:mod:`.units`), and one line on standard error says what to
install.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

INSTALL_HINT = (
    "sumjudge: Korean text is read by its written words only: pip install 'sumjudge[korean]' (kiwipiepy) "
    "to read it by morphemes (lemmas, names, numbers with their counters); what words cannot confirm is unchecked"
)

_lock = threading.Lock()
"""kiwipiepy's analyser is used by one thread at a time."""


@dataclass(frozen=True)
class Morph:
    """One morpheme as the analyser reads it."""

    form: str
    tag: str
    """Sejong part of speech without kiwipiepy's irregular mark ("VV" for "VV-I")."""
    start: int
    end: int
    """Offsets in the analysed text (exclusive end)."""
    lemma: str
    """The dictionary form: 치르다 for the verb stem 치르; the form itself for other parts."""


@lru_cache(maxsize=1)
def _kiwi() -> Any:
    """The process's one analyser (read-only once built), or ``None`` without kiwipiepy."""
    try:
        from kiwipiepy import Kiwi
    except ImportError:
        return None
    return Kiwi()


def installed() -> bool:
    """kiwipiepy can be imported (without loading its model)."""
    import importlib.util

    return importlib.util.find_spec("kiwipiepy") is not None


class KoreanMorphology:
    """Korean text as morphemes, for one language analyser. Safe to share: the analyser is read-only
    and used under a lock, and the memo of texts read holds pure results."""

    _MAX_TEXTS = 4096

    def __init__(self) -> None:
        self._memo: OrderedDict[str, tuple[Morph, ...]] = OrderedDict()
        self._lock = threading.Lock()
        self._told = False

    @property
    def available(self) -> bool:
        """kiwipiepy is installed (its model is loaded on the first text). When it is not, one line on
        standard error says what to install, once for this analyser (once per judge, as the default
        judge's notice is said once per scorer)."""
        if _kiwi() is not None:
            return True
        with self._lock:
            told, self._told = self._told, True
        if not told:
            print(INSTALL_HINT, file=sys.stderr)
        return False

    def morphs(self, text: str) -> tuple[Morph, ...]:
        """``text``'s morphemes in order (empty without kiwipiepy)."""
        with self._lock:
            hit = self._memo.get(text)
            if hit is not None:
                self._memo.move_to_end(text)
                return hit
        kiwi = _kiwi()
        if kiwi is None:
            return ()
        with _lock:
            tokens = kiwi.tokenize(text)
        out = tuple(
            Morph(t.form, t.tag.split("-")[0], t.start, t.start + t.len, getattr(t, "lemma", t.form) or t.form)
            for t in tokens
        )
        with self._lock:
            self._memo[text] = out
            if len(self._memo) > self._MAX_TEXTS:
                self._memo.popitem(last=False)
        return out

    def join(self, morphs: list[tuple[str, str]]) -> str:
        """Morphemes (form, tag) written as Korean text: 거두/VV 었/EP 다/EF -> 거뒀다."""
        kiwi = _kiwi()
        if kiwi is None:
            return "".join(f for f, _ in morphs)
        with _lock:
            return str(kiwi.join(morphs))


__all__ = ["INSTALL_HINT", "KoreanMorphology", "Morph", "installed"]
