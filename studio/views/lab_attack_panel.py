"""The Lab window's Attack tab: red-team the design — pick seeds, compose converter chains and watch a seed go
through one, set a budget and a seed number, then run the attack and read what got through.

A thin view over :class:`studio.controllers.lab_attack.LabAttack`: the chain editor (:mod:`lab_attack_chains`) edits
the controller's models, the preview is asked of the controller and shown when it comes back (computed off the UI
thread), and the results (:mod:`lab_attack_results`) fill as the controller hands them over in batches. The seeds
are the attacks of the corpora ticked in the Lab's side bar; the mode and concurrency are the Lab's (its top bar).

Keys while the tab has the focus: Ctrl+Enter starts the attack, Esc cancels it, Ctrl+Shift+R resumes it (the Lab
window routes its own keys here when this tab is shown); Ctrl+N makes a chain, Del removes a chain or a step,
Alt+Up / Alt+Down move a step; in the bypasses: Enter opens one as a thread, Ctrl+B keeps them, Ctrl+E exports them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from lab.corpus import Case
from studio.controllers.lab_attack import DEFAULT_BUDGET, DEFAULT_SEED, LabAttack, Preview
from studio.controllers.lab_attack_strategies import StrategyChoice
from studio.i18n import translate
from studio.views.lab_attack_chains import ChainEditor
from studio.views.lab_attack_results import AttackResults
from studio.views.last_folder import start_folder

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

    def __init__(
        self,
        controller: LabAttack,
        run_settings: Callable[[], tuple[str, int]] = lambda: ("guardrails", 4),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("lab_attack")
        self.controller = controller
        #: The Lab's mode and concurrency, as its top bar has them now.
        self.run_settings = run_settings
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

        self.strategies = self._line(
            "attack_strategies",
            translate("LabAttack", "off — e.g. paraphrase,pair:3"),
            translate(
                "LabAttack",
                "Model strategies, separated by commas (paraphrase, translate, tone, tense, pair, crescendo): a model "
                "writes variants of each stopped seed. Off until named; their cost is estimated before any call.",
            ),
        )
        self.attacker = self._line(
            "attack_attacker",
            translate("LabAttack", "attacker model id"),
            translate("LabAttack", "The model that writes the attacks (any litellm model id)"),
        )
        self.judge = self._line(
            "attack_judge",
            translate("LabAttack", "judge model id (pair)"),
            translate("LabAttack", "The model that scores the design's replies (PAIR)"),
        )
        self.api_base = self._line(
            "attack_api_base",
            translate("LabAttack", "local server (optional)"),
            translate(
                "LabAttack", "An OpenAI-compatible server on this machine for both models (http://localhost:…/v1)"
            ),
        )
        strategy_row = QHBoxLayout()
        strategy_row.addWidget(QLabel(translate("LabAttack", "Strategies")))
        strategy_row.addWidget(self.strategies, 3)
        strategy_row.addWidget(self.attacker, 2)
        strategy_row.addWidget(self.judge, 2)
        strategy_row.addWidget(self.api_base, 2)

        self.start_button = QPushButton(translate("LabAttack", "Start attack"))
        self.start_button.setObjectName("attack_start")
        self.start_button.setToolTip(
            translate("LabAttack", "Run the seeds' variants through the design, in the Lab's mode (Ctrl+Enter)")
        )
        self.cancel_button = QPushButton(translate("LabAttack", "Cancel"))
        self.cancel_button.setObjectName("attack_cancel")
        self.cancel_button.setToolTip(translate("LabAttack", "Stop the attack; what finished is kept (Esc)"))
        self.resume_button = QPushButton(translate("LabAttack", "Resume"))
        self.resume_button.setObjectName("attack_resume")
        self.resume_button.setToolTip(
            translate(
                "LabAttack", "Go on with the attack that did not finish: only what is missing runs (Ctrl+Shift+R)"
            )
        )
        self.progress = QProgressBar()
        self.progress.setObjectName("attack_progress")
        self.progress.setTextVisible(True)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat(translate("LabAttack", "No attack yet"))
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(controller.cancel)
        self.resume_button.clicked.connect(self.resume)

        controls = QHBoxLayout()
        controls.addWidget(self.seeds_label, 1)
        controls.addWidget(QLabel(translate("LabAttack", "Budget")))
        controls.addWidget(self.budget)
        controls.addWidget(QLabel(translate("LabAttack", "Seed")))
        controls.addWidget(self.seed)
        run_row = QHBoxLayout()
        run_row.addWidget(self.start_button)
        run_row.addWidget(self.cancel_button)
        run_row.addWidget(self.resume_button)
        run_row.addWidget(self.progress, 1)
        setup = QWidget()
        setup_layout = QVBoxLayout(setup)
        setup_layout.setContentsMargins(0, 0, 0, 0)
        setup_layout.addWidget(self.editor, 1)
        setup_layout.addLayout(controls)
        setup_layout.addLayout(strategy_row)
        setup_layout.addLayout(run_row)

        self.results = AttackResults()
        self.body = QSplitter(Qt.Orientation.Vertical)
        self.body.setObjectName("attack_body")
        self.body.setChildrenCollapsible(False)
        self.body.addWidget(setup)
        self.body.addWidget(self.results)
        self.body.setStretchFactor(0, 1)
        self.body.setStretchFactor(1, 1)
        self.body.setSizes([390, 250])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.body, 1)

        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.ask_preview)
        self.editor.preview_wanted.connect(self._preview_later)
        controller.preview.preview_ready.connect(self._on_preview_ready)
        controller.results_reset.connect(self._on_results_reset)
        controller.results_added.connect(self._on_results_added)
        controller.progress_changed.connect(self._on_progress_changed)
        controller.attack_started.connect(lambda _attack_id: self.update_buttons())
        controller.attack_ended.connect(self._on_attack_ended)
        controller.resumable_changed.connect(lambda _can: self.update_buttons())
        controller.estimate_ready.connect(self.ask_estimate)
        self.results.open_requested.connect(controller.open_bypass_as_thread)
        self.results.add_requested.connect(controller.add_bypasses_to_found)
        self.results.export_requested.connect(self.choose_test_path)
        corpora = controller.corpora_model
        for changed in (corpora.dataChanged, corpora.rowsInserted, corpora.modelReset):
            changed.connect(self.refresh_seeds)
        self.refresh_seeds()

    def showEvent(self, event: Any) -> None:
        if not self._loaded:  # the converters are read when the tab is first seen (off the UI thread)
            self._loaded = True
            self.controller.open_tab()
        self.update_buttons()
        super().showEvent(event)

    @staticmethod
    def _line(name: str, placeholder: str, tip: str) -> QLineEdit:
        line = QLineEdit()
        line.setObjectName(name)
        line.setPlaceholderText(placeholder)
        line.setToolTip(tip)
        line.setClearButtonEnabled(True)
        return line

    def strategy_choice(self) -> StrategyChoice:
        """The model strategies as the fields say (off while the first is empty)."""
        return StrategyChoice(self.strategies.text(), self.attacker.text(), self.judge.text(), self.api_base.text())

    def ask_estimate(self, lines: list[str]) -> QMessageBox:
        """Show the strategies' estimate and ask whether to start (No is the default: models cost money)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            translate("LabAttack", "Start the model strategies?"),
            translate("LabAttack", "The strategies call models. At most:"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setObjectName("attack_estimate")
        box.setInformativeText("\n".join(lines))
        box.setDefaultButton(QMessageBox.StandardButton.No)
        yes = box.button(QMessageBox.StandardButton.Yes)
        box.finished.connect(lambda _answer: self.controller.answer_estimate(box.clickedButton() is yes))
        box.finished.connect(lambda _answer: self.update_buttons())
        box.finished.connect(box.deleteLater)
        box.open()
        return box

    def update_buttons(self) -> None:
        running = self.controller.is_running
        self.start_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.resume_button.setEnabled(self.controller.can_resume)

    # ----------------------------------------------------------------------------------------- the attack
    @Slot()
    def start(self) -> None:
        """Start the attack with the chains, budget and seed number shown, in the Lab's mode and concurrency."""
        mode, concurrency = self.run_settings()
        self.controller.start(
            chains=self.controller.chains.specs(),
            budget=self.budget.value(),
            seed=self.seed.value(),
            mode=mode,
            concurrency=concurrency,
            strategies=self.strategy_choice(),
        )
        self.update_buttons()

    @Slot()
    def resume(self) -> None:
        self.controller.resume()
        self.update_buttons()

    @Slot(list)
    def _on_results_reset(self, found: list[Any]) -> None:
        self.results.bypasses.set_bypasses(found)
        self._show_figures()

    @Slot(list)
    def _on_results_added(self, found: list[Any]) -> None:
        self.results.bypasses.add_bypasses(found)
        self._show_figures()

    def _show_figures(self) -> None:
        record = self.controller.record
        robustness = self.controller.robustness
        self.results.matrix.set_robustness(robustness, record.chains if record is not None else ())
        total = robustness.total
        if total.variants:
            asr = "-" if total.asr is None else f"{total.asr:.1%}"
            count = total.variants  # a plain name: lupdate finds a plural text only so
            self.results.summary.setText(
                translate(
                    "LabAttack",
                    "%n variant(s) · {bypassed} got through · ASR <b>{asr}</b> · {errors} error(s)",
                    None,
                    count,
                ).format(bypassed=total.bypassed, asr=asr, errors=total.errors)
            )
        else:
            self.results.summary.setText("")

    @Slot(int, int, str)
    def _on_progress_changed(self, done: int, total: int, phase: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(min(done, max(total, 1)))
        phases = {
            "waiting": translate("LabAttack", "starting"),
            "baseline": translate("LabAttack", "finding the seeds the design stops"),
            "chains": translate("LabAttack", "running the variants"),
            "sources": translate("LabAttack", "running the strategies' variants"),
            "done": translate("LabAttack", "done"),
        }
        self.progress.setFormat(
            translate("LabAttack", "{done} / {total} — {phase}").format(
                done=done, total=total, phase=phases.get(phase, phase)
            )
        )
        self.update_buttons()

    @Slot(str, str)
    def _on_attack_ended(self, _attack_id: str, status: str) -> None:
        if status == "cancelled":
            self.progress.setFormat(self.progress.format() + translate("LabAttack", " — cancelled"))
        self.update_buttons()

    def choose_test_path(self, variant_ids: list[str]) -> QFileDialog:
        """Ask where the regression test of ``variant_ids`` goes, then write it (off the UI thread)."""
        dialog = QFileDialog(
            self,
            translate("LabAttack", "Export the bypasses as a regression test"),
            str(start_folder() / "test_found_bypasses.py"),
            translate("LabAttack", "Python test (*.py)"),
        )
        dialog.setObjectName("attack_export_dialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(lambda path: self.export_test(variant_ids, Path(path)))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def export_test(self, variant_ids: list[str], path: Path) -> None:
        self.controller.export_test_file(variant_ids, path)

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
