"""One scoring guard's figures, side by side: the histogram of its scores (attacks vs benign cases), its ROC curve
and its precision-recall curve, each with the point the threshold slider is on.

Every number is :class:`lab.metrics.ScoreCurves`' (the same computation as the HTML report and the command); this
widget only draws them: :meth:`ScoreFigure.set_curves` gives it a guard's curves, :meth:`ScoreFigure.set_threshold`
moves the marks (a line on the histogram, a dot on each curve).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from lab.metrics import Histogram, ScoreCurves, ThresholdPoint
from studio.i18n import translate

ATTACK_COLOR = QColor(179, 38, 30)
BENIGN_COLOR = QColor(27, 110, 32)
CURVE_COLOR = QColor(25, 90, 170)
MARGIN = 10
#: Room under a plot for its axis figures and name, and above it for its title.
AXIS_ROOM = 34
TITLE_ROOM = 24
LEFT_ROOM = 34


def auc_text(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


class ScoreFigure(QWidget):
    """Histogram, ROC and precision-recall curve of one guard (nothing but a hint without one)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_score_figure")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.curves: ScoreCurves | None = None
        self.histogram: Histogram | None = None
        self.point: ThresholdPoint | None = None
        self._roc: list[tuple[float, float]] = []
        self._pr: list[tuple[float, float]] = []
        self._auc: tuple[float | None, float | None] = (None, None)

    def sizeHint(self) -> QSize:
        return QSize(900, 300)

    def minimumSizeHint(self) -> QSize:
        return QSize(480, 200)

    def set_curves(self, curves: ScoreCurves | None) -> None:
        """Draw ``curves`` (computed once here, not on every paint)."""
        self.curves = curves
        self.histogram = curves.histogram() if curves is not None else None
        self._roc = curves.roc if curves is not None else []
        self._pr = curves.pr if curves is not None else []
        self._auc = (curves.roc_auc, curves.pr_auc) if curves is not None else (None, None)
        self.update()

    def set_threshold(self, point: ThresholdPoint | None) -> None:
        self.point = point
        self.update()

    # ----------------------------------------------------------------------------------------- geometry
    def plot_rects(self) -> list[QRectF]:
        """The three plots' areas (histogram, ROC, precision-recall), inside their axes."""
        width = (self.width() - 4 * MARGIN) / 3
        rects = []
        for index in range(3):
            left = MARGIN + index * (width + MARGIN) + LEFT_ROOM
            rects.append(
                QRectF(
                    left, TITLE_ROOM, max(10.0, width - LEFT_ROOM), max(10.0, self.height() - TITLE_ROOM - AXIS_ROOM)
                )
            )
        return rects

    @staticmethod
    def _at(rect: QRectF, x: float, y: float) -> QPointF:
        """A point of the unit square drawn in ``rect`` (y up)."""
        return QPointF(rect.left() + x * rect.width(), rect.bottom() - y * rect.height())

    # ----------------------------------------------------------------------------------------- drawing
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._paint(painter)
        finally:
            painter.end()

    def _paint(self, painter: QPainter) -> None:
        text = self.palette().color(QPalette.ColorRole.WindowText)
        if self.curves is None or self.histogram is None:
            painter.setPen(text)
            painter.drawText(
                self.rect().adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN),
                int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
                translate("LabCurves", "No guard gave scores in these results."),
            )
            return
        histogram_rect, roc_rect, pr_rect = self.plot_rects()
        roc_auc, pr_auc = self._auc
        self._frame(painter, histogram_rect, translate("LabCurves", "Scores: attacks vs benign"), "", "")
        self._histogram(painter, histogram_rect, self.histogram)
        self._frame(
            painter,
            roc_rect,
            translate("LabCurves", "ROC curve (AUC {auc})").format(auc=auc_text(roc_auc)),
            translate("LabCurves", "false-positive rate"),
            translate("LabCurves", "recall"),
        )
        self._curve(painter, roc_rect, self._roc, diagonal=True)
        self._frame(
            painter,
            pr_rect,
            translate("LabCurves", "Precision-recall (AUC {auc})").format(auc=auc_text(pr_auc)),
            translate("LabCurves", "recall"),
            translate("LabCurves", "precision"),
        )
        self._curve(painter, pr_rect, self._pr, diagonal=False)
        point = self.point
        if point is not None:
            self._dot(painter, roc_rect, point.fpr, point.recall)
            self._dot(painter, pr_rect, point.recall, point.precision)

    def _frame(self, painter: QPainter, rect: QRectF, title: str, x_name: str, y_name: str) -> None:
        text = self.palette().color(QPalette.ColorRole.WindowText)
        painter.fillRect(rect, self.palette().color(QPalette.ColorRole.Base))
        painter.setPen(QPen(text.lighter(180) if text.lightness() < 128 else text.darker(180), 1))
        painter.drawRect(rect)
        painter.setPen(text)
        metrics = self.fontMetrics()
        painter.drawText(
            QRectF(rect.left() - LEFT_ROOM, 2, rect.width() + LEFT_ROOM, TITLE_ROOM - 4),
            int(Qt.AlignmentFlag.AlignCenter),
            metrics.elidedText(title, Qt.TextElideMode.ElideRight, int(rect.width() + LEFT_ROOM)),
        )
        low, high = (self.histogram.low, self.histogram.high) if x_name == "" and self.histogram else (0.0, 1.0)
        for value, align in ((low, Qt.AlignmentFlag.AlignLeft), (high, Qt.AlignmentFlag.AlignRight)):
            painter.drawText(
                QRectF(rect.left() - 10, rect.bottom() + 2, rect.width() + 20, metrics.height()),
                int(align),
                f"{value:g}",
            )
        if x_name:
            painter.drawText(
                QRectF(rect.left(), rect.bottom() + 2 + metrics.height(), rect.width(), metrics.height()),
                int(Qt.AlignmentFlag.AlignCenter),
                x_name,
            )
            painter.save()
            painter.translate(rect.left() - 6, rect.center().y())
            painter.rotate(-90)
            painter.drawText(QRectF(-rect.height() / 2, -metrics.height(), rect.height(), metrics.height()),
                             int(Qt.AlignmentFlag.AlignCenter), y_name)  # fmt: skip
            painter.restore()
        else:
            x = rect.left()
            y = rect.bottom() + 2 + metrics.height()
            for color, name in ((ATTACK_COLOR, translate("LabCurves", "attacks")),
                                (BENIGN_COLOR, translate("LabCurves", "benign"))):  # fmt: skip
                painter.fillRect(QRectF(x, y + 3, 10, 9), color)
                painter.drawText(QPointF(x + 14, y + metrics.ascent()), name)
                x += 14 + metrics.horizontalAdvance(name) + 12

    def _histogram(self, painter: QPainter, rect: QRectF, histogram: Histogram) -> None:
        tallest = max([*histogram.attacks, *histogram.benign, 1])
        metrics = self.fontMetrics()
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(  # the scale: how many cases the tallest bar is
            QRectF(rect.left() - LEFT_ROOM, rect.top(), LEFT_ROOM - 4, metrics.height()),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop),
            str(tallest),
        )
        bins = len(histogram.attacks)
        width = rect.width() / bins
        for index in range(bins):
            for counts, color, offset in (
                (histogram.benign, BENIGN_COLOR, 0.0),
                (histogram.attacks, ATTACK_COLOR, 0.5),
            ):
                height = rect.height() * counts[index] / tallest
                if height > 0:
                    fill = QColor(color)
                    fill.setAlpha(190)
                    painter.fillRect(
                        QRectF(rect.left() + (index + offset) * width, rect.bottom() - height, width / 2, height), fill
                    )
        if self.point is not None and histogram.high > histogram.low:
            share = (self.point.threshold - histogram.low) / (histogram.high - histogram.low)
            x = rect.left() + min(max(share, 0.0), 1.0) * rect.width()
            painter.setPen(QPen(self.palette().color(QPalette.ColorRole.WindowText), 2, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))

    def _curve(self, painter: QPainter, rect: QRectF, points: Sequence[tuple[float, float]], *, diagonal: bool) -> None:
        if diagonal:
            painter.setPen(QPen(QColor(150, 150, 150), 1, Qt.PenStyle.DotLine))
            painter.drawLine(self._at(rect, 0, 0), self._at(rect, 1, 1))
        if not points:
            return
        painter.setPen(QPen(CURVE_COLOR, 2))
        painter.drawPolyline(QPolygonF([self._at(rect, x, y) for x, y in points]))

    def _dot(self, painter: QPainter, rect: QRectF, x: float | None, y: float | None) -> None:
        if x is None or y is None:
            return
        painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Base), 2))
        painter.setBrush(ATTACK_COLOR.darker(120))
        painter.drawEllipse(self._at(rect, x, y), 5.5, 5.5)
        painter.setBrush(Qt.BrushStyle.NoBrush)


__all__ = ["ScoreFigure", "auc_text"]
