"""Chains of converters and the seeded variants they make.

A chain string names converters separated by ``|`` and applies them left to right: ``"base64|leetspeak"``
base64-encodes, then writes the result in leetspeak. A converter that returns several turns (``split-turns``)
hands each turn to the rest of the chain on its own, so ``"split-turns|base64"`` sends base64 parts while
``"base64|split-turns"`` splits the base64 text.

A variant is a pure function of ``(seed, case id, chain)``: :func:`variant_rng` derives its ``random.Random`` from
a BLAKE2 digest of the three (never Python's ``hash()``, which is salted per process), so the same run gives the
same variants on any machine, in any process, in any order.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from lab.converters.base import Converter, NotReversibleError, Turns
from lab.converters.errors import ChainSyntaxError, ConverterFailedError, UnknownConverterError

#: What a converter's name may be: lower-case letters, digits and dashes (``|`` and spaces separate chain steps).
NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
SEPARATOR = "|"


def variant_rng(seed: int | str, case_id: str, chain: str) -> random.Random:
    """The random generator of one variant: the same three values give the same generator everywhere."""
    key = f"{seed}\x1f{case_id}\x1f{chain}".encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big"))


@dataclass(frozen=True, slots=True)
class Variant:
    """One converted case: what the user turns say, and the three values that reproduce it."""

    case_id: str
    chain: str
    seed: int | str
    turns: tuple[str, ...]

    @property
    def text(self) -> str:
        """The turns as one text (a blank line between turns), for previews and single-message runs."""
        return "\n\n".join(self.turns)


@dataclass(frozen=True, slots=True)
class Chain:
    """Converters applied left to right; build one with :func:`parse_chain`."""

    converters: tuple[Converter, ...]

    @property
    def spec(self) -> str:
        """The chain string (``"base64|leetspeak"``): the chain's identity in reports and seeds."""
        return SEPARATOR.join(converter.name for converter in self.converters)

    @property
    def reversible(self) -> bool:
        return all(converter.reversible for converter in self.converters)

    def apply(self, text: str, rng: random.Random) -> tuple[str, ...]:
        """The user turns ``text`` becomes (one turn unless a converter splits it)."""
        turns: tuple[str, ...] = (text,)
        for converter in self.converters:
            converted: list[str] = []
            for turn in turns:
                converted.extend(_converted(converter, turn, rng))
            turns = tuple(converted)
        return turns

    def variant(self, case_id: str, text: str, seed: int | str) -> Variant:
        """The variant of one case for ``seed``: the same arguments always give the same turns."""
        spec = self.spec
        return Variant(case_id, spec, seed, self.apply(text, variant_rng(seed, case_id, spec)))

    def revert(self, text: str) -> str:
        """The original of a single-turn result, undoing the converters right to left."""
        for converter in reversed(self.converters):
            if not converter.reversible:
                raise NotReversibleError(converter.name)
        for converter in reversed(self.converters):
            text = converter.revert(text)
        return text


def _converted(converter: Converter, text: str, rng: random.Random) -> tuple[str, ...]:
    """One converter's turns for one text; a failure or a wrong type becomes :class:`ConverterFailedError`."""
    try:
        result = converter.convert(text, rng)
    except Exception as error:  # a plug-in's bug: named, never a bare traceback from deep in a run
        raise ConverterFailedError(converter.name, f"{type(error).__name__}: {error}") from error
    if isinstance(result, str):
        return (result,)
    if isinstance(result, Turns) and all(isinstance(turn, str) for turn in result.turns):
        return result.turns
    raise ConverterFailedError(converter.name, f"returned {type(result).__name__}, not a text or Turns")


def parse_chain(spec: str, converters: Mapping[str, Converter]) -> Chain:
    """``"base64 | leetspeak"`` → a :class:`Chain` over ``converters`` (a registry maps names to converters).

    Raises :class:`ChainSyntaxError` for an empty chain or step and :class:`UnknownConverterError` (naming the
    known converters) for a name nobody registered.
    """
    steps = [step.strip() for step in spec.split(SEPARATOR)]
    if not spec.strip():
        raise ChainSyntaxError(spec, "the chain is empty")
    found: list[Converter] = []
    for position, step in enumerate(steps, start=1):
        if not step:
            raise ChainSyntaxError(spec, f"step {position} is empty")
        if step not in converters:
            raise UnknownConverterError(step, converters)
        found.append(converters[step])
    return Chain(tuple(found))


def make_variants(cases: Iterable[tuple[str, str]], chains: Iterable[Chain], seed: int | str) -> Iterator[Variant]:
    """Every ``(case id, text)`` through every chain, lazily (memory stays flat however many variants)."""
    chain_list = tuple(chains)
    for case_id, text in cases:
        for chain in chain_list:
            yield chain.variant(case_id, text, seed)
