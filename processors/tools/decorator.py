"""``@tool`` and ``tools_by_name``: functions made into tools, and an agent's tools keyed by name."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, overload

from processors.tools.tool import Tool

# --------------------------------------------------------------------------------------------------------------
# @tool


@overload
def tool(fn: Callable[..., Any], /, *, name: str | None = None, description: str | None = None) -> Tool: ...


@overload
def tool(*, name: str | None = None, description: str | None = None) -> Callable[[Callable[..., Any]], Tool]: ...


def tool(
    fn: Callable[..., Any] | None = None, /, *, name: str | None = None, description: str | None = None
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Make a :class:`Tool` from a function (sync or async): ``@tool``, ``@tool(name=..., description=...)``.

    The schema comes from the type hints (through a pydantic model, so ``Literal``, enums, ``Optional``, lists,
    pydantic models and ``Annotated[..., Field(...)]`` all work); parameters with defaults are optional. The
    description is the docstring's text before its first section; each argument's description comes from a
    Google-style ``Args:`` section, ``:param x:`` fields or a numpy-style ``Parameters`` section. A bad name is a
    ``ValueError`` at once.
    """
    frame = sys._getframe(1)
    localns = dict(frame.f_locals) if frame.f_locals is not frame.f_globals else None
    del frame

    def decorate(function: Callable[..., Any]) -> Tool:
        return Tool._from_function(function, name, description, localns)

    if fn is None:
        return decorate
    return decorate(fn)


# --------------------------------------------------------------------------------------------------------------
# tools_by_name


def tools_by_name(
    tools: Iterable[Tool | Callable[..., Any]] | Mapping[str, Tool | Callable[..., Any]] | None,
) -> dict[str, Tool]:
    """The agent's tools keyed by name, from a list (names from the tools) or a mapping (the keys name them).

    Plain functions are wrapped with :func:`tool`. Raises ``ValueError`` on a duplicate or invalid name and
    ``TypeError`` on something that is not a tool.
    """
    if tools is None:
        return {}
    result: dict[str, Tool] = {}
    if isinstance(tools, Mapping):
        for key, item in tools.items():
            if not isinstance(key, str):
                raise TypeError(f"tool mapping keys must be names (str), got {key!r}")
            found = _as_tool(item)
            result[key] = found if found.name == key else found.renamed(key)
        return result
    if isinstance(tools, (str, bytes)):
        raise TypeError("tools must be a list or a mapping of tools, not a string")
    for item in tools:
        found = _as_tool(item)
        if found.name in result:
            raise ValueError(f"Duplicate tool name {found.name!r}: every tool given to an agent needs its own name")
        result[found.name] = found
    return result


def _as_tool(item: object) -> Tool:
    if isinstance(item, Tool):
        return item
    if callable(item):
        return Tool._from_function(item, None, None, None)
    raise TypeError(f"expected a Tool or a function, got {type(item).__name__}")


__all__ = ["tool", "tools_by_name"]
