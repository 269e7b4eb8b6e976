"""A source or a summary as the scorer reads it, made once where the text comes in (a data file's row,
the scorer's ``input`` and ``output``):

- Unicode NFC: a letter written as a base and a combining accent (NFD, as macOS file names and some
  exports write it) is the same letter as its composed form, so an NFD source and an NFC summary
  share their words; and compatibility forms as NFKC writes them (the ligature "ﬁ" of "ﬁrm" as "fi",
  fullwidth letters, no-break spaces), except superscripts, subscripts and fractions, which would
  change a number;
- a lone surrogate (a text decoded wrong) is refused: :class:`~sumjudge.errors.InputError`;
- HTML (a page saved as the source) is read as its text: tags dropped, entities decoded, script and
  style left out, each block (paragraph, heading, list item, table row) a line of its own and the cells
  of a table row joined as one sentence;
- a Markdown table is read as its rows, each a sentence of its cells (the ``|`` and ``---`` markup
  would otherwise be words to ask about).

Text with none of these is returned as it is (NFC), so applying :func:`as_read` twice changes nothing.
"""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

from ..errors import InputError

_HTML_TAG = re.compile(
    r"</?(?:html|head|body|p|div|table|thead|tbody|tr|td|th|br|hr|h[1-6]|ul|ol|li|"
    r"article|section|header|footer|main|nav|title|meta|script|style|blockquote|pre|figure|figcaption)"
    r"(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
"""Tags of a page's structure (blocks, tables, lists): ``<b>`` or ``<i>`` in prose do not make a page."""
_BLOCKS = frozenset("p div table thead tbody tr br hr h1 h2 h3 h4 h5 h6 ul ol li article section header footer "
                    "main nav title blockquote pre figure figcaption".split())
_CELLS = frozenset({"td", "th"})
_SKIPPED = frozenset({"script", "style", "head"})
_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|[\s:|-]*-{3,}[\s:|-]*$")
_END = ".!?\u3002\uff01\uff1f:;"


class _Text(HTMLParser):
    """The text of an HTML document, a line per block, the cells of a row joined."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[list[str]] = [[]]
        self.cells: list[str] | None = None
        self.skipping = 0

    def _break(self) -> None:
        if self.lines[-1]:
            self.lines.append([])

    def handle_starttag(self, tag: str, attrs: object) -> None:
        tag = tag.lower()
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag == "tr":
            self._break()
            self.cells = []
        elif tag in _CELLS and self.cells is not None:
            self.cells.append("")
        elif tag in _BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag == "tr" and self.cells is not None:
            row = _row_sentence([c for c in (" ".join(c.split()) for c in self.cells) if c])
            self.cells = None
            if row:
                self.lines[-1].append(row)
            self._break()
        elif tag in _BLOCKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.cells is not None:
            if not self.cells:
                self.cells.append("")
            self.cells[-1] += data
            return
        if data.strip():
            self.lines[-1].append(data)

    def text(self) -> str:
        lines = (" ".join(" ".join(parts).split()) for parts in self.lines)
        return "\n".join(line for line in lines if line)


def _row_sentence(cells: list[str]) -> str:
    """A table row as one sentence: its cells joined by commas, ended by a full stop."""
    if not cells:
        return ""
    row = ", ".join(cells)
    return row if row[-1] in _END else row + "."


def looks_like_html(text: str) -> bool:
    """Whether ``text`` is markup: two tags of a page's structure or more (``<p>``, ``<td>``, ``<br>``)."""
    return len(_HTML_TAG.findall(text, 0, 200_000)) >= 2


def html_text(text: str) -> str:
    """The text of the HTML ``text`` (see the module docstring)."""
    parser = _Text()
    parser.feed(text)
    parser.close()
    return parser.text()


def markdown_tables_as_rows(text: str) -> str:
    """``text`` with each Markdown table (``|`` rows with a ``---`` rule among them) read as one sentence
    per row; other lines as they are."""
    lines = text.split("\n")
    if not any(_TABLE_RULE.match(line) for line in lines):
        return text
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and (_TABLE_ROW.match(lines[j]) or _TABLE_RULE.match(lines[j])):
            j += 1
        if j == i:
            out.append(lines[i])
            i += 1
            continue
        block = lines[i:j]
        if any(_TABLE_RULE.match(x) for x in block):
            for line in block:
                row = _TABLE_ROW.match(line)
                if row and not _TABLE_RULE.match(line):
                    out.append(_row_sentence([c for c in (c.strip() for c in row.group(1).split("|")) if c]))
        else:
            out.extend(block)
        i = j
    return "\n".join(out)


_KEPT_FORMS = ("<super>", "<sub>", "<fraction>")
"""Compatibility forms left as they are: folded they would change a number ("10²" is not "102")."""


def _compatible(text: str) -> str:
    """``text`` with each compatibility character (a ligature "ﬁ", a fullwidth letter, a no-break space)
    as its NFKC form, except those of :data:`_KEPT_FORMS`."""
    if text.isascii():
        return text
    table = {}
    for ch in set(text):
        form = unicodedata.decomposition(ch)
        if form.startswith("<") and not form.startswith(_KEPT_FORMS):
            table[ord(ch)] = unicodedata.normalize("NFKC", ch)
    return text.translate(table) if table else text


def _check_encodable(text: str) -> None:
    """:class:`InputError` for a lone surrogate (U+D800-U+DFFF alone): no file, digest or judge can take it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"the text holds a lone surrogate (U+{ord(text[exc.start]):04X} at character {exc.start}), which is "
            "not a character: fix how the text was decoded (a UTF-16 half, or surrogateescape)"
        ) from None


def as_read(text: str) -> str:
    """``text`` as the scorer reads it: NFC with compatibility forms folded, HTML as its text, Markdown
    tables as their rows. :class:`InputError` for a lone surrogate."""
    if not text:
        return text
    _check_encodable(text)
    text = unicodedata.normalize("NFC", _compatible(text))
    if "<" in text and looks_like_html(text):
        text = html_text(text)
    if "|" in text:
        text = markdown_tables_as_rows(text)
    return text


__all__ = ["as_read", "html_text", "looks_like_html", "markdown_tables_as_rows"]
