"""``ThreadRecord``: a stored conversation thread, as the store returns it and as a thread export carries it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

#: Longest id the schema stores (``VARCHAR(255)`` on servers that enforce it).
MAX_ID_LENGTH = 255


def utcnow() -> datetime:
    return datetime.now(UTC)


class ThreadRecord(BaseModel):
    """One thread: its id, owner (``resource_id``, e.g. a user), title, timestamps and free metadata.

    ``updated_at`` moves on every save, so "newest first" lists put the latest conversation on top.
    """

    model_config = ConfigDict(
        alias_generator=to_camel, validate_by_name=True, validate_by_alias=True, frozen=True, extra="forbid"
    )

    id: str = Field(min_length=1, max_length=MAX_ID_LENGTH)
    resource_id: str | None = Field(default=None, max_length=MAX_ID_LENGTH)
    title: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("created_at", "updated_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        """Naive times are taken as UTC; every time is kept in UTC so ordering is the same on every backend."""
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def to_json(self) -> dict[str, Any]:
        """camelCase JSON, the ``thread`` object of a thread export."""
        return self.model_dump(mode="json", by_alias=True)


__all__ = ["MAX_ID_LENGTH", "ThreadRecord", "utcnow"]
