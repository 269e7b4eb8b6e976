"""How informative a word is: its surprisal, ``-log10 p(word)``, in a large corpus.

The frequencies come from `wordfreq <https://github.com/rspeer/wordfreq>`_ (40+ languages, its
lists ship inside the wheel: nothing is downloaded at run time). A word the list does not hold
(a rare name, a misspelling) gets the list's lowest frequency, so it weighs the most. The weight
is the information a word carries, so no constant is tuned here: "the" weighs 1.3, "designed" 4.0,
"architect" 4.9, "Lind" 6.2.

wordfreq is optional (``pip install 'sumjudge[wordfreq]'``, about 60 MB of frequency lists) and
used only by the opt-in judge ``offline/lexical+wordfreq``. The default judge, and that one for a
language wordfreq does not cover, weigh every content word 1 and a number 2.
"""

from __future__ import annotations

import math
from functools import lru_cache

UNIFORM = 1.0
FALLBACK_RARE = 2.0
"""Without frequencies a number weighs as two words: with them it weighs the list's maximum, about
twice a typical content word (8 against 4 to 5)."""


@lru_cache(maxsize=16)
def _frequencies(lang: str) -> tuple[dict[str, float], float] | None:
    """The language's frequency table and its lowest frequency; ``None`` without wordfreq or for a
    language it lacks. Read once per process (about 0.2 s for English) and never changed."""
    try:
        from wordfreq import get_frequency_dict
    except ImportError:
        return None
    try:
        table = get_frequency_dict(lang)
    except (LookupError, ValueError, OSError):
        return None
    if not table:
        return None
    return table, min(table.values())


def has_frequencies(lang: str) -> bool:
    """True when words of ``lang`` get corpus weights (wordfreq installed and covering it)."""
    return _frequencies(lang) is not None


class Informativeness:
    """Word -> weight for one language."""

    def __init__(self, lang: str, frequencies: bool = False) -> None:
        loaded = _frequencies(lang) if frequencies else None
        self._table, floor = loaded if loaded is not None else ({}, 0.0)
        self.weighted = loaded is not None
        self.max_weight = -math.log10(floor) if floor > 0 else FALLBACK_RARE
        """The weight of a word the list does not hold; also the weight of a number."""

    def weight(self, word: str) -> float:
        if not self.weighted:
            return UNIFORM
        freq = self._table.get(word.lower())
        return -math.log10(freq) if freq else self.max_weight
