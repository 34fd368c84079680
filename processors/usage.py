"""Token usage, in Mastra's field names (snake_case), summed across steps."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class Usage(BaseModel):
    """Tokens used by one model call, or by a whole run when added up."""

    model_config = ConfigDict(alias_generator=to_camel, validate_by_name=True, validate_by_alias=True)

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    reasoning_tokens: int | None = None
    cached_input_tokens: int | None = None

    def __add__(self, other: Usage) -> Usage:
        def opt(a: int | None, b: int | None) -> int | None:
            return None if a is None and b is None else (a or 0) + (b or 0)

        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
            reasoning_tokens=opt(self.reasoning_tokens, other.reasoning_tokens),
            cached_input_tokens=opt(self.cached_input_tokens, other.cached_input_tokens),
        )
