"""Start the real studio (``studio.app.main``) in this process and quit it the way a user does.

    python -m tests.support.quit_driver HOW DATA_DIR [--while-streaming] [--failing-warm-up]

HOW is ``ctrl-q`` (the key, sent to the window), ``lab-ctrl-q`` (the key, sent to the Lab's window once it is open),
``file-quit`` (the File menu's action), ``close-window`` (the window's close button) or ``app-quit``
(``QApplication.quit()``, what the OS's own quit sends). The quit comes once the workspace has opened its thread, or
with ``--while-streaming`` at the first streamed text of a reply. Before quitting it prints ``quit-driver: quitting
(reply running: True|False)``; the exit code is the studio's own. With ``--failing-warm-up`` the studio's warm-up
raises (:data:`WARM_UP_FAILURE`), as one that cannot build its tables would.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from studio import app as studio_app
from studio.system import warm_up as studio_warm_up
from studio.views.main_window import MainWindow

POLL_MS = 20
#: What the warm-up raises with ``--failing-warm-up``.
WARM_UP_FAILURE = "the detector tables could not be built (quit-driver)"


def failing_warm_up() -> None:
    raise RuntimeError(WARM_UP_FAILURE)


def quit_window(how: str, window: MainWindow) -> None:
    print(f"quit-driver: quitting (reply running: {window.workspace.runs.is_running})", flush=True)
    if how == "ctrl-q":
        QTest.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    elif how == "lab-ctrl-q":
        lab = window.lab_view
        assert lab is not None and lab.isActiveWindow(), "main() opens the Lab and waits for it first"
        QTest.keyClick(lab, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    elif how == "file-quit":
        (action,) = [action for action in window.findChildren(QAction) if action.text() == "&Quit"]
        action.trigger()
    elif how == "close-window":
        window.close()
    elif how == "app-quit":
        QApplication.quit()
    else:
        raise SystemExit(f"quit-driver: unknown way to quit {how!r}")


def main() -> int:
    how, data = sys.argv[1], Path(sys.argv[2])
    while_streaming = "--while-streaming" in sys.argv[3:]
    if "--failing-warm-up" in sys.argv[3:]:
        studio_warm_up.warm_up = failing_warm_up
    app = QApplication(sys.argv[:1])  # studio_app.main() takes this one over

    def when_ready() -> None:
        windows = [widget for widget in app.topLevelWidgets() if isinstance(widget, MainWindow)]
        window = windows[0] if windows else None
        if window is None or window.workspace.thread_id is None:
            QTimer.singleShot(POLL_MS, when_ready)
            return
        target = window.open_lab() if how == "lab-ctrl-q" else window
        if not target.isActiveWindow():
            if target.isVisible():
                target.activateWindow()  # a shortcut reaches only the active window
            QTimer.singleShot(POLL_MS, when_ready)
            return
        if not while_streaming:
            quit_window(how, window)
            return
        quitting: list[bool] = []

        def on_chunk(_run_id: str, chunk: object) -> None:
            if getattr(chunk, "type", "") == "text-delta" and not quitting:
                quitting.append(True)
                QTimer.singleShot(0, lambda: quit_window(how, window))

        window.workspace.runs.chunk_received.connect(on_chunk)
        # far below the injection detector's threshold (the learned model scores "Tell me about guardrails for
        # agents." 0.77 and blocks it: no text would stream)
        window.chat.input.setPlainText("Could you explain guardrails for agents, please?")
        window.chat._submit()  # what Enter does

    QTimer.singleShot(0, when_ready)
    return studio_app.main(["--data-dir", str(data)])


if __name__ == "__main__":
    raise SystemExit(main())
