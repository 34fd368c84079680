"""A bar chart of recall and false-positive rate per attack category, redrawn as a lab run's results arrive.

Each category is a row: its name, a green bar for recall (the share of its attacks blocked) and a red bar for
the false-positive rate (the share of its benign look-alikes blocked), each with its figure. A category with no
attacks (or no benign cases) says so instead of drawing an empty bar. Clicking a row filters the cases to that
category (``category_clicked``). The figures are :func:`studio.models.lab_tables.category_bars`, the same
confusion matrices as the Per category table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.i18n import translate
from studio.models.lab_tables import CategoryBar, pct

RECALL_COLOR = QColor(27, 110, 32)
FPR_COLOR = QColor(179, 38, 30)
ROW_HEIGHT = 34
LEGEND_HEIGHT = 24
MARGIN = 8
#: Room right of a bar for its figure ("recall 100.0%").
FIGURE_WIDTH = 120


class CategoryBars(QWidget):
    """The chart; :meth:`set_bars` replaces its rows and repaints (cheap: one paint per batch of results)."""

    #: The user clicked a category's row (its name, as the metrics group it).
    category_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_category_bars")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.setToolTip(translate("LabView", "Click a category to see its cases"))
        self._bars: list[CategoryBar] = []

    def set_bars(self, bars: Sequence[CategoryBar]) -> None:
        self._bars = list(bars)
        self.updateGeometry()
        self.update()

    def bars(self) -> list[CategoryBar]:
        return list(self._bars)

    def sizeHint(self) -> QSize:
        return QSize(520, self._height())

    def minimumSizeHint(self) -> QSize:
        return QSize(320, self._height())

    def _height(self) -> int:
        return LEGEND_HEIGHT + MARGIN + max(len(self._bars), 1) * ROW_HEIGHT

    # ----------------------------------------------------------------------------------------- geometry
    def _label_width(self) -> int:
        # The exact (fractional) advance, rounded up: the whole-pixel one rounds down, and a name given exactly that
        # width is elided ("direct…ection" under X11 at 10 pt).
        metrics = QFontMetricsF(self.font())
        widest = max((math.ceil(metrics.horizontalAdvance(bar.category)) for bar in self._bars), default=0)
        return min(max(widest + 2 * MARGIN, 90), max(90, self.width() // 3))

    def track_rects(self, row: int) -> tuple[QRect, QRect]:
        """The full-length tracks (100 %) of a row's recall and FPR bars."""
        left = self._label_width()
        width = max(10, self.width() - left - FIGURE_WIDTH - MARGIN)
        top = LEGEND_HEIGHT + MARGIN + row * ROW_HEIGHT
        half = (ROW_HEIGHT - 6) // 2
        return QRect(left, top, width, half), QRect(left, top + half + 1, width, half)

    def bar_rects(self, row: int) -> tuple[QRect | None, QRect | None]:
        """The filled parts of a row's recall and FPR bars (None where there is no figure)."""
        bar = self._bars[row]
        recall_track, fpr_track = self.track_rects(row)
        return _filled(recall_track, bar.recall), _filled(fpr_track, bar.fpr)

    def row_at(self, y: int) -> int:
        row = (y - LEGEND_HEIGHT - MARGIN) // ROW_HEIGHT
        return row if y >= LEGEND_HEIGHT + MARGIN and 0 <= row < len(self._bars) else -1

    # ----------------------------------------------------------------------------------------- drawing
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            self._paint(painter)
        finally:
            painter.end()

    def _paint(self, painter: QPainter) -> None:
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        track = palette.color(QPalette.ColorRole.Window).darker(108)
        metrics = self.fontMetrics()
        x = MARGIN
        for color, name in ((RECALL_COLOR, translate("LabView", "recall")), (FPR_COLOR, translate("LabView", "FPR"))):
            painter.fillRect(QRect(x, 8, 12, 10), color)
            painter.setPen(text)
            painter.drawText(x + 16, 8 + metrics.ascent() - 1, name)
            x += 16 + metrics.horizontalAdvance(name) + 2 * MARGIN
        if not self._bars:
            painter.setPen(text)
            painter.drawText(
                QRect(MARGIN, LEGEND_HEIGHT + MARGIN, self.width() - 2 * MARGIN, ROW_HEIGHT),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                translate("LabView", "No results yet"),
            )
            return
        label_width = self._label_width()
        for row, bar in enumerate(self._bars):
            recall_track, fpr_track = self.track_rects(row)
            painter.setPen(text)
            painter.drawText(
                QRect(MARGIN, recall_track.top(), label_width - 2 * MARGIN, fpr_track.bottom() - recall_track.top()),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                metrics.elidedText(bar.category, Qt.TextElideMode.ElideMiddle, label_width - 2 * MARGIN),
            )
            recall, fpr = self.bar_rects(row)
            for track_rect, filled, color, figure in (
                (recall_track, recall, RECALL_COLOR, self._figure("recall", bar.recall, bar.attacks)),
                (fpr_track, fpr, FPR_COLOR, self._figure("fpr", bar.fpr, bar.benign)),
            ):
                painter.fillRect(track_rect, track)
                if filled is not None:
                    painter.fillRect(filled, color)
                painter.setPen(text)
                painter.drawText(
                    QRect(track_rect.right() + MARGIN, track_rect.top(), FIGURE_WIDTH, track_rect.height()),
                    int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                    figure,
                )

    @staticmethod
    def _figure(kind: str, value: float | None, count: int) -> str:
        if value is None:
            return translate("LabView", "no attacks") if kind == "recall" else translate("LabView", "no benign")
        return f"{pct(value)} ({count})"

    def mousePressEvent(self, event: QMouseEvent) -> None:
        row = self.row_at(int(event.position().y()))
        if row >= 0 and event.button() == Qt.MouseButton.LeftButton:
            self.category_clicked.emit(self._bars[row].category)
            return
        super().mousePressEvent(event)


def _filled(track: QRect, value: float | None) -> QRect | None:
    if value is None:
        return None
    filled = QRect(track)
    filled.setWidth(max(1 if value > 0 else 0, round(track.width() * min(value, 1.0))))
    return filled if filled.width() > 0 else None


__all__ = ["CategoryBars"]
