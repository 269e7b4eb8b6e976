"""What a text denies: its words cut into clauses, and the words each denial covers, for the check that
a claim is the summary's (:mod:`.own_claims`).

A denial covers the words after it up to the end of its clause (a clause ends at ``, ; : . ! ?`` and
before "but", "yet", "although", ... : "not safe for children, but safe for adults" denies "safe for
children" and not "safe for adults"; "because", "while", "when", ... start a clause too). What denies:

- a negation: "not", "no", "never", any word ending in "n't", ... (:data:`NEGATIONS`);
- a verb that says the thing did not happen: "refused to", "failed to", "declined to", "denied that"
  (:data:`DENYING_WORDS`), and a word that calls what follows untrue ("It is false that ...");
- hearsay that the sentence goes on to contradict: "Critics claimed the bridge opened in 1932, but it
  opened in 1935" (:data:`HEARSAY` with a later "but", "however" or "yet" in the same sentence).

A whitespace-only token of punctuation ("never will . Image : AP", as SummEval's tokenised summaries
are written) ends a clause as the same mark written against a word does.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

NEGATIONS = frozenset({"not", "no", "never", "nor", "neither", "none", "nobody", "nothing", "without", "cannot"})
"""Words that deny what follows them (and any word ending in "n't")."""
DENYING_WORDS = frozenset("""
refused refuses refuse refusing failed fails fail failing declined declines decline declining
denied denies deny denying false untrue
""".split())
"""Words that say what follows did not happen or is not so ("refused to approve", "It is false that")."""
HEARSAY = frozenset({"claimed", "claims", "alleged", "alleges", "rumored", "rumoured", "supposedly", "purportedly"})
"""Words that report without asserting: a denial when the sentence goes on to contradict them."""
CLAUSE_WORDS = frozenset({"but", "yet", "although", "though", "whereas", "however", "instead", "while", "when",
                          "whenever", "because", "since", "until", "unless", "if"})
"""Words that start another clause: a denial before them does not cover what follows them ("did not
approach the boy while in the pit" leaves "in the pit" undenied)."""
TURNING_WORDS = frozenset({"but", "yet", "however", "instead"})
"""Words after which a sentence contradicts the hearsay before them."""
_CLAUSE_MARKS = ",;:.!?()"
_SENTENCE_MARKS = ".!?;"
_WORD_EDGE = "\"'`.,;:!?()[]{}"


def negation(word: str) -> bool:
    """Whether ``word`` denies what follows it."""
    return word in NEGATIONS or word in DENYING_WORDS or word.endswith("n't")


@dataclass(frozen=True)
class Clauses:
    """A folded text's words (edge punctuation off), the clause and the sentence each word is in, and
    whether a denial covers it."""

    words: tuple[str, ...]
    clause: tuple[int, ...]
    sentence: tuple[int, ...]
    denied: tuple[bool, ...]
    starts: tuple[int, ...]
    """Where each word starts in the text without its whitespace."""
    denier: tuple[int, ...]
    """The position of the word that denies each word (-1: none)."""
    covered: tuple[tuple[int, ...], ...]
    """Each denial's covered words, as positions into :attr:`words` (consecutive, one clause)."""

    def scopes(self) -> tuple[tuple[int, ...], ...]:
        return self.covered


def _scopes(words: list[str], clause: list[int], sentence: list[int]) -> list[tuple[int, ...]]:
    """Each denial's covered words: the rest of its clause (clauses and sentences run in order, so a
    scan stops where its clause or sentence ends)."""
    n = len(words)
    out: list[tuple[int, ...]] = []
    for i, word in enumerate(words):
        if not negation(word) and word not in HEARSAY:
            continue
        end = i + 1
        while end < n and clause[end] == clause[i]:
            end += 1
        if word in HEARSAY and not negation(word):  # hearsay denies only what the sentence turns against
            last = i + 1
            while last < n and sentence[last] == sentence[i]:
                last += 1
            if not any(words[j] in TURNING_WORDS for j in range(i + 1, last)):
                continue
        if end > i + 1:
            out.append(tuple(range(i + 1, end)))
    return out


@functools.lru_cache(maxsize=16)  # the same summary is cut once for all its claims
def clauses(folded: str) -> Clauses:
    """``folded`` (case and whitespace folded) cut into words, clauses and sentences, with the words
    each denial covers marked."""
    words: list[str] = []
    clause: list[int] = []
    sentence: list[int] = []
    starts: list[int] = []
    c = s = at = 0
    for raw in folded.split(" "):
        word = raw.strip(_WORD_EDGE)
        if word:
            if word in CLAUSE_WORDS and words:
                c += 1
            words.append(word)
            clause.append(c)
            sentence.append(s)
            starts.append(at + len(raw) - len(raw.lstrip(_WORD_EDGE)))
        at += len(raw)
        tail = raw.rstrip("\"'`)]}")
        if tail and tail[-1] in _CLAUSE_MARKS:
            c += 1
            if tail[-1] in _SENTENCE_MARKS:
                s += 1
    covered = _scopes(words, clause, sentence)
    denier = [-1] * len(words)
    for scope in covered:
        for j in scope:
            denier[j] = scope[0] - 1 if denier[j] < 0 else denier[j]
    return Clauses(tuple(words), tuple(clause), tuple(sentence), tuple(d >= 0 for d in denier), tuple(starts),
                   tuple(denier), tuple(covered))


def denied_from_outside(cut: Clauses, start: int, end: int) -> bool:
    """Whether a word of the text between ``start`` and ``end`` (offsets into the text without its
    whitespace) is denied by a word before that span: "approve the homes" in "did not approve the homes"."""
    return any(start <= at < end and 0 <= d and cut.starts[d] < start for at, d in zip(cut.starts, cut.denier))


__all__ = ["CLAUSE_WORDS", "DENYING_WORDS", "HEARSAY", "NEGATIONS", "Clauses", "clauses", "denied_from_outside", "negation"]
