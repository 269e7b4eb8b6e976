"""One fact per statement: a sentence split into the clauses that state facts of their own.

Two kinds of split, both for claims (the summary) and facts (the source's questions):

- at ``;`` and at a coordinating conjunction after a comma (", and", ", but", ", while", ...;
  in Korean at a comma after a connective ending such as -고, -며, -지만), when each side has at
  least ``min_words`` words;
- at a conjunction that joins two predicates of one subject ("The bridge opened in 1932 and cost 4
  million dollars"): the second clause gets the subject back ("The bridge cost 4 million dollars").
  English and German find the subject as the words before the first verb of the first clause
  (English: an auxiliary or a word in -ed; German: the first lower-case word after the opening
  capitalised ones); Korean takes the topic or subject word (ending in 은/는/이/가) and turns the
  connective ending into a final one (했고 -> 했다).

A part that would be too short to state a fact stays joined to its neighbour.
"""

from __future__ import annotations

import regex

from .lexicon import STOPWORDS, ed_verb

_EN_CLAUSE_SPLIT = regex.compile(
    r"\s*(?:;|,\s*(?:and|but|while|whereas|although|though|yet|so|as)\s|\s+(?:but|while|whereas)\s)\s*",
    regex.IGNORECASE,
)
_KO_CLAUSE_SPLIT = regex.compile(r"(?<=\p{Hangul}(?:고|며|으며|지만|는데|은데|었고|했고|했으며)),\s*")
_GENERIC_CLAUSE_SPLIT = regex.compile(r"\s*;\s*")
_WORDY = regex.compile(r"[\p{L}\p{N}]")


def split_clauses(sentence: str, lang: str, min_words: int = 4, keep_joins: bool = True) -> list[str]:
    """Split a sentence where each part states a fact of its own (see the module's first kind). With
    ``keep_joins`` (a summary's claims) each part is a span of the sentence: a part too short to stand
    alone stays joined to its neighbour with the words that join them there (", and Hale has
    conceded"), never glued to it. Without it (the source's facts, which :mod:`.facts` cuts further
    and whose ranking was measured so) the parts are joined by a space."""
    pattern = _EN_CLAUSE_SPLIT if lang == "en" else _KO_CLAUSE_SPLIT if lang == "ko" else _GENERIC_CLAUSE_SPLIT
    spans: list[tuple[int, int]] = []
    start = 0
    for m in [*pattern.finditer(sentence), None]:
        end = m.start() if m else len(sentence)
        if sentence[start:end].strip():
            spans.append((start, end))
        start = m.end() if m else start
    if len(spans) <= 1:
        return [sentence.strip()]
    if keep_joins:  # a quote mark before an opening "But" is no part
        spans = [s for s in spans if _WORDY.search(sentence, *s)]

    def words(group: list[tuple[int, int]]) -> int:
        return sum(len(sentence[a:b].split()) for a, b in group)

    merged: list[list[tuple[int, int]]] = []
    for span in spans:
        if merged and (words([span]) < min_words or words(merged[-1]) < min_words):
            merged[-1].append(span)
        else:
            merged.append([span])
    if len(merged) > 1 and words(merged[-1]) < min_words:
        merged[-2].extend(merged.pop())
    if keep_joins:
        return [sentence[g[0][0] : g[-1][1]].strip() for g in merged] or [sentence.strip()]
    return [" ".join(sentence[a:b].strip() for a, b in g) for g in merged]


EN_AUX = frozenset(
    "is are was were has have had will would can could may might must shall should did does do".split()
)
_BE_HAVE = frozenset("is are was were has have had".split())
"""Auxiliaries that a participle shares across "and"; a modal's verb is a base form ("would fight")."""
_EN_JOIN = regex.compile(r"\s+(?:and|but)\s+", regex.IGNORECASE)
_DE_JOIN = regex.compile(r"\s+(?:und|aber)\s+")
_KO_JOIN = regex.compile(r"(?<=\p{Hangul}(?:고|며))\s+")
_KO_SUBJECT = regex.compile(r"^\S+(?:은|는|이|가)$")
WORD = regex.compile(r"[\p{L}\p{N}'’\-]+")


def en_subject(words: list[str]) -> tuple[str, str] | None:
    """(subject, the verb that follows it) of an English clause, or None when no verb shows."""
    for i, w in enumerate(words[1:], 1):
        low = w.lower().strip(",")
        if low in EN_AUX or (ed_verb(low) and w[:1].islower()):
            return " ".join(words[:i]), low
    return None


_RELATIVE_EN = frozenset({"that", "which", "who"})
_MODALS_EN = frozenset({"will", "would", "can", "could", "may", "might", "shall", "should", "must"})


def _join_en(left: str, right: str) -> str | None:
    words, rwords = left.split(), right.split()
    if len(words) < 3 or len(rwords) < 2:
        return None
    first = WORD.match(rwords[0])
    if not first or not rwords[0][:1].islower():
        return None
    head = first.group().lower()
    if head in STOPWORDS["en"] and head not in EN_AUX:
        return None  # "and the ...", "and in ...": not a second predicate
    if head == words[0].lower():
        return None  # "Half received the drug and half a placebo": a second subject whose verb is left out
    if head in EN_AUX or ed_verb(head) or en_subject(rwords) is None:
        found = en_subject(words)
        if found is None:
            return None
        subject, verb = found
        if subject.lower() in {"it", "this", "that", "there"} and len(words) < 4:
            return None
        own = subject.split()
        if len(own) > 1 and own[-1].lower() in _RELATIVE_EN:
            # "A wildfire that started ... had burned ... and forced ...": the verb found is the
            # relative clause's; the subject is what it describes, the verb the main clause's
            subject = " ".join(own[:-1]).rstrip(",")
            verb = next((w.lower() for w in reversed(words[len(own):]) if w.lower() in EN_AUX), "")
        if verb in _BE_HAVE and head.endswith(("ed", "en")) and head not in EN_AUX:
            subject = f"{subject} {verb}"  # "She was injured and taken to hospital"; never "would called"
        elif verb in _MODALS_EN and head not in EN_AUX and not ed_verb(head):
            subject = f"{subject} {verb}"  # "will close the plant and move production": "will move"
        return f"{subject} {right}"
    return None


def _join_de(left: str, right: str) -> str | None:
    words, rwords = left.split(), right.split()
    if len(words) < 3 or len(rwords) < 2 or not rwords[0][:1].islower():
        return None
    if rwords[0].lower() in STOPWORDS["de"] and rwords[0].lower() not in {"wurde", "wurden", "war", "hat", "hatte", "ist"}:
        return None
    subject: list[str] = []
    for w in words:
        if w[:1].isupper() or w.lower() in {"der", "die", "das", "ein", "eine"}:
            subject.append(w)
        else:
            break
    if not subject or len(subject) == len(words):
        return None
    return " ".join([*subject, right])


_KO_FINAL = (("었고", "었다"), ("았고", "았다"), ("였고", "였다"), ("했고", "했다"), ("이고", "이다"), ("했으며", "했다"),
             ("었으며", "었다"), ("였으며", "였다"), ("이며", "이다"), ("고", "다"))


def _ko_final(clause: str) -> str:
    for ending, final in _KO_FINAL:
        if clause.endswith(ending):
            return clause[: -len(ending)] + final
    return clause


def split_predicates(sentence: str, lang: str) -> list[str]:
    """Split at a conjunction joining two predicates of one subject, giving each its subject."""
    text = sentence.strip()
    if lang in ("en", "de"):
        joiner, join = (_EN_JOIN, _join_en) if lang == "en" else (_DE_JOIN, _join_de)
        parts, seps = joiner.split(text), joiner.findall(text)
        out = [parts[0]]
        for sep, part in zip(seps, parts[1:]):
            made = join(out[-1], part)
            if made is None:
                out[-1] = out[-1] + sep + part
            else:
                out.append(made)
        return out
    if lang == "ko":
        parts = _KO_JOIN.split(text)
        if len(parts) < 2 or any(len(p.split()) < 2 for p in parts):
            return [text]
        subject = next((w for w in parts[0].split() if _KO_SUBJECT.match(w)), None)
        out = [_ko_final(parts[0])]
        for part in parts[1:]:
            has_subject = any(_KO_SUBJECT.match(w) for w in part.split())
            out.append(_ko_final(part) if has_subject or subject is None else f"{subject} {_ko_final(part)}")
        return out
    return [text]


def split_statements(sentence: str, lang: str, min_words: int = 4) -> list[str]:
    """Both kinds of split: the clauses of a sentence (the source's facts: parts joined by a space,
    :func:`split_clauses`), each given its subject where it lost it."""
    out: list[str] = []
    for clause in split_clauses(sentence, lang, min_words=min_words, keep_joins=False):
        out.extend(split_predicates(clause, lang))
    return [s for s in (p.strip() for p in out) if s]
