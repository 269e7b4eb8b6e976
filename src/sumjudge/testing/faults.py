"""Scripted replies and faults of the test servers: 429 with ``Retry-After``, 5xx, any status, a hang,
a dropped connection, invalid JSON, a truncated reply, a wrong number of verdicts, a refused
structured-output form (as llama-cpp-python's server refuses ``json_schema``).

Queue them with :meth:`JudgeServer.script <sumjudge.testing.judge_server.JudgeServer.script>`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


TRICKLE = "X-Sumjudge-Trickle"
"""A header of a scripted :class:`Reply` that tells the server how to send it slowly (never sent itself)."""


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Build them with :class:`Fault` or give ``content`` yourself."""

    content: str | dict[str, Any] | list[Any] | None = None
    """The assistant's text (a dict or list is sent as JSON). ``None``: ask the brain."""
    finish_reason: str = "stop"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    """For a status >= 400: the error message of the body."""
    error_type: str = "invalid_request_error"
    delay: float = 0.0
    """Seconds to wait before answering (or before dropping, with ``drop``)."""
    drop: bool = False
    """Close the connection without an answer."""
    transform: Callable[[Any], Any] | None = None
    """Applied to the brain's answer (a dict) before it is sent."""
    truncate: bool = False
    """Send half of the answer with ``finish_reason: "length"``."""
    only_for: str | None = None
    """Only fire when the request asks for this structured form; else pass to the brain."""


class Fault:
    """Ready-made faults to :meth:`JudgeServer.script`."""

    @staticmethod
    def rate_limit(retry_after: float | str | None = 1, message: str = "Rate limit reached, slow down") -> Reply:
        headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
        return Reply(status=429, headers=headers, error=message, error_type="rate_limit_error")

    @staticmethod
    def server_error(status: int = 500, message: str = "The server had an error processing your request") -> Reply:
        return Reply(status=status, error=message, error_type="server_error")

    @staticmethod
    def status(status: int, message: str, error_type: str = "invalid_request_error") -> Reply:
        """Any error status: 400, 401, 403, 404 (unknown model)..."""
        return Reply(status=status, error=message, error_type=error_type)

    @staticmethod
    def unknown_model(model: str = "test-model") -> Reply:
        return Reply(status=404, error=f"The model `{model}` does not exist", error_type="not_found_error")

    @staticmethod
    def hang(seconds: float = 30.0) -> Reply:
        """Say nothing for ``seconds``, then drop the connection (set the client's timeout lower)."""
        return Reply(delay=seconds, drop=True)

    @staticmethod
    def slow_loris(every: float = 0.1, *, headers: bool = False) -> Reply:
        """The answer sent one byte every ``every`` seconds: its body (``headers=False``, after the
        headers went out whole) or the whole reply, status line and headers included. Each read of the
        client gets a byte well within any per-read timeout; only a bound on the whole reply ends it."""
        return Reply(headers={TRICKLE: f"{every:g} {'all' if headers else 'body'}"})

    @staticmethod
    def drop() -> Reply:
        """Close the connection without a word."""
        return Reply(drop=True)

    @staticmethod
    def invalid_json(text: str = '{"alignment": [ this is not JSON') -> Reply:
        return Reply(content=text)

    @staticmethod
    def truncated() -> Reply:
        """The brain's answer cut in half, with ``finish_reason: "length"``."""
        return Reply(truncate=True)

    @staticmethod
    def wrong_count(delta: int = -1) -> Reply:
        """The brain's answer with ``delta`` items more (or fewer) in its top-level list."""

        def change(answer: Any) -> Any:
            if not isinstance(answer, dict):
                return answer
            for key, value in answer.items():
                if isinstance(value, list):
                    if delta < 0:
                        answer = {**answer, key: value[: max(0, len(value) + delta)]}
                    else:
                        filler = value[-1] if value else {}
                        answer = {**answer, key: value + [filler] * delta}
                    break
            return answer

        return Reply(transform=change)

    @staticmethod
    def refuse_json_schema(status: int = 500) -> Reply:
        """One refusal of ``json_schema`` the way llama-cpp-python's server answers it."""
        return Reply(status=status, error=LLAMA_CPP_REFUSAL, error_type="internal_server_error", only_for="json_schema")


LLAMA_CPP_REFUSAL = (
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
    "  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema', "
    "input_type=str]"
)
"""What llama-cpp-python's server (0.3.x) says, with HTTP 500, to ``response_format: json_schema``."""


__all__ = ["LLAMA_CPP_REFUSAL", "Fault", "Reply"]
