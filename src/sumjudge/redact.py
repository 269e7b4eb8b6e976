"""The one redactor: every message that leaves the process goes through :func:`redact` first.

What is hidden, replaced by ``***``:

- the user and password of a URL (``http://bob:pw@host`` becomes ``http://***@host``);
- the values of the environment's key, token, secret and password variables (``OPENAI_API_KEY``,
  ``HF_TOKEN``, ...), and any secret the caller knows (a judge's configured ``api_key``);
- strings shaped like an API key, wherever they come from (a server that echoes the key it refused
  in its 401 body): ``sk-...``, ``sk-ant-...``, ``sk_live_...``, ``AIza...``, ``ghp_...``, ``hf_...``,
  ``xoxb-...``, a ``Bearer`` token, and ``key=``/``token=`` in a query string.

Who calls it: the CLI's error lines (:func:`sumjudge.cli.common.fail`), the error text recorded with a
failed item (:func:`describe_failure`: run store, ``--out``, reports, JUnit), every
:class:`~sumjudge.errors.SumjudgeError` message (so exceptions raised to library users carry none),
the judges' exception chains (:func:`scrub_exception`), and the pytest plugin's failure reports
(terminal and ``--junitxml``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

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
_QUERY_KEY = re.compile(r"(?i)([?&](?:api[_-]?key|key|token|access_token|password)=)[^&\s'\"<>]+")
_SECRET_VARS = re.compile(r"(API_KEY|_TOKEN|_SECRET|_PASSWORD|_PASS)$", re.IGNORECASE)


def environment_secrets() -> list[str]:
    """Values of the environment's key, token, secret and password variables (to hide them)."""
    return [v for k, v in os.environ.items() if _SECRET_VARS.search(k) and len(v) >= MIN_SECRET]


def redact(text: str, secrets: Iterable[str | None] = (), *, environment: bool = True) -> str:
    """``text`` with every credential replaced by ``***``: URL user:password, key-shaped strings,
    each of ``secrets`` and (unless ``environment`` is false) the environment's secret variables."""
    if not text:
        return text
    known = {s for s in secrets if s and len(s) >= MIN_SECRET}
    if environment:
        known.update(environment_secrets())
    for secret in sorted(known, key=len, reverse=True):
        text = text.replace(secret, MASK)
    text = _USERINFO.sub(rf"\g<scheme>{MASK}@", text)
    text = _KEY_SHAPED.sub(MASK, text)
    text = _BEARER.sub(rf"\g<1>{MASK}", text)
    return _QUERY_KEY.sub(rf"\g<1>{MASK}", text)


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


__all__ = ["MASK", "Redactor", "describe_failure", "environment_secrets", "redact", "scrub_exception"]
