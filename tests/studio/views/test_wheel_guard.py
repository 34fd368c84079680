"""Scrolling never edits: a wheel turn over a combo box, spin box or slider that has no focus changes nothing (the
form scrolls instead); with focus the wheel still edits. Swept over every processor's options form, the agent
settings, the inspector's debugger, the Lab window and the Settings dialog of the real studio."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import QCoreApplication, QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QSpinBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from studio.app import make_application
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.design.catalog import palette_groups
from studio.views.mcp_servers_view import McpServerDialog
from studio.views.wheel_guard import install_wheel_guard, is_value_field
from tests.studio.views.lab_support import open_lab

#: One notch of an ordinary mouse wheel.
NOTCH = 120


def wheel(widget: QWidget, notches: int) -> None:
    """Turn the wheel ``notches`` times (negative: towards the user, i.e. scroll down) over ``widget``'s centre."""
    centre = QPointF(widget.rect().center())
    for _ in range(abs(notches)):
        event = QWheelEvent(
            centre,
            QPointF(widget.mapToGlobal(centre)),
            QPoint(),
            QPoint(0, NOTCH if notches > 0 else -NOTCH),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QCoreApplication.sendEvent(widget, event)


def value_of(field: QWidget) -> Any:
    if isinstance(field, QComboBox):
        return (field.currentIndex(), field.currentText())
    if isinstance(field, QAbstractSpinBox):
        return field.text()
    if isinstance(field, QAbstractSlider):
        return field.value()
    raise AssertionError(f"not a value field: {field!r}")


def value_fields(root: QWidget) -> list[QWidget]:
    return [widget for widget in root.findChildren(QWidget) if is_value_field(widget) and widget.isEnabled()]


def sweep(root: QWidget) -> list[str]:
    """Wheel down then up over every enabled value field under ``root`` with the focus elsewhere; what changed."""
    focused = QApplication.focusWidget()
    if focused is not None:
        focused.clearFocus()
    changed = []
    for field in value_fields(root):
        before = value_of(field)
        for notches in (-3, 2):
            wheel(field, notches)
            for child in field.findChildren(QWidget):  # a spin box's line edit, a combo's editable line
                if child.isWindow():
                    continue
                wheel(child, notches)
        if value_of(field) != before:
            changed.append(f"{field.objectName() or type(field).__name__}: {before!r} -> {value_of(field)!r}")
    return changed


def test_the_application_installs_one_guard() -> None:
    app = make_application()
    guard = install_wheel_guard(app)
    assert make_application() is app
    assert install_wheel_guard(app) is guard


def every_processor(catalogue: Any) -> AgentDesign:
    """A design with every processor type of the catalogue in each lane it fits."""
    lanes = {str(lane): [ChainEntry(type=record.type_name) for record in records]
             for lane, records in palette_groups(catalogue).items()}  # fmt: skip
    return AgentDesign(input=lanes["input"], output=lanes["output"], error=lanes["error"])


def test_a_wheel_sweep_over_every_form_changes_nothing(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    make_application()  # as the studio starts: the guard is on the application before any form exists
    workspace, window, lab = open_lab(qtbot, qloop, tmp_path)
    document = workspace.document
    document.replace_design(every_processor(workspace.catalogue))
    stack = document.undo_stack()
    steps, index = stack.count(), stack.index()
    swept = 0
    changed: list[str] = []
    for lane in ("input", "output", "error"):
        for entry in document.chain(lane):
            window.options.show_entry(entry.uid)
            qtbot.waitUntil(lambda uid=entry.uid: window.options.uid() == uid)
            swept += len(value_fields(window.options))
            changed += [f"{entry.type}: {change}" for change in sweep(window.options)]
    window.options.flush()
    for form in (window.settings_view, window.debug_panel, window.inspector, lab):
        swept += len(value_fields(form))
        changed += sweep(form)
    dialog = window.dialogs.open_settings()
    swept += len(value_fields(dialog))
    changed += sweep(dialog)
    dialog.reject()
    window.settings_view.mcp_servers.add.click()  # the MCP server dialog, opened as the Agent tab's Add does
    (server_dialog,) = window.settings_view.mcp_servers.findChildren(McpServerDialog)
    swept += len(value_fields(server_dialog))
    changed += sweep(server_dialog)
    server_dialog.reject()
    assert swept > 40, swept  # the sweep met the forms' combo and spin boxes
    assert changed == []
    assert (stack.count(), stack.index()) == (steps, index)


def test_the_wheel_over_a_field_scrolls_its_form(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    make_application()
    workspace, window, _lab = open_lab(qtbot, qloop, tmp_path)
    window.resize(1366, 768)
    document = workspace.document
    document.replace_design(AgentDesign(input=[ChainEntry(uid="detector", type="PromptInjectionDetector")]))
    window.options.show_entry("detector")
    qtbot.waitUntil(lambda: window.options.uid() == "detector")
    form: QAbstractScrollArea = window.options
    qtbot.waitUntil(lambda: form.verticalScrollBar().maximum() > 0)
    combo = next(field for field in value_fields(form) if isinstance(field, QComboBox))
    before = value_of(combo)
    wheel(combo, -3)
    assert form.verticalScrollBar().value() > 0  # the form scrolled
    assert value_of(combo) == before


def test_with_focus_the_wheel_still_edits(qtbot: QtBot, qapp: QApplication) -> None:
    install_wheel_guard(qapp)
    spin = QSpinBox()
    qtbot.addWidget(spin)
    spin.setRange(0, 10)
    spin.show()
    qtbot.waitExposed(spin)
    assert spin.focusPolicy() == Qt.FocusPolicy.StrongFocus  # a wheel turn no longer focuses it
    wheel(spin, 2)
    assert spin.value() == 0
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    wheel(spin, 2)
    assert spin.value() == 2


def test_fields_styled_by_a_style_sheet_are_guarded_too(qtbot: QtBot, qapp: QApplication) -> None:
    """The guard comes with the application's style; the studio's style sheet (and a field's own) wraps that style,
    and Qt still polishes through it: a field made after start-up, under both, ignores the wheel without focus."""
    install_wheel_guard(qapp)
    form = QWidget()
    qtbot.addWidget(form)
    form.setStyleSheet("QComboBox { padding: 2px; }")
    combo = QComboBox(form)
    combo.addItems(["off", "on", "strict"])
    combo.setStyleSheet("color: #333;")
    form.show()
    qtbot.waitExposed(form)
    assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
    wheel(combo, -2)
    assert combo.currentIndex() == 0
