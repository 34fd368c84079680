"""The Attack tab's results as item models: the robustness matrix (chains × processors, a heat map of what got
through) and the bypasses found so far.

Every figure is :class:`lab.attack.Robustness`'s — the same arithmetic as ``processor-studio lab attack``'s JSON and
HTML reports — so the studio and CI agree. A row of the matrix is a chain: how many of its variants ran, how many got
through, its attack success rate (ASR, as PyRIT and promptfoo report it) and, per processor that stopped a seed,
the share of that seed's variants the processor no longer stops (red: the guard is blind to the rewrite).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from lab.attack.robustness import Robustness, VariantResult
from studio.i18n import translate
from studio.models.lab_cases_model import outcome_text
from studio.models.lab_tables import HeatRole, pct

Index = QModelIndex | QPersistentModelIndex

#: The chain a matrix row is (clicking a row shows its bypasses).
ChainRole = Qt.ItemDataRole.UserRole + 10
#: A bypass row's variant id.
VariantIdRole = Qt.ItemDataRole.UserRole + 11
#: How much of a variant's text a bypass row shows (the tooltip shows more, the thread all of it).
SNIPPET = 120
TOOLTIP_LIMIT = 1500


def _heat_colour(share: float) -> QColor:
    colour = QColor(179, 38, 30)  # what got through is red, as the lab's misses are
    colour.setAlphaF(0.12 + 0.68 * min(max(share, 0.0), 1.0))
    return colour


class RobustnessModel(QAbstractTableModel):
    """Chains × (variants, bypassed, ASR, each processor that stopped a seed) — see the module docstring."""

    FIXED = 4  # chain, variants, bypassed, ASR

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._robustness = Robustness()
        self._chains: list[str] = []
        self._processors: list[str] = []

    def set_robustness(self, robustness: Robustness, chains: Sequence[str] = ()) -> None:
        """Show ``robustness``; ``chains`` (the attack's, in its order) are rows even before a variant of theirs
        finished, so the matrix has its shape from the start and fills as results come."""
        self.beginResetModel()
        self._robustness = robustness
        self._chains = list(dict.fromkeys([*chains, *robustness.by_chain]))
        self._processors = robustness.processors
        self.endResetModel()

    def robustness(self) -> Robustness:
        return self._robustness

    def chains(self) -> list[str]:
        return list(self._chains)

    def processors(self) -> list[str]:
        return list(self._processors)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._chains)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else self.FIXED + len(self._processors)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        fixed = (
            translate("LabAttack", "Chain"),
            translate("LabAttack", "Variants"),
            translate("LabAttack", "Got through"),
            translate("LabAttack", "ASR"),
        )
        if role == Qt.ItemDataRole.DisplayRole:
            if section < self.FIXED:
                return fixed[section]
            return self._processors[section - self.FIXED] if section - self.FIXED < len(self._processors) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            if section == 3:
                return translate("LabAttack", "Attack success rate: the share of the chain's variants that got through")
            if section >= self.FIXED:
                return translate(
                    "LabAttack", "Of the variants whose seed this processor stopped, the share it no longer stops"
                )
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._chains):
            return None
        chain, column = self._chains[index.row()], index.column()
        tally = self._robustness.by_chain.get(chain)
        if role == ChainRole:
            return chain
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return int(Qt.AlignmentFlag.AlignCenter)
        share: float | None = None
        cell = None
        if column == 3 and tally is not None:
            share = tally.asr
        elif column >= self.FIXED:
            cell = self._robustness.cells.get(chain, {}).get(self._processors[column - self.FIXED])
            share = cell.share if cell is not None else None
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return chain.replace("|", " | ")
            if column == 1:
                return str(tally.variants) if tally is not None else "0"
            if column == 2:
                return str(tally.bypassed) if tally is not None else "0"
            return pct(share) if share is not None else "·"
        if role == HeatRole:
            return share
        if role == Qt.ItemDataRole.BackgroundRole and share:
            return _heat_colour(share)
        if role == Qt.ItemDataRole.ToolTipRole:
            if cell is not None:
                return translate(
                    "LabAttack",
                    "{processor} stopped the seeds of {seen} of these variants and no longer stops {evaded} ({share})",
                ).format(
                    processor=self._processors[column - self.FIXED],
                    seen=cell.seen,
                    evaded=cell.evaded,
                    share=pct(cell.share),
                )
            if column == 3 and tally is not None:
                return translate(
                    "LabAttack", "{bypassed} of {variants} variants got through; {errors} ended in error"
                ).format(bypassed=tally.bypassed, variants=tally.variants, errors=tally.errors)
        return None


class BypassModel(QAbstractTableModel):
    """The variants that got through, in the order they were found: seed, chain, what the design did, the text."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._found: list[VariantResult] = []

    def set_bypasses(self, found: Sequence[VariantResult]) -> None:
        self.beginResetModel()
        self._found = [item for item in found if item.bypassed]
        self.endResetModel()

    def add_bypasses(self, found: Sequence[VariantResult]) -> None:
        fresh = [item for item in found if item.bypassed]
        if fresh:
            first = len(self._found)
            self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
            self._found.extend(fresh)
            self.endInsertRows()

    def bypasses(self) -> list[VariantResult]:
        return list(self._found)

    def bypass(self, row: int) -> VariantResult | None:
        return self._found[row] if 0 <= row < len(self._found) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._found)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else 4

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            titles = (
                translate("LabAttack", "Seed"),
                translate("LabAttack", "Chain"),
                translate("LabAttack", "Outcome"),
                translate("LabAttack", "Variant"),
            )
            return titles[section] if 0 <= section < len(titles) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        item = self.bypass(index.row()) if index.isValid() else None
        if item is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            column = index.column()
            if column == 0:
                return item.seed_id
            if column == 1:
                return item.chain.replace("|", " | ")
            if column == 2:
                return outcome_text(item.result.outcome)
            text = " ".join(item.text.split())
            return text if len(text) <= SNIPPET else text[: SNIPPET - 1] + "…"
        if role == Qt.ItemDataRole.ToolTipRole:
            text = item.text
            return text if len(text) <= TOOLTIP_LIMIT else text[:TOOLTIP_LIMIT] + "…"
        if role == VariantIdRole:
            return item.id
        if role == ChainRole:
            return item.chain
        return None


__all__ = ["BypassModel", "ChainRole", "RobustnessModel", "VariantIdRole"]
