"""``DesignError``: everything that can go wrong with a design the user wrote, said for the user.

Its message names where (a field path, or a chain and position) and keeps its English ``template`` and ``params``,
so the studio shows it in the reader's language (:mod:`studio.error_texts`) while logs and files keep the English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

__all__ = ["DesignError", "Lane"]

Lane = Literal["input", "output", "error"]


class DesignError(ValueError):
    """A design that cannot be read, saved or built, with a message written for the user.

    ``path`` is the field path of the (first) problem (``"output[1].options"``, ``""`` for the whole file);
    ``problems`` lists every ``(path, message)`` found. For a chain entry that cannot be built, ``lane``,
    ``index`` (0-based position in its chain) and ``uid`` say which, so the editor can select it.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        problems: Sequence[tuple[str, str]] = (),
        lane: Lane | None = None,
        index: int | None = None,
        uid: str | None = None,
        template: str = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.problems = list(problems) or ([(path, message)] if path is not None else [])
        self.lane = lane
        self.index = index
        self.uid = uid
        #: The message's English template (marked for translation, context ``DesignError``) and its values: a
        #: value may itself be a :class:`DesignError` (a file's name before the problem in it). Empty: a message
        #: with no template (a plug-in's own words), shown as written.
        self.template = template
        self.params: dict[str, Any] = dict(params or {})

    @classmethod
    def of(
        cls,
        template: str,
        *,
        path: str | None = None,
        problems: Sequence[tuple[str, str]] = (),
        lane: Lane | None = None,
        index: int | None = None,
        uid: str | None = None,
        **params: Any,
    ) -> DesignError:
        """The error whose English message is ``template`` filled with ``params`` (the template kept to be
        translated where it is shown)."""
        message = template.format(**{key: _plain(value) for key, value in params.items()})
        return cls(
            message,
            path=path,
            problems=problems,
            lane=lane,
            index=index,
            uid=uid,
            template=template,
            params=params,
        )


def _plain(value: Any) -> Any:
    """A template's value as the English message shows it: a nested error by its message, a list of
    ``(field, problem)`` pairs as ``field: problem; ...``."""
    if isinstance(value, DesignError):
        return value.message
    if isinstance(value, list):
        return "; ".join(f"{field}: {problem}" for field, problem in value)
    return value
