"""Where each run's regression test was last exported, so it can be exported again over the same file in one action.

An exported regression test holds a frozen copy of the design (:mod:`studio.replays.regression_test`): after the chain
changes, the user re-exports it — from the thread's menu, or the run's replay view — and the file is rewritten with
the design as it is now, without asking for the file again. Kept in the data folder's ``settings.ini`` (beside the
last folder of the file dialogs), per run: the file and the run's thread::

    remember_export(run_id, thread_id, path)
    exported_path(run_id)         # Path, or None when never exported (or the file was since removed)
    latest_export(thread_id)      # (run_id, Path) of the thread's newest export, or None

A regression test holds the run's message, the thread before it and the recording raw: a PII guard's test needs the
values to exercise the guard (a test with them faked would diverge from the run). :func:`masked_kinds` says what kinds
of values the run's hiding guards (PIIDetector, RegexFilter; not one that only warns) find in what the test holds —
the export asks before writing such a file, and :func:`with_unmasked_header` says so at the top of the file::

    kinds = masked_kinds(source.design or current_design, exported_texts(source))   # ["email", "phone"], or []
    script = with_unmasked_header(script, kinds)
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings

from processors.models.recording import Recording
from studio.store.hidden_values import found_in, hiding_guards
from studio.store.run_transfer import recording_texts, strings_in
from studio.system.paths import data_dir

if TYPE_CHECKING:
    from studio.design.agent_design import AgentDesign
    from studio.replays.chain_replay import ReplaySource

__all__ = [
    "exported_path",
    "exported_texts",
    "latest_export",
    "masked_kinds",
    "remember_export",
    "with_unmasked_header",
]

_GROUP = "regression_exports"


def _settings() -> QSettings:
    return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def remember_export(run_id: str, thread_id: str | None, path: Path) -> None:
    """``run_id``'s regression test was just written to ``path``."""
    settings = _settings()
    entry = {"path": str(path), "thread": thread_id, "at": time.time()}
    settings.setValue(f"{_GROUP}/{run_id}", json.dumps(entry))
    settings.sync()


def _entries() -> dict[str, dict[str, object]]:
    settings = _settings()
    settings.beginGroup(_GROUP)
    found: dict[str, dict[str, object]] = {}
    for run_id in settings.childKeys():
        try:
            entry = json.loads(str(settings.value(run_id, "")))
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            found[run_id] = entry
    settings.endGroup()
    return found


def exported_path(run_id: str) -> Path | None:
    """Where ``run_id``'s test was last written, while that file still exists."""
    entry = _entries().get(run_id)
    path = Path(str(entry["path"])) if entry is not None else None
    return path if path is not None and path.is_file() else None


def latest_export(thread_id: str) -> tuple[str, Path] | None:
    """The newest export of a run of ``thread_id`` whose file still exists: ``(run id, path)``."""
    candidates = sorted(
        ((float(str(entry.get("at", 0))), run_id, Path(str(entry["path"])))
         for run_id, entry in _entries().items() if entry.get("thread") == thread_id),
        reverse=True,
    )  # fmt: skip
    return next(((run_id, path) for _at, run_id, path in candidates if path.is_file()), None)


# ------------------------------------------------------------------------------------------- unmasked values
def exported_texts(source: ReplaySource) -> list[str]:
    """The texts a regression test of ``source`` holds raw: the run's message, the thread before it, and each step's
    text and reasoning (deltas joined, so a value streamed in pieces is found), the other events and the tools'
    calls of its recording."""
    texts = [source.input_text, *strings_in([message.to_json() for message in source.history])]
    try:
        recording = Recording.from_bytes(source.recording)
    except ValueError:  # (a ProblemError) an unreadable recording: the replay would have said so first
        return [text for text in texts if text]
    return [text for text in [*texts, *recording_texts(recording)] if text]


def masked_kinds(design: AgentDesign | None, texts: Iterable[str]) -> list[str]:
    """The kinds of values ``design``'s hiding guards find in ``texts`` (a PIIDetector's detection types —
    ``email``, ``phone``, ``credit-card``, ``ip-address``… — and a RegexFilter's rule names), in the order found
    (:mod:`studio.store.hidden_values`); empty when the design has no such guard or they find nothing."""
    guards = hiding_guards(design.to_json()).both if design is not None else ()
    return list(dict.fromkeys(match.kind for match in found_in(guards, texts)))


def with_unmasked_header(script: str, kinds: Iterable[str]) -> str:
    """``script`` with a comment on top saying it holds, unmasked, the ``kinds`` of values the guards hid (``script``
    itself when ``kinds`` is empty)."""
    named = ", ".join(kinds)
    if not named:
        return script
    return (
        f"# UNMASKED VALUES: this file holds, unmasked, values the design's guardrails hid in the chat ({named}):\n"
        "# the test needs them to replay the run. Share it as you would the conversation itself.\n" + script
    )
