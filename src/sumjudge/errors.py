"""The one small hierarchy of errors that sumjudge raises to its users.

Everything raised on purpose derives from :class:`SumjudgeError`. Errors about bad
configuration or bad input also derive from :class:`ValueError`, so code written
against the spec's "raises ValueError" keeps working.
"""

from __future__ import annotations

from .guards.redact import redact


class SumjudgeError(Exception):
    """Base class of every error sumjudge raises on purpose. Its message is redacted
    (:func:`sumjudge.guards.redact.redact`): no URL password, key-shaped string or secret variable's value
    reaches a user through it."""

    def __init__(self, *args: object) -> None:
        super().__init__(*(redact(a) if isinstance(a, str) else a for a in args))


class ConfigurationError(SumjudgeError, ValueError):
    """A scorer or judge was configured wrongly (bad option, unknown provider, missing key)."""


class MissingAPIKeyError(ConfigurationError):
    """A hosted provider needs an API key and none was given."""

    def __init__(self, provider: str, env_var: str) -> None:
        self.provider = provider
        self.env_var = env_var
        super().__init__(
            f"provider {provider!r} needs an API key: set {env_var} in the environment "
            f"(in a shell: export {env_var.split(' or ')[0]}=...); in Python, ModelConfig(id=..., api_key=...) "
            "passes one"
        )


class MissingDependencyError(ConfigurationError):
    """An optional extra is not installed."""

    def __init__(self, what: str, install: str) -> None:
        self.install = install
        super().__init__(f"{what} is not installed; fix it with: {install}")


class InputError(SumjudgeError, ValueError):
    """The run input or output could not be read (for example a non-string source)."""


class ContextOverflowError(SumjudgeError, ValueError):
    """A request cannot be made to fit the judge's context window; nothing was sent or cut."""

    def __init__(
        self,
        what: str,
        *,
        needed: int,
        prompt_tokens: int,
        reply_tokens: int,
        context_window: int,
        model: str,
        counted_by: str,
    ) -> None:
        self.needed = needed
        self.prompt_tokens = prompt_tokens
        self.reply_tokens = reply_tokens
        self.context_window = context_window
        super().__init__(
            f"{what} needs {needed} tokens ({prompt_tokens} of prompt + {reply_tokens} reserved for the reply, "
            f"counted by {counted_by}) but {model} takes {context_window}; raise ModelConfig.context_window if the "
            "model takes more, or use a judge with a larger context"
        )


class StoreError(SumjudgeError):
    """A run store or reply cache cannot be opened, read or written (the message names the file)."""


class RunBusyError(StoreError):
    """Another process is scoring the same run."""


class JudgeError(SumjudgeError):
    """The judge kept failing for one step: what step, and what came back."""

    def __init__(self, message: str, *, step: str | None = None, returned: str | None = None) -> None:
        self.step = step
        self.returned = returned
        detail = message
        if step:
            detail = f"[{step}] {detail}"
        if returned is not None:
            shown = returned if len(returned) <= 500 else returned[:500] + "..."
            detail = f"{detail}; the judge returned: {shown!r}"
        super().__init__(detail)


class JudgeRequestError(JudgeError):
    """A request the judge will never accept (400, 401, 403, 404, unknown model): not retried."""

    def __init__(self, message: str, *, status: int | None = None, step: str | None = None) -> None:
        self.status = status
        super().__init__(message, step=step)


class JudgeUnavailableError(JudgeError):
    """The judge could not be reached or kept failing transiently after every retry."""


class JudgeOutputError(JudgeError):
    """The judge kept returning output that does not match the step's schema."""
