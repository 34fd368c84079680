"""Which values a design's guards hide: its hiding guards by lane, built once, and what they find as (kind, value).

A hiding guard is an enabled PIIDetector or RegexFilter of a design whose strategy is not ``warn`` (DESIGN §6,
privacy: what one hid stays hidden in every export). Two exports ask: the thread export
(:mod:`studio.store.run_transfer`) writes each value found as ``[REDACTED]``, and the regression test export
(:mod:`studio.regression_exports`) names the kinds of the values its file holds unmasked::

    lanes = hiding_guards(design.to_json())          # HidingLanes(input=(...), output=(...)): built once per design
    if lanes:                                        # falsy: the design hides nothing
        for kind, value in found_in(lanes.input, texts):
            ...                                      # ("email", "jo@example.com"), ("customer-card", "4111 …")

A match's kind is a PIIDetector's detection type (``"ip-address"`` for an IPv4 or IPv6 address, ``"api-key"`` for
an OpenAI or AWS key: the types its options name) or a RegexFilter's rule name. The guards find offline only (a
PIIDetector's judge model is not asked). Their modules load with the first design that has one, not with the store:
the window shows sooner (``tests/studio/test_startup_imports.py``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, NamedTuple

__all__ = ["Hidden", "HidingGuard", "HidingLanes", "every_pii_type", "found_in", "hiding_guards"]

logger = logging.getLogger(__name__)

#: The processor types that hide what they find, as a design names them.
_HIDING_TYPES: Final = ("PIIDetector", "RegexFilter")


class Hidden(NamedTuple):
    """One value a hiding guard finds: its kind (a PIIDetector's detection type, a RegexFilter's rule name)."""

    kind: str
    value: str


@dataclass(frozen=True)
class HidingGuard:
    """A built hiding guard: its processor type and how it finds values in one text."""

    type: str
    find: Callable[[str], Iterable[Hidden]]


@dataclass(frozen=True)
class HidingLanes:
    """A design's hiding guards: the input lane's and the output lane's. Falsy when both are empty."""

    input: tuple[HidingGuard, ...] = ()
    output: tuple[HidingGuard, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.input or self.output)

    @property
    def both(self) -> tuple[HidingGuard, ...]:
        """The input lane's guards, then the output lane's."""
        return (*self.input, *self.output)


def found_in(guards: Iterable[HidingGuard], texts: Iterable[str]) -> Iterator[Hidden]:
    """What ``guards`` find in ``texts``: each text once (the first time it comes), each guard in turn, their matches
    in the order the guard gives them (a value found twice comes twice)."""
    chosen = tuple(guards)
    for text in dict.fromkeys(texts) if chosen else ():
        for guard in chosen:
            yield from guard.find(text)


@lru_cache(maxsize=16)
def hiding_guards(design_json: str | None) -> HidingLanes:
    """The hiding guards of a design (its JSON, ``AgentDesign.to_json()`` or as a run stored it), by lane, built
    from their options; none for no design or unreadable JSON, and a guard with options this version cannot build
    is left out (logged). A thread's runs share a design or a few: each is built once."""
    if not design_json or design_json == "None":
        return HidingLanes()
    try:
        design = json.loads(design_json)
    except ValueError:
        return HidingLanes()
    if not isinstance(design, dict):
        return HidingLanes()
    return HidingLanes(_lane(design.get("input")), _lane(design.get("output")))


def _lane(entries: Any) -> tuple[HidingGuard, ...]:
    guards: list[HidingGuard] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, Mapping) or not entry.get("enabled", True) or entry.get("type") not in _HIDING_TYPES:
            continue
        options = entry.get("options") or {}
        if not isinstance(options, Mapping) or options.get("strategy") == "warn":
            continue
        try:
            guards.append(_built(str(entry["type"]), options))
        except (ValueError, TypeError) as error:
            logger.warning("a %s of the run's design could not be built for an export: %s", entry["type"], error)
    return tuple(guards)


def _built(type_name: str, options: Mapping[str, Any]) -> HidingGuard:
    if type_name == "PIIDetector":
        from processors.builtin.pii_detector import PIIDetector

        return _pii_guard(PIIDetector(**options))
    from processors.builtin.regex_filter import RegexFilter

    rules = RegexFilter(**options)

    def find(text: str) -> list[Hidden]:
        return [Hidden(str(match["rule"]), str(match["match"])) for match in rules.find_matches(text)]

    return HidingGuard("RegexFilter", find)


def _pii_guard(detector: Any) -> HidingGuard:
    from processors.builtin.pii_patterns import category

    def find(text: str) -> list[Hidden]:
        return [Hidden(category(match.kind), match.value) for match in detector.detect_offline(text)]

    return HidingGuard("PIIDetector", find)


@lru_cache(maxsize=1)
def every_pii_type() -> HidingGuard:
    """A PIIDetector of every type regular expressions find: what a run stored without its design is searched
    with (its options are not known)."""
    from processors.builtin.pii_detector import PIIDetector
    from processors.builtin.pii_patterns import REGEX_TYPES

    return _pii_guard(PIIDetector(detection_types=list(REGEX_TYPES)))
