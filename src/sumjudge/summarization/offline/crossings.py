"""Crossings: a claim whose words all stand in the passage but join parts of different clauses or
sentences there, so the words are stated and the fact is not. Such a claim is never *stated*; it stays
unchecked with a note (English only).

- a relative clause's verb with the main clause's anchor ("The ban began on Friday" where the source
  says "The ban, which began in March, was lifted on Friday"; :func:`clause_crossed`);
- a verb with the object of another verb of the sentence ("The airline cancelled its London routes"
  where the source says "cancelled 40 flights but kept its London routes"; :func:`object_crossed`);
- a verb of one of two coordinated clauses with the name, number or date of the other ("The
  exhibition opens in September" where the source says "opens in May and closes in September";
  :func:`coordinate_crossed`);
- across the passage's two sentences, a word of one set where the other, which holds the rest of the
  claim, has a word of its own (:func:`sentence_crossed`);
- a weekday or month of one sentence given to the verb of another, which dates it otherwise
  (:func:`date_crossed`);
- a name the source gives only before the passage, set where the passage has another name
  (:func:`name_from_before`).

:func:`crossing_note` asks all six and words the note.
"""

from __future__ import annotations

import regex

from ..language.units import Sentence, TextAnalyzer
from ..language.clauses import EN_AUX
from ..language.fact_shape import _NOT_A_START, shows_a_verb, verb_at
from ..language.lexicon import DATE_WORDS, DETERMINERS_EN, NUMBER_WORDS, STOPWORDS, WEEKDAYS, past_form
from ..language.passages import Evidence, Window
from ..language.tokens import WORD_OR_MARK

_NOT_A_PAST = EN_AUX | {"been", "being", "be", "said", "told", "added", "claimed", "stated", "wrote", "asked"}
"""No auxiliary, and no verb of saying: what follows one is what was said, not its object."""
_ADVERBS = frozenset("instead long again back away later earlier today yesterday home together".split())
"""Words that follow a verb without being its object ("chose instead", "convicted long ago")."""


def _past(low: str) -> bool:
    """A past form that is no auxiliary nor a verb of saying ("cancelled", "kept", "arrested")."""
    return low not in _NOT_A_PAST and past_form(low)


def _object_after(low: list[str], i: int) -> str | None:
    """The first word after the verb ``low[i]`` past articles, possessives and figures: the head of
    its object ("its London routes" gives "london"); ``None`` where a function word comes first."""
    for w in low[i + 1 : i + 5]:
        if w in DETERMINERS_EN or w.isdigit() or w in NUMBER_WORDS:
            continue
        return None if w in STOPWORDS["en"] or w in _ADVERBS or w.endswith("ly") else w
    return None


def _verb_before(low: list[str], m: int) -> str | None:
    """The word before ``low[m]`` past articles, possessives and figures."""
    j = m - 1
    while j >= 0 and (low[j] in DETERMINERS_EN or low[j].isdigit() or low[j] in NUMBER_WORDS):
        j -= 1
    return low[j] if j >= 0 else None


def object_crossed(claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence]) -> tuple[str, str, str, str] | None:
    """The claim gives its verb the object of another verb of a source sentence ("The airline
    cancelled its London routes" where the sentence says "cancelled 40 flights but kept its London
    routes"): the claim's past verb and its object's head, the same verb there with another object,
    and the claim's object later in that sentence right after another past verb. Returns (verb,
    object, the other verb, the sentence's object) as the sentence writes them, or ``None``."""
    raw = WORD_OR_MARK.findall(claim.text)
    low = [w.lower() for w in raw]
    for i, verb in enumerate(low):
        if not raw[i][:1].islower() or not _past(verb):
            continue
        thing = _object_after(low, i)
        if thing is None:
            continue
        for s in sentences:
            theirs = [w.lower() for w in WORD_OR_MARK.findall(s.text)]
            if any(t == verb and _object_after(theirs, q) == thing for q, t in enumerate(theirs)):
                continue  # the sentence gives the verb this object too
            for k, t in enumerate(theirs):
                other = _object_after(theirs, k) if t == verb else None
                if other is None or other == thing or other in low or _past(other):
                    continue
                for m in range(k + 1, len(theirs)):
                    before = _verb_before(theirs, m) if theirs[m] == thing else None
                    if before and before != verb and _past(before):
                        return verb, thing, before, other
    return None


_RELATIVE_CLAUSE = regex.compile(r",\s*(?:who|which)\b[^,;]*,")
"""A non-restrictive relative clause between commas: "The ban, which began in March, was lifted"."""


def _position(text: str, word: str) -> int:
    """Where ``word`` first stands in ``text`` (lower case), or -1."""
    m = regex.search(rf"(?i)(?<!\w){regex.escape(word)}(?!\w)", text)
    return m.start() if m else -1


def clause_crossed(claim: Sentence, window: Window, analyser: TextAnalyzer) -> tuple[str, str] | None:
    """The claim joins a verb of a source sentence's relative clause with a name, date or number of
    its main clause, or the other way round, and lacks the anchor that the verb's own side gives:
    "The ban began on Friday" where the source says "The ban, which began in March, was lifted on
    Friday"; "Jones trained in Berlin" for "Jones, who trained in Paris, now works in Berlin". Every
    word is there but the relation is not, so such a claim is not *stated*. The anchor must follow
    the claim's verb (the claim's subject may be named inside the clause: "the resident, who was
    known as Newman, says") and, on the main clause's side, follow that side's own verb (a comma
    inside a clause ends no clause: "who sent them to the capital, Irbil, said"); a claim with a
    relative clause of its own that keeps the two apart repeats the source. Returns the claim's
    verb and anchor, as written, or ``None``."""
    words = claim.text.split()
    low = [w.lower().strip(".,;:!?") for w in words]
    verbs = {u: words[i] for i in range(len(low)) if verb_at(low, i, in_s=False) for u in analyser.analyse(low[i]).units}
    anchors = set(claim.names) | {u for u in claim.units if u.startswith("#")}
    if not verbs or not anchors:
        return None
    mine = _RELATIVE_CLAUSE.search(claim.text)
    for s in window.sentences:
        for m in _RELATIVE_CLAUSE.finditer(s.text):
            before = analyser.analyse(s.text[: m.start()])
            inside = analyser.analyse(m.group().strip(" ,"))
            after_text = s.text[m.end():]
            after = analyser.analyse(after_text)
            after_low = [w.lower().strip(".,;:!?") for w in after_text.split()]
            after_verb = next((i for i in range(len(after_low)) if verb_at(after_low, i)), None)
            main_part = analyser.analyse(" ".join(after_text.split()[after_verb:])) if after_verb is not None else None
            only_in = inside.units - after.units - before.units
            only_after = after.units - inside.units - before.units
            for side, other, anchors_side in ((only_in, only_after, "after"), (only_after, only_in, "in")):
                own = {u for u in side if u.startswith("#") or u in {*inside.names, *after.names}}
                verb = next((v for u, v in verbs.items() if u in side), None)
                if not verb or not own or own & claim.units:
                    continue
                for anchor in sorted(anchors & other):
                    form = claim.forms.get(anchor, anchor.lstrip("#"))
                    at, said = _position(claim.text, form), _position(claim.text, verb)
                    if at < said:
                        continue  # the claim's subject, named where the source names it
                    if anchors_side == "after" and (main_part is None or anchor not in main_part.units):
                        continue  # an apposition that closes the clause, not the main clause's own
                    if mine and (mine.start() <= at < mine.end()) != (mine.start() <= said < mine.end()):
                        continue  # the claim keeps them in two clauses too
                    return verb, form
    return None


_COORDINATOR = regex.compile(r"(?i)(?:,\s*|\s)(?:and|but|while|whereas|yet)\s|;\s*")
"""Where two clauses of a sentence may join: "opens in May and closes in September"."""
_ADVERBS_BEFORE = frozenset("now also then later still soon".split())
_JOINS = frozenset("and but while whereas yet ; ,".split())
_SUBORDINATE = frozenset("that which who whom whose when as because after before if while since although though".split())
"""Words that open a clause of the claim's own: an anchor after one is that clause's, not the verb's."""


def _words(text: str) -> tuple[list[str], list[str]]:
    """The words and marks of ``text`` as written, and lower-cased."""
    raw = WORD_OR_MARK.findall(text)
    return raw, [w.lower() for w in raw]


def _predicates(raw: list[str], low: list[str]) -> list[int]:
    """Where a lower-case word reads as a finite verb or follows an auxiliary ("will *close*"): not
    after a preposition or in a compound ("with renewed enthusiasm", "custom-built"), no possessive
    nor capitalised word ("City's", "ISIS"), and a word in -s only where no verb in -ed or an
    irregular past follows it ("Saudi forces launched")."""
    found = []
    for i in range(1, len(low)):
        if not raw[i][:1].islower() or not low[i].isalpha() or low[i] in EN_AUX or low[i - 1] == "-":
            continue
        if low[i] in NUMBER_WORDS or low[i] in DETERMINERS_EN or low[i] in STOPWORDS["en"]:
            continue  # "are four points behind", "was the first": no verb after the auxiliary
        if low[i - 1] in EN_AUX or (verb_at(low, i, in_s=False) and low[i - 1] not in _NOT_A_START):
            found.append(i)
        elif (verb_at(low, i) and low[i - 1] not in NUMBER_WORDS and not low[i - 1][:1].isdigit()
              and not any(verb_at(low, j, in_s=False) for j in range(i + 1, len(low)))):
            found.append(i)  # a word in -s, but not a counted plural ("four points")
    return found


def _main_part(text: str) -> str:
    """What a coordinated clause's left side says after its last subordinator: "it emerged that the
    case expired" gives "the case expired", the clause that an "and" after it continues."""
    words = text.split()
    cut = max((k for k, w in enumerate(words) if w.lower() in _SUBORDINATE), default=-1)
    return " ".join(words[cut + 1:])


def _reads_as_clause(low: list[str], verbs: frozenset[str]) -> bool:
    """A coordinated side is a clause or a predicate: a finite verb (not a plural noun in -s), or a
    first word past adverbs that reads as one ("now plays in York") or is one of the claim's
    ``verbs`` ("will keep its office and close the one in Lyon")."""
    rest = list(low)
    while rest and (rest[0] in _ADVERBS_BEFORE or rest[0].endswith("ly")):
        rest.pop(0)
    return shows_a_verb(" ".join(rest), in_s=False) or (bool(rest) and (verb_at(["it", *rest], 1) or rest[0] in verbs))


def coordinate_crossed(claim: Sentence, window: Window, analyser: TextAnalyzer) -> tuple[str, str] | None:
    """The claim gives a verb of one of two coordinated clauses of a source sentence ("The exhibition
    opens in May *and* closes in September") what only the other side has: a name, number or date
    between the verb and the claim's next verb, comma or subordinate clause ("opens in September"),
    where the verb's own side has an anchor of the same kind (a name for a name, a number or date for
    a number) that the claim lacks, so the claim is not the two sides merged ("hit Florida and
    Georgia"). Both sides must read as clauses or predicates: "Residents of Leeds and York were told"
    and "a writer for the Post and an author of the guide" split nothing. Returns the claim's verb and
    the word it takes from the other side, as written, or ``None``."""
    raw, low = _words(claim.text)
    anchors = set(claim.names) | {u for u in claim.units if u.startswith("#")}
    verbs = _predicates(raw, low)
    for s in window.sentences:
        joins = list(_COORDINATOR.finditer(s.text))
        for n, m in enumerate(joins):  # the two conjuncts on either side of each join
            begin = joins[n - 1].end() if n else 0
            texts = (_main_part(s.text[begin : m.start()]), _COORDINATOR.split(s.text[m.end():], maxsplit=1)[0])
            words = [_words(t)[1] for t in texts]
            if not all(_reads_as_clause(w, frozenset(low[i] for i in verbs)) for w in words):
                continue
            sides = [analyser.analyse(t) for t in texts]
            for v, i in enumerate(verbs):
                verb = next(iter(analyser.analyse(low[i]).units), None)
                if verb is None or (verb in sides[0].units) == (verb in sides[1].units):
                    continue
                k = 0 if verb in sides[0].units else 1
                mine, other = sides[k], sides[1 - k]
                own = {u for u in mine.units - other.units if u in mine.names or u.startswith("#")}
                ends = (j for j in range(i, len(low)) if low[j] in _JOINS or low[j] in _SUBORDINATE)
                stop = min([*verbs[v + 1 :], *ends, len(raw)])  # the verb's own stretch of the claim
                for j in range(i + 1, stop):
                    unit = next(iter(analyser.analyse(raw[j]).units), None)
                    if unit not in anchors or unit not in other.units or unit in mine.units:
                        continue
                    alike = {u for u in own if u.startswith("#") == unit.startswith("#")}  # a name for a name
                    if alike and not alike & claim.units:
                        return raw[i], raw[j]
    return None


def sentence_crossed(claim: Sentence, window: Window) -> tuple[str, str] | None:
    """The claim sets a word of one sentence of the window into the statement of another, which has
    its own word in that place ("The budget cut police funding by 12%" where one sentence says "add
    200 police officers" and the next "the budget cut library funding by 12%"; "Production will move
    to Halberg" where "will move to the company's plant in Zaragoza" and the next sentence names
    Halberg). The place: the claim word's neighbouring units, both where it has two, found in the
    same order around another unit of the sentence that holds most of the claim. A summary may join
    two sentences' facts, so this shows no error; such a claim is not *stated*. Returns the claim's
    word and the sentence's, as written, or ``None``."""
    if len(window.sentences) < 2:
        return None
    rest = max(window.sentences, key=lambda s: claim.weight_of(claim.units & s.units))
    seq, theirs = claim.sequence, rest.sequence
    for i, u in enumerate(seq):
        if u in rest.units or not any(u in s.units for s in window.sentences):
            continue
        left, right = (seq[i - 1] if i else None), (seq[i + 1] if i + 1 < len(seq) else None)
        if left is None and right is None:
            continue
        for j, w in enumerate(theirs):
            if w in claim.units:
                continue
            if (left is None or (j and theirs[j - 1] == left)) and (
                right is None or (j + 1 < len(theirs) and theirs[j + 1] == right)
            ):
                return claim.forms.get(u, u), rest.forms.get(w, w)
    return None


def _date_kind(word: str) -> str | None:
    """"weekday" or "month" for a date word as written, else ``None``."""
    low = word.lower()
    if low not in DATE_WORDS:
        return None
    return "weekday" if low in WEEKDAYS else "month"


def date_crossed(claim: Sentence, window: Window) -> tuple[str, str] | None:
    """The claim gives its verb a weekday or month of another sentence of the window, where the
    sentence that has the verb gives it a date of the same kind ("The fire started on Tuesday" where
    one sentence says "arrested a man on Tuesday" and the next "The blaze started late on Monday").
    The verb: the unit just before the claim's date; the sentence's date within two units after it,
    where no sentence of the window has the claim's date there. Returns the claim's date and the
    sentence's, as written, or ``None``."""
    if len(window.sentences) < 2:
        return None
    seq = claim.sequence
    for i, u in enumerate(seq[1:], start=1):
        kind = _date_kind(claim.forms.get(u, u))
        verb = seq[i - 1]
        if kind is None or verb in claim.names or verb.startswith("#"):
            continue
        if any(u in s.sequence[p + 1 : p + 3] for s in window.sentences for p in s.positions.get(verb, ())):
            continue  # a sentence gives the verb the claim's date too
        for s in window.sentences:
            if u in s.units:
                continue
            theirs = s.sequence
            for p in s.positions.get(verb, ()):
                for w in theirs[p + 1 : p + 3]:
                    if w != u and _date_kind(s.forms.get(w, w)) == kind:
                        return claim.forms.get(u, u), s.forms.get(w, w)
    return None


def name_from_before(claim: Sentence, window: Evidence) -> tuple[str, str] | None:
    """The claim gives a name that the source has only before the passage to a slot where the
    passage has another name ("Spain led at half-time" where the passage says "Portugal had led at
    half-time" and "Spain" stands in an earlier sentence). A name from before stands in for a
    pronoun or a title ("the minister said"), not for another name. The slot: the name's neighbouring
    units, both where it has two, around a name of a passage sentence that the claim does not give,
    a date aside. Returns the claim's name and the passage's, as written, or ``None``."""
    seq = claim.sequence
    for i, u in enumerate(seq):
        if u not in window.names_before or u in window.found:
            continue
        left, right = (seq[i - 1] if i else None), (seq[i + 1] if i + 1 < len(seq) else None)
        if left is None and right is None:
            continue
        for s in window.sentences:
            theirs = s.sequence
            for j, w in enumerate(theirs):
                if w in claim.units or w not in s.names or s.forms.get(w, w).lower() in DATE_WORDS:
                    continue  # a date is no party ("Leicester are three points" for "on Saturday just three points")
                if (left is None or (j and theirs[j - 1] == left)) and (
                    right is None or (j + 1 < len(theirs) and theirs[j + 1] == right)
                ):
                    return claim.forms.get(u, u), s.forms.get(w, w)
    return None


def crossing_note(claim: Sentence, window: Evidence, analyser: TextAnalyzer) -> str | None:
    """The note of an unchecked claim whose words all stand in the window but join parts of
    different clauses (object, relative clause or coordinated clause crossed), or ``None``."""
    taken = object_crossed(claim, window.sentences)
    if taken:
        return (f"the source ({window.where}) has {taken[1]!r} after {taken[2]!r} and {taken[0]!r} with "
                f"{taken[3]!r}: the claim may join them otherwise")
    crossed = clause_crossed(claim, window, analyser) or coordinate_crossed(claim, window, analyser)
    if crossed:
        return (f"the source ({window.where}) says {crossed[0]!r} in another clause than {crossed[1]!r}: "
                "the claim may join them otherwise")
    dated = date_crossed(claim, window)
    if dated:
        return (f"the source ({window.where}) has {dated[0]!r} in another sentence than the claim's verb, which "
                f"has {dated[1]!r}")
    earlier = name_from_before(claim, window)
    if earlier:
        return (f"the source names {earlier[0]!r} only before this passage ({window.where}), which has "
                f"{earlier[1]!r} in its place")
    moved = sentence_crossed(claim, window)
    if moved:
        return (f"the source ({window.where}) has {moved[0]!r} in another sentence than the rest of the claim, "
                f"which has {moved[1]!r} in its place")
    return None


__all__ = [
    "clause_crossed", "coordinate_crossed", "crossing_note", "date_crossed", "name_from_before", "object_crossed",
    "sentence_crossed",
]
