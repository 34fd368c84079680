"""Messages typed while a reply runs: shown above the message box as pending, sent in order when the reply ends.

:class:`MessageQueue` is the plain list (no Qt); :class:`QueuedMessages` shows it, one line per message with a
button that removes it. The chat view owns both: Enter during a reply appends, the end of a reply takes the
first. Object names for automation: ``chat.queue`` (the strip), ``chat.queue.remove.<n>`` (a message's remove
button).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from studio.i18n import translate
from studio.views.chat_style import MUTED


class MessageQueue:
    """Messages waiting for the running reply to end, oldest first."""

    def __init__(self) -> None:
        self._texts: list[str] = []

    def __len__(self) -> int:
        return len(self._texts)

    @property
    def texts(self) -> list[str]:
        return list(self._texts)

    def append(self, text: str) -> None:
        self._texts.append(text)

    def remove(self, index: int) -> None:
        if 0 <= index < len(self._texts):
            del self._texts[index]

    def take_first(self) -> str | None:
        return self._texts.pop(0) if self._texts else None


class QueuedMessages(QWidget):
    """The pending messages, each with a remove button; hidden when there are none."""

    #: The user removed the pending message at this index.
    remove_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chat.queue")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(4, 2, 4, 2)
        self._layout.setSpacing(2)
        self._title = QLabel(translate("ChatQueue", "Queued — sent when the reply ends"), self)
        self._title.setStyleSheet(f"color: {MUTED.name()}; font-style: italic;")
        self._layout.addWidget(self._title)
        self._rows: list[QWidget] = []
        self.hide()

    def show_texts(self, texts: list[str]) -> None:
        for row in self._rows:
            row.deleteLater()
        self._rows = []
        for index, text in enumerate(texts):
            row = QWidget(self)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            label = QLabel(row)
            label.setObjectName(f"chat.queue.text.{index}")
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setText("• " + " ".join(text.split()))
            label.setToolTip(text)
            label.setMinimumWidth(40)
            remove = QToolButton(row)
            remove.setObjectName(f"chat.queue.remove.{index}")
            remove.setText("\u00d7")  # a multiplication sign: the usual "remove" cross
            remove.setToolTip(translate("ChatQueue", "Remove this message from the queue"))
            remove.clicked.connect(lambda _checked=False, index=index: self.remove_requested.emit(index))
            line.addWidget(label, 1)
            line.addWidget(remove)
            self._layout.addWidget(row)
            self._rows.append(row)
        self.setVisible(bool(texts))


__all__ = ["MessageQueue", "QueuedMessages"]
