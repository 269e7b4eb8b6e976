"""Numbers as values, so that a words-only judge sees one fact in its many spellings.

The analyser reads each number token on its own ("ten" is 10, "thousand" is 1000, "9th" is 9). Here
the same text is read again for what those tokens say together and in other forms:

- **compounds**: "ten thousand", "137 thousand", "fifteen hundred", "sixty seven", "two-thousand-
  thirteen", "42.5 million", "£16m", "52 500" are 10000, 137000, 1500, 67, 2013, 42500000, 16000000,
  52500, as "10,000", "137,000", "$1,500", "67", "2013", "£42.5million" are;
- **ordinals**: "9th" and "ninth" are one rank (and no cardinal: "the second half" is no "two");
- **clock times**: "4:00PM" is the "4pm" of the source;
- **decades**: "the 1980s", "the 80s", "the '80s" and "the eighties" are one decade.

:func:`number_keys` gives each normalised number of a text the set of values it may stand for; two
texts state the same number when their sets meet. Nothing here makes two *different* values equal:
"44" is still not "43", and "137 thousand" is not "237,000".
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

import regex

from .lexicon import NUMBER_WORDS
from .words import normalise_number

_UNITS = {w: int(v) for w, v in NUMBER_WORDS.items() if v.isdigit() and int(v) < 20} | {"one": 1, "a": 1}
_TENS = {
    w: int(v) for w, v in NUMBER_WORDS.items() if v.isdigit() and 20 <= int(v) < 100 and not w.endswith("ies")
}
_SCALES = {
    "hundred": 100, "thousand": 1_000, "k": 1_000, "million": 1_000_000, "m": 1_000_000, "mn": 1_000_000,
    "billion": 1_000_000_000, "bn": 1_000_000_000, "b": 1_000_000_000, "trillion": 1_000_000_000_000,
    "tn": 1_000_000_000_000,
}
_ORDINALS = {w: int(v[:-2]) for w, v in NUMBER_WORDS.items() if v.endswith(("st", "nd", "rd", "th"))}
_DECADE_WORDS = {w: int(v) for w, v in NUMBER_WORDS.items() if w.endswith("ies")}

# One piece of a number expression: a figure (with thousands separators or a decimal point, or a
# figure glued to a scale: "16m", "42.5million"), a word, or the joiners between them.
_PIECE = regex.compile(
    r"(?P<fig>\d+(?:[.,]\d+)*)(?P<glued>(?:million|billion|trillion|thousand|mn|bn|tn|m|b|k)\b)?"
    r"|(?P<word>[^\W\d_]+)|(?P<gap>[\s\-]+)|(?P<other>.)",
    regex.IGNORECASE,
)
_TIME = regex.compile(r"(\d{1,2}):00")


def _fmt(value: Decimal) -> str:
    """A value as :func:`.words.normalise_number` writes one ("10000", "42.5")."""
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _figure(text: str) -> Decimal | None:
    norm = normalise_number(text)
    try:
        return Decimal(norm)
    except InvalidOperation:
        return None


def _expressions(text: str) -> Iterator[tuple[list[str], Decimal]]:
    """(the expression's pieces as the analyser normalises them, its value) for each run of two or
    more number pieces: "ten thousand" -> (["10", "1000"], 10000)."""
    reader = _Reader()
    for m in _PIECE.finditer(text):
        kind = "fig" if m.group("fig") else m.lastgroup
        if kind == "gap" and "\n" not in m.group():
            continue
        if kind == "fig":
            yield from reader.take("fig", m.group("fig"))
            if m.group("glued"):
                yield from reader.take("scale", m.group("glued").lower())
            continue
        low = m.group().lower()
        if kind == "word" and (low in _UNITS or low in _TENS or low in _SCALES or low in ("and", "point")):
            yield from reader.take(_word_kind(low), low)
        else:
            yield from reader.flush()
    yield from reader.flush()


def _word_kind(low: str) -> str:
    if low in ("and", "point", "a"):
        return low
    if low == "hundred":
        return "hundred"
    if low in _SCALES:
        return "scale"
    if low in _TENS:
        return "tens"
    return "unit" if _UNITS[low] < 10 else "teen"


# What may follow what inside one number ("sixty seven", "fifteen hundred", "two hundred and five",
# "ten thousand", "42.5 million", "52 500"); anything else starts a new number.
_FOLLOWS = {
    None: {"fig", "unit", "teen", "tens", "a"},
    "a": {"hundred", "scale"},
    "fig": {"fig", "hundred", "scale", "point"},
    "unit": {"hundred", "scale", "point"},
    "teen": {"hundred", "scale"},
    "tens": {"unit", "hundred", "scale"},
    "hundred": {"unit", "teen", "tens", "scale", "and"},
    "scale": {"unit", "teen", "tens", "and"},
    "and": {"unit", "teen", "tens"},
    "point": {"unit", "fig"},
    "decimal": {"unit", "scale"},
}


class _Reader:
    """Reads number pieces one at a time, yielding each finished expression of two or more."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.total = Decimal(0)
        self.current: Decimal | None = None
        self.decimals = ""
        self.parts: list[str] = []
        self.last: str | None = None
        self.last_piece = ""

    def flush(self) -> Iterator[tuple[list[str], Decimal]]:
        current = self.current or Decimal(0)
        if self.decimals:
            current += Decimal("0." + self.decimals)
        value = self.total + current
        if len(self.parts) >= 2 and value > 0:
            yield self.parts, value
        self._reset()

    def take(self, kind: str, piece: str) -> Iterator[tuple[list[str], Decimal]]:
        allowed = _FOLLOWS["decimal" if self.decimals else self.last]
        if kind == "fig" and self.last == "fig" and not (
            len(piece) == 3 and piece.isdigit() and self.last_piece.isdigit() and len(self.last_piece) <= 3
        ):
            allowed = set()  # "52 500" is one figure; "2 3" and "2012 100" are two
        if kind not in allowed:
            yield from self.flush()
            if kind not in _FOLLOWS[None]:
                return
        if kind in ("a", "and", "point"):
            self.last = kind
            return
        if (self.last == "point" or self.decimals) and kind in ("unit", "fig"):
            digits = str(_UNITS[piece]) if kind == "unit" else piece
            self.decimals += digits
            self.parts.append(digits)
            return
        if self.decimals:
            self.current = (self.current or Decimal(0)) + Decimal("0." + self.decimals)
            self.decimals = ""
        self.last_piece = piece
        if kind == "fig":
            value = _figure(piece)
            if value is None:
                yield from self.flush()
                return
            glued = self.last == "fig"
            self.current = (self.current or Decimal(0)) * (1000 if glued else 1) + value
            self.parts.append(normalise_number(piece))
        elif kind in ("unit", "teen", "tens"):
            value = Decimal(_UNITS.get(piece, _TENS.get(piece, 0)))
            self.current = (self.current or Decimal(0)) + value
            self.parts.append(str(int(value)))
        elif kind == "hundred":
            self.current = (self.current if self.current is not None else Decimal(1)) * 100
            self.parts.append("100")
        else:
            scale = _SCALES[piece]
            base = self.current if self.current is not None else Decimal(1)
            self.total += base * scale
            self.current = None
            self.parts.append(str(scale))
        self.last = kind


def _decade(value: str, form: str, decades: frozenset[str]) -> set[str]:
    """The decade a number written as one names, as "1980s" ("the 1980s", "the 80s", "the '80s",
    "the eighties"); two-digit decades stand for the 1900s and the 2000s both. ``decades``: the
    figures the text writes with an "s" after them."""
    low = form.lower()
    if low in _DECADE_WORDS:
        tens = str(_DECADE_WORDS[low])
    elif form in decades and value.endswith("0"):
        tens = value
    else:
        return set()
    if len(tens) == 4:
        return {tens + "s"}
    return {f"19{tens}s", f"20{tens}s"} if len(tens) == 2 else set()


_DECADE_FIGURE = regex.compile(r"(?<![\d.,])(\d+)\s?['’]?\s?s\b")
_ORDINAL_FIGURE = regex.compile(r"(?<![\d.,])(\d+)\s?(?:st|nd|rd|th)\b", regex.IGNORECASE)


_CLOCK = regex.compile(r"(\d{1,2}):(\d\d)(?::(\d\d))?")
_DURATION = regex.compile(
    r"(?<![\d.,])(?:(\d{1,2})\s*(?:hours?|hrs?|h)\b[\s,]*(?:and\s+)?)?(\d{1,2})\s*(?:minutes?|mins?|m)\b"
    r"(?:[\s,]*(?:and\s+)?(\d{1,2})\s*(?:seconds?|secs?|s)\b)?",
    regex.IGNORECASE,
)
"""A duration in words ("2 hours 17 minutes and 41 seconds", "3 min 5 s"), written as a clock reads it."""


def _durations(text: str) -> dict[str, str]:
    """Each figure of a duration in words, mapped to the duration as a clock writes it: "2 hours 17
    minutes and 41 seconds" gives "2", "17" and "41" the key "2:17:41", so that a text that writes
    "2:17:41" has the same numbers."""
    out: dict[str, str] = {}
    for m in _DURATION.finditer(text):
        hours, minutes, seconds = m.groups()
        if hours is None and seconds is None:
            continue  # "17 minutes" alone is a count, as it was
        clock = (f"{int(hours)}:{int(minutes):02d}" if hours else str(int(minutes))) + (
            f":{int(seconds):02d}" if seconds else ""
        )
        for figure in (hours, minutes, seconds):
            if figure is not None:
                out.setdefault(str(int(figure)), clock)
    return out


_TIME_OF_DAY = regex.compile(r"(?<![\d.,:])(\d{1,2})(?:[.:](\d\d))?\s?([ap])\.?\s?m\b\.?", regex.IGNORECASE)


def _times_of_day(text: str) -> dict[str, set[str]]:
    """Each time of day with "am" or "pm" ("7.30pm", "7 p.m."), as written, mapped to the same time on
    a 24-hour clock ("19:30"; "19:00" and its hour "19" for "7pm"), so that "19:30" is the same number."""
    out: dict[str, set[str]] = {}
    for m in _TIME_OF_DAY.finditer(text):
        hour, minutes, half = int(m.group(1)), m.group(2) or "00", m.group(3).lower()
        if not 1 <= hour <= 12 or int(minutes) > 59:
            continue
        hour = hour % 12 + (12 if half == "p" else 0)
        written = m.group(1) + (m.group(0)[len(m.group(1))] + m.group(2) if m.group(2) else "")
        out[written] = {f"{hour}:{minutes}"} | ({str(hour)} if minutes == "00" else set())
    return out


_YEARS_LATER = regex.compile(
    r"(?i)(?<![\w.,])(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty)"
    r"\s+years?\s+(later|afterwards|after|earlier|before)\b"
)
_YEAR = regex.compile(r"(?<![\d.,])(1[89]\d\d|20\d\d)(?!\d|[.,]\d)")


def _years_counted(text: str) -> dict[str, set[str]]:
    """Each count of years from a year the text gives before it ("joined in 2010 and became chief
    executive five years later"), as written, mapped to the years it may reach (2015, and 2005 for
    "in 2010, five years after ..."): a summary that writes that year invents no number."""
    out: dict[str, set[str]] = {}
    for m in _YEARS_LATER.finditer(text):
        written = m.group(1)
        count = _count_of(written)
        if not count:
            continue
        years = [int(y) for y in _YEAR.findall(text, 0, m.start())]
        if years:  # "in 2010, two years after she left" counts back, "in 2010 ... two years later" on
            out.setdefault(written, set()).update({str(years[-1] + count), str(years[-1] - count)})
    return out


_RATIO = regex.compile(r"(?i)(?<![\w.,])(\d{1,3}|[a-z]+)\s+(?:in|out\s+of)\s+(?:every\s+)?(\d{1,4}|[a-z]+)\b")


def _count_of(word: str) -> int | None:
    """A small count as written ("7", "seven", "one"), or ``None``."""
    if word.isdigit():
        return int(word)
    value = ({"one": "1"} | NUMBER_WORDS).get(word.lower(), "")
    return int(value) if value.isdigit() else None


def _ratios(text: str) -> dict[str, set[str]]:
    """Each part of a ratio in words ("seven in ten", "1 out of 4"), as written, mapped to the ratio as
    a percentage ("70", "25"), so that "70 percent" is the same number."""
    out: dict[str, set[str]] = {}
    for m in _RATIO.finditer(text):
        part, whole = _count_of(m.group(1)), _count_of(m.group(2))
        if part is None or not whole or part >= whole or not (whole <= 100 or whole in {1000, 10000}):
            continue  # "3 in 2019" is no ratio
        share = Decimal(part * 100) / Decimal(whole)
        keys = {_fmt(share.quantize(Decimal("0.1"))), _fmt(share.quantize(Decimal("1")))}
        for written in (m.group(1), m.group(2)):
            out.setdefault(written, set()).update(keys)
    return out


_DECADES = regex.compile(r"(?i)(?<![\w.,])(\d{1,2}|[a-z]+)\s+decades\b")


def _decades(text: str) -> dict[str, set[str]]:
    """A count of decades, as written, mapped to its years ("six decades": 60)."""
    out: dict[str, set[str]] = {}
    for m in _DECADES.finditer(text):
        count = _count_of(m.group(1))
        if count:
            out.setdefault(m.group(1), set()).add(str(count * 10))
    return out


_FRACTION = regex.compile(
    r"(?i)\b(?:(?:a|one)\s+(quarter|third|fifth|tenth)|(two|three)[- ](thirds|quarters))\b"
    r"|\b(?:by|to|nearly|almost|about|around|roughly|than)\s+(half)\b|\b(half)\s+of\b|\b(halved)\b"
)
_SHARES = {"quarter": 25, "third": Decimal(100) / 3, "fifth": 20, "tenth": 10, "half": 50, "halved": 50,
           "twothirds": Decimal(200) / 3, "threequarters": 75}


def fraction_shares(text: str) -> frozenset[str]:
    """The percentages and parts of one that ``text``'s fractions in words say ("by a quarter": 25 and
    0.25, "two-thirds": 67, 66.7 and 0.67, "half of": 50 and 0.5), so that a summary's "25%" or "0.25
    points" retells "a quarter"."""
    out: set[str] = set()
    for m in _FRACTION.finditer(text):
        word = (m.group(1) or (m.group(2) or "") + (m.group(3) or "") or m.group(4) or m.group(5) or m.group(6)).lower()
        share = Decimal(_SHARES[word])
        out |= {_fmt(share.quantize(Decimal("0.1"))), _fmt(share.quantize(Decimal("1")))}
        out.add(_fmt((share / 100).quantize(Decimal("0.01"))))
    return frozenset(out)


def number_keys(text: str, forms: dict[str, str]) -> dict[str, frozenset[str]]:
    """For each normalised number of ``text`` (``forms``: normalised -> as written, the analyser's
    ``number_forms``), the values it may stand for: itself (without a percent sign), the ordinal it
    is ("9th", also for "ninth"; never the cardinal: "second" is no "two"), a clock time's hour, the
    decade it names ("1980s"), a duration in words as a clock writes it ("2 hours 17 minutes and 41
    seconds": "2:17:41"), a time of day on a 24-hour clock ("7.30pm": "19:30"), the year a count of
    years reaches ("in 2010 ... five years later": 2015), a count of decades in years ("six decades": 60),
    a ratio's percentage ("seven in ten": 70), and
    the value of every compound it is part of."""
    out: dict[str, set[str]] = {}
    ordinals = frozenset(_ORDINAL_FIGURE.findall(text))
    decades = frozenset(_DECADE_FIGURE.findall(text))
    durations = _durations(text) if ":" not in text or regex.search(r"(?i)\d\s*(?:hours?|minutes?|seconds?)\b", text) else {}
    times = _times_of_day(text) if regex.search(r"(?i)\d\s?[ap]\.?\s?m\b", text) else {}
    ratios = _ratios(text) if regex.search(r"(?i)\s(?:in|out\s+of)\s", text) else {}
    counted = _years_counted(text) if regex.search(r"(?i)\byears?\s+(?:later|afterwards|after|earlier|before)\b", text) else {}
    counted = counted | (_decades(text) if "decades" in text.lower() else {})
    for norm, form in forms.items():
        value = norm.rstrip("%")
        keys = {value}
        if form.isdigit() and form in ordinals:
            keys.add(str(int(form)) + "th")
        if form.lower() in _ORDINALS:
            keys.add(str(_ORDINALS[form.lower()]) + "th")
        if time := _TIME.fullmatch(value):
            keys.add(str(int(time.group(1))))
        if (clock := _CLOCK.fullmatch(value)) and clock.group(3):
            keys.add(value)  # "2:17:41": its parts stand for it in a duration in words
        if value in durations:
            keys.add(durations[value])
        keys |= times.get(form, set()) | counted.get(form, set()) | ratios.get(form, set())
        keys |= _decade(value, form, decades)
        out[norm] = keys
    low = text.lower()
    if len(forms) > 1 or any(w in low for w in _SCALES if len(w) > 2) or regex.search(r"\d[mbk]", text):
        by_value = {n.rstrip("%"): n for n in forms}
        for parts, amount in _expressions(text):
            whole = _fmt(amount)
            for p in parts:
                if p in by_value:
                    out[by_value[p]].add(whole)
    return {n: frozenset(k) for n, k in out.items()}


def all_keys(keys: dict[str, frozenset[str]]) -> frozenset[str]:
    """Every value the numbers of a text may stand for."""
    return frozenset().union(*keys.values()) if keys else frozenset()


__all__ = ["all_keys", "fraction_shares", "number_keys"]
