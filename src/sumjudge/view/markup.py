"""The page shell and the small HTML builders every page uses. Every text from the store (ids,
sources, summaries, claims, reasons, reviewer names, notes) goes through :func:`e`; nothing from the
store is ever put into a script or a style, and the one script and style sheet are files of the app."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any
from urllib.parse import quote, urlencode

from ..figures import number


def e(value: Any) -> str:
    """HTML-escaped text (quotes too, so it is safe in attribute values)."""
    return escape("" if value is None else str(value), quote=True)


def fmt(value: float | None, digits: int = 3) -> str:
    return number(value, digits, missing="–")


def when(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


def link(path: str, **query: Any) -> str:
    """``path`` (its parts percent-encoded) with the query string of the arguments that are set."""
    params = {k: v for k, v in query.items() if v is not None and v != ""}
    return quote(path) + ("?" + urlencode(params) if params else "")


def url(path: str, **query: Any) -> str:
    """:func:`link`, escaped for an attribute."""
    return e(link(path, **query))


def interval(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]"


def figures(cells: Iterable[tuple[str, str]]) -> str:
    return '<section class="figures">' + "".join(
        f'<div class="figure"><div class="label">{e(k)}</div><div class="value" data-figure="{e(k)}">{e(v)}</div></div>'
        for k, v in cells
    ) + "</section>"


def hidden(fields: Mapping[str, Any]) -> str:
    return "".join(f'<input type="hidden" name="{e(k)}" value="{e(v)}">' for k, v in fields.items() if v is not None)


def page(title: str, body: str, *, token: str | None, read_only: bool, page_kind: str, data: Mapping[str, str] | None = None) -> str:
    """A whole page: the token (absent when read-only) rides in a meta tag for the script to send."""
    meta = "" if read_only or token is None else f'<meta name="sumjudge-token" content="{e(token)}">'
    attrs = "".join(f' data-{e(k)}="{e(v)}"' for k, v in (data or {}).items())
    banner = '<p class="readonly">read-only: labels are shown, not taken</p>' if read_only else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{meta}<title>{e(title)} · sumjudge view</title>"
        '<link rel="icon" href="/static/icon.svg"><link rel="stylesheet" href="/static/view.css"><script src="/static/view.js" defer></script></head>'
        f'<body data-page="{e(page_kind)}"{attrs}><nav class="top"><a href="/">runs</a> <a href="/compare">compare</a>'
        f"</nav>{banner}{body}<footer>sumjudge view · nothing on this page leaves this machine</footer></body></html>\n"
    )


def message_page(title: str, text: str, *, token: str | None, read_only: bool) -> str:
    return page(title, f'<h1>{e(title)}</h1><p class="message">{e(text)}</p>', token=token, read_only=read_only,
                page_kind="message")
