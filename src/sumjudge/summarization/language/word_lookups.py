"""Pure per-word functions of the offline judge, memoised once per process: a word's lemma and
stem, its weight, a language's antonym map. Each takes the judge's word data (``data``): ``CORE``,
what the core install has, or ``WORDFREQ``, the opt-in judge's frequency lists and lemmas.

Each maps its arguments to one answer that never changes (a Snowball stem, a corpus frequency, a
fixed word list), so the memos hold no state that could change a verdict; they only spare a fresh
judge, or a new source, the work its predecessors did. ``functools.lru_cache`` is thread-safe, and a
Snowball stemmer (which keeps its word in the object while it works) is used under a lock.
They are bounded so that a long-running process does not grow without limit.
"""

from __future__ import annotations

import importlib.util
import threading
from functools import lru_cache
from typing import Any

import regex

from ...errors import ConfigurationError
from .lexicon import CORE, IRREGULAR_EN, SNOWBALL, SPELLINGS_EN, WORDFREQ
from .polarity import antonym_map
from .weights import Informativeness

MAX_WORDS = 8_192
"""Words each memo keeps (least recently used dropped first): a run's memory stays flat however many
new words (names, numbers) its items bring, while the words a corpus repeats stay remembered. 20,000
let a run grow by about 25 MiB between 8,000 and 50,000 items while the memos filled
(docs/design-notes.md); at 8,192 they are full before 8,000 items of new words."""
_HANGUL = regex.compile(r"\p{Hangul}")
_stem_lock = threading.Lock()


@lru_cache(maxsize=32)
def _stemmer(lang: str) -> Any:
    if lang not in SNOWBALL:
        return None
    import snowballstemmer  # uses PyStemmer's C code when it is installed

    return snowballstemmer.stemmer(SNOWBALL[lang])


@lru_cache(maxsize=MAX_WORDS)
def stem(lang: str, word: str) -> str:
    """The Snowball stem of ``word`` (lower case) in ``lang``; the word itself without a stemmer."""
    stemmer = _stemmer(lang)
    if stemmer is None:
        return word
    with _stem_lock:
        return str(stemmer.stemWord(word))


@lru_cache(maxsize=MAX_WORDS)
def lemma(lang: str, word: str, data: str = CORE) -> str:
    """The dictionary form of ``word`` (lower case) in ``lang``: English irregular forms from the
    core's own table ("sang" -> "sing", "fell" -> "fall"), units' other spellings ("km") and months'
    abbreviations ("Jan"); with ``data == WORDFREQ`` then
    simplemma's lists for every language it has. The word itself otherwise."""
    if lang == "en" and word in IRREGULAR_EN:
        return IRREGULAR_EN[word]
    if lang == "en" and word in SPELLINGS_EN:
        return SPELLINGS_EN[word]
    if data != WORDFREQ:
        return word
    import simplemma  # checked when the judge is made (:func:`require`)

    try:
        return str(simplemma.lemmatize(word, lang=lang)).lower()
    except (ValueError, KeyError, OSError):
        return word


@lru_cache(maxsize=64)
def informativeness(lang: str, data: str = CORE) -> Informativeness:
    return Informativeness(lang, frequencies=data == WORDFREQ)


@lru_cache(maxsize=MAX_WORDS)
def weight(lang: str, word: str, data: str = CORE) -> float:
    """How informative ``word`` is in ``lang`` (:mod:`.weights`)."""
    return informativeness(lang, data).weight(word)


@lru_cache(maxsize=64)
def antonyms(lang: str, data: str = CORE) -> dict[str, frozenset[str]]:
    """unit -> the units that contradict it (:func:`.polarity.antonym_map`). Shared: do not change it."""
    return antonym_map(lang, lambda word: unit_of_word(lang, word, data))


def unit_of_word(lang: str, word: str, data: str = CORE) -> str:
    """The unit the judge compares for a listed word: its stem, or the word itself in Hangul."""
    if _HANGUL.search(word):
        return word
    return stem(lang, lemma(lang, word.lower(), data))


def require(data: str) -> None:
    """Fail clearly when the word data ``data`` names is not installed."""
    if data == CORE:
        return
    missing = [m for m in ("wordfreq", "simplemma") if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigurationError(
            f"offline/lexical+wordfreq needs {' and '.join(missing)}: pip install 'sumjudge[wordfreq,lemmas]' "
            "(or use offline/lexical, which needs neither)"
        )


@lru_cache(maxsize=4)
def data_version(data: str) -> str:
    """The installed versions of the word data ``data`` reads ("snowballstemmer=3.1.1")."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for dist in ("snowballstemmer",) + (("wordfreq", "simplemma") if data == WORDFREQ else ()):
        try:
            out.append(f"{dist}={version(dist)}")
        except PackageNotFoundError:
            out.append(f"{dist}=?")
    if importlib.util.find_spec("kiwipiepy") is not None:  # Korean is read by its model: part of the verdicts
        try:
            out.append(f"kiwipiepy={version('kiwipiepy')}")
        except PackageNotFoundError:
            pass
    return ",".join(out)
