"""A readable message for a problem the studio cannot work around (never a traceback dialog)."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QMessageBox, QWidget


async def show_fatal(parent: QWidget, title: str, text: str) -> None:
    """Show ``text`` and wait until the user closes it (``open()``, not ``exec()``: the qasync loop keeps running)."""
    box = QMessageBox(QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Close, parent)
    box.setObjectName("fatal")
    closed = asyncio.Event()
    box.finished.connect(lambda _result: closed.set())
    box.open()
    if parent.isVisible():
        await closed.wait()
