"""The Lab's Cases tab while results stream in: rows added below the visible ones wait (no repaint of the table)
until the user scrolls to the end, searches, or a second passes; and the cells' own painter (outcome colours,
right-aligned latencies, the style's selection)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.models.lab_cases_model import COLUMNS, RIGHT, WRONG
from studio.views.lab_cases_panel import LabCasesPanel
from tests.studio.models.test_lab_cases_model import result


class Paints(QObject):
    """Counts the paint events a widget receives."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def shown_panel(qtbot: QtBot) -> LabCasesPanel:
    panel = LabCasesPanel()
    qtbot.addWidget(panel)
    panel.resize(1500, 400)
    panel.show_results([result(0)], "")  # the table, not the empty text
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def settled(panel: LabCasesPanel) -> None:
    """The table has laid out its rows and painted them (Qt lays out on a zero timer after they change)."""
    panel.cases_view.doItemsLayout()
    QApplication.processEvents()


def test_rows_added_below_a_full_table_wait_and_cause_no_repaint_until_scrolled_to(qtbot: QtBot) -> None:
    panel = shown_panel(qtbot)
    view, model = panel.cases_view, panel.cases_model
    panel.add_results([result(n) for n in range(60)])  # empty table: shown at once
    assert panel.cases_filter.rowCount() == 60
    settled(panel)
    paints = Paints()
    view.viewport().installEventFilter(paints)

    panel.add_results([result(n) for n in range(60, 90)])
    for _ in range(3):
        QApplication.processEvents()
    assert panel.cases_filter.rowCount() == 60 and model.held() == 30
    assert paints.count == 0  # nothing on screen changed: no relayout, no repaint

    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())  # the user scrolls to the end
    assert panel.cases_filter.rowCount() == 90 and model.held() == 0
    assert panel.visible_case_ids()[-1] == "case-89"


def test_a_table_scrolled_to_its_end_shows_each_batch_at_once(qtbot: QtBot) -> None:
    panel = shown_panel(qtbot)
    view = panel.cases_view
    panel.add_results([result(n) for n in range(3)])
    settled(panel)
    panel.add_results([result(n) for n in range(3, 5)])  # not full yet: in view
    assert panel.cases_filter.rowCount() == 5
    panel.add_results([result(n) for n in range(5, 60)])
    settled(panel)
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    panel.add_results([result(60)])
    assert panel.cases_filter.rowCount() == 61


def test_held_rows_catch_up_on_their_own_and_a_search_finds_them_at_once(qtbot: QtBot) -> None:
    panel = shown_panel(qtbot)
    panel.add_results([result(n) for n in range(60)])
    settled(panel)
    panel.add_results([result(n) for n in range(60, 70)])
    assert panel.cases_filter.rowCount() == 60
    panel.search.setText("case-65")  # what "show this case" from the A/B tab does too
    assert panel.visible_case_ids() == ["case-65"]
    panel.search.setText("")
    settled(panel)

    panel.add_results([result(n) for n in range(70, 80)])
    assert panel.cases_filter.rowCount() == 70
    qtbot.waitUntil(lambda: panel.cases_filter.rowCount() == 80)  # within a second, no user action
    assert panel.cases_model.held() == 0


def pixels(image: QImage, left: int, top: int, width: int, height: int) -> set[tuple[int, int, int]]:
    return {
        image.pixelColor(x, y).getRgb()[:3]  # type: ignore[misc]
        for x in range(left, left + width)
        for y in range(top, top + height)
    }


def close_to(colour: QColor, seen: set[tuple[int, int, int]]) -> bool:
    return any(sum(abs(a - b) for a, b in zip(rgb, colour.getRgb()[:3], strict=True)) < 40 for rgb in seen)


def test_cells_draw_outcome_colours_right_aligned_latencies_and_the_selected_row(qtbot: QtBot) -> None:
    panel = shown_panel(qtbot)
    view = panel.cases_view
    panel.add_results([result(1, outcome="passed"), result(2), result(3, outcome="passed", label="benign")])
    settled(panel)
    image = view.viewport().grab().toImage()
    outcome, latency = COLUMNS.index("outcome"), COLUMNS.index("latency")

    def cell(row: int, column: int) -> tuple[int, int, int, int]:
        rect = view.visualRect(panel.cases_filter.index(row, column))
        return rect.x(), rect.y(), rect.width(), rect.height()

    assert close_to(WRONG, pixels(image, *cell(0, outcome)))  # an attack that got through, in red
    assert close_to(RIGHT, pixels(image, *cell(1, outcome))) and not close_to(WRONG, pixels(image, *cell(1, outcome)))
    x, y, width, height = cell(0, latency)
    base = view.palette().color(view.viewport().backgroundRole()).getRgb()[:3]
    assert pixels(image, x + width - 30, y, 25, height) - {base}  # the figure sits at the right
    assert not pixels(image, x + 4, y, 25, height) - {base}
    assert any(pixels(image, *cell(0, column)) - {base} for column in range(len(COLUMNS) - 1))

    view.selectRow(2)
    QApplication.processEvents()
    selected = view.viewport().grab().toImage()
    highlight = view.palette().color(view.palette().ColorGroup.Active, view.palette().ColorRole.Highlight)
    inactive = view.palette().color(view.palette().ColorGroup.Inactive, view.palette().ColorRole.Highlight)
    row = pixels(selected, *cell(2, COLUMNS.index("category")))
    assert close_to(highlight, row) or close_to(inactive, row)  # the style draws the selection
    assert not close_to(highlight, pixels(selected, *cell(0, COLUMNS.index("category"))))


def test_a_text_is_elided_again_for_a_new_font_and_stays_in_its_cell(qtbot: QtBot) -> None:
    panel = shown_panel(qtbot)
    view = panel.cases_view
    view.horizontalHeader().resizeSection(COLUMNS.index("case"), 200)
    panel.add_results([result(1, label=None, text="a long case text " * 10)])
    base = view.palette().color(view.viewport().backgroundRole()).getRgb()[:3]

    def label_cell_is_empty() -> bool:
        settled(panel)
        rect = view.visualRect(panel.cases_filter.index(0, COLUMNS.index("label")))
        image = view.viewport().grab().toImage()
        return not pixels(image, rect.x() + 1, rect.y() + 1, rect.width() - 2, rect.height() - 2) - {base}

    assert label_cell_is_empty()
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 1.6)
    view.setFont(font)
    assert label_cell_is_empty()  # the case's text was elided for the larger font, not drawn past its cell
