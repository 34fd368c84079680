"""Language models: the protocol, the offline scripted model, litellm (imported lazily) and the provider registry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from processors.models.base import (
    Finish,
    LanguageModel,
    ModelEvent,
    ModelRequest,
    ReasoningDelta,
    ResponseMetadata,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
)
from processors.models.scripted import ScriptedModel, ToolCall, Turn

if TYPE_CHECKING:
    from processors.models.litellm import LiteLLMModel

__all__ = [
    "Finish",
    "LanguageModel",
    "LiteLLMModel",
    "ModelEvent",
    "ModelRequest",
    "ReasoningDelta",
    "ResponseMetadata",
    "ScriptedModel",
    "TextDelta",
    "ToolCall",
    "ToolCallComplete",
    "ToolCallDelta",
    "ToolCallStart",
    "Turn",
    "resolve_model",
]


def __getattr__(name: str) -> Any:
    # LiteLLMModel's module is light; litellm itself is imported only when a call is made.
    if name == "LiteLLMModel":
        from processors.models.litellm import LiteLLMModel

        return LiteLLMModel
    raise AttributeError(name)


def resolve_model(model: LanguageModel | str) -> LanguageModel:
    """A plain string is a model id (``"openai/gpt-4o-mini"``), built by the provider it names
    (:mod:`processors.models.providers`); anything else must be a LanguageModel."""
    if isinstance(model, str):
        from processors.models.providers import provider_for

        return provider_for(model).build(model)
    if not isinstance(model, LanguageModel):
        raise TypeError(f"model must be a model id string or a LanguageModel, got {type(model).__name__}")
    return model
