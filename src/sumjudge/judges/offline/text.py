"""Text processing for the offline judge: sentences, clauses, tokens, stems, numbers and names.

Everything here is deterministic and needs no model. The parts:

- :func:`detect_language`: the script decides CJK, Hangul and Cyrillic; for Latin script a vote of
  function words picks among the languages we have lists for.
- :func:`split_sentences`: ``syntok`` (a rule-based segmenter for European languages that knows
  abbreviations, initials, ordinals and quotes; pure Python, about 3 ms per 1,000 words), after a
  pre-split at the unambiguous CJK full stops (``。！？``), and a post-split at a stand-alone
  `` . `` token, which tokenized corpora use and no abbreviation ever produces.
- :func:`split_clauses`: a sentence split where a part states a fact of its own (``;`` and a
  coordinating conjunction after a comma, each side long enough to be a claim).
- :class:`TextAnalyzer`: Unicode word tokens, Snowball stems, stop words out; Hangul words lose
  their trailing particle and become character bigrams, Chinese and Japanese runs become character
  bigrams; numbers are normalised ("1,000" = "1000", "95 percent" = "95%", "seven" = "7"); proper
  names are capitalised words that do not start a sentence (or that the text capitalises elsewhere
  mid-sentence), month and weekday names count as names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import regex

# --------------------------------------------------------------------------------------------------
# Word lists. Small and hand-written: stop words decide what a "content word" is, and also vote
# for the language of a Latin-script text.

STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        """a about above after again against all also am an and any are aren as at be because been
        before being below between both but by can cannot could couldn did didn do does doesn doing don
        down during each either few for from further had hadn has hasn have haven having he her here hers
        herself him himself his how however i if in into is isn it its itself just let ll me more most
        much must mustn my myself neither no nor not now of off on once one only or other ought our ours
        ourselves out over own re s said same say says shall she should shouldn so some such t than
        that the their theirs them themselves then there these they this those though through to too
        under until up upon us ve very was wasn we were weren what when where whether which while who
        whom whose why will with within without won would wouldn yet you your yours yourself
        yourselves also according told tell mr mrs ms dr new like get got make made well back even still
        way many another among around may might""".split()
    ),
    "de": frozenset(
        """aber alle als also am an auch auf aus bei bin bis bist da dadurch daher darum das dass dem
        den der des dessen die dies diese dieser dieses doch dort du durch ein eine einem einen einer
        eines er es euer eure für hatte hatten hat hattest hier hinter ich ihr ihre im in ist ja jede
        jedem jeden jeder jedes jener jetzt kann kannst können könnt machen mein meine mit muss musst
        müssen nach nachdem nein nicht nun noch nur ob oder ohne sehr sein seine sich sie sind so
        sondern sowie über um und uns unser unter vom von vor wann warum was weiter weitere wenn wer
        werde werden wie wieder wir wird wirst wo zu zum zur wurde wurden war waren sagte""".split()
    ),
    "fr": frozenset(
        """a ai au aux avec avait ce ces cet cette dans de des du elle elles en est et été être eux il
        ils je la le les leur leurs lui ma mais me même mes moi mon ne nos notre nous on ont ou où par
        pas pour qu que qui sa se ses son sont sur ta te tes toi ton tu un une vos votre vous y était
        étaient sera fait plus selon comme dit""".split()
    ),
    "es": frozenset(
        """a al algo ante como con contra cual cuando de del desde donde durante e el ella ellas ellos
        en entre era es esa ese eso esta este esto estos fue fueron ha han hasta hay la las le les lo
        los más me mi muy no nos o otra otro para pero por que qué se ser si sin sobre son su sus también
        te tu un una uno unos y ya dijo según""".split()
    ),
    "it": frozenset(
        """a ad al alla alle allo anche che chi ci con come da dal dalla dei del della delle dello di
        e è ed era erano gli ha hanno i il in la le lo ma mi ne nei nel nella non o per più quale quando
        questa questo se si sono su sua sue suo tra un una uno fu ha detto secondo""".split()
    ),
    "pt": frozenset(
        """a ao aos as à com como da das de do dos e é ela elas ele eles em entre era foi foram há isso
        isto já mais mas me muito na nas não no nos o os ou para pela pelas pelo pelos por que se sem
        ser seu seus sua suas também um uma uns disse segundo""".split()
    ),
    "nl": frozenset(
        """aan al alles als bij dan dat de der deze die dit door een en er geen had heb hebben heeft
        het hij hoe hun ik in is je kan maar me met mij na naar niet nog nu of om omdat ons ook op
        over te tegen toen tot u uit van voor was waren wat we wel werd wie wij wordt zal ze zei zich
        zij zijn zo zou""".split()
    ),
}

SNOWBALL = {
    "en": "english",
    "de": "german",
    "fr": "french",
    "es": "spanish",
    "it": "italian",
    "pt": "portuguese",
    "nl": "dutch",
    "ru": "russian",
    "sv": "swedish",
}

# English number words, so that "seven minutes" matches "7 minutes".
NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
        fifteen sixteen seventeen eighteen nineteen twenty""".split()
    )
}
NUMBER_WORDS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70",
                     "eighty": "80", "ninety": "90", "hundred": "100", "thousand": "1000",
                     "dozen": "12", "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th",
                     "fifth": "5th", "sixth": "6th", "seventh": "7th", "eighth": "8th", "ninth": "9th",
                     "tenth": "10th"})
# "one" is too often a pronoun ("the one who"); it is still a stop word, never a number.
NUMBER_WORDS.pop("one")
SCALE_WORDS = frozenset({"million", "billion", "trillion", "millions", "billions", "m", "bn"})
PERCENT_WORDS = frozenset({"percent", "per cent", "pct", "prozent", "pour cent", "por ciento", "per cento"})

DATE_WORDS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday
    sunday""".split()
)
# "may", "march" and "sun" are also ordinary words; they count as dates only when capitalised.

# Korean particles and copula endings that attach to a word; the longest match is removed.
KO_PARTICLES = tuple(
    sorted(
        """은 는 이 가 을 를 의 에 에서 에게 에게서 께 께서 한테 으로 로 으로서 로서 으로써 로써 와 과 도 만
        부터 까지 보다 처럼 이나 나 이며 이고 이다 였다 이었다 입니다 이었습니다 라고 이라고 고 에는 에서는
        으로는 로는 와는 과는 에도 에서도 들 들은 들이 들을 들의 들에게""".split(),
        key=len,
        reverse=True,
    )
)

# --------------------------------------------------------------------------------------------------
# Regular expressions (the `regex` module: Unicode properties).

_HANGUL = regex.compile(r"\p{Hangul}")
_HAN = regex.compile(r"\p{Han}")
_KANA = regex.compile(r"[\p{Hiragana}\p{Katakana}]")
_CYRILLIC = regex.compile(r"\p{Cyrillic}")
_LATIN_WORD = regex.compile(r"\p{Latin}+")

# A token: a number (with inner separators, decimal point, optional %), a CJK run, or a word
# (letters, marks, inner apostrophes and hyphens).
_TOKEN = regex.compile(
    r"""
    (?P<num>\d+(?:[.,:]\d+)*(?:\s?%)?)
    | (?P<cjk>[\p{Han}\p{Hiragana}\p{Katakana}]+)
    | (?P<word>[\p{L}\p{M}\p{N}]+(?:['’\-][\p{L}\p{M}\p{N}]+)*)
    """,
    regex.VERBOSE,
)
_CJK_STOP = regex.compile(r"(?<=[。！？])")
_SPACED_STOP = regex.compile(r"(?<=\s[.!?])\s+")
_WS = regex.compile(r"\s+")


def detect_language(text: str) -> str:
    """A two-letter code for the text's language, or ``"xx"`` when it is none we know."""
    sample = text[:4000]
    hangul = len(_HANGUL.findall(sample))
    han = len(_HAN.findall(sample))
    kana = len(_KANA.findall(sample))
    cyr = len(_CYRILLIC.findall(sample))
    latin = sum(len(m) for m in _LATIN_WORD.findall(sample))
    script_max = max(hangul, han + kana, cyr, latin)
    if script_max == 0:
        return "xx"
    if hangul == script_max:
        return "ko"
    if han + kana == script_max:
        return "ja" if kana > 0 else "zh"
    if cyr == script_max:
        return "ru"
    words = [w.lower() for w in _LATIN_WORD.findall(sample)]
    best, best_hits = "en", 0
    for lang, stops in STOPWORDS.items():
        hits = sum(1 for w in words if w in stops)
        if hits > best_hits:
            best, best_hits = lang, hits
    return best


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, in order, stripped; never empty strings."""
    from syntok import segmenter  # syntok imports in ~20 ms; keep it off the `import sumjudge` path

    out: list[str] = []
    for block in _CJK_STOP.split(text):
        if not block.strip():
            continue
        for paragraph in segmenter.process(block):
            for sentence in paragraph:
                raw = "".join(t.spacing + t.value for t in sentence).strip()
                for part in _SPACED_STOP.split(raw):
                    part = part.strip()
                    if part:
                        out.append(part)
    return out


_EN_CLAUSE_SPLIT = regex.compile(
    r"\s*(?:;|,\s*(?:and|but|while|whereas|although|though|yet|so|as)\s|\s+(?:but|while|whereas)\s)\s*",
    regex.IGNORECASE,
)
_KO_CLAUSE_SPLIT = regex.compile(r"(?<=\p{Hangul}(?:고|며|으며|지만|는데|은데|었고|했고|했으며)),\s*")
_GENERIC_CLAUSE_SPLIT = regex.compile(r"\s*;\s*")


def split_clauses(sentence: str, lang: str, min_words: int = 4) -> list[str]:
    """Split a sentence where each part states a fact of its own; parts shorter than
    ``min_words`` words stay attached to their neighbour."""
    if lang == "en":
        pieces = _EN_CLAUSE_SPLIT.split(sentence)
    elif lang == "ko":
        pieces = _KO_CLAUSE_SPLIT.split(sentence)
    else:
        pieces = _GENERIC_CLAUSE_SPLIT.split(sentence)
    pieces = [p.strip() for p in pieces if p and p.strip()]
    if len(pieces) <= 1:
        return [sentence.strip()]
    merged: list[str] = []
    for piece in pieces:
        if merged and (len(piece.split()) < min_words or len(merged[-1].split()) < min_words):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    if len(merged) > 1 and len(merged[-1].split()) < min_words:
        last = merged.pop()
        merged[-1] = f"{merged[-1]} {last}"
    return merged


_EN_PHRASE_SPLIT = regex.compile(
    r"\s*(?:[;:]|\s[-–—]\s|,\s*(?:and|but|while|whereas|although|though|yet|so|as|after|before|when|because)\s|\s+(?:but|while|whereas|after|because|as|when|before)\s)\s*",
    regex.IGNORECASE,
)

_LEADING_CONJUNCTION = regex.compile(r"^(?:and|but|so|yet|or)\s+", regex.IGNORECASE)


def split_fact_phrases(sentence: str, lang: str, min_words: int = 5) -> list[str]:
    """Split a source sentence into the short statements a question can ask about: at ``;``,
    ``:``, a dash, and a word that opens a clause ("and", "but", "after", "because", ...). A
    part shorter than ``min_words`` words stays joined to its neighbour, with the words between."""
    if lang != "en":
        return split_clauses(sentence, lang, min_words=min_words)
    text = sentence.strip()
    spans: list[list[int]] = []
    pos = 0
    for m in _EN_PHRASE_SPLIT.finditer(text):
        if m.start() > pos:
            spans.append([pos, m.start()])
        pos = m.end()
    if pos < len(text):
        spans.append([pos, len(text)])
    if len(spans) <= 1:
        return [text]

    def words(span: list[int]) -> int:
        return len(text[span[0] : span[1]].split())

    merged: list[list[int]] = []
    for span in spans:
        if merged and (words(span) < min_words or words(merged[-1]) < min_words):
            merged[-1][1] = span[1]
        else:
            merged.append(span)
    if len(merged) > 1 and words(merged[-1]) < min_words:
        last = merged.pop()
        merged[-1][1] = last[1]
    out = [_LEADING_CONJUNCTION.sub("", text[a:b].strip()) for a, b in merged]
    return [p for p in out if p]


# --------------------------------------------------------------------------------------------------
# Analysis of a sentence into comparable units.


def _normalise_number(raw: str) -> str:
    s = raw.replace(" ", "")
    percent = s.endswith("%")
    s = s.rstrip("%")
    if regex.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", s):
        s = s.replace(",", "")
    elif regex.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", s):  # 1.000.000,5 (continental)
        s = s.replace(".", "").replace(",", ".")
    if "." in s and regex.fullmatch(r"\d+\.\d+", s):
        s = s.rstrip("0").rstrip(".")
    return s + ("%" if percent else "")


@dataclass
class Sentence:
    """One sentence (or clause) reduced to what the judge compares."""

    text: str
    units: frozenset[str]
    """Content units: stems of content words, numbers, CJK character bigrams."""
    numbers: tuple[str, ...]
    """Normalised numbers, in order of appearance, without repeats."""
    number_forms: dict[str, str]
    """Normalised number -> the form the text writes it in."""
    names: tuple[str, ...]
    """Stems of proper names and dates, in order, without repeats."""
    name_forms: dict[str, str]
    """Name stem -> the form the text writes it in."""
    forms: dict[str, str] = field(default_factory=dict)
    """Content unit -> the word the text writes it with (for reasons)."""
    sequence: tuple[str, ...] = ()
    """The content units in the order the text writes them (repeats kept)."""
    bigrams: frozenset[tuple[str, str]] = frozenset()
    """Neighbouring pairs of all tokens (stop words too), stemmed: the text's local word order."""

    @cached_property
    def positions(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, u in enumerate(self.sequence):
            out.setdefault(u, []).append(i)
        return out

    @cached_property
    def content(self) -> int:
        return len(self.units)


class TextAnalyzer:
    """Turns text into :class:`Sentence` objects for one language; memoises stems.

    One analyser per judge; its memo only ever maps a word to its stem, so it holds no
    per-evaluation state. It is bounded so that a long-running process does not grow without limit.
    """

    _MAX_MEMO = 200_000

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.stops = STOPWORDS.get(lang, frozenset())
        self._stemmer = None
        if lang in SNOWBALL:
            import snowballstemmer  # uses PyStemmer's C code when it is installed

            self._stemmer = snowballstemmer.stemmer(SNOWBALL[lang])
        self._memo: dict[str, str] = {}

    def stem(self, word: str) -> str:
        s = self._memo.get(word)
        if s is None:
            s = self._stemmer.stemWord(word) if self._stemmer is not None else word
            if len(self._memo) >= self._MAX_MEMO:
                self._memo.clear()
            self._memo[word] = s
        return s

    def analyse(self, text: str, *, capitalised_elsewhere: frozenset[str] = frozenset()) -> Sentence:
        """Reduce one sentence. ``capitalised_elsewhere`` holds lower-cased words that the wider text
        capitalises in mid-sentence, so that a name that opens this sentence is still a name."""
        numbers: dict[str, str] = {}
        names: dict[str, str] = {}
        forms: dict[str, str] = {}
        seq: list[str] = []
        every: list[str] = []
        matches = list(_TOKEN.finditer(text))
        first_word = True

        def number(norm: str, tok: str) -> None:
            numbers.setdefault(norm, tok)
            seq.append("#" + norm)
            forms.setdefault("#" + norm, tok)

        def char_grams(chars: str) -> None:
            for gram in _char_ngrams(chars):
                seq.append(gram)
                forms.setdefault(gram, chars)

        for i, m in enumerate(matches):
            kind = m.lastgroup
            tok = m.group()
            n_before = len(seq)
            if kind == "num":
                norm = _normalise_number(tok)
                # "95 percent" -> "95%"
                nxt = matches[i + 1].group().lower() if i + 1 < len(matches) else ""
                if not norm.endswith("%") and nxt in PERCENT_WORDS:
                    norm += "%"
                elif not norm.endswith("%") and nxt == "per" and i + 2 < len(matches) and (
                    matches[i + 2].group().lower() == "cent"
                ):
                    norm += "%"
                number(norm, tok)
            elif kind == "cjk":
                char_grams(tok)
            elif _HANGUL.search(tok):
                char_grams(_strip_particle(tok))
            # Korean attaches counters to numbers ("3일", "1월"): the token regex yields them as a word.
            elif digits := regex.match(r"\d+", tok):
                number(_normalise_number(digits.group()), tok)
            else:
                low = tok.lower()
                if self.lang == "en" and low.endswith(("'s", "’s")):
                    low = low[:-2]
                is_date = low in DATE_WORDS and (tok[:1].isupper() or low not in {"may", "march", "sun"})
                if self.lang == "en" and low in NUMBER_WORDS:
                    number(NUMBER_WORDS[low], tok)
                elif low in self.stops and not is_date:
                    every.append(low)
                else:
                    stem = self.stem(low)
                    if not stem:
                        continue
                    seq.append(stem)
                    forms.setdefault(stem, tok)
                    is_cap = tok[:1].isupper() and not tok.isupper() or (tok.isupper() and len(tok) > 1)
                    if is_date:
                        names.setdefault(stem, tok)
                    elif is_cap and (not first_word or low in capitalised_elsewhere) and len(low) > 1:
                        names.setdefault(stem, tok)
            every.extend(seq[n_before:])
            first_word = False
        return Sentence(
            text=text,
            units=frozenset(seq),
            numbers=tuple(numbers),
            number_forms=numbers,
            names=tuple(names),
            name_forms=names,
            forms=forms,
            sequence=tuple(seq),
            bigrams=frozenset(zip(every, every[1:])),
        )


def capitalised_words(text: str) -> frozenset[str]:
    """Lower-cased words that ``text`` capitalises somewhere other than a sentence start."""
    out: set[str] = set()
    for m in regex.finditer(r"(?<=[\p{L}\p{N},;:]\s+)(\p{Lu}[\p{Ll}\p{M}]+)", text):
        out.add(m.group(1).lower())
    return frozenset(out)


def _strip_particle(word: str) -> str:
    for p in KO_PARTICLES:
        if len(word) >= len(p) + 2 and word.endswith(p):
            return word[: -len(p)]
    return word


def _char_ngrams(run: str, n: int = 2) -> list[str]:
    if len(run) <= n:
        return [run]
    return [run[i : i + n] for i in range(len(run) - n + 1)]


def normalise_space(text: str) -> str:
    return _WS.sub(" ", text).strip()
