"""What a converter is: a named, seeded rewrite of an attack text that keeps its meaning for a model.

A converter turns one text into either one text or several user turns (:class:`Turns`: a payload split across a
conversation). Randomness comes only from the ``random.Random`` it is handed, so a variant is a pure function of
the seed the chain derives (:mod:`lab.converters.chain`). A reversible converter also undoes itself (``revert``),
which is how the tests prove an encoding keeps the whole payload.

Plug-ins implement the :class:`Converter` protocol (any object with these attributes will do); the built-ins are
:class:`FunctionConverter` values: a name, a description and two plain functions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from lab.converters.errors import ConverterError


@dataclass(frozen=True, slots=True)
class Turns:
    """A payload spread over several user turns, sent in this order (a converter's multi-turn result)."""

    turns: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.turns:
            raise ValueError("Turns needs at least one turn")


#: What ``convert`` returns: one text, or several user turns.
Converted = str | Turns


class NotReversibleError(ConverterError):
    """``revert`` was asked of a converter that cannot undo itself."""

    code = "converter-not-reversible"

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"the converter {name!r} is not reversible")


@runtime_checkable
class Converter(Protocol):
    """A rewrite of attack text. ``name`` is what chains say (stable: reports and saved runs refer to it)."""

    @property
    def name(self) -> str:
        """The name a chain uses (``"base64"``): lower case, digits and ``-``; never renamed once shipped."""
        ...

    @property
    def description(self) -> str:
        """One line saying what the model receives, for previews and ``--help``."""
        ...

    @property
    def reversible(self) -> bool:
        """Whether ``revert`` gives back the original text."""
        ...

    def convert(self, text: str, rng: random.Random) -> Converted:
        """The converted text (or turns); all randomness from ``rng``."""
        ...

    def revert(self, text: str) -> str:
        """The original text of a ``convert`` result; raises :class:`NotReversibleError` when not reversible.

        A plug-in that is not reversible may leave it out: the registry asks for it only when ``reversible``."""
        ...


@dataclass(frozen=True, slots=True)
class FunctionConverter:
    """A converter made of plain functions: how every built-in is written."""

    name: str
    description: str
    forward: Callable[[str, random.Random], Converted]
    backward: Callable[[str], str] | None = None

    @property
    def reversible(self) -> bool:
        return self.backward is not None

    def convert(self, text: str, rng: random.Random) -> Converted:
        return self.forward(text, rng)

    def revert(self, text: str) -> str:
        if self.backward is None:
            raise NotReversibleError(self.name)
        return self.backward(text)


def fixed(function: Callable[[str], Converted]) -> Callable[[str, random.Random], Converted]:
    """Adapt a deterministic rewrite (no randomness) to ``convert``'s signature."""

    def forward(text: str, rng: random.Random) -> Converted:
        return function(text)

    return forward
