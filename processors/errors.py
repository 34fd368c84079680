"""The runtime's errors, all rooted in :class:`ProcessorsError`.

::

    ProcessorsError
    ├── ModelAPIError              a provider refused or failed a model call (status, retryable)
    │   └── ModelAdapterError          the model adapter itself raised something else (kept as __cause__)
    ├── ProcessorError             a processor broke the contract or raised
    │   ├── ProcessorContractError     a value the hook does not allow (a dict or str for a chunk ...),
    │   │                              a foreign MessageList, an unknown key, a processor in the wrong lane
    │   ├── ProcessorRaisedError       a hook raised a normal exception (names processor and hook)
    │   └── PatternTimeoutError        a user's regular expression ran past its time limit (names the rule)
    ├── ToolError                  a tool could not be called
    │   └── ToolArgumentsError         the model sent invalid JSON or invalid arguments
    └── InvalidChunkError          ``writer.custom`` got a chunk whose type is not ``data-*``

:class:`ProcessorLaneWarning` (a ``UserWarning``) is a warning, not an error: a processor sits where one of its
hooks can never be called.

``TripWire`` (``processors.tripwire``) is deliberately *not* in this tree: it is a value the runner turns into
a ``tripwire`` chunk and ``result.tripwire``, not an error the caller must catch.
"""

from __future__ import annotations

from typing import Any


class ProcessorsError(Exception):
    """Root of every error the runtime raises on purpose."""


#: ``ModelAPIError.kind`` values: no answer in time, the provider could not be reached, the stream was cut short.
MODEL_ERROR_KINDS = ("timeout", "unreachable", "dropped_stream")


class ModelAPIError(ProcessorsError):
    """A model provider failed a call; one shape whatever the provider, so error processors can decide.

    ``retryable`` says whether trying again may help (429, 5xx, dropped connections), never for 401/403.
    ``retry_after`` is the provider's Retry-After in seconds when it sent one. ``kind`` names a failure without an
    HTTP answer by a stable code (:data:`MODEL_ERROR_KINDS`) and ``detail`` is what the transport said, so a program
    showing the error in another language rewords the English ``message`` from those two; None for the others.
    """

    def __init__(
        self,
        status_code: int | None,
        message: str,
        retryable: bool = False,
        *,
        retry_after: float | None = None,
        provider: str | None = None,
        body: Any = None,
        kind: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message
        self.retryable = retryable
        self.retry_after = retry_after
        self.provider = provider
        self.body = body
        self.kind = kind
        self.detail = detail

    def __repr__(self) -> str:
        return (
            f"ModelAPIError(status_code={self.status_code!r}, message={self.message!r}, retryable={self.retryable!r})"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form used in ``error`` chunks and message error parts."""
        return {
            "name": "ModelAPIError",
            "message": self.message,
            "statusCode": self.status_code,
            "retryable": self.retryable,
            "retryAfter": self.retry_after,
            "provider": self.provider,
            **({"kind": self.kind, "detail": self.detail} if self.kind else {}),
        }


class ModelAdapterError(ModelAPIError):
    """A model adapter raised an exception that is not a :class:`ModelAPIError` (a bug in a custom
    ``LanguageModel``, an unexpected failure inside a provider library).

    It is a ``ModelAPIError`` so the run treats it as a failed model call: error processors are asked (they see
    the original as ``__cause__``), the stream ends with an ``error`` chunk, and the turn is saved. It has no HTTP
    status and is not ``retryable``: an adapter that crashed is not expected to heal by itself.
    """

    def __init__(self, model_id: str, error: BaseException, *, provider: str | None = None) -> None:
        detail = str(error)
        if len(detail) > 500:
            detail = detail[:499] + "…"
        what = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
        super().__init__(None, f"the model adapter for '{model_id}' raised {what}", False, provider=provider)
        self.model_id = model_id
        self.exception = error

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "modelId": self.model_id, "exception": type(self.exception).__name__}


class ProcessorError(ProcessorsError):
    """A processor misbehaved; carries which processor and which hook."""

    def __init__(self, message: str, *, processor_id: str | None = None, hook: str | None = None) -> None:
        super().__init__(message)
        self.processor_id = processor_id
        self.hook = hook


class ProcessorContractError(ProcessorError):
    """A processor returned a shape the hook does not allow, or was configured where it cannot run."""


class ProcessorRaisedError(ProcessorError):
    """A processor's hook raised an ordinary exception (kept as ``__cause__``)."""


class PatternTimeoutError(ProcessorError):
    """A regular expression a user wrote (a RegexFilter rule, a scrubber's custom pattern) ran longer than its time
    limit on one text: the pattern backtracks catastrophically on it. The run ends with an ``error`` chunk (a guard
    that cannot finish its check must not let the text through unchecked).

    ``code`` is stable (``"pattern_timeout"``) and ``params`` carry the rule's name, the limit in seconds and the
    text's length, so a program can word the error in another language without reading the English message.
    """

    code = "pattern_timeout"

    def __init__(
        self, rule: str, seconds: float, length: int, *, processor_id: str | None = None, hook: str | None = None
    ) -> None:
        super().__init__(
            f"The pattern of rule '{rule}' took longer than {seconds:g} s on a text of {length} characters "
            "(it backtracks catastrophically); the run was stopped",
            processor_id=processor_id,
            hook=hook,
        )
        self.rule = rule
        self.seconds = seconds
        self.length = length

    @property
    def params(self) -> dict[str, str | float | int]:
        return {"rule": self.rule, "seconds": self.seconds, "length": self.length}


class ToolError(ProcessorsError):
    """A tool call could not be completed."""


class ToolArgumentsError(ToolError):
    """The model's tool-call arguments were not valid JSON or did not match the tool's schema."""


class InvalidChunkError(ProcessorsError):
    """A custom chunk was not a ``data-*`` chunk."""


class ProcessorLaneWarning(UserWarning):
    """A processor implements a hook its lane never calls, so that code is dead where the processor was put.

    Issued when an agent is built (or a call starts with per-call lanes): ``process_api_error`` on a processor in
    the input or output lane, which only the error lane's processors are asked (as in Mastra 1.71).
    """
