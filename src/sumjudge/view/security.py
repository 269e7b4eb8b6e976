"""The viewer's defences, applied by its app (:mod:`.app`) to every request:

- **Every write needs the token** of this process (:attr:`~.app.ViewSettings.token`, 256 random bits
  made at start): the item page carries it in a ``<meta>`` tag and in its forms; the script sends it in
  the ``X-Sumjudge-Token`` header. A request without it, or with another, is refused (403): another site
  open in the same browser cannot label on the user's behalf, as it cannot read the page
  (:func:`write_refusal`).
- **A strict Content-Security-Policy** on every response: only the app's own script and style sheet,
  no inline script or style, no request to any other origin, no framing (:class:`SecurityHeaders`).
- **Read-only** (``--read-only``): no token is handed out, and every write is refused (403) whatever
  it carries.
- **A JSON body** is read only when it is a flat enough object (:func:`json_body`).
- **A body is read only after the token check, and only so far**: the token comes in a header (the
  script) or in the form's action URL (``/label?token=...``, the page's forms), and is checked before
  a byte of the body is read; a form that carries it only in its fields (an older page) has its body
  read up to :data:`MAX_BODY_BYTES` first. A body declared or sent longer than that is refused (413)
  unread: a page that POSTs 100 MB to 127.0.0.1 costs the viewer nothing (:func:`bounded_body`).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from ..errors import InputError

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}
TOKEN_HEADER = "x-sumjudge-token"


MAX_BODY_BYTES = 1024 * 1024
"""The longest body a write may send (a label or a rating with its note is well under 1 KiB; a body
under this bound but nested too deep is refused by :func:`json_body`, with its own reason)."""
TOO_LARGE = f"the request body is larger than {MAX_BODY_BYTES // 1024} KiB"


class BodyTooLarge(InputError):
    """A request body over :data:`MAX_BODY_BYTES` (answered 413)."""


async def bounded_body(request: Any, limit: int = MAX_BODY_BYTES) -> bytes:
    """The body of a Starlette ``request``, read only up to ``limit`` bytes: :class:`BodyTooLarge` for a body
    declared longer (nothing is read) or sent longer (the rest is never read)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise InputError("the Content-Length header is not a number")
        if int(declared) > limit:
            raise BodyTooLarge(TOO_LARGE)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(TOO_LARGE)
        chunks.append(chunk)
    return b"".join(chunks)


MAX_BODY_DEPTH = 8
"""How deep a JSON body of the viewer's API may nest (a label is one flat object)."""


def json_body(raw: bytes) -> dict[str, Any]:
    """A request's JSON object; :class:`InputError` for anything else, before a parser could recurse into a
    body nested 100,000 deep (the depth is counted on the bytes, outside strings)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            escaped, in_string = (False, True) if escaped else (byte == 0x5C, byte != 0x22)
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_BODY_DEPTH:
                raise InputError(f"the body nests deeper than {MAX_BODY_DEPTH} levels")
        elif byte in (0x5D, 0x7D):
            depth -= 1
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise InputError(f"the body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise InputError("the body is a JSON object")
    return body


class SecurityHeaders:
    """Pure ASGI middleware: the headers above on every HTTP response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() not in SECURITY_HEADERS]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def write_refusal(*, read_only: bool, token: str, sent: str | None) -> str | None:
    """Why a write is refused, or ``None`` when it may go ahead: ``sent`` is the token the request
    carried (its header, else its form's field)."""
    if read_only:
        return "the viewer is read-only (--read-only): labels cannot be written"
    if not secrets.compare_digest((sent or "").encode(), token.encode()):
        return "missing or wrong token: reload the page and try again"
    return None


__all__ = ["CSP", "MAX_BODY_BYTES", "MAX_BODY_DEPTH", "BodyTooLarge", "bounded_body", "SECURITY_HEADERS", "TOKEN_HEADER", "SecurityHeaders", "json_body", "write_refusal"]
