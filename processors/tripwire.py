"""``TripWire``: what ``args.abort()`` raises to stop a run (or, with ``retry=True``, to ask for another try).

It is a control-flow value rather than an error: the runner catches it, calls the processor's
``on_violation``, and turns it into a ``tripwire`` chunk and ``result.tripwire``. Callers never see it raised.

Besides its English ``reason`` (the API's and the stored rows' text, unchanged), a tripwire may carry a ``code`` and
its ``params`` — as :class:`~processors.errors.ModelAPIError` carries a ``kind`` — so a reader in another language
gets the sentence of that code, translated, with the same values: a built-in's code is
``"<TypeName>.<key>"``, its English template the class's ``texts[key]`` (``BuiltinProcessor.tripwire``). A
tripwire without a code (a plug-in's, or one stored before codes existed) is shown as its reason. The runtime's own
reason for an ``abort()`` that gives none carries a code ``<area>:<key>`` (:data:`UNNAMED_ABORT`), translated as the
studio translates a :class:`~processors.problems.Problem`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from processors.problems import Problem

#: The code of the runtime's own reason for an ``abort()`` that gives none ("Tripwire triggered by {processor}").
UNNAMED_ABORT = "tripwire:unnamed"


class TripWire(Exception):
    """Raised by ``abort()``. ``processor_id`` is the processor whose ``abort`` was called."""

    def __init__(
        self,
        reason: str,
        *,
        retry: bool = False,
        metadata: Any = None,
        processor_id: str | None = None,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry = retry
        self.metadata = metadata
        self.processor_id = processor_id
        self.code = code
        self.params: dict[str, Any] = dict(params or {})

    def coded_reason(self) -> str:
        """The reason as a trace records it: a :class:`~processors.problems.Problem` (its English, with the code and
        values) when the tripwire has a code, so a reader of the trace gets it in their language; else the reason."""
        return Problem.written(self.code, self.reason, **self.params) if self.code else self.reason

    def to_data(self) -> TripwireData:
        return TripwireData(
            reason=self.reason,
            retry=self.retry,
            metadata=self.metadata,
            processor_id=self.processor_id,
            code=self.code,
            params=self.params,
        )


class TripwireData(BaseModel):
    """The public record of a tripwire: the ``tripwire`` chunk's payload and ``result.tripwire``."""

    model_config = ConfigDict(alias_generator=to_camel, validate_by_name=True, validate_by_alias=True)

    reason: str
    retry: bool = False
    metadata: Any = None
    processor_id: str | None = None
    #: The stable code of the sentence (``"TokenLimiter.limit_exceeded"``), None for a free-form reason.
    #: Left out of the payload when None, so a reason without a code keeps the wire shape of Mastra's tripwire.
    code: str | None = Field(default=None, exclude_if=lambda value: value is None)
    #: The values the sentence of ``code`` is written with (JSON values: numbers and short texts).
    params: dict[str, Any] = Field(default_factory=dict, exclude_if=lambda value: not value)


class Violation(BaseModel):
    """What ``on_violation`` receives: who detected what, with the processor's own detail."""

    processor_id: str
    message: str
    detail: Any = None
    #: The message's stable code (``"RegexFilter.warn_report"``: a built-in's ``texts`` key) when it has one, so a
    #: reader in another language sees it in that language; None for a free message.
    code: str | None = Field(default=None, exclude_if=lambda value: value is None)
    #: The values the sentence of ``code`` is written with.
    params: dict[str, Any] = Field(default_factory=dict, exclude_if=lambda value: not value)
