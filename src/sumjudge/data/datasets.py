"""Rows to score, read from JSONL, a JSON array, CSV/TSV or Parquet, streamed one row at a time.

A :class:`Dataset` is read twice: :meth:`Dataset.validate` walks every row before the first
judge call (so a bad row fails the run before it spends anything) and computes a fingerprint
of the data; :meth:`Dataset.rows` then streams the rows again for scoring. Neither pass holds
more than one row's text in memory; validation keeps only the ids (to refuse duplicates).
Standard input (``-``) is spooled to a temporary file during validation so it can be read twice.

Row numbers are 1-based positions of records in the input (for JSONL, blank lines are not
records; error messages give the line number too). An item's id is the value of the id field
when the row has one, else its row number.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from ..errors import InputError
from ..guards.redact import redact
from .jsonl import ENCODING_HINT as _ENCODING_HINT
from .jsonl import bom_aware as _bom_aware
from .jsonl import json_array_records as _json_array_records
from .jsonl import jsonl_records as _jsonl_records
from .parquet import parquet_columns, parquet_records
from .text_in import as_read

Format = Literal["jsonl", "json", "csv", "tsv", "parquet"]
FORMATS: tuple[str, ...] = ("jsonl", "json", "csv", "tsv", "parquet")

_EXTENSIONS: dict[str, Format] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".tsv": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
}

@dataclass(frozen=True)
class Fields:
    """Which keys (or CSV columns) hold the source, the summary and the id."""

    source: str = "source"
    summary: str = "summary"
    id: str = "id"


@dataclass(frozen=True)
class Row:
    """One item to score."""

    number: int
    """1-based position of the record in the input."""
    id: str
    source: str
    summary: str


@dataclass(frozen=True)
class DatasetInfo:
    """What validation learnt about the whole input."""

    count: int
    fingerprint: str
    """sha256 over every row's id, source and summary, in order: the same data gives the same value
    whatever its format or field names."""
    empty_sources: tuple[tuple[int, str], ...] = ()
    """The rows (number, id) whose source is empty or blank: each scores 0, with nothing to judge against."""


def detect_format(path: str | Path) -> Format:
    suffix = Path(path).suffix.lower()
    try:
        return _EXTENSIONS[suffix]
    except KeyError:
        raise InputError(
            f"cannot tell the format of {str(path)!r} from its extension; use .jsonl, .json, .csv, .tsv "
            f"or .parquet, or pass --format jsonl|json|csv|tsv|parquet"
        ) from None


def _sniff_format(path: Path, encoding: str) -> Format:
    """For standard input: 'PAR1' starts Parquet, '[' a JSON array, '{' a JSONL file, anything else is CSV."""
    with path.open("rb") as raw:
        if raw.read(4) == b"PAR1":
            return "parquet"
    with path.open("r", encoding=encoding, errors="replace") as fh:
        while True:
            ch = fh.read(1)
            if not ch:
                return "jsonl"
            if not ch.isspace():
                return "json" if ch == "[" else "jsonl" if ch == "{" else "csv"


def add_to_fingerprint(digest: Any, row: Row) -> None:
    """Feed one row (id, source, summary, each length-prefixed) to a sha256: a data set's fingerprint,
    which keys its run in the store."""
    for part in (row.id, row.source, row.summary):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)


class Dataset:
    """An input file (or ``-`` for standard input) of rows with a source and a summary."""

    def __init__(
        self,
        path: str | Path,
        *,
        fields: Fields | None = None,
        format: Format | None = None,
        stdin: IO[bytes] | None = None,
        encoding: str | None = None,
        delimiter: str | None = None,
    ) -> None:
        self.fields = fields or Fields()
        self.encoding = _check_encoding(encoding)
        if delimiter is not None and len(delimiter) != 1:
            raise InputError(f"the CSV delimiter must be one character, got {delimiter!r}")
        self.delimiter = delimiter
        self.display_name = "<stdin>" if str(path) == "-" else str(path)
        self._stdin = stdin
        self._spool: Path | None = None
        if str(path) == "-":
            self._path: Path | None = None
            self._format: Format | None = format
        else:
            self._path = Path(path)
            if not self._path.is_file():
                raise InputError(f"no such input file: {str(path)!r}")
            self._format = format or detect_format(self._path)

    # -- life cycle ---------------------------------------------------------------------------

    def close(self) -> None:
        if self._spool is not None:
            try:
                self._spool.unlink()
            except OSError:
                pass
            self._spool = None

    def __enter__(self) -> Dataset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> Path | None:
        """The input file (``None`` for standard input)."""
        return self._path

    @property
    def format(self) -> Format:
        self._ensure_file()
        assert self._format is not None
        return self._format

    def _ensure_file(self) -> Path:
        if self._path is not None:
            return self._path
        if self._spool is None:
            src = self._stdin if self._stdin is not None else sys.stdin.buffer
            fd, name = tempfile.mkstemp(prefix="sumjudge-stdin-", suffix=".data")
            with os.fdopen(fd, "wb") as out:
                shutil.copyfileobj(src, out, 1 << 20)
            self._spool = Path(name)
            if self._format is None:
                self._format = _sniff_format(self._spool, self.encoding)
        return self._spool

    # -- reading ------------------------------------------------------------------------------

    def validate(self) -> DatasetInfo:
        """Read every row once; raise :class:`InputError` naming the first bad row and field."""
        digest = hashlib.sha256()
        seen: set[str] = set()
        count = 0
        empty: list[tuple[int, str]] = []
        for row in self.rows():
            if not row.source.strip():
                empty.append((row.number, row.id))
            if row.id in seen:
                raise InputError(f"{self.display_name}: row {row.number}: duplicate id {row.id!r}")
            seen.add(row.id)
            add_to_fingerprint(digest, row)
            count += 1
        if count == 0:
            raise InputError(f"{self.display_name}: no rows to score")
        return DatasetInfo(count=count, fingerprint=digest.hexdigest(), empty_sources=tuple(empty))

    def rows(self) -> Iterator[Row]:
        """Stream the rows, checking each; raises :class:`InputError` on the first bad one."""
        path = self._ensure_file()
        fmt = self.format
        name, enc = self.display_name, self.encoding
        if fmt == "jsonl":
            records = _jsonl_records(path, name, enc)
        elif fmt == "json":
            records = _json_array_records(path, name, enc)
        elif fmt == "parquet":
            check_header(name, parquet_columns(path, name))
            records = parquet_records(path, name)
        else:
            delimiter = self.delimiter or ("\t" if fmt == "tsv" else None)
            records = _csv_records(path, name, enc, delimiter)
        try:
            for number, where, record in records:
                yield self._row(number, where, record)
        except UnicodeDecodeError:
            line, byte = _first_undecodable(path, self.encoding)
            raise InputError(
                f"{name}: line {line}: not readable as {self.encoding}: byte 0x{byte:02x}; "
                f"is it a text file? {_ENCODING_HINT}"
            ) from None

    def _row(self, number: int, where: str, record: Any) -> Row:
        label = f"{self.display_name}: row {number}{where}"
        if not isinstance(record, dict):
            raise InputError(f"{label}: expected an object with fields, got {_kind(record)}")
        f = self.fields
        texts: list[str] = []
        for name, option in ((f.source, "--source-field"), (f.summary, "--summary-field")):
            if name not in record:
                present = ", ".join(repr(k) for k in list(record)[:20]) or "none"
                raise InputError(
                    f"{label}: missing field {name!r}; the row has {present}; "
                    f"name the right one with {option}"
                )
            value = record[name]
            if not isinstance(value, str):
                raise InputError(f"{label}: field {name!r} must be a string, got {_kind(value)}")
            _check_text(label, name, value)
            texts.append(value)
        raw_id = record.get(f.id)
        if raw_id is None or raw_id == "":
            item_id = str(number)
        elif isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
            raise InputError(f"{label}: field {f.id!r} must be a string or an integer, got {_kind(raw_id)}")
        else:
            item_id = str(raw_id)
            _check_text(label, f.id, item_id)
            item_id = _hidden_id(item_id)  # an id is shown and stored everywhere: a key in it never is
        # read once as the scorer reads text: NFC, an HTML page or a Markdown table as its text
        return Row(number=number, id=item_id, source=as_read(texts[0]), summary=as_read(texts[1]))


def _hidden_id(item_id: str) -> str:
    """``item_id`` with its secrets hidden; one that held any gets 8 hex digits of its digest after
    ``~``, so two ids that differ only in their keys stay two items (both would read ``id-***``), and
    the same id is the same item in every run."""
    hidden = redact(item_id)
    if hidden == item_id:
        return item_id
    return f"{hidden}~{hashlib.sha256(item_id.encode('utf-8')).hexdigest()[:8]}"


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _check_text(label: str, field: str, value: str) -> None:
    """Text that cannot be written as UTF-8 (a JSON ``\\ud800`` escape: half of a surrogate pair)
    is refused here, naming the row and the field, not met later as a ``UnicodeEncodeError``."""
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise InputError(
            f"{label}: field {field!r} holds an unpaired surrogate \\u{ord(bad.group()):04x} at character "
            f"{bad.start() + 1}: not text (a broken JSON \\u escape); fix or drop it"
        )


def check_header(name: str, columns: list[str]) -> None:
    """Every format's columns: a name twice is refused (which of the two would be scored is a guess)."""
    dupes = sorted({c for c in columns if columns.count(c) > 1})
    if dupes:
        raise InputError(f"{name}: the header names {', '.join(repr(c) for c in dupes)} more than once; "
                         "rename the duplicate columns")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _csv_records(
    path: Path, name: str, encoding: str = "utf-8", delimiter: str | None = None
) -> Iterator[tuple[int, str, Any]]:
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    with path.open("r", encoding=_bom_aware(encoding), newline="") as fh:
        if delimiter is None:
            delimiter = _sniff_delimiter(fh.read(64 * 1024))
            fh.seek(0)
        reader = csv.DictReader(fh, delimiter=delimiter)
        if not reader.fieldnames:
            return
        check_header(name, list(reader.fieldnames))
        width = len(reader.fieldnames)
        try:
            for number, record in enumerate(reader, start=1):
                where = f" (line {reader.line_num})" if reader.line_num != number + 1 else ""
                if None in record:
                    raise InputError(
                        f"{name}: row {number}{where}: {width + len(record[None])} values for {width} columns"
                    )
                # Columns missing from a short row come back as None: treat them as missing fields.
                yield number, where, {k: v for k, v in record.items() if v is not None}
        except csv.Error as exc:
            raise InputError(f"{name}: line {reader.line_num}: not valid CSV: {exc}") from None


def _check_encoding(encoding: str | None) -> str:
    name = encoding or "utf-8"
    try:
        codec = codecs.lookup(name)
    except LookupError:
        raise InputError(f"unknown encoding {name!r} (for example utf-8, utf-16, cp1252, latin-1)") from None
    if not getattr(codec, "_is_text_encoding", True):  # rot13, base64, zlib: codecs, but not of text
        raise InputError(f"{name!r} is not a text encoding (for example utf-8, utf-16, cp1252, latin-1)")
    return name


def _first_undecodable(path: Path, encoding: str) -> tuple[int, int]:
    """The line number and value of the first byte that ``encoding`` cannot decode."""
    decoder = codecs.getincrementaldecoder(_bom_aware(encoding))()
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            try:
                decoder.decode(raw)
            except UnicodeDecodeError as exc:
                return line_no, raw[exc.start] if exc.start < len(raw) else 0
    return line_no if "line_no" in locals() else 1, 0


def _sniff_delimiter(sample: str) -> str:
    """The CSV delimiter, sniffed from the first lines among , ; tab and |; a comma when unsure."""
    header = sample.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(header if header.strip() else sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","
