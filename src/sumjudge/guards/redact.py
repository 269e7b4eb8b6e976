"""The one redactor: every message that leaves the process goes through :func:`redact` first.

What is hidden, replaced by ``***``:

- the user and password of a URL (``http://bob:pw@host`` becomes ``http://***@host``);
- the values of the environment's key, token, secret and password variables (``OPENAI_API_KEY``,
  ``HF_TOKEN``, ...), and any secret the caller knows (a judge's configured ``api_key``);
- strings shaped like an API key, wherever they come from (a server that echoes the key it refused
  in its 401 body): ``sk-...``, ``sk-ant-...``, ``sk_live_...``, ``AIza...``, ``ghp_...``, ``hf_...``,
  ``xoxb-...``, a ``Bearer`` token, a ``Basic`` credential (base64 of ``user:password``), and
  ``key=``/``token=`` in a query string.

Every known secret is hidden in each form it may travel in (:func:`secret_forms`): as it is,
URL-encoded, and in base64; a URL with ``user:password`` (a judge's base URL, or one in the
environment) adds its password and ``user:password`` (:func:`url_secrets`), so the ``Basic`` header
that a gateway echoes back is hidden too. :func:`secrets_of` gathers what a judge holds (its key, its
base URL's credentials, its headers), through every wrapper.

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
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, quote_plus, unquote, urlsplit

MASK = "***"
MIN_SECRET = 8
"""Shorter values are not hidden: they would blank ordinary words (a test key such as "test"); real keys are longer."""

_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s'\"<>]+@")
_KEY_SHAPED = re.compile(
    r"(?<![A-Za-z0-9_-])(?:"
    r"(?:sk-(?:ant-(?:api\d\d-)?|proj-|live-|test-|svcacct-)?|sk_(?:live|test)_|rk_(?:live|test)_|glpat-|xox[abposr]-)"
    r"[A-Za-z0-9_\-]{16,}"
    r"|(?:AIza|ghp_|gho_|ghs_|github_pat_|hf_)[A-Za-z0-9_]{16,})"
)
"""Keys by their published shapes, at least 16 characters past the prefix (so "sk-learn" stays)."""
_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/\-]{8,}=*")
_BASIC = re.compile(r"(?i)\b(basic\s+)([A-Za-z0-9+/_\-]{8,}={0,2})")
_QUERY_KEY = re.compile(r"(?i)([?&](?:api[_-]?key|key|token|access_token|password)=)[^&\s'\"<>]+")
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
    found: list[str] = []
    for key, value in os.environ.items():
        if _SECRET_VARS.search(key) and len(value) >= MIN_SECRET:
            found.append(value)
        elif "@" in value and "://" in value:
            found.extend(url_secrets(value))
    return found


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


def _basic(match: re.Match[str]) -> str:
    """A ``Basic`` credential is hidden when its base64 decodes to ``user:password``."""
    token = match.group(2)
    try:
        decoded = base64.b64decode(token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4), validate=True)
    except (binascii.Error, ValueError):
        return match.group(0)
    return f"{match.group(1)}{MASK}" if b":" in decoded else match.group(0)


def redact(text: str, secrets: Iterable[str | None] = (), *, environment: bool = True) -> str:
    """``text`` with every credential replaced by ``***``: URL user:password, key-shaped strings,
    each of ``secrets`` and (unless ``environment`` is false) the environment's secret variables."""
    if not text:
        return text
    return _scrub(text, _known(secrets, environment))


def _scrub(text: str, forms: list[str]) -> str:
    """``text`` with each of ``forms`` (longest first) and every credential-shaped string hidden."""
    for secret in forms:
        if secret in text:
            text = text.replace(secret, MASK)
    text = _USERINFO.sub(rf"\g<scheme>{MASK}@", text)
    text = _KEY_SHAPED.sub(MASK, text)
    text = _BEARER.sub(rf"\g<1>{MASK}", text)
    text = _BASIC.sub(_basic, text)
    return _QUERY_KEY.sub(rf"\g<1>{MASK}", text)


def _known(secrets: Iterable[str | None], environment: bool) -> list[str]:
    """Every form of every secret, longest first (so a longer form is hidden whole)."""
    plain = {s for s in secrets if s and len(s) >= MIN_SECRET}
    if environment:
        plain.update(environment_secrets())
    forms: set[str] = set()
    for secret in plain:
        forms |= secret_forms(secret)
    return sorted(forms, key=len, reverse=True)


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
    "secret_forms", "secrets_of", "url_secrets",
]
