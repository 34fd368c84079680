"""The block/warn/filter/redact strategy of the span detectors (``PIIDetector``, ``SystemPromptScrubber``).

A detector finds :class:`Match` spans, then :func:`enforce` records them (the detector's ``_record``) and applies
``options.strategy``: ``block`` aborts (the detector's ``_block``), ``warn`` calls the caller's ``warn`` (so the
log record names the caller's logger) and keeps the text, ``filter`` drops it, ``redact`` replaces each span
(the detector's ``redact``, usually built on :func:`replace_spans`)::

    return enforce_segment(self, args, segment, candidates, _warn_stream)        # a stream segment ("" drops it)
    return enforce_message(self, args, message, text, found, warn)               # a message (None drops it)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from processors.builtin.adjoining import replace_spans_mapped
from processors.builtin.patterns import Match
from processors.builtin.pii_patterns import resolve
from processors.messages import Message
from processors.pipeline.processor import HookArgs
from processors.tracing.redactions import note_hidden

#: Logs a warning about ``found`` (called for the warn strategy).
Warn = Callable[[list[Match]], object]


class _StrategyOptions(Protocol):
    @property
    def strategy(self) -> str: ...


class Enforcer(Protocol):
    """What :func:`enforce` needs of a detector."""

    @property
    def options(self) -> _StrategyOptions: ...

    def _record(self, args: HookArgs, found: list[Match]) -> None: ...

    def _block(self, args: HookArgs, found: list[Match]) -> None: ...

    def redact(self, text: str, found: list[Match]) -> str: ...


def enforce(detector: Enforcer, args: HookArgs, text: str, found: list[Match], warn: Warn) -> str | None:
    """Record ``found`` (disjoint, in text order) and apply the strategy to ``text``.

    Returns ``text`` (warn), its redaction (redact) or None (filter: drop it); block aborts.
    """
    detector._record(args, found)
    strategy = detector.options.strategy
    if strategy != "warn":  # masked, dropped or blocked: exporters must not carry it (processors.tracing.redactions)
        note_hidden(args.run_id, (match.value for match in found))
    if strategy == "block":
        detector._block(args, found)
    if strategy == "warn":
        warn(found)
        return text
    if strategy == "filter":
        return None
    return detector.redact(text, found)


def enforce_segment(detector: Enforcer, args: HookArgs, text: str, found: list[Match], warn: Warn) -> str:
    """:func:`enforce` on a stream segment and its candidate matches (overlapping); "" drops the segment."""
    if not found:
        return text
    kept = enforce(detector, args, text, resolve(found), warn)
    return "" if kept is None else kept


def enforce_message(
    detector: Enforcer, args: HookArgs, message: Message, text: str, found: list[Match], warn: Warn
) -> Message | None:
    """:func:`enforce` on a message whose ``text`` holds ``found`` (disjoint): the message as it was (nothing
    found, warn), with the text redacted (redact), or None (filter: drop it)."""
    if not found:
        return message
    kept = enforce(detector, args, text, found, warn)
    if kept is None:
        return None
    return message.with_text(kept) if detector.options.strategy == "redact" else message


def replace_spans(text: str, found: Iterable[Match], replacement: Callable[[Match], str]) -> str:
    """``text`` with each match of ``found`` (disjoint, in text order) replaced by ``replacement(match)``: the
    one way spans are replaced (:func:`~processors.builtin.adjoining.replace_spans_mapped`, which also says where
    the text between them went, for the look again at a redacted text)."""
    return replace_spans_mapped(text, [(match.start, match.end, replacement(match)) for match in found])[0]


__all__ = ["Enforcer", "Warn", "enforce", "enforce_message", "enforce_segment", "replace_spans"]
