"""``StreamErrorRetry``: retry a model call that failed for a transient reason (rate limit, overload, dropped stream).

::

    from processors.builtin.stream_error_retry import StreamErrorRetry

    Agent(id="a", model="openai/gpt-4o-mini",
          error_processors=[StreamErrorRetry(max_retries=3, delay_ms=500, max_retry_after_ms=20_000)])

Mastra's ``StreamErrorRetryProcessor`` (id ``stream-error-retry-processor``), ``process_api_error``. It asks
for a retry while ``retry_count < max_retries`` when the error — or any error in its cause chain — is

* marked retryable by the provider adapter (``ModelAPIError.retryable``: 408, 409, 429, 5xx, dropped
  connections),
* matched by one of ``matchers`` (regular expressions, case-insensitive, over the message and body),
* a known transient stream failure (``ECONNRESET``, "socket hang up", "overloaded", a stream that ended early,
  the OpenAI Responses ``response.failed`` stream error ...),
* or anything at all with ``retry_unknown_errors``,

and **never** for authentication and permission failures (401, 403, invalid or missing API keys), whatever the
options say. Before retrying it waits: the provider's ``Retry-After`` when it sent one, capped at
``max_retry_after_ms``; else ``delay_ms * backoff ** retry_count``, capped at ``max_delay_ms``.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, ClassVar

from pydantic import Field, field_validator

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.errors import ModelAPIError
from processors.pipeline.processor import ProcessAPIErrorArgs
from processors.problems import refusal, regex_problem
from processors.user_patterns import UserPattern, check_user_pattern

#: Failures that are worth a second try even when the adapter did not mark them retryable.
TRANSIENT = re.compile(
    r"ECONNRESET|ETIMEDOUT|ECONNREFUSED|EPIPE|socket hang up|connection (?:reset|aborted|closed)|"
    r"stream (?:ended|closed|terminated|error)|ended without a finish|premature(?:ly)? (?:end|close)|"
    r"overloaded|temporarily unavailable|try again later|rate limit|response\.failed|server_error|"
    r"internal server error|bad gateway|service unavailable|gateway time-?out",
    re.IGNORECASE,
)
#: Failures a retry cannot fix: checked first, so no option can make them retry.
TERMINAL = re.compile(
    r"invalid[_ ]api[_ ]key|incorrect api key|no api key|api key not (?:found|valid)|authentication|"
    r"unauthori[sz]ed|permission[_ ]denied|forbidden|account (?:deactivated|disabled|suspended)",
    re.IGNORECASE,
)
NEVER_RETRY_STATUS = frozenset({401, 403})


class StreamErrorRetryOptions(ProcessorOptions):
    max_retries: int = Field(default=1, ge=0, le=100, description="How many times one failure may be retried.")
    matchers: list[str] = Field(
        default=[],
        max_length=100,
        description="Extra regular expressions (case-insensitive): an error whose message matches is retried.",
    )
    retry_unknown_errors: bool = Field(
        default=False, description="Retry any error except authentication and permission failures."
    )
    delay_ms: int = Field(default=1_000, ge=0, le=600_000, description="Wait before the first retry (no Retry-After).")
    backoff: float = Field(default=2.0, ge=1.0, le=10.0, description="Each later retry waits this many times longer.")
    max_delay_ms: int = Field(default=30_000, ge=0, le=3_600_000, description="The longest computed wait.")
    max_retry_after_ms: int = Field(
        default=60_000, ge=0, le=3_600_000, description="The longest wait a provider's Retry-After may impose."
    )

    @field_validator("matchers")
    @classmethod
    def _compile(cls, value: list[str]) -> list[str]:
        for index, pattern in enumerate(value):
            try:
                re.compile(pattern)
            except re.error as error:
                raise refusal(
                    "pattern:matcher_invalid",
                    "matcher {index} is not a valid regular expression ({pattern!r}): {error}",
                    regex_problem(error),
                    index=index,
                    pattern=pattern,
                ) from None
            try:
                check_user_pattern(pattern, re.IGNORECASE)
            except ValueError as error:
                raise refusal("pattern:matcher", "matcher {index}: {error}", error, index=index) from None
        return value


class StreamErrorRetry(BuiltinProcessor):
    """Retries model calls that failed transiently; honours Retry-After (capped); never retries 401/403."""

    Options: ClassVar[type[ProcessorOptions]] = StreamErrorRetryOptions
    type_name: ClassVar[str] = "StreamErrorRetry"
    id = "stream-error-retry-processor"
    name = "Stream Error Retry"
    description = "Retries model calls that failed transiently (429, 5xx, dropped streams); never 401/403."

    options: StreamErrorRetryOptions

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        #: Users' patterns: bounded in time, and searched on a worker thread (:meth:`process_api_error`).
        self._matchers = [UserPattern(p, p, re.IGNORECASE) for p in self.options.matchers]

    def should_retry(self, error: BaseException) -> bool:
        """Whether ``error`` is worth retrying (ignoring the retry count)."""
        chain = _cause_chain(error)
        if any(_status(e) in NEVER_RETRY_STATUS or TERMINAL.search(_describe(e)) for e in chain):
            return False
        if self.options.retry_unknown_errors:
            return True
        for current in chain:
            if isinstance(current, ModelAPIError) and current.retryable:
                return True
            if getattr(current, "is_retryable", None) is True or getattr(current, "isRetryable", None) is True:
                return True
            text = _describe(current)
            if TRANSIENT.search(text) or any(m.search(text) for m in self._matchers):
                return True
        return False

    def delay_seconds(self, error: BaseException, retry_count: int) -> float:
        """How long to wait before retry number ``retry_count + 1``."""
        options = self.options
        for current in _cause_chain(error):
            retry_after = getattr(current, "retry_after", None)
            if isinstance(retry_after, int | float) and retry_after >= 0:
                return min(retry_after * 1000, options.max_retry_after_ms) / 1000
        delay = options.delay_ms * options.backoff**retry_count
        return min(delay, options.max_delay_ms) / 1000

    async def process_api_error(self, args: ProcessAPIErrorArgs) -> dict[str, Any] | None:
        if args.retry_count >= self.options.max_retries:
            return None
        if self._matchers:  # users' patterns search on a worker thread: the loop stays free meanwhile
            retry = await asyncio.to_thread(self.should_retry, args.error)
        else:
            retry = self.should_retry(args.error)
        if not retry:
            return None
        delay = self.delay_seconds(args.error, args.retry_count)
        args.state.setdefault("retries", []).append({"retry": args.retry_count + 1, "delay_s": delay})
        if delay > 0:
            await asyncio.sleep(delay)
        return {"retry": True}


def _cause_chain(error: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain and len(chain) < 20:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None) or getattr(error, "status", None)
    return status if isinstance(status, int) else None


def _describe(error: BaseException) -> str:
    body = getattr(error, "body", None)
    return f"{type(error).__name__}: {error} {body if body is not None else ''}"
