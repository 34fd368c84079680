"""The Lab window's figures: the Confusion tab (overall, per language, per category, and the bars of recall and
false-positive rate per category) and the Processors tab
(attack categories × processors as a heat map, each processor's contribution).

Each table is a :class:`studio.models.lab_tables.TableModel` filled from :mod:`lab.metrics` by ``show_results``,
once per batch of results, so the figures are drawn as the results arrive.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QSplitter, QWidget

from lab.results import CaseResult
from studio.i18n import translate
from studio.models.lab_tables import (
    TableModel,
    category_bars,
    category_table,
    contribution_table,
    language_table,
    overall_table,
    processor_table,
)
from studio.views.lab_bars import CategoryBars
from studio.views.lab_widgets import table_view, titled


class ConfusionPanel(QSplitter):
    """TP / FP / FN / TN, precision, recall and FPR: overall, per language and per category."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("lab_confusion")
        self.tables = {name: TableModel(self) for name in ("overall", "lang", "category")}
        overall = table_view("lab_overall", self.tables["overall"], bars=True)
        self.overall_view = overall

        def fit_one_row() -> None:  # header and the one row, whole, whatever the splitter does
            height = max(overall.horizontalHeader().sizeHint().height(), overall.fontMetrics().height() + 8)
            rows = overall.rowHeight(0) if overall.model().rowCount() else overall.verticalHeader().defaultSectionSize()
            overall.setFixedHeight(height + rows + 2 * overall.frameWidth() + 2)

        self.tables["overall"].modelReset.connect(fit_one_row)
        fit_one_row()
        overall.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.addWidget(overall)
        self.addWidget(
            titled(translate("LabView", "Per language"), table_view("lab_by_lang", self.tables["lang"], bars=True))
        )
        self.addWidget(
            titled(
                translate("LabView", "Per category"), table_view("lab_by_category", self.tables["category"], bars=True)
            )
        )
        self.bars = CategoryBars()
        scroll = QScrollArea()
        scroll.setObjectName("lab_category_bars_scroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.bars)
        self.addWidget(titled(translate("LabView", "Recall and false-positive rate per category"), scroll))
        self.setSizes([10, 20, 34, 36])

    def show_results(self, results: Sequence[CaseResult]) -> None:
        self.tables["overall"].set_table(overall_table(results))
        self.tables["lang"].set_table(language_table(results))
        self.tables["category"].set_table(category_table(results))
        self.bars.set_bars(category_bars(results))


class ProcessorsPanel(QSplitter):
    """Which processor caught what (a heat map whose cells filter the cases) and each processor's contribution."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("lab_processors")
        self.tables = {name: TableModel(self) for name in ("processors", "contrib")}
        self.processors_view = table_view("lab_attack_matrix", self.tables["processors"])
        self.addWidget(
            titled(
                translate("LabView", "Attack categories × processors: which processor caught what"),
                self.processors_view,
            )
        )
        self.contrib_view = table_view("lab_contribution", self.tables["contrib"])
        self.addWidget(titled(translate("LabView", "Each processor's contribution"), self.contrib_view))
        self.setSizes([60, 40])

    def show_results(self, results: Sequence[CaseResult]) -> None:
        self.tables["processors"].set_table(processor_table(results))
        self.tables["contrib"].set_table(contribution_table(results))


__all__ = ["ConfusionPanel", "ProcessorsPanel"]
