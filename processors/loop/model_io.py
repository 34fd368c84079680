"""The loop's edges with the model: its failures named, its stream closed, structured output asked for and read."""

from __future__ import annotations

import json
import logging
from typing import Any

from pydantic import BaseModel

from processors.errors import ModelAdapterError
from processors.models.base import LanguageModel

logger = logging.getLogger("processors.loop.run")


def adapter_error(model: LanguageModel, error: Exception) -> ModelAdapterError:
    """A model adapter's unexpected exception as a failed model call that names the model (by its class when its
    ``model_id`` is empty). ``resolve_model`` refused any model without a ``model_id`` and a ``provider``."""
    return ModelAdapterError(str(model.model_id or type(model).__name__), error, provider=model.provider)


async def close_source(source: Any) -> None:
    """Close the model's stream (its HTTP response). A broken ``aclose`` is logged: it must not replace the
    step's outcome (or error) with its own; cancellation still propagates."""
    close = getattr(source, "aclose", None)
    if close is None:
        return
    try:
        await close()
    except Exception:
        logger.warning("closing the model's stream failed", exc_info=True)


def response_format(structured: Any) -> dict[str, Any] | None:
    if structured is None:
        return None
    schema = structured.get("schema") if isinstance(structured, dict) else structured
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        schema = schema.model_json_schema()
    if not isinstance(schema, dict):
        return None
    return {"type": "json_schema", "json_schema": {"name": "response", "schema": schema}}


def parse_structured(text: str, structured: Any) -> Any:
    schema = structured.get("schema") if isinstance(structured, dict) else structured
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            return schema.model_validate(value)
        except ValueError:
            return None
    return value


__all__ = ["adapter_error", "close_source", "parse_structured", "response_format"]
