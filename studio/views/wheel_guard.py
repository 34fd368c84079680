"""``WheelGuard``: scrolling a form scrolls the form; a value field takes the wheel only when it has focus.

Qt gives combo boxes, spin boxes, date fields and sliders the wheel whenever the pointer is over them: a user who
scrolls the Options pane down three notches picks another judge preset on the way, one undo step per notch. Qt
Creator and QGIS fix this the same way, and so does the studio, for every form at once, field by field:

- the studio's style (a ``QProxyStyle`` over the platform's, set once on the application) gives each value field
  ``Qt.StrongFocus`` when Qt polishes it, so a wheel turn over it no longer focuses it (``Qt.WheelFocus`` would,
  before any filter sees the event), and installs the guard's event filter on that field alone;
- the filter hands a wheel event aimed at a field without focus to the nearest scroll area around it (the form's
  page, a table), which scrolls as if the field were not there. With focus (clicked or tabbed into) the wheel edits
  the field as usual. A spin box's or editable combo's line edit ignores the wheel, so its events reach the field.

Why a style and not an application-wide event filter: such a filter is a Python call for every event of every
object (some 14,000 before the window shows, then every paint and timer while a reply streams), and it slowed the
studio's start-up; the style is called once per widget, the filter only for value fields. Installed once by
:func:`install_wheel_guard` (``studio.app.make_application`` does); a form built later needs nothing of its own.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QProxyStyle,
    QScrollBar,
    QWidget,
)

__all__ = ["WheelGuard", "WheelGuardStyle", "guard_field", "install_wheel_guard", "is_value_field"]

#: The guard's object name among the application's children (so a second install finds the first).
_NAME = "studio.wheel_guard"


def is_value_field(widget: QObject) -> bool:
    """Whether a wheel turn over ``widget`` would change a value: combo, spin box, date/time field, slider, dial."""
    if isinstance(widget, QScrollBar):
        return False  # a scroll bar's wheel scrolls: that is what the user wants
    return isinstance(widget, QComboBox | QAbstractSpinBox | QAbstractSlider)


def _owning_field(widget: QObject | None) -> QWidget | None:
    """``widget`` or the value field it is part of (a spin box's line edit), up to its window; None if none."""
    while isinstance(widget, QWidget):
        if is_value_field(widget):
            return widget
        if widget.isWindow():
            return None
        widget = widget.parentWidget()
    return None


def _has_focus_within(field: QWidget) -> bool:
    focused = QApplication.focusWidget()
    return focused is not None and (focused is field or field.isAncestorOf(focused))


def _scroll_area_around(field: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area that holds ``field`` in its viewport (not the field's own popup list)."""
    parent = field.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport().isAncestorOf(field):
            return parent
        if parent.isWindow():
            return None
        parent = parent.parentWidget()
    return None


class WheelGuard(QObject):
    """The event filter each value field gets (see the module docstring)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # a Qt override
        if event.type() != QEvent.Type.Wheel or not isinstance(event, QWheelEvent):
            return False
        field = _owning_field(watched)
        if field is None or _has_focus_within(field):
            return False  # not a value field, or one the user is editing: Qt's usual handling
        area = _scroll_area_around(field)
        if area is not None and isinstance(watched, QWidget):
            viewport = area.viewport()
            position = QPointF(viewport.mapFromGlobal(watched.mapToGlobal(event.position())))
            forwarded = QWheelEvent(
                position,
                event.globalPosition(),
                event.pixelDelta(),
                event.angleDelta(),
                event.buttons(),
                event.modifiers(),
                event.phase(),
                event.inverted(),
                Qt.MouseEventSource.MouseEventSynthesizedByApplication,
                event.pointingDevice(),
            )
            QCoreApplication.sendEvent(viewport, forwarded)
        return True  # the field never sees it


def _prefer_strong_focus(field: QWidget) -> None:
    """Click and Tab still focus the field; the wheel no longer does."""
    if field.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        field.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


class WheelGuardStyle(QProxyStyle):
    """The application's style: the platform's own, plus the guard on every value field it polishes."""

    def __init__(self, guard: WheelGuard) -> None:
        super().__init__()
        self.guard = guard

    def polish(self, target: Any) -> Any:  # a Qt override of its three overloads (widget, palette, application)
        if isinstance(target, QWidget) and is_value_field(target):
            guard_field(target, self.guard)
        return super().polish(target)


def guard_field(field: QWidget, guard: WheelGuard) -> None:
    """Put ``field`` under ``guard``: strong focus, and its wheel events filtered (once, however often polished)."""
    _prefer_strong_focus(field)
    if field.property(_NAME) is None:
        field.setProperty(_NAME, True)
        field.installEventFilter(guard)


def install_wheel_guard(app: QCoreApplication) -> WheelGuard:
    """Install the guard on ``app`` once (later calls return the same one) and apply it to existing fields."""
    existing = app.findChild(QObject, _NAME)
    if isinstance(existing, WheelGuard):
        return existing
    guard = WheelGuard(app)
    guard.setObjectName(_NAME)
    if isinstance(app, QApplication):
        app.setStyle(WheelGuardStyle(guard))
        for widget in app.allWidgets():
            if is_value_field(widget):
                guard_field(widget, guard)
    return guard
