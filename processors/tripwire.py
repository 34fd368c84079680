"""``TripWire``: what ``args.abort()`` raises to stop a run (or, with ``retry=True``, to ask for another try).

It is a control-flow value rather than an error: the runner catches it, calls the processor's
``on_violation``, and turns it into a ``tripwire`` chunk and ``result.tripwire``. Callers never see it raised.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class TripWire(Exception):
    """Raised by ``abort()``. ``processor_id`` is the processor whose ``abort`` was called."""

    def __init__(
        self,
        reason: str,
        *,
        retry: bool = False,
        metadata: Any = None,
        processor_id: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry = retry
        self.metadata = metadata
        self.processor_id = processor_id

    def to_data(self) -> TripwireData:
        return TripwireData(
            reason=self.reason, retry=self.retry, metadata=self.metadata, processor_id=self.processor_id
        )


class TripwireData(BaseModel):
    """The public record of a tripwire: the ``tripwire`` chunk's payload and ``result.tripwire``."""

    model_config = ConfigDict(alias_generator=to_camel, validate_by_name=True, validate_by_alias=True)

    reason: str
    retry: bool = False
    metadata: Any = None
    processor_id: str | None = None


class Violation(BaseModel):
    """What ``on_violation`` receives: who detected what, with the processor's own detail."""

    processor_id: str
    message: str
    detail: Any = None
