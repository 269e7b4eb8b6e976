"""The probe's own word lists: what its rules change a word into, and which words they leave alone.

Written for the probe and for nothing else. They are deliberately not the offline judge's lexicons
(``summarization/offline``): a probe whose variants came from the judge's own word lists would
grade the judge by itself (an import-linter contract keeps this package from importing it).
"""

from __future__ import annotations

MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

NUMBER_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "fifteen",
    "twenty", "thirty", "forty", "fifty", "hundred", "thousand", "million", "billion",
)
"""Spelled-out figures (``one`` is left out: it is a pronoun as often as a number)."""

ANTONYMS: tuple[tuple[str, str], ...] = (
    ("increase", "decrease"), ("increased", "decreased"), ("increases", "decreases"),
    ("rise", "fall"), ("rose", "fell"), ("rises", "falls"), ("risen", "fallen"),
    ("higher", "lower"), ("more", "fewer"), ("most", "least"), ("largest", "smallest"),
    ("large", "small"), ("big", "small"), ("bigger", "smaller"), ("biggest", "smallest"),
    ("won", "lost"), ("win", "lose"), ("wins", "loses"), ("winning", "losing"), ("winner", "loser"),
    ("first", "last"), ("before", "after"), ("early", "late"), ("earlier", "later"),
    ("young", "old"), ("younger", "older"), ("youngest", "oldest"),
    ("good", "bad"), ("better", "worse"), ("best", "worst"),
    ("happy", "sad"), ("safe", "dangerous"), ("alive", "dead"), ("rich", "poor"),
    ("strong", "weak"), ("stronger", "weaker"), ("long", "short"), ("longer", "shorter"),
    ("full", "empty"), ("open", "closed"), ("opened", "closed"), ("new", "old"), ("guilty", "innocent"),
    ("accepted", "rejected"), ("accept", "reject"), ("approved", "rejected"), ("allowed", "banned"),
    ("bought", "sold"), ("buy", "sell"), ("gained", "lost"),
    ("success", "failure"), ("successful", "unsuccessful"), ("positive", "negative"),
    ("legal", "illegal"), ("public", "private"), ("male", "female"), ("true", "false"),
    ("started", "ended"), ("began", "ended"), ("support", "oppose"),
    ("supported", "opposed"), ("praised", "criticised"), ("agreed", "refused"), ("hired", "fired"),
    ("easy", "difficult"), ("cheap", "expensive"), ("north", "south"), ("east", "west"),
    ("rescued", "abandoned"), ("survived", "died"), ("victory", "defeat"), ("increase", "cut"),
)
"""Pairs read both ways. A word with two antonyms takes the first listed."""

AUXILIARIES = (
    "is", "was", "are", "were", "has", "have", "had", "will", "would", "can", "could", "should", "must",
    "may", "might", "did", "does", "do",
)
"""Where ``not`` can be put after the word and the sentence stays grammatical."""

NEGATIONS = ("not", "n't", "never", "no", "nobody", "nothing", "none", "neither", "nor", "without")

NEW_FIRST_NAMES = (
    "Oswin", "Marisol", "Teodor", "Ingrid", "Caspian", "Leontyne", "Bartholomew", "Philippa", "Evander",
    "Rosalind", "Thaddeus", "Ottilie", "Lysander", "Henrietta", "Ambrose", "Clementine",
)
NEW_SURNAMES = (
    "Quimby", "Haverford", "Okonkwo-Bell", "Vasquez-Lindqvist", "Pemberton", "Abernathy", "Drummond",
    "Castellanos", "Fairweather", "Kowalczyk", "Lindgren", "Ashworth", "Montgomerie", "Thistlewood",
)
NEW_PLACES = (
    "Wrexford", "Port Almira", "Kestrel Bay", "Novosibirsk", "Ballinasloe", "Tarrowmere", "Valparaiso",
    "Greyhaven", "Oakridge Falls", "Montevallo",
)

NOT_NAMES = frozenset(
    """a an the this that these those it its he she they them his her their we our you your i my me
    mr mrs ms dr sir st but and or if when while after before as at in on of for by with from to into
    there here then so yet also however although though because since still just only even all some
    many most much more few several both each every any no not one two three first last new former
    last next who what where which why how cnn ap reuters daily mail bbc photo video click scroll
    read watch follow see pictured left right above below top bottom monday tuesday wednesday thursday
    friday saturday sunday january february march april may june july august september october november
    december today yesterday tomorrow tonight""".split()
)
"""Capitalised words that are not names (lower-cased), whatever their place in the sentence."""

SENTENCE_OPENERS_TO_KEEP = frozenset(
    "he she it they this these those that his her their its but however also and so then there such".split()
)
"""A sentence that opens with one of these leans on the one before it: ``reorder`` never moves it to the front."""

CONTENT_STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is was are were be been being has have
    had do does did will would can could should may might must not no it its he she they them his her
    their this that these those there here who what which when where why how than then so such also
    just only very more most said says say after before about over into out up down off again while
    all any both each few other some own same too s t 's n't one two""".split()
)
"""Words that carry no fact of their own, left out when sentences are compared by the facts they share."""
