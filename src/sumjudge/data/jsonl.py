"""The one JSON-lines (and streamed JSON array) reader: the data set tool's input rows, ``sumjudge
agreement``'s rated summaries, ``sumjudge compare``'s result files.

Strict where a silent guess would mislead: a key twice in one object is an error (not "the last one
wins"), bytes the encoding cannot decode name the line and the fix, a UTF-8 byte-order mark is read
past, deep nesting is refused with a message instead of a ``RecursionError``. One record at a time,
so a file of any size reads in flat memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..errors import InputError

ENCODING_HINT = "pass --encoding (for a spreadsheet's CSV export, often --encoding cp1252)"

TOO_DEEP = "JSON nested too deeply to be a row of a source and a summary"


class DuplicateKey(ValueError):
    """A key that occurs twice in one JSON object."""


MAX_DIGITS = 4300
"""Python's limit on the digits of an integer read from text (``sys.get_int_max_str_digits``)."""


class TooLong(ValueError):
    """A JSON integer with more digits than Python reads."""


def parse_int(text: str) -> int:
    """A JSON integer; one of more than :data:`MAX_DIGITS` digits is refused with a clear message
    instead of Python's ``Exceeds the limit`` traceback."""
    digits = len(text) - (text[0] == "-")
    if digits > MAX_DIGITS:
        raise TooLong(f"a number of {digits} digits (at most {MAX_DIGITS} are read); write it as a string")
    return int(text)


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose key occurs twice is refused, not read as 'the last one wins'."""
    record: dict[str, Any] = {}
    for key, value in pairs:
        if key in record:
            raise DuplicateKey(f"field {key!r} occurs twice in the object")
        record[key] = value
    return record


def loads(text: str, label: str) -> Any:
    """One JSON value; an error names ``label``."""
    try:
        return json.loads(text, object_pairs_hook=unique_keys, parse_int=parse_int)
    except json.JSONDecodeError as exc:
        raise InputError(f"{label}: not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise InputError(f"{label}: {TOO_DEEP}") from None
    except (DuplicateKey, TooLong) as exc:
        raise InputError(f"{label}: {exc}") from None


def bom_aware(encoding: str) -> str:
    """UTF-8 input may start with a byte-order mark (Excel writes one): read past it."""
    return "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding


def decode(raw: bytes, encoding: str, label: str) -> str:
    """One line's bytes as text; bytes the encoding cannot read name ``label`` and the fix."""
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{label}: not readable as {encoding.replace('-sig', '')}: byte 0x{raw[exc.start]:02x} at "
            f"column {exc.start + 1}; is it a text file? {ENCODING_HINT}"
        ) from None


def jsonl_records(
    path: Path, name: str, encoding: str = "utf-8", *, label: Callable[[int, int], str] | None = None
) -> Iterator[tuple[int, str, Any]]:
    """``(row number, " (line N)" when it differs, value)`` for each non-blank line of a JSONL file.

    Errors say where: ``label(row, line)``, by default ``"<name>: row R (line L)"``.
    """

    def where_of(row: int, line: int) -> str:
        if label is not None:
            return label(row, line)
        return f"{name}: row {row}" + (f" (line {line})" if line != row else "")

    number = 0
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            line = decode(raw, encoding if line_no > 1 else bom_aware(encoding), where_of(number + 1, line_no))
            if not line.strip():
                continue
            number += 1
            where = f" (line {line_no})" if line_no != number else ""
            yield number, where, loads(line, where_of(number, line_no))


_WS = " \t\r\n"


def json_array_records(
    path: Path, name: str, encoding: str = "utf-8", chunk_size: int = 1 << 16
) -> Iterator[tuple[int, str, Any]]:
    """Stream the elements of a top-level JSON array without loading the whole file."""
    decoder = json.JSONDecoder(object_pairs_hook=unique_keys, parse_int=parse_int)
    with path.open("r", encoding=bom_aware(encoding)) as fh:
        buf = ""
        pos = 0
        eof = False

        def fill() -> bool:
            nonlocal buf, pos, eof
            if eof:
                return False
            chunk = fh.read(chunk_size)
            if not chunk:
                eof = True
                return False
            buf = buf[pos:] + chunk
            pos = 0
            return True

        def skip_ws() -> str:
            """Skip whitespace and return the next character ('' at the end of the file)."""
            nonlocal pos
            while True:
                while pos < len(buf) and buf[pos] in _WS:
                    pos += 1
                if pos < len(buf):
                    return buf[pos]
                if not fill():
                    return ""

        if skip_ws() != "[":
            raise InputError(f"{name}: not a JSON array (a .json input must be [ {{...}}, ... ])")
        pos += 1
        number = 0
        expect_value = True
        first = True
        while True:
            ch = skip_ws()
            if ch == "":
                raise InputError(f"{name}: the JSON array is not closed (file ends after row {number})")
            if ch == "]" and (first or not expect_value):
                pos += 1
                break
            if not expect_value:
                if ch != ",":
                    raise InputError(f"{name}: after row {number}: expected ',' or ']', found {ch!r}")
                pos += 1
                expect_value = True
                continue
            number += 1
            if ch not in '{["':
                # Numbers and literals are not delimited: have enough of them in the buffer.
                while len(buf) - pos < 512 and fill():
                    pass
            while True:
                try:
                    record, end = decoder.raw_decode(buf, pos)
                except RecursionError:
                    raise InputError(f"{name}: row {number}: {TOO_DEEP}") from None
                except (DuplicateKey, TooLong) as exc:
                    raise InputError(f"{name}: row {number}: {exc}") from None
                except json.JSONDecodeError as exc:
                    # Maybe the value is only cut by the chunk boundary: read more and try again.
                    if fill():
                        continue
                    raise InputError(f"{name}: row {number}: not valid JSON: {exc.msg}") from None
                else:
                    # A number at the very end of the buffer may continue in the next chunk.
                    if end == len(buf) and not eof and fill():
                        continue
                    break
            pos = end
            first = False
            expect_value = False
            yield number, "", record
        if skip_ws() != "":
            raise InputError(f"{name}: unexpected data after the closing ']' of the JSON array")


__all__ = ["ENCODING_HINT", "bom_aware", "decode", "json_array_records", "jsonl_records", "loads"]
