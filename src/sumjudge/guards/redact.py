"""The one redactor: every message that leaves the process goes through :func:`redact` first.

What is hidden, replaced by ``***``:

- the user and password of a URL (``http://bob:pw@host`` becomes ``http://***@host``);
- the values of the environment's key, token, secret and password variables (``OPENAI_API_KEY``,
  ``HF_TOKEN``, ...), and any secret the caller knows (a judge's configured ``api_key``);
- strings shaped like an API key, wherever they come from (a server that echoes the key it refused
  in its 401 body): ``sk-...``, ``sk-ant-...``, ``sk_live_...``, ``AIza...``, ``ghp_...`` (and GitHub's
  ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``), ``hf_...``, ``npm_...``, ``pypi-...``,
  ``xoxb-...``, ``xapp-...``, ``AKIA...`` (an AWS access key id), a ``Bearer`` token, a ``Basic`` credential (base64
  of ``user:password``), and ``key=``/``token=`` in a query string;
- a run of percent-encoded text that decodes to any of these (``sk%2Dabc...``, a key URL-encoded once
  or twice by whatever echoed it): the whole run.

:func:`secret_spans` says where in a text those are, for a writer that cuts the text up (the HTML
highlighting of quotes, which would otherwise split a key across two ``<mark>`` elements so that no
pattern sees it whole): it hides them first, then marks.

Every known secret is hidden in each form it may travel in (:func:`secret_forms`): as it is,
URL-encoded, and in base64; a URL with ``user:password`` (a judge's base URL, or one in the
environment) adds its password and ``user:password`` (:func:`url_secrets`), so the ``Basic`` header
that a gateway echoes back is hidden too. :func:`secrets_of` gathers what a judge holds (its key, its
base URL's credentials, its headers), through every wrapper.

A key in the texts being scored is hidden in what the product writes about them as well, cut up or
not (:func:`shaped_secrets`: a judge that splits "ghp_Ab12..." into words would otherwise print
"Ab12..." in a reason, which no pattern knows).

Who calls it: the text a judge returns (:func:`sumjudge.judges.structured.generate_structured`, before
it is stored, cached or shown: :func:`redact_strings`), the CLI's error lines (:func:`sumjudge.cli.common.fail`), the error text recorded with a
failed item (:func:`describe_failure`: run store, ``--out``, reports, JUnit), every
:class:`~sumjudge.errors.SumjudgeError` message (so exceptions raised to library users carry none),
the judges' exception chains (:func:`scrub_exception`), and the pytest plugin's failure reports
(terminal and ``--junitxml``).
"""

from __future__ import annotations

import base64
import binascii
import functools
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import quote, quote_plus, unquote, urlsplit

MASK = "***"
MIN_SECRET = 8
"""Shorter values are not hidden: they would blank ordinary words (a test key such as "test"); real keys are longer."""

_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s'\"<>]+@")
_KEY_SHAPED = re.compile(
    r"(?<![A-Za-z0-9])(?:"  # after a letter or digit it is part of a word; after "-" or "_" (an id) a key
    r"(?:sk-(?:ant-(?:api\d\d-)?|proj-|live-|test-|svcacct-)?|sk_(?:live|test)_|rk_(?:live|test)_|glpat-|xox[abposr]-"
    r"|xapp-\d-|pypi-AgE)"
    r"[A-Za-z0-9_\-]{16,}"
    r"|(?:AIza|gh[pousr]_|github_pat_|hf_)[A-Za-z0-9_]{16,}"
    r"|npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])"
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z]))"
)
"""Keys by their published shapes, at least 16 characters past the prefix (so "sk-learn" stays)."""
_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/\-]{8,}=*")
_BASIC = re.compile(r"(?i)\b(basic\s+)([A-Za-z0-9+/_\-]{8,}={0,2})")
_QUERY_KEY = re.compile(r"(?i)([?&](?:api[_-]?key|key|token|access_token|password)=)[^&\s'\"<>]+")
_URL_RUN = re.compile(r"[A-Za-z0-9_.~+%\-]+")
"""A run of URL-safe text; one that holds a ``%XX`` (:data:`_ESCAPE`) is decoded and checked as any text is
(two simple patterns: one that asked for the ``%XX`` inside the run would backtrack over long runs)."""
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_DECODINGS = 3
"""How many times a run is decoded (a key encoded twice, ``%252D``, decodes in two)."""
_SECRET_VARS = re.compile(r"(API_KEY|_TOKEN|_SECRET|_PASSWORD|_PASS)$", re.IGNORECASE)


def url_secrets(url: str | None) -> list[str]:
    """The secrets of a URL with ``user:password@``: the password and ``user:password``, each as
    written and decoded (what HTTP Basic auth sends, in base64); none for a URL without them."""
    if not url or "@" not in url:
        return []
    try:
        parts = urlsplit(str(url))
        user, password = parts.username, parts.password
    except ValueError:
        return []
    if not password:
        return [unquote(user), user] if user else []  # a token given as the user name alone
    return [password, unquote(password), f"{user or ''}:{password}", f"{unquote(user or '')}:{unquote(password)}"]


@functools.lru_cache(maxsize=1024)  # a pure function of the secret: asked for each text redacted
def secret_forms(secret: str) -> frozenset[str]:
    """``secret`` as it may travel: as it is, URL-encoded and in base64 (standard and URL-safe, with and
    without padding); forms shorter than :data:`MIN_SECRET` are left out."""
    raw = secret.encode("utf-8", "surrogatepass")
    forms = {secret, quote(secret, safe=""), quote_plus(secret)}
    for encoded in (base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()):
        forms.update((encoded, encoded.rstrip("=")))
    return frozenset(f for f in forms if len(f) >= MIN_SECRET)


def environment_secrets() -> list[str]:
    """Values of the environment's key, token, secret and password variables, and the credentials of
    any URL with ``user:password`` in the environment (``OPENAI_BASE_URL=https://u:p@host``), to hide them."""
    return list(_environment_secrets(tuple(os.environ.items())))


@functools.lru_cache(maxsize=8)  # the environment rarely changes; every text redacted asks
def _environment_secrets(environ: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    found: list[str] = []
    for key, value in environ:
        if _SECRET_VARS.search(key) and len(value) >= MIN_SECRET:
            found.append(value)
        elif "@" in value and "://" in value:
            found.extend(url_secrets(value))
    return tuple(found)


def secrets_of(judge: Any) -> list[str]:
    """What a judge holds that must never be shown, through every wrapper (``.inner``): its configured and
    resolved API keys, its base URL's ``user:password``, and the values of its extra headers."""
    found: list[str] = []
    seen: set[int] = set()
    while judge is not None and id(judge) not in seen:
        seen.add(id(judge))
        config = getattr(judge, "config", None)
        key = getattr(config, "api_key", None)
        if key is not None:
            found.append(key.get_secret_value() if hasattr(key, "get_secret_value") else str(key))
        resolved = getattr(judge, "_api_key", None)  # the key taken from the environment
        if isinstance(resolved, str):
            found.append(resolved)
        for url in (getattr(config, "base_url", None), getattr(judge, "_base_url", None)):
            found.extend(url_secrets(url if isinstance(url, str) else None))
        headers = getattr(config, "headers", None)
        if isinstance(headers, dict):
            found.extend(str(v) for v in headers.values())
        judge = getattr(judge, "inner", None)
    return [s for s in found if s and len(s) >= MIN_SECRET]


_KEY_PARTS = re.compile(r"[_\-]+")
_RUNS = re.compile(r"[A-Za-z]+|[0-9]+")


def shaped_secrets(*texts: str) -> list[str]:
    """The key-shaped strings in ``texts`` (:data:`_KEY_SHAPED`), and each part of one that a tokenizer
    may cut it into (at ``_`` and ``-``: "ghp", "Ab12Cd34..."; what a judge's reason would print of a key
    in the summary once the key's prefix is gone, so no pattern would know it), each part without its
    leading or trailing digits, and each run of letters or of digits ("11ABC..." read as "11" and
    "ABC..."), as written and lowercased, where at least :data:`MIN_SECRET` long. The scorer hides
    these in every text it writes."""
    found: list[str] = []
    for text in texts:
        for m in _KEY_SHAPED.finditer(text or ""):
            key = m.group()
            parts = [key, *_KEY_PARTS.split(key)]
            parts += [cut for part in parts for cut in (part.lstrip("0123456789"), part.rstrip("0123456789"))]
            parts += _RUNS.findall(key)
            found += [form for part in parts for form in (part, part.lower()) if len(part) >= MIN_SECRET]
    return list(dict.fromkeys(found))


def _is_credential(token: str) -> bool:
    """A ``Basic`` credential is hidden when its base64 decodes to ``user:password``."""
    try:
        decoded = base64.b64decode(token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded


def redact(text: str, secrets: Iterable[str | None] = (), *, environment: bool = True) -> str:
    """``text`` with every credential replaced by ``***``: URL user:password, key-shaped strings,
    each of ``secrets`` and (unless ``environment`` is false) the environment's secret variables."""
    if not text:
        return text
    return _scrub(text, _known(secrets, environment))


def _scrub(text: str, forms: Sequence[str]) -> str:
    """``text`` with each of ``forms`` and every credential-shaped string hidden (:func:`_spans`)."""
    spans = _spans(text, forms)
    if not spans:
        return text
    out: list[str] = []
    at = 0
    for start, end in spans:
        out += [text[at:start], MASK]
        at = end
    out.append(text[at:])
    return "".join(out)


def _spans(text: str, forms: Sequence[str], depth: int = 0) -> list[tuple[int, int]]:
    """Where ``text`` holds a secret: each of ``forms``, every credential-shaped string, and every run of
    URL-encoded text that decodes to one; sorted, overlapping spans merged."""
    found: list[tuple[int, int]] = []
    for secret in forms:
        at = text.find(secret)
        while at >= 0:
            found.append((at, at + len(secret)))
            at = text.find(secret, at + 1)
    found += [(m.end("scheme"), m.end() - 1) for m in _USERINFO.finditer(text)]
    found += [m.span() for m in _KEY_SHAPED.finditer(text)]
    found += [(m.end(1), m.end()) for m in _BEARER.finditer(text)]
    found += [m.span(2) for m in _BASIC.finditer(text) if _is_credential(m.group(2))]
    found += [(m.end(1), m.end()) for m in _QUERY_KEY.finditer(text)]
    if depth < _DECODINGS and "%" in text:
        for m in _URL_RUN.finditer(text):
            if "%" not in m.group() or not _ESCAPE.search(m.group()):
                continue
            run = m.group().rstrip(".")  # a sentence's full stop after the run is not part of it
            decoded = unquote(run)
            if decoded != run and _spans(decoded, forms, depth + 1):
                found.append((m.start(), m.start() + len(run)))
    found.sort()
    merged: list[tuple[int, int]] = []
    for start, end in found:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        elif end > start:
            merged.append((start, end))
    return merged


def secret_spans(text: str, secrets: Iterable[str | None] = (), *, environment: bool = True) -> list[tuple[int, int]]:
    """Where :func:`redact` would hide something in ``text``: ``(start, end)`` spans, sorted, not overlapping."""
    return _spans(text, _known(secrets, environment)) if text else []


def _known(secrets: Iterable[str | None], environment: bool) -> tuple[str, ...]:
    """Every form of every secret, longest first (so a longer form is hidden whole)."""
    plain = {s for s in secrets if s and len(s) >= MIN_SECRET}
    if environment:
        plain.update(environment_secrets())
    return _forms(frozenset(plain))


@functools.lru_cache(maxsize=64)
def _forms(plain: frozenset[str]) -> tuple[str, ...]:
    forms: set[str] = set()
    for secret in plain:
        forms |= secret_forms(secret)
    return tuple(sorted(forms, key=len, reverse=True))


def redact_strings(value: Any, secrets: Iterable[str | None] = ()) -> Any:
    """``value`` (JSON-like: dicts, lists, strings) with :func:`redact` applied to every string in it,
    keys left as they are: the texts of a judge's reply (reasons, questions, claims)."""
    forms = _known(secrets, True)  # worked out once for every string of the value
    texts: list[str] = []

    def gather(item: Any) -> None:
        if isinstance(item, str):
            texts.append(item)
        elif isinstance(item, dict):
            for v in item.values():
                gather(v)
        elif isinstance(item, (list, tuple)):
            for v in item:
                gather(v)

    gather(value)
    joined = "\n".join(texts)
    if _scrub(joined, forms) == joined:  # one pass over every text: the common case, nothing to hide
        return value

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return _scrub(item, forms) if item else item
        if isinstance(item, dict):
            return {k: walk(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return type(item)(walk(v) for v in item)
        return item

    return walk(value)


class Redactor:
    """:func:`redact` with a fixed set of known secrets (a judge's keys), to hand to a writer."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        self.secrets = tuple(s for s in secrets if s)

    def __call__(self, text: str) -> str:
        return redact(text, self.secrets)


def scrub_exception(exc: BaseException, secrets: Iterable[str | None] = ()) -> BaseException:
    """Redact, in place, the text of ``exc`` and of every exception in its cause/context chain (what a
    traceback prints), so an SDK error kept as ``__cause__`` shows no key either. Returns ``exc``."""
    known = tuple(s for s in secrets if s)
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        try:
            current.args = tuple(redact(a, known) if isinstance(a, str) else a for a in current.args)
            message = getattr(current, "message", None)
            if isinstance(message, str):  # the OpenAI and Anthropic SDKs' errors keep it apart
                current.message = redact(message, known)  # type: ignore[attr-defined]
        except (AttributeError, TypeError):  # an exception type that will not be changed
            pass
        current = current.__cause__ or current.__context__
    return exc


def describe_failure(exc: BaseException, secrets: Iterable[str | None] = ()) -> str:
    """What a batch records for an item that failed: the error's type and message, with every
    credential hidden."""
    return redact(f"{type(exc).__name__}: {exc}", secrets)


__all__ = [
    "MASK", "Redactor", "describe_failure", "environment_secrets", "redact", "redact_strings", "scrub_exception",
    "secret_forms", "secret_spans", "secrets_of", "shaped_secrets", "url_secrets",
]
