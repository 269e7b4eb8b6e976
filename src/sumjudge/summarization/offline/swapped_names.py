"""Swapped names: another name in a participant's place, read from the written words (English). The
same people in swapped roles, another winner of the same contest, the one a loser lost to named as
the loser, the beaten side as the winner, and a comparison turned around (:mod:`.comparisons`): the
swaps :func:`swap_shown` asks the same way in alignment and in coverage."""

from __future__ import annotations

from ..language.units import Sentence
from ..language.lexicon import DETERMINERS_EN, OUTCOME_VERBS
from ..language.tokens import WORD_OR_MARK
from .comparisons import comparison_swap
from .roles import AUXILIARIES_EN, PREPOSITIONS_EN, verb_like


def _subject_before(tokens: list[str], k: int) -> list[str] | None:
    """The run of capitalised words right before ``tokens[k]`` (a name as the verb's subject), less a
    capitalised determiner that opens it ("The Kenyan Grace Okafor"), or ``None`` where there is none
    or a preposition or a possessive stands before it ("against Fleetwood tested": Fleetwood is no
    subject)."""
    i = k
    while i > 0 and tokens[i - 1][:1].isupper():
        i -= 1
    if i == k:
        return None
    before = tokens[i - 1].lower() if i else ""
    if before in PREPOSITIONS_EN or before in {"'s", "’s", "s"}:
        return None
    run = [t.lower() for t in tokens[i:k]]
    return (run[1:] or None) if run[0] in DETERMINERS_EN else run  # "The Kenyan Grace Okafor"


def subject_swap(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], summary_is_claim: bool = True,
    named_after: bool = True,
) -> tuple[str, str, str] | None:
    """Another name as the subject of the same verb ("Almaz Tesfaye won ... from Faith Chepkoech" where
    the source has "Faith Chepkoech won ..."): in English, a verb right after a name in the claim
    stands right after another name, sharing no word with it, in a sentence of ``sentences``, and the
    summary's side names the other one after the verb, so the two are the same people in swapped
    roles. ``summary_is_claim``: the claim is the summary's (alignment); otherwise ``sentences`` are
    (coverage: the claim is the source's fact). ``named_after=False`` drops the last condition: the
    verb has another subject in the source, which may be the same one named otherwise. Returns the claim's name, the sentence's name and the
    verb, as written, or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    mine_names = {f.lower() for f in claim.name_forms.values()}
    named = {w.lower() for s in sentences for w in WORD_OR_MARK.findall(s.text)}
    for j in range(1, len(words)):
        verb = words[j]
        if not verb[:1].islower() or verb in AUXILIARIES_EN or not (verb_like(verb, words[j - 1].lower()) or verb in OUTCOME_VERBS):
            continue
        mine = _subject_before(words, j)
        if not mine or mine[-1] not in mine_names or mine[-1] not in named:
            continue
        for s in sentences:
            theirs_names = {f.lower(): f for f in s.name_forms.values()}
            other = WORD_OR_MARK.findall(s.text)
            for k in range(1, len(other)):
                if other[k] != verb:
                    continue
                theirs = _subject_before(other, k)
                if not theirs or theirs[-1] not in theirs_names or set(theirs) & set(mine):
                    continue
                after = [w.lower() for w in (words[j + 1 :] if summary_is_claim else other[k + 1 :])]
                if not named_after or (theirs[-1] if summary_is_claim else mine[-1]) in after:
                    return words[j - 1], theirs_names[theirs[-1]], verb
    return None


_ONE_WINNER = frozenset({"won", "wins", "beat", "beats", "defeated"})
"""Verbs of an outcome that has one subject: a race or a vote is won by one side."""


def winner_swap(claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence]) -> tuple[str, str, str] | None:
    """Another name as the winner of the same contest ("Almaz Tesfaye won the Rotterdam Marathon"
    where the source has "Faith Chepkoech won the Rotterdam Marathon"): in English, a verb of
    :data:`_ONE_WINNER` right after a name, the same verb right after another name in a sentence of
    ``sentences``, the names and figures the claim gives right after the verb ("the Rotterdam
    Marathon", "the 5,000 metres") right after it there too; the claim does not name the sentence's
    winner, nor any sentence name the claim's among the words before the verb with the same contest
    (so "Chepkoech and Tesfaye won" is no swap, nor "Chelsea won 2-1" where "Leeds won 2-1 ... and
    Chelsea won 2-1"). Symmetric:
    a coverage fact against the summary works the same way. Returns the claim's name, the
    sentence's name and the verb, as written, or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    mine_low = {w.lower() for w in words}
    for j in range(1, len(words)):
        verb = words[j]
        if verb not in _ONE_WINNER:
            continue
        mine = _subject_before(words, j)
        if not mine or mine[-1] not in {f.lower() for f in claim.name_forms.values()}:
            continue
        contest = {w.lower() for w in words[j + 1 : j + 5] if w[:1].isupper() or w[:1].isdigit()}
        if not contest:
            continue
        found = None
        for s in sentences:
            other = WORD_OR_MARK.findall(s.text)
            for k in range(1, len(other)):
                if other[k] != verb or not contest <= {w.lower() for w in other[k + 1 : k + 7]}:
                    continue
                theirs = _subject_before(other, k)
                if set(mine) & {w.lower() for w in other[max(0, k - 6) : k]}:
                    return None  # the sentence gives the claim's winner the same contest
                if theirs and not set(theirs) & mine_low:
                    found = found or (words[j - 1], other[k - 1], verb)
        if found:
            return found
    return None


_LOST = frozenset({"lost", "loses", "lose"})


def _named_loser(words: list[str], sentence: Sentence) -> tuple[str, str] | None:
    """A name right before "lost" in ``words`` that ``sentence`` names only after "lost ... to", the
    one the loser lost to ("Tom Reed lost the election" where the sentence says "The mayor lost the
    election to her rival, Tom Reed"): (the name's last word, the word before the sentence's
    "lost"), as written, or ``None``."""
    other = WORD_OR_MARK.findall(sentence.text)
    for j in range(1, len(words)):
        mine = _subject_before(words, j) if words[j].lower() in _LOST else None
        if not mine:
            continue
        for k in range(1, len(other)):
            if other[k].lower() != words[j].lower() or set(mine) & {w.lower() for w in other[max(0, k - 6) : k]}:
                continue
            tail = [w.lower() for w in other[k + 1 : k + 12]]
            end = next((i for i, w in enumerate(tail) if w in {".", ";"}), len(tail))
            if "to" in tail[:end] and mine[-1] in tail[tail.index("to") + 1 : end]:
                return words[j - 1], other[k - 1]
    return None


def loser_swap(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], summary_is_claim: bool = True
) -> tuple[str, str, str] | None:
    """The one the loser lost to, named as the loser (:func:`_named_loser`), on the summary's side:
    the claim in alignment, a summary sentence in coverage (the fact then has "lost to"). Returns
    (the claim's word, the sentence's word, "lost") as :func:`swap_shown` does, or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    for s in sentences:
        if summary_is_claim:
            found = _named_loser(words, s)
            if found:
                return found[0], found[1], "lost"
        else:
            found = _named_loser(WORD_OR_MARK.findall(s.text), claim)
            if found:
                return found[1], found[0], "lost"
    return None


_BEATING = frozenset("beat beats beating defeated defeats defeating".split())


def _winner(tokens: list[str], k: int) -> set[str]:
    """The name that beats at ``tokens[k]``: the verb's subject, or for "by beating" the name that
    opens the sentence ("Estavia won the cup by beating Norland")."""
    run = _subject_before(tokens, k) or (_subject_before(tokens, 1) if tokens[k].endswith("ing") else None)
    return set(run or ())


def beaten_swap(claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence]) -> tuple[str, str, str] | None:
    """The beaten side named as the winner ("Estavia won the cup by beating Norland" where the source
    says "Norland beat Estavia"): after a verb of :data:`_BEATING` each side names the other's winner
    (:func:`_winner`), and no sentence has the claim's way round. Symmetric, as :func:`winner_swap`.
    Returns the claim's beaten name, the sentence's, and "was beaten", or ``None``."""
    words = WORD_OR_MARK.findall(claim.text)
    found = None
    for j in (j for j in range(1, len(words) - 1) if words[j].lower() in _BEATING and words[j + 1][:1].isupper()):
        mine, beaten = _winner(words, j), words[j + 1].lower()
        for other in (WORD_OR_MARK.findall(s.text) for s in sentences):
            for k in (k for k in range(1, len(other) - 1) if other[k].lower() in _BEATING):
                theirs = _winner(other, k)
                if other[k + 1].lower() == beaten and mine & theirs:
                    return None  # a sentence has the claim's way round
                if other[k + 1].lower() in mine and beaten in theirs:
                    found = found or (words[j + 1], other[k + 1], "was beaten")
    return found


def swap_shown(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], summary_is_claim: bool = True
) -> tuple[str, str, str] | None:
    """The swaps the words show, asked the same way in alignment and in coverage: the same people in
    swapped roles (:func:`subject_swap`), another winner of the same contest (:func:`winner_swap`), a
    comparison turned around (:func:`comparison_swap`), the one a loser lost to named as the loser
    (:func:`loser_swap`), the beaten side as the winner (:func:`beaten_swap`). Returns (the claim's
    word, the sentence's, how they relate), or ``None``."""
    return (
        subject_swap(claim, sentences, summary_is_claim=summary_is_claim)
        or winner_swap(claim, sentences) or comparison_swap(claim, sentences)
        or loser_swap(claim, sentences, summary_is_claim) or beaten_swap(claim, sentences)
    )


__all__ = ["beaten_swap", "loser_swap", "subject_swap", "swap_shown", "winner_swap"]
