"""``LayoutMemory``: the window's splitters as the user left them, kept per screen size, and "Reset layout".

A layout dragged into shape on a laptop's 1366x768 does not suit a 1920x1080 monitor, and the other way round, so
each splitter's state is saved under the size of the screen the window is on (``layout/1366x738/inspector``) and
restored only on a screen of that size; elsewhere the default shares apply. "Reset layout" (View menu) forgets the
saved states of the current screen size and gives every splitter its default shares again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QSplitter, QWidget

from studio.views.splitter_shares import apply_shares, cancel_first_resize_shares

__all__ = ["LayoutMemory", "screen_size_key"]


def screen_size_key(widget: QWidget) -> str:
    """``"1366x738"``: the free area of the screen ``widget`` is on (``"unknown"`` with no screen)."""
    screen = widget.screen()
    if screen is None:
        return "unknown"
    size = screen.availableGeometry().size()
    return f"{size.width()}x{size.height()}"


class LayoutMemory:
    """Saves and restores named splitters under the current screen size; resets them to their default shares."""

    def __init__(self, settings: Callable[[], QSettings], screen_key: Callable[[], str]) -> None:
        self._settings = settings
        self._screen_key = screen_key
        self._splitters: dict[str, tuple[QSplitter, list[int]]] = {}

    def add(self, name: str, splitter: QSplitter, shares: Sequence[int]) -> None:
        """Remember ``splitter`` as ``name``; ``shares`` are its default shares (what "Reset layout" gives it)."""
        self._splitters[name] = (splitter, list(shares))

    def _key(self, name: str = "") -> str:
        return f"layout/{self._screen_key()}" + (f"/{name}" if name else "")

    def restore(self) -> list[str]:
        """Put back the splitters saved on a screen of this size; the names of those restored."""
        settings = self._settings()
        restored = []
        for name, (splitter, _shares) in self._splitters.items():
            state = settings.value(self._key(name))
            if isinstance(state, QByteArray) and splitter.restoreState(state):
                cancel_first_resize_shares(splitter)
                hidden = str(settings.value(self._key(f"{name}.hidden"), "")).split(",")
                for index in range(splitter.count()):
                    pane = splitter.widget(index)
                    if pane is not None:
                        pane.setHidden(str(index) in hidden)  # a splitter's state keeps sizes, not hidden panes
                restored.append(name)
        return restored

    def save(self) -> None:
        settings = self._settings()
        for name, (splitter, _shares) in self._splitters.items():
            settings.setValue(self._key(name), splitter.saveState())
            hidden = [
                str(index) for index in range(splitter.count()) if (pane := splitter.widget(index)) and pane.isHidden()
            ]
            settings.setValue(self._key(f"{name}.hidden"), ",".join(hidden))
        settings.sync()

    def reset(self) -> None:
        """Every splitter back to its default shares, every pane shown; this screen size's saved states forgotten."""
        settings = self._settings()
        settings.remove(self._key())
        settings.sync()
        for splitter, shares in self._splitters.values():
            for index in range(splitter.count()):
                pane = splitter.widget(index)
                if pane is not None:
                    pane.show()
            apply_shares(splitter, shares)
