"""Starting the studio again (after a new language was picked), keeping what was typed in the chat box.

The window asks for a restart by closing with ``restart_requested`` set; the entry point shuts the workspace down
as on any quit (the reply in flight is stopped and saved, the design flushed, the store closed), then
:func:`relaunch` starts the same program with the same arguments, minus ``--lang`` (the new choice is kept in
the settings and would be overridden by it). The chat box's unsent text goes to the settings with
:func:`keep_draft` before the window closes and comes back with :func:`take_draft` in the new window.
"""

from __future__ import annotations

import subprocess
import sys

from PySide6.QtCore import QSettings

from studio.system.paths import data_dir

__all__ = ["keep_draft", "relaunch", "relaunch_command", "take_draft"]

_DRAFT = "restart/draft"
_DRAFT_THREAD = "restart/draft_thread"


def _settings() -> QSettings:
    return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def keep_draft(text: str, thread_id: str | None) -> None:
    """Remember the chat box's text (and its thread) for the next start."""
    settings = _settings()
    settings.setValue(_DRAFT, text)
    settings.setValue(_DRAFT_THREAD, thread_id or "")
    settings.sync()


def take_draft() -> tuple[str, str | None]:
    """The text kept by :func:`keep_draft` and its thread (then forgotten); ``("", None)`` when there is none."""
    settings = _settings()
    text = str(settings.value(_DRAFT, "") or "")
    thread = str(settings.value(_DRAFT_THREAD, "") or "") or None
    if settings.contains(_DRAFT):
        settings.remove(_DRAFT)
        settings.remove(_DRAFT_THREAD)
        settings.sync()
    return text, thread


def _without_lang(arguments: list[str]) -> list[str]:
    kept: list[str] = []
    skip = False
    for argument in arguments:
        if skip:
            skip = False
        elif argument == "--lang":
            skip = True
        elif not argument.startswith("--lang="):
            kept.append(argument)
    return kept


def relaunch_command(
    *,
    frozen: bool | None = None,
    executable: str | None = None,
    argv: list[str] | None = None,
    orig_argv: list[str] | None = None,
) -> list[str]:
    """The command that started this process, without ``--lang``: the bundle's executable when frozen, else the
    interpreter's own command line (``python -m studio …`` or the ``processor-studio`` script)."""
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    executable = executable or sys.executable
    if frozen:
        return [executable, *_without_lang(list(sys.argv[1:] if argv is None else argv[1:]))]
    original = list(sys.orig_argv if orig_argv is None else orig_argv)
    script = list(sys.argv if argv is None else argv)
    # orig_argv is [python, (interpreter options…), -m, studio | script, arguments…]; the arguments are argv[1:].
    head = original[: len(original) - (len(script) - 1)] if len(script) > 1 else original
    return [executable, *head[1:], *_without_lang(script[1:])]


def relaunch() -> int:
    """Start the studio again, detached, and return this process's exit code (0: the new one is on its way)."""
    command = relaunch_command()
    subprocess.Popen(command, start_new_session=True, close_fds=True)
    return 0
