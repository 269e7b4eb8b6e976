"""A source sentence's atomic facts: one subject, one predicate, about fifteen words each.

The questions step (:mod:`.questions`) asks one fact per question, in the shape a person writes key
facts ("Pushpa Basnet cares for 45 children."), not whole copied sentences. English sentences lose
what is not their fact: who says it ("police said", "according to the BBC"), quotation marks, an
apposition (", the founder of X ,"), an introductory or trailing clause; a non-restrictive relative
clause and an introductory clause become facts of their own; coordinations are split
(:func:`.clauses.split_statements`); a fact is cut at a clause boundary to about ``max_words``
words. Quoted speech, questions, conditionals and captions give no fact. Other languages get
:func:`.clauses.split_statements` only: these rules are English words.
"""

from __future__ import annotations

from bisect import bisect_right

import regex

from .clauses import EN_AUX, WORD, en_subject, split_clauses, split_predicates, split_statements
from .fact_shape import antecedent, opens_with_pronoun, shows_a_verb, states_a_fact, verb_at
from .lexicon import IRREGULAR_EN, ed_verb
_QUOTE_MARK = regex.compile(r"``|''|[\"“”„«»]|(?:^|\s)['‘’`](?=\s*\w)|(?<=\w[.,!?]?\s?)['’](?:\s|$)")
_SPEECH_VERB = regex.compile(
    r"\b(?:said|says|say|told|tells|added|adds|explained|explains|insisted|insists|claimed|claims|"
    r"wrote|writes|tweeted|posted|asked|asks|admitted|admits|revealed|reveals)\b",
    regex.I,
)
_CAPTION_LABEL = regex.compile(
    r"^\s*(?:[\p{L}'’][\p{L}\p{M}'’ -]{0,30}\s:|\p{L}[\p{L}\p{M}'’-]*(?:\s+\p{L}[\p{L}\p{M}'’-]*){0,2}:)\s+(?=\S)"
)
"""A caption's label before a colon ("Gruesome : miller was left with a scar"): a page's picture text."""
_CLAUSE_SUBJECT = r"(?:it|he|she|they|we|i|you|there|that|this|these|those)\b"
"""After ", says", a pronoun opens what was said (", says it will grow"), not who said it (", says Jane Ortiz")."""
_ATTRIBUTION_TAIL = regex.compile(
    r"\s*,\s*(?:(?:[\p{L}\p{M}'’.-]+\s+){0,7}(?:said|says|reports|reported|told\s+[\p{L}\p{M}'’. -]{1,40}|"
    r"according\s+to\s+[\p{L}\p{M}'’. -]{1,40}|added|claimed|explained)"
    r"(?:\s+(?:on|last|this|yesterday|today|earlier|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"[\p{L}\p{N} ]{0,25})?"
    r"(?:\s+(?:at|in)\s+[\p{L}\p{N}' ]{1,60})?"
    r"|(?:said|says|reports|reported|according\s+to)\s+(?!" + _CLAUSE_SUBJECT + r")[\p{L}\p{M}'’. -]{1,60})\s*[.!]?\s*$",
    regex.I,
)
"""", the detroit free press reports", ", police said (on Monday)", ", the commission said Thursday", ", said Jane
Ortiz", ", according to the BBC"."""
_ATTRIBUTION_HEAD = regex.compile(
    r"^\s*(?:according\s+to\s+[^,]{1,60},\s*|(?:[\p{L}\p{M}'’.-]+\s+){1,6}(?:said|says|reported|reports|"
    r"told\s+(?:[^,]{1,40}?(?=\s+that\b)|[^,]{1,40}?)|claimed|claims|believes|believe|announced|confirmed)\s+(?:that\s+|on\s+\p{L}+\s+that\s+)?(?=\S))",
    regex.I,
)
""""According to police, ...", "Officials said (that) ...": who says it is not the fact."""
_SAID_TOO = regex.compile(
    r"^(?P<first>.+?),\s+(?:but|and)\s+(?:also\s+)?(?:said|added|warned|cautioned|noted|insisted|admitted|"
    r"stressed|conceded|acknowledged|argued)\s+(?:that\s+)?(?P<second>\S.+)$",
    regex.I | regex.S,
)
"""What is left of "X said A, but warned that B" once "X said" is gone: a second thing said. The comma
marks the speaker's second verb; without it the verb may be A's subject's ("Witnesses said Bieber argued
with security and said he ...")."""
_IMPERSONAL = regex.compile(
    r"^\s*it\s+(?:has|had|is|was|have)\s+(?:also\s+)?(?:now\s+)?(?:been\s+)?\p{L}+ed\s+that\s+(?=\S)", regex.I
)
_DASHES = regex.compile(r"\s+[-–—]{1,2}\s+[^-–—]{2,80}?\s+[-–—]{1,2}\s+|\s*\([^()]{1,80}\)\s*")
"""A parenthesis between dashes or brackets ("Residents on greville street - near the scene - say")."""


_WEEKDAY_PHRASE = regex.compile(
    r"(?i)\s+(?:(?:for|by|until|from)\s+(?:next|this|last)|on|last|this|next|late|early)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"(?:\s+(?:night|morning|afternoon|evening))?(?=[\s.;]|,(?!\s*\p{Lu}\p{Ll}+\.?\s+\d)|$)"
)
"""When in the week ("on Tuesday night", "for next Monday"): a detail a summary may leave out, not
part of the fact (kept where a date follows it: "on Sunday, April 13")."""


def _unattributed(text: str) -> str:
    """``text`` without who says it ("Officials said (that) ..."), unless what remains opens with a
    pronoun that the attribution names ("Residents say they had ...") or is no clause of its own
    ("The company reported an operating profit of 1.9 billion euros": what was reported is a noun,
    and the company is the fact's subject)."""
    text = _IMPERSONAL.sub("", text, count=1)
    m = _ATTRIBUTION_HEAD.match(text)
    rest = text[m.end():] if m else ""
    if m and not opens_with_pronoun(rest) and shows_a_verb(rest, in_s=False):
        return rest
    return text


_INTRO_ADVERB = regex.compile(
    r"^\s*(?:meanwhile|still|however|but|and|so|also|now|indeed|instead|today|yesterday|"
    r"in addition|additionally|last\s+\p{L}+|earlier\s+\p{L}+|this\s+\p{L}+)\s*,?\s+(?=\S)",
    regex.I,
)
_INTRO_CLAUSE = regex.compile(
    r"^\s*(?P<sub>(?:while|although|though|whereas|after|before|when|as|because|since|once|despite|"
    r"following|amid|with)\b[^,]{3,120}?)\s*,\s+(?P<main>\S.*)$",
    regex.I | regex.S,
)
_POINTING_BACK = frozenset({"then", "that", "this", "it", "which"})
_INTRO_PHRASE = regex.compile(
    r"^\s*(?P<phrase>(?:in|on|at|by|during|since|until|for|last|this|next|earlier|later)\s+[^,]{1,40}?)\s*,\s+(?=\S)",
    regex.I,
)
"""A time or place phrase before the subject ("In 1903, ", "On Tuesday, ", "In Kathmandu, ")."""
_CONDITIONAL = regex.compile(r"^\s*(?:if|unless|whether|should|had)\b", regex.I)
_INTRO_PARTICIPLE = regex.compile(r"^\s*(?:\p{L}+ing|\p{L}+ed)\b[^,]{0,80},\s+(?=\S)", regex.I)
_RELATIVE = regex.compile(
    r"\s*,\s*(?P<rel>(?:who|which|whose|where)\b[^,]{2,120}?)\s*(?:,\s*|(?=[.;]?\s*$))", regex.I
)
_APPOSITION = regex.compile(
    r"\s*,\s*(?:(?:the|a|an|his|her|their|its|our|now|then|formerly|aged)\s+[^,]{1,70}?|\d{1,3})\s*,\s*(?=\p{Ll}|\p{Lu})"
)
"""", the founder of the nonprofit maiti nepal ,", ", 19 ,": a description of who was just named."""
_PARTICIPLE_APPOSITION = regex.compile(
    r"\s*,\s*(?:(?:called|named|known|built|founded|led|developed|owned|run|made|made|based|born|"
    r"located|opened|created|designed|backed|launched|elected|appointed)\b[^,]{1,80}?)\s*,\s*(?=\p{Ll}|\p{Lu})"
)
"""", built in 1911 ,", ", called velorastat and developed by X ,": a participle describing what was
just named; the sentence's fact is what comes after it ("The mill, built in 1911, closed in 1987")."""
_TRAILER = regex.compile(
    r"\s*,\s*(?:followed\s+by|including|such\s+as|which|where|who|as\s+well\s+as|after\s+which|"
    r"\p{L}+ing\b)[^;]*$",
    regex.I,
)
"""A trailing phrase after a comma that adds a second fact ("..., followed by a second earthquake")."""
_SPLIT_AT = regex.compile(
    r"\s+(?=(?:because|after|before|when|while|although|though|since|until|as|despite|amid|"
    r"following|but|which|who|whose|where|so\s+that|along|across|with|from|during|amid|over|under|"
    r"into|near|at|in|on|for|by|without|through|and\s+that)\b)|\s*,\s*",
    regex.I,
)


_CONTRACTION = r"(?:s|t|re|ve|ll|d|m)\b"
_OPEN_SINGLE = regex.compile(r"(?:(?<=^|\s)(?<!s\s)(?<!s)['‘`](?!" + _CONTRACTION + r")\s*(?=\w))")
"""An opening single quotation mark: not a possessive ("wings ' drew") nor a contraction ("he 's")."""


_DOUBLE_MARK = regex.compile(r"``|''|[\"“”„«»]")
_CLOSING_SINGLE = regex.compile(r"(?<=[\w.,!?])\s*['’](?=\s*(?:[,.;:]|$))|(?<=\w)\s+['’](?=\s+\p{Ll})")
_SPACES = regex.compile(r"\s{2,}")
_OPENING_MARK = regex.compile(r"^(?:``|[\"“„«'‘`])")
_LONG_QUOTATION = regex.compile(r"(?:``|[\"“„«'‘`])\s*((?:\S+\s+){5,}?\S+)\s*(?:''|[\"”»'’])")
_CLITIC = regex.compile(r"^['’](?:s|t|re|ve|ll|d|m)$")
_FIRST_WORD_SPACE = regex.compile(r"^\S+\s+")
_WORDS = regex.compile(r"\S+")
_STRAY_MARKS = " '’‘`\"“”"
_THOUSANDS_COMMA = regex.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_KEPT_COMMA = "\u066c"
"""A number's thousands separator ("18,000") stands in as this mark while a sentence is cut into
facts, so that no clause ends inside a number (", which carries 18,000 vehicles a day,")."""
"""Quotation marks left at a fact's start once the quotation it closed was cut off."""

def _strip_quotes(text: str) -> str:
    """Scare quotes off ("' peculiar ' power cuts" -> "peculiar power cuts"); possessives and
    contractions ("Koirala 's", "wings '") stay."""
    text = _DOUBLE_MARK.sub(" ", text)
    if _OPEN_SINGLE.search(text):
        text = _OPEN_SINGLE.sub(" ", text)
        text = _CLOSING_SINGLE.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def quoted_speech(text: str) -> bool:
    """The sentence quotes someone: it opens with a quotation mark, or it has one and a verb of saying
    (a scare quote around one word is not speech)."""
    t = text.strip()
    if _OPENING_MARK.match(t):
        return True
    marks = _DOUBLE_MARK.findall(t) + _OPEN_SINGLE.findall(t)
    if not marks:
        return False
    if _SPEECH_VERB.search(t):
        return True
    # a long quotation without a verb of saying: more than four words between two marks
    inner = _LONG_QUOTATION.search(t)
    return inner is not None


_SHORT_QUOTATION = regex.compile(r"(?:``|[\"“„«])\s*((?:\S+\s+){0,3}?\S+)\s*(?:''|[\"”»])")
"""A quoted phrase of at most four words ("called the decision "a missed opportunity""): a phrase, not speech."""
_BEFORE_QUOTE = regex.compile(r"\s*(?:,\s*(?:and\s+|but\s+)?|\s+(?:and|but)\s+)")


def _stated_part(text: str) -> str | None:
    """What a sentence that quotes someone states in the article's own voice: all of it where its
    quotations are short phrases; where a long quotation follows a statement of eight words or more,
    that statement ("The minister said the state had offered 150 million euros and accused the
    company of "walking away from ..."" states the offer); else ``None`` (speech: "He said: "...")."""
    if _OPENING_MARK.match(text):
        return None
    phrases = _SHORT_QUOTATION.sub(r" \1 ", text)
    if not _DOUBLE_MARK.search(phrases) and not _OPEN_SINGLE.search(phrases):
        return text
    m = _LONG_QUOTATION.search(text)
    if m is None:
        return None
    cuts = [b.start() for b in _BEFORE_QUOTE.finditer(text, 0, m.start())]
    lead = text[: cuts[-1]].strip() if cuts else ""
    if _count(lead) < 8 or _DOUBLE_MARK.search(lead) or _OPEN_SINGLE.search(lead) or not shows_a_verb(lead, in_s=False):
        return None
    return lead


_COUNTED = regex.compile(r"(?<!\S)(?!['’](?:s|t|re|ve|ll|d|m)(?!\S))\S*[\p{L}\p{N}]\S*")
"""A word that counts toward a fact's length: one with a letter or digit, not a clitic ("'s")."""


def _count(text: str) -> int:
    return len(_COUNTED.findall(text))


_RUN_ON = 5
"""A fact with no boundary to cut at stays whole up to this many times the word limit; a longer one
(a run-on sentence of thousands of words) is cut at the limit, so no question outgrows a judge's window."""


_DANGLING = frozenset(
    "the a an and or but nor to of in on at for with from by as than that if into onto over under about "
    "between among without through during whose which who whom where when while formerly those these".split()
)
"""Words a cut fact may not end on: what they begin was cut off ("the first actor to be nominated for")."""


def _trimmed(text: str) -> str:
    """``text`` without the words at its end that lead into what a cut left out."""
    words = text.split()
    while len(words) > 3 and words[-1].lower().strip(" ,;:-") in _DANGLING:
        words.pop()
    if len(words) > 4 and words[-2] == ",":  # ", played" with its "by ..." cut off: the apposition goes
        words = words[:-2]
    return " ".join(words).rstrip(" ,;:-")


_SUBORDINATORS = frozenset(
    "when while after before because if unless who whom whose which that as since although though where until once".split()
)


def _subordinate_verb(low: list[str], i: int) -> bool:
    """The verb ``low[i]`` belongs to a clause that hangs off the main one, so the fact's predicate
    comes later: a subordinate clause a few words back ("when she played"), or a participle with its
    agent ("a dress worn by Vivien Leigh ... has fetched")."""
    if any(w in _SUBORDINATORS for w in low[max(0, i - 3):i]):
        return True
    return low[i] not in EN_AUX and i + 1 < len(low) and low[i + 1] == "by"


def _cap(words: list[str], limit: int) -> str:
    """At most ``limit`` words, cut at a clause boundary or before a preposition, after the fact's
    predicate (a cut before it leaves no fact: "a win for mcilroy on the hallowed grounds"); a fact
    that no such boundary would leave 8 words long stays whole, unless it is a run-on of more than
    ``_RUN_ON`` times the limit."""
    text = " ".join(words).rstrip(" .!;,")
    ends = [m.end() for m in _COUNTED.finditer(text)]
    if len(ends) <= limit:
        return text
    # never before the predicate: a cut must come after the end of the first verb
    spans = [m.span() for m in _WORDS.finditer(text)]
    low = [text[a:b].lower() for a, b in spans]
    # a capitalised word past the first is part of a name or title ("the film Gone With the Wind")
    verbs = [i for i in range(len(low)) if verb_at(low, i, in_s=False) and not (i and text[spans[i][0]].isupper())]
    # the main clause's verb, where it comes soon enough to keep the fact near its size
    main = next((i for i in verbs if not _subordinate_verb(low, i) and i < 1.5 * limit), verbs[0] if verbs else None)
    verb_end = spans[main][1] if main is not None else None
    if verb_end is None:
        return text if len(ends) <= _RUN_ON * limit else _trimmed(text[: ends[limit - 1]])
    best = None
    for m in _SPLIT_AT.finditer(text):
        n = bisect_right(ends, m.start())  # the words that end before the cut
        if n > limit:
            break
        if n >= 8 and m.start() >= verb_end:
            best = m.start()
    if best is None:
        return text if len(ends) <= _RUN_ON * limit else _trimmed(text[: ends[limit - 1]])
    return _trimmed(text[:best])


def atomic_facts(sentence: str, lang: str, max_words: int = 16, speech: bool = False) -> list[str]:
    """The facts of one source sentence, one subject and one predicate each, most central first: the
    main clause without attributions ("police said"), appositions (", the founder of X ,"),
    introductory and trailing clauses; then, as facts of their own, a non-restrictive relative clause
    with its head ("Koirala , who rescues victims , has ..." gives "Koirala rescues victims") and an
    introductory clause ("While the facility seems unharmed , ..." gives "the facility seems
    unharmed"); each split at its coordinations (:func:`split_statements`) and cut to about
    ``max_words`` words at a clause boundary. Quoted speech, questions and conditionals give none.
    Languages other than English get :func:`split_statements` only."""
    text = _THOUSANDS_COMMA.sub(_KEPT_COMMA, sentence.strip())
    if lang != "en":
        return [f.replace(_KEPT_COMMA, ",") for f in split_statements(text, lang)]
    if not text or text.rstrip().endswith("?") or "#" in text or _CONDITIONAL.match(text):
        return []
    if quoted_speech(text) and not speech:
        stated = _stated_part(text)
        if stated is None:
            return []
        text = stated
    if _CAPTION_LABEL.match(text):
        return []  # a caption: :func:`caption_text` gives it back for places the body leaves free
    text = _strip_quotes(text)
    main: list[str] = []
    extra: list[str] = []
    text = _DASHES.sub(" ", text)
    text = _WEEKDAY_PHRASE.sub("", text)
    text = _ATTRIBUTION_TAIL.sub("", text)
    said = _unattributed(text)
    two = _SAID_TOO.match(said) if said != text else None
    if two and not opens_with_pronoun(two.group("second")):
        # "X said A, but warned that B": B is what X said too, not something A's subject did
        said = two.group("first")
        extra.append(two.group("second"))
    text = said
    for _ in range(2):
        text = _INTRO_ADVERB.sub("", text, count=1)
    when = _INTRO_PHRASE.match(text)
    if when:  # "In 1903, the museum was rebuilt" -> "the museum was rebuilt in 1903": the date stays
        rest, phrase = text[when.end():].rstrip(" .!;"), when.group("phrase")
        # "Until then, ..." points back to another sentence: it goes, as it would say nothing alone
        text = rest if phrase.split()[-1].lower() in _POINTING_BACK else f"{rest} {phrase[:1].lower()}{phrase[1:]}"
    m = _INTRO_CLAUSE.match(text)
    if m:
        sub = _FIRST_WORD_SPACE.sub("", m.group("sub"))
        kind = m.group("sub").split()[0].lower()
        if kind in {"while", "although", "though", "whereas", "because", "since", "as", "once"} and not sub.split()[0].lower().endswith("ing"):
            extra.append(sub)
        text = m.group("main")
    text = _INTRO_PARTICIPLE.sub("", text, count=1)
    text = _unattributed(text)
    r = _RELATIVE.search(text)
    if r and r.group("rel").split()[0].lower() == "who":
        head = antecedent(text[: r.start()].strip().split())
        if 1 <= len(head.split()) <= 6:
            extra.insert(0, f"{head} {r.group('rel').split(None, 1)[1] if len(r.group('rel').split()) > 1 else ''}".strip())
    text = _RELATIVE.sub(" ", text)
    text = _APPOSITION.sub(" ", text)
    text = _PARTICIPLE_APPOSITION.sub(" ", text)
    text = _TRAILER.sub("", text)
    main.append(_SPACES.sub(" ", text).strip(" ,;:-"))
    out: list[str] = []
    for piece in main + extra:
        for s in _statements(piece):
            s = _INTRO_ADVERB.sub("", s, count=1).lstrip(_STRAY_MARKS).strip(" ,;:-")
            words = s.split()
            if len(words) < 3:
                continue
            s = _cap(words, max_words).replace(_KEPT_COMMA, ",")
            if s and s not in out and states_a_fact(s):
                out.append(s)
    if not out:  # no clause of its own stands: the sentence, cut to size, is the fact
        whole = _cap(_strip_quotes(_THOUSANDS_COMMA.sub(_KEPT_COMMA, sentence)).split(), max_words).replace(_KEPT_COMMA, ",")
        if states_a_fact(whole):
            out.append(whole)
    return out


def caption_text(sentence: str, lang: str = "en") -> str | None:
    """A caption's text without its label ("Viral : the image has been shared 2.9million times" ->
    "the image has been shared 2.9million times"), ``None`` when ``sentence`` is no caption (or not
    English)."""
    m = _CAPTION_LABEL.match(sentence) if lang == "en" else None
    return sentence[m.end():] if m else None


def _statements(text: str) -> list[str]:
    """:func:`split_statements`, keeping a predicate split only where each part has a verb of its
    own: "home to 425 young women and girls" and "from safety and healing" stay whole."""
    out: list[str] = []
    clauses = split_clauses(text, "en", min_words=4, keep_joins=False)
    found = en_subject(clauses[0].split()) if len(clauses) > 1 else None
    if found and (len(found[0].split()) > 5 or "to" in found[0].lower().split()):
        found = None
    for n, clause in enumerate(clauses):
        first = clause.split(None, 1)[0] if clause.strip() else ""
        low = first.lower()
        if n and found and first[:1].islower() and (
            low in EN_AUX or ed_verb(low) or IRREGULAR_EN.get(low, low) != low
        ):
            clause = f"{found[0]} {clause}"  # ", but drew his gun instead": the subject given back
        parts = split_predicates(clause, "en")
        if len(parts) > 1:
            if any(len(_own_words(parts[0], p)) < 3 or _own_words(parts[0], p)[0].lower().endswith("ing") for p in parts[1:]):
                parts = [clause]
        out.extend(parts)
    return [s for s in (p.strip() for p in out) if s]


def _own_words(first: str, part: str) -> list[str]:
    """The words of ``part`` after the subject it shares with ``first`` (punctuation left out)."""
    a, b = first.split(), [w for w in part.split() if WORD.search(w)]
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return b[i:] or [""]
