"""``TimelineNameDelegate``: the inspector timeline's Entry column keeps the part of a hook's name that tells it apart.

Every hook's name starts with ``process_``, so where the column is narrow (200 % text size on a laptop: ~130 px) an
elided ``process_output_stream ×3`` read "proc…" on every hook row, the same on each. Where a hook's name does not fit,
the shared ``process_`` goes first ("output_stream ×3", "tool_result"), and only then is the rest elided; the whole
name stays in the row's tooltip. Other rows (runs, steps, processor calls) are elided as before.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

__all__ = ["HOOK_PREFIX", "TimelineNameDelegate", "shown_name"]

#: What every hook's name starts with (``processors.pipeline.processor``'s hooks).
HOOK_PREFIX = "process_"


def shown_name(text: str, fits: int, advance: int) -> str:
    """``text`` as the column shows it: without :data:`HOOK_PREFIX` when ``advance`` (its width) passes ``fits``."""
    return text[len(HOOK_PREFIX) :] if advance > fits and text.startswith(HOOK_PREFIX) else text


class TimelineNameDelegate(QStyledItemDelegate):
    """The Entry column's rows: a hook's name drops its ``process_`` before it is elided."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        text = str(option.text)
        if not text.startswith(HOOK_PREFIX) or not option.rect.isValid():
            return
        widget = self.parent()
        if not isinstance(widget, QWidget):
            return
        style = widget.style()
        text_rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        option.text = shown_name(text, text_rect.width() - 2 * margin, option.fontMetrics.horizontalAdvance(text))
