"""What a run's guards hid, so that what leaves the machine about the run never carries it.

A guard that masks, drops or blocks text (the PII detector, the system-prompt scrubber, the regex filter) tells
:func:`note_hidden` the values it hid. Nothing is kept unless an exporter watches the run (:func:`watch`, by run
id), and then only in memory until the exporter :func:`release` s it: the values are never written anywhere. An
exporter sends its text through :func:`scrub`, which replaces each hidden value — and the start of one cut off at a
summary's end (``"last: 'mail me at ada@exa'"``) — with :data:`HIDDEN`::

    watch(run_id)                       # the run starts, an exporter listens
    note_hidden(args.run_id, ["ada@example.com"])                       # a guard masked it
    scrub("last: 'mail ada@example.com'", hidden(run_id))               # "last: 'mail [REDACTED]'"
    release(run_id)                     # the run's spans are sent
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

#: What a hidden value becomes in exported text.
HIDDEN = "[REDACTED]"
#: Shorter values are not scrubbed (a two-character value would blot out ordinary words); no guard masks such.
MIN_LENGTH = 4

_lock = threading.Lock()
#: Each watched run: how many exporters watch it, and the values its guards hid so far.
_watched: dict[str, tuple[int, set[str]]] = {}


def watch(run_id: str) -> None:
    """Start keeping what ``run_id``'s guards hide (an exporter listens to the run); pair with :func:`release`."""
    with _lock:
        watchers, values = _watched.get(run_id, (0, set()))
        _watched[run_id] = (watchers + 1, values)


def release(run_id: str) -> None:
    """One exporter is done with ``run_id``: its values are forgotten when no exporter watches any more."""
    with _lock:
        watchers, values = _watched.get(run_id, (0, set()))
        if watchers <= 1:
            _watched.pop(run_id, None)
        else:
            _watched[run_id] = (watchers - 1, values)


def note_hidden(run_id: str, values: Iterable[str]) -> None:
    """A guard of ``run_id`` masked, dropped or blocked ``values``: remembered only while an exporter watches."""
    with _lock:
        watched = _watched.get(run_id)
        if watched is not None:
            watched[1].update(value for value in values if len(value.strip()) >= MIN_LENGTH)


def hidden(run_id: str) -> frozenset[str]:
    """What ``run_id``'s guards hid so far (empty when nobody watches it)."""
    with _lock:
        watched = _watched.get(run_id)
        return frozenset(watched[1]) if watched is not None else frozenset()


def scrub(text: str, values: Iterable[str]) -> str:
    """``text`` with every one of ``values`` replaced by :data:`HIDDEN`, longest first, and with a value's start
    (at least :data:`MIN_LENGTH` characters) that ends the text, or ends it before a closing quote, replaced too:
    a summary cut at 80 characters must not keep half an address."""
    ordered = sorted({v for v in values if len(v.strip()) >= MIN_LENGTH}, key=len, reverse=True)
    if not ordered or not text:
        return text
    for value in ordered:
        text = text.replace(value, HIDDEN)
    closing = text[-1:] if text[-1:] in ("'", '"') else ""
    body = text[: len(text) - len(closing)]
    for value in ordered:
        for length in range(len(value) - 1, MIN_LENGTH - 1, -1):
            if body.endswith(value[:length]):
                body = body[:-length] + HIDDEN
                break
    return body + closing


__all__ = ["HIDDEN", "MIN_LENGTH", "hidden", "note_hidden", "release", "scrub", "watch"]
