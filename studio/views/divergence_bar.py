"""``DivergenceBar``: where a replay stopped because the conversation diverged, with the choice of what next.

A replay feeds the chain what the model said when the run was recorded; when the chain now asks the model something
the recording does not have, the replay stops there. The bar says where (the view that owns it words that: a run's
step, or a thread's run and step) and offers the two ways on: stop here (the bar goes away, the replay stays
stopped) or continue with the live model (the bar goes away and :attr:`continue_live_requested` is emitted). The
replay view and the thread replay view share it, so both say and offer the same thing the same way.

Object names for automation: ``<prefix>.divergence`` (the text), ``<prefix>.stop``, ``<prefix>.continue_live``,
with the prefix its view gives (``replay``, ``thread_replay``).
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from studio import i18n

translate = i18n.translate


class DivergenceBar(QWidget):
    """Hidden until :meth:`show_divergence`; either button hides it again."""

    #: The user chose to continue the replay with the live model from where it diverged.
    continue_live_requested = Signal()

    def __init__(self, prefix: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"{prefix}.divergence_bar")
        # Where the conversation diverged, in the owning view's words.
        self.text = QLabel()
        self.text.setObjectName(f"{prefix}.divergence")
        self.text.setWordWrap(True)
        self.stop_here = QPushButton(translate("DivergenceBar", "Stop here"))
        self.stop_here.setObjectName(f"{prefix}.stop")
        self.continue_live = QPushButton(translate("DivergenceBar", "Continue with the live model"))
        self.continue_live.setObjectName(f"{prefix}.continue_live")
        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.text, 1)
        bar.addWidget(self.stop_here)
        bar.addWidget(self.continue_live)
        self.hide()
        self.stop_here.clicked.connect(self._on_stop_here_clicked)
        self.continue_live.clicked.connect(self._on_continue_live_clicked)

    def show_divergence(self, text: str) -> None:
        """Say where the conversation diverged and offer the choice."""
        self.text.setText(text)
        self.show()

    @Slot()
    def _on_stop_here_clicked(self) -> None:
        self.hide()

    @Slot()
    def _on_continue_live_clicked(self) -> None:
        self.hide()
        self.continue_live_requested.emit()


__all__ = ["DivergenceBar"]
