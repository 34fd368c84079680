"""``AboutDialog`` (Help → About): version, data folder, and the licences of the bundled components."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from studio.about import NOTICES_FILE, bundled_components, studio_version
from studio.i18n import translate
from studio.system.resources import resources_dir

__all__ = ["AboutDialog"]


class AboutDialog(QDialog):
    """Read-only; opened with ``open()`` (never ``exec()`` on the qasync loop)."""

    def __init__(self, data_folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("about")
        self.setWindowTitle(translate("AboutDialog", "About Processor Studio"))
        self.resize(560, 520)
        heading = QLabel(
            f"<h2>Processor Studio {html.escape(studio_version())}</h2>"
            + "<p>"
            + html.escape(translate("AboutDialog", "Design LLM agents and test their guardrails by hand."))
            + "</p>"
            "<p>"
            + translate("AboutDialog", "Your threads and designs are kept in<br>{folder}").format(
                folder=f"<code>{html.escape(str(data_folder))}</code>"
            )
            + "</p>"
        )
        heading.setObjectName("about.heading")
        heading.setWordWrap(True)
        heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # the path can be copied
        licences = resources_dir() / "licences"
        components = bundled_components(qVersion(), licences)
        rows = "".join(
            f"<tr><td>{html.escape(c.name)}</td><td>{html.escape(c.version)}</td><td>{html.escape(c.licence)}</td></tr>"
            for c in components
        )
        notices = "".join(
            f"<p><b>{html.escape(c.name)}</b> ({html.escape(c.licence)}): {html.escape(c.notice)}</p>"
            for c in components
            if c.notice
        )
        self.components = QTextBrowser()
        self.components.setObjectName("about.components")
        self.components.setHtml(
            "<p>"
            + translate("AboutDialog", "<b>Bundled components</b> and their licences")
            + "</p><table cellspacing='0' cellpadding='3'><tr>"
            + "".join(
                f"<th align='left'>{html.escape(title)}</th>"
                for title in (
                    translate("AboutDialog", "Component"),
                    translate("AboutDialog", "Version"),
                    translate("AboutDialog", "Licence"),
                )
            )
            + f"</tr>{rows}</table>"
            + notices
            + "<p>"
            + html.escape(
                translate(
                    "AboutDialog",
                    "Qt and PySide6 are used under the GNU LGPL v3; their source is available from qt.io.",
                )
            )
            + "</p><p>"
            + translate("AboutDialog", "The licence texts are in {file}").format(
                file=f"<code>{html.escape(str(licences / NOTICES_FILE))}</code>"
            )
            + "</p>"
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.components, 1)
        layout.addWidget(buttons)
