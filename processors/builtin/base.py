"""What every built-in processor shares: options validated by a pydantic ``Options`` model.

A built-in is constructed from its options (``RegexFilter(presets=["pii"], strategy="redact")`` or
``RegexFilter.from_options({...})``), so a design file can name a type and its options and the studio can
generate a form from ``Options.model_json_schema()``. Bad options raise :class:`InvalidOptionsError`, whose
message names the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from processors.errors import ProcessorsError
from processors.pipeline.processor import Processor


class InvalidOptionsError(ProcessorsError, ValueError):
    """A built-in processor got options it cannot use. ``errors`` maps field path → message."""

    def __init__(self, processor_type: str, errors: dict[str, str]) -> None:
        details = "; ".join(f"{field}: {message}" for field, message in errors.items())
        super().__init__(f"Invalid options for {processor_type}: {details}")
        self.processor_type = processor_type
        self.errors = errors


class ProcessorOptions(BaseModel):
    """Base of every ``Options`` model: unknown fields are refused (a typo must not be silently ignored)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, arbitrary_types_allowed=True)


class BuiltinProcessor(Processor):
    """Base of the built-ins. Subclasses set ``Options`` and read ``self.options``.

    Class attributes the catalogue reads: ``type_name`` (stable name used in design files, e.g.
    ``"RegexFilter"``), ``needs_model`` (True when a model judge is required rather than optional).
    """

    Options: ClassVar[type[ProcessorOptions]] = ProcessorOptions
    type_name: ClassVar[str] = ""
    needs_model: ClassVar[bool] = False

    def __init__(self, **options: Any) -> None:
        self.options = self.parse_options(options)
        custom_id = options.get("id") if "id" in type(self.options).model_fields else None
        if custom_id:
            self.id = custom_id

    @classmethod
    def parse_options(cls, options: Mapping[str, Any]) -> Any:
        try:
            return cls.Options.model_validate(dict(options))
        except ValidationError as error:
            errors = {
                ".".join(str(p) for p in item["loc"]) or "options": item["msg"].removeprefix("Value error, ")
                for item in error.errors()
            }
            raise InvalidOptionsError(cls.type_name or cls.__name__, errors) from None

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | ProcessorOptions | None = None) -> BuiltinProcessor:
        if isinstance(options, ProcessorOptions):
            options = options.model_dump()
        return cls(**dict(options or {}))
