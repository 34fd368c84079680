"""The Settings dialog's language row: pick Simplified Chinese, Traditional Chinese or English.

The choice is kept at once (``studio.i18n.save_language``) and shows from the next start; the row then offers
"Restart now", which restarts the studio keeping the chat box's unsent text (``studio.restart``). Each language
is listed in its own script, so a reader finds theirs whatever the studio shows now.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from studio import i18n

translate = i18n.translate


class LanguagePicker(QWidget):
    #: A language was picked and kept: its Qt locale name (``zh_CN``).
    chosen = Signal(str)
    #: "Restart now" was pressed.
    restart_requested = Signal()

    def __init__(self, running: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settings.language_row")
        self._running = running
        label = QLabel(translate("LanguagePicker", "&Language"))
        self.combo = QComboBox()
        self.combo.setObjectName("settings.language")
        for code, native in i18n.LANGUAGES.items():
            self.combo.addItem(native, code)
        label.setBuddy(self.combo)
        kept = i18n.saved_language() or running
        self.combo.setCurrentIndex(max(0, self.combo.findData(kept)))
        self.note = QLabel()
        self.note.setObjectName("settings.language_note")
        self.note.setWordWrap(True)
        self.restart = QPushButton(translate("LanguagePicker", "&Restart now"))
        self.restart.setObjectName("settings.restart")
        self.restart.setAutoDefault(False)
        self.restart.setToolTip(
            translate("LanguagePicker", "Close and start the studio again in the picked language; unsent text is kept")
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addWidget(self.combo)
        layout.addWidget(self.note, 1)
        layout.addWidget(self.restart)
        self._show_note()
        self.combo.currentIndexChanged.connect(self._on_combo_changed)
        self.restart.clicked.connect(self.restart_requested)

    def _show_note(self) -> None:
        pending = self.combo.currentData() != self._running
        self.note.setText(translate("LanguagePicker", "Shown after a restart.") if pending else "")
        self.restart.setVisible(pending)

    @Slot(int)
    def _on_combo_changed(self, _index: int) -> None:
        language = str(self.combo.currentData())
        i18n.save_language(language)
        self._show_note()
        self.chosen.emit(language)
