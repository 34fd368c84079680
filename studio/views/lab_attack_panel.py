"""The Lab window's Attack tab: red-team the design — pick seeds, compose converter chains and watch a seed go
through one, set a budget and a seed number, then run the attack and read what got through.

A thin view over :class:`studio.controllers.lab_attack.LabAttack`: the chain editor (:mod:`lab_attack_chains`) edits
the controller's models, the preview is asked of the controller and shown when it comes back (computed off the UI
thread). The seeds are the attacks of the corpora ticked in the Lab's side bar.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSpinBox, QSplitter, QVBoxLayout, QWidget

from lab.corpus import Case
from studio.controllers.lab_attack import DEFAULT_BUDGET, DEFAULT_SEED, LabAttack, Preview
from studio.i18n import translate
from studio.views.lab_attack_chains import ChainEditor

#: How long the preview waits for more edits before it asks (ms): typing a seed number asks once.
PREVIEW_DELAY_MS = 120
#: The most characters of a seed's text its entry in the preview's seed list shows.
SEED_LABEL_LIMIT = 60


def seed_label(case: Case) -> str:
    """A seed's entry in the preview's list: its id and the start of its text."""
    text = " ".join((case.tool_result if case.tool_result is not None else case.text).split())
    if len(text) > SEED_LABEL_LIMIT:
        text = text[: SEED_LABEL_LIMIT - 1] + "…"
    return f"{case.id} — {text}"


class LabAttackPanel(QWidget):
    """The Attack tab (see the module docstring)."""

    def __init__(self, controller: LabAttack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_attack")
        self.controller = controller
        self._seeds: list[Case] = []
        self._loaded = False
        self.editor = ChainEditor(controller.converters, controller.chains)

        self.seeds_label = QLabel()
        self.seeds_label.setObjectName("attack_seeds")
        self.seeds_label.setWordWrap(True)
        self.budget = QSpinBox()
        self.budget.setObjectName("attack_budget")
        self.budget.setRange(1, 1_000_000)
        self.budget.setSingleStep(100)
        self.budget.setValue(DEFAULT_BUDGET)
        self.budget.setToolTip(
            translate("LabAttack", "The most variants the attack runs (seeds × chains are drawn within it)")
        )
        self.seed = QSpinBox()
        self.seed.setObjectName("attack_seed")
        self.seed.setRange(0, 2_147_483_647)
        self.seed.setValue(DEFAULT_SEED)
        self.seed.setToolTip(translate("LabAttack", "The same seed number gives the same variants"))
        self.seed.valueChanged.connect(lambda _value: self._preview_later())

        controls = QHBoxLayout()
        controls.addWidget(self.seeds_label, 1)
        controls.addWidget(QLabel(translate("LabAttack", "Budget")))
        controls.addWidget(self.budget)
        controls.addWidget(QLabel(translate("LabAttack", "Seed")))
        controls.addWidget(self.seed)
        setup = QWidget()
        setup_layout = QVBoxLayout(setup)
        setup_layout.setContentsMargins(0, 0, 0, 0)
        setup_layout.addWidget(self.editor, 1)
        setup_layout.addLayout(controls)

        self.body = QSplitter(Qt.Orientation.Vertical)
        self.body.setObjectName("attack_body")
        self.body.setChildrenCollapsible(False)
        self.body.addWidget(setup)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.body, 1)

        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.ask_preview)
        self.editor.preview_wanted.connect(self._preview_later)
        controller.preview.preview_ready.connect(self._on_preview_ready)
        corpora = controller.corpora_model
        for changed in (corpora.dataChanged, corpora.rowsInserted, corpora.modelReset):
            changed.connect(self.refresh_seeds)
        self.refresh_seeds()

    def showEvent(self, event: Any) -> None:
        if not self._loaded:  # the converters are read when the tab is first seen (off the UI thread)
            self._loaded = True
            self.controller.spawn(self.controller.load_converters())
        super().showEvent(event)

    # ----------------------------------------------------------------------------------------- seeds
    @Slot()
    def refresh_seeds(self, *_args: Any) -> None:
        """The seeds again (the corpora ticked on the left changed); the preview keeps its seed when it still can."""
        chosen = self.chosen_seed()
        self._seeds = self.controller.seed_cases()
        combo = self.editor.preview_seed
        combo.blockSignals(True)
        combo.clear()
        for case in self._seeds:
            combo.addItem(seed_label(case), case.id)
        keep = combo.findData(chosen.id) if chosen is not None else -1
        combo.setCurrentIndex(keep if keep >= 0 else (0 if self._seeds else -1))
        combo.blockSignals(False)
        count = len(self._seeds)  # a plain name: lupdate finds a plural text only so
        if count:
            text = translate(
                "LabAttack",
                "Seeds: the %n attack(s) of the corpora ticked on the left; those the design stops are attacked.",
                None,
                count,
            )
        else:
            text = translate("LabAttack", "Seeds: tick corpora with attacks on the left.")
        self.seeds_label.setText(text)
        self._preview_later()

    def chosen_seed(self) -> Case | None:
        """The seed the preview converts (None: no seeds)."""
        row = self.editor.preview_seed.currentIndex()
        return self._seeds[row] if 0 <= row < len(self._seeds) else None

    # ----------------------------------------------------------------------------------------- preview
    def _preview_later(self) -> None:
        self._preview_timer.start()

    @Slot()
    def ask_preview(self) -> None:
        """Ask for the chosen chain's preview of the chosen seed (or say why there is none)."""
        spec = self.editor.chosen_spec()
        seed = self.chosen_seed()
        if self.controller.request_preview(spec, seed, self.seed.value()):
            return
        if seed is None:
            note = translate("LabAttack", "No seed to preview: tick corpora with attacks on the left.")
        elif self.editor.chain_row() < 0:
            note = translate("LabAttack", "Choose a chain, or make one with New.")
        else:
            note = translate("LabAttack", "This chain is empty: add converters to it.")
        self.editor.show_preview("", note)

    @Slot(object)
    def _on_preview_ready(self, preview: Preview) -> None:
        if preview.problem:
            self.editor.show_preview("", preview.problem, problem=True)
            return
        turns = len(preview.turns)  # a plain name: lupdate finds a plural text only so
        note = translate("LabAttack", "{chain} · seed {seed} · %n turn(s), as the design receives it", None, turns)
        self.editor.show_preview(preview.text, note.format(chain=preview.spec, seed=preview.seed))


__all__ = ["LabAttackPanel", "seed_label"]
