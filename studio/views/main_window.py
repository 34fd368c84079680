"""``MainWindow``: the studio's layout and menus — a thin view over the :class:`Workspace`.

Left: threads above the agent editor (guardrail chains with the palette and the options form; agent settings).
Middle: the chat. Right: the inspector. Everything it does is a call on the workspace or a view.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRect, QSettings, Qt, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid as shiboken_valid

from studio import i18n
from studio.controllers.workspace import Workspace
from studio.design.build import available_tools
from studio.design.catalog import palette_groups
from studio.design.sample import chat_suggestions
from studio.models.palette_model import PaletteModel
from studio.restart import keep_draft, take_draft
from studio.system.paths import data_dir
from studio.views.agent_settings import AgentSettingsView
from studio.views.chain_editor import ChainEditor
from studio.views.chat_view import ChatView
from studio.views.debug_panel import DebugPanel
from studio.views.export_notes import regression_test_note
from studio.views.import_progress import ImportProgressView
from studio.views.inspector import PANE_SHARES, InspectorView
from studio.views.layout_memory import LayoutMemory, screen_size_key
from studio.views.main_window_dialogs import DialogActions
from studio.views.main_window_files import FileActions
from studio.views.options_form import OptionsForm
from studio.views.palette import PaletteView
from studio.views.replay_view import ReplayView
from studio.views.screen_fit import ScreenFitScroll
from studio.views.splitter_shares import share_on_first_resize
from studio.views.thread_replay_view import ThreadReplayView
from studio.views.threads_view import ThreadsView
from studio.views.undo_notice import announce_undo
from studio.views.undo_routing import EditorUndoRouting
from studio.views.unmasked_export import ask_to_export_unmasked

if TYPE_CHECKING:
    from studio.controllers.lab_thresholds import LabThresholds
    from studio.views.lab_view import LabView

translate = i18n.translate


#: Replays the run selected in the inspector (or the newest) through the current chain, with no model call.
REPLAY_SHORTCUT = "Ctrl+R"
#: Replays every run of the open thread, in order, through the current chain.
REPLAY_THREAD_SHORTCUT = "Ctrl+Alt+R"

#: The smallest window the layout is made for (checked by ``tests/studio/test_layout.py``).
MINIMUM_WIDTH, MINIMUM_HEIGHT = 1024, 600


#: The window's size on first start where the screen has room (and always off-screen, for repeatable screenshots).
DEFAULT_WIDTH, DEFAULT_HEIGHT = 1560, 940


#: The Lab window's first size on a screen with room for it.
LAB_SIZE = (1400, 860)

#: Default shares of the splitters (what View → Reset layout gives back): editor | chat | inspector; threads over
#: the editor; palette, chains and options. The options get the largest share: at 28 % they were ~120 px on a
#: 1366x768 laptop, one field in sight; at 1280x720 the palette keeps 8 rows, each chain two entries in Chinese.
MAIN_SHARES, LEFT_SHARES, GUARDRAIL_SHARES = (36, 31, 33), (20, 80), (36, 26, 38)


def initial_size(
    available: QRect | None, platform: str, default: tuple[int, int] = (DEFAULT_WIDTH, DEFAULT_HEIGHT)
) -> tuple[int, int]:
    """A window's first size: ``default``, shrunk to fit a smaller screen's free area (a 1366x768 laptop), never
    below the layout's minimum. Later starts restore the size the user left."""
    if available is None or platform == "offscreen":
        return default
    width = max(MINIMUM_WIDTH, min(default[0], available.width()))
    height = max(MINIMUM_HEIGHT, min(default[1], available.height()))
    return width, height


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 4, 4, 0)
    label = QLabel(f"<b>{title}</b>")
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box


class MainWindow(QMainWindow):
    """The studio's window; its File menu is :attr:`files`, its Settings and Help menus :attr:`dialogs` (one job a
    module)."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.workspace = workspace
        #: The File menu's slots and their file dialogs.
        self.files = FileActions(self, workspace)
        #: The Settings and Help menus, and the approvals a design asks for.
        self.dialogs = DialogActions(self, workspace, self.restart)
        #: Set when the window closed to restart the studio (a new language): the entry point starts it again.
        self.restart_requested = False
        self.setWindowTitle("Processor Studio")
        screen = self.screen()
        self.resize(
            *initial_size(screen.availableGeometry() if screen is not None else None, QApplication.platformName())
        )

        document = workspace.document
        self.threads = ThreadsView(workspace.threads_model)
        groups = {str(lane): list(types) for lane, types in palette_groups(workspace.catalogue).items()}
        self.palette_view = PaletteView(PaletteModel(groups))
        self.chains = ChainEditor(document)
        self.options = OptionsForm(document)
        self.options.key_shown = workspace.keys.service_key_shown
        tool_names, tool_problems = available_tools()
        self.settings_view = AgentSettingsView(document, tools=tool_names)
        self.settings_view.mcp_servers.approvals = workspace.mcp_approvals
        self.settings_view.mcp_servers.secrets = workspace.secrets
        self.settings_view.mcp_servers.launcher = workspace.mcp_launcher
        self.chat = ChatView(workspace.chat_list)
        self.chat.set_suggestions(chat_suggestions(i18n.current_language()))
        self.inspector = InspectorView()
        # A guard's score in the details is read against the design's threshold (as the Lab's slider finds it).
        self._lab_thresholds: LabThresholds | None = None
        self.inspector.details.threshold_of = self._design_threshold

        # Sizes are weights (QSplitter shares out the space it has in these proportions), so the layout works
        # from 1280x720 up: the palette keeps most of its rows, the options form scrolls.
        self.guardrails = QSplitter(Qt.Orientation.Vertical)
        self.guardrails.setObjectName("guardrails")
        self.guardrails.addWidget(_titled(translate("MainWindow", "Processors"), self.palette_view))
        self.guardrails.addWidget(_titled(translate("MainWindow", "Chains"), self.chains))
        self.guardrails.addWidget(_titled(translate("MainWindow", "Options"), self.options))
        share_on_first_resize(self.guardrails, GUARDRAIL_SHARES)
        self.editor_tabs = QTabWidget()
        self.editor_tabs.setObjectName("editor")
        self.editor_tabs.addTab(self.guardrails, translate("MainWindow", "Guardrails"))
        self.editor_tabs.addTab(self.settings_view, translate("MainWindow", "Agent"))
        self.left_pane = QSplitter(Qt.Orientation.Vertical)
        self.left_pane.setObjectName("left_pane")
        self.left_pane.addWidget(_titled(translate("MainWindow", "Threads"), self.threads))
        self.left_pane.addWidget(self.editor_tabs)
        share_on_first_resize(self.left_pane, LEFT_SHARES)
        # Where the screen is too short for the column (200 % text on a laptop), it scrolls and its panes keep
        # their minimum: squeezed below it, the palette showed no processor and each chain less than one entry.
        self.left_column = ScreenFitScroll(self.left_pane)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.left_column)
        self.splitter.addWidget(self.chat)
        self.splitter.addWidget(self.inspector)
        share_on_first_resize(self.splitter, MAIN_SHARES)
        self.splitter.setStretchFactor(1, 1)  # a wider window widens the chat first
        self.splitter.setCollapsible(1, False)  # the side panes collapse (drag them shut, or the View menu)
        self.setCentralWidget(self.splitter)
        self.setMinimumSize(MINIMUM_WIDTH, MINIMUM_HEIGHT)
        #: The replay view opened last (None before any).
        self.replay_view: ReplayView | None = None
        #: The thread replay view opened last (None before any).
        self.thread_replay_view: ThreadReplayView | None = None
        #: Breakpoints and the paused run, in a tab of the inspector's lower pane.
        self.debug_panel = DebugPanel(workspace.debug)
        #: The splitters as the user left them, per screen size (View → Reset layout).
        self.layout_memory = LayoutMemory(self._settings, lambda: screen_size_key(self))
        for name, splitter, shares in (
            ("main", self.splitter, MAIN_SHARES),
            ("left", self.left_pane, LEFT_SHARES),
            ("guardrails", self.guardrails, GUARDRAIL_SHARES),
            ("inspector", self.inspector.splitter, PANE_SHARES),
        ):
            self.layout_memory.add(name, splitter, shares)
        self.inspector.add_tab(self.debug_panel, translate("MainWindow", "Debugger"))
        workspace.debug.paused.connect(self._on_debug_paused)
        self._build_menus()

        # chat and runs
        self.chat.send_requested.connect(workspace.send)
        self.chat.stop_requested.connect(workspace.stop)
        self.chat.follow(workspace.runs)
        self.chat.tripwire_clicked.connect(self._on_chat_tripwire_clicked)
        runs = workspace.runs
        runs.run_started.connect(self.inspector.on_run_started)
        runs.chunk_received.connect(self.inspector.on_chunk_received)
        runs.trace_event_received.connect(self.inspector.on_trace_event_received)
        runs.violation_recorded.connect(self.inspector.on_violation_recorded)
        runs.run_finished.connect(self.inspector.on_run_finished)
        runs.run_failed.connect(self.inspector.on_run_failed)
        # editor
        self.palette_view.add_requested.connect(self.chains.add_entry)
        self.chains.entry_selected.connect(self.options.show_entry)
        self.options.service_key_entered.connect(workspace.keys.save_service_key)
        self.chains.status_message.connect(self._show_status)
        # threads
        self.threads.new_thread_requested.connect(workspace.threads.create)
        workspace.threads.thread_created.connect(self._on_thread_created)
        self.threads.rename_requested.connect(workspace.threads.rename)
        self.threads.delete_requested.connect(workspace.threads.delete)
        self.threads.restore_requested.connect(workspace.threads.restore)
        workspace.threads.restorable_changed.connect(self.threads.set_restorable)
        self.threads.search_requested.connect(workspace.threads.refresh)
        self.threads.thread_selected.connect(workspace.select_thread)
        self.threads.replay_requested.connect(self.open_thread_replay)
        self.threads.reexport_requested.connect(self.reexport_regression_test)
        workspace.thread_opened.connect(self.threads.select_thread)
        workspace.history_loaded.connect(self._on_workspace_history_loaded)
        workspace.status_message.connect(self._show_status)
        workspace.file_failed.connect(self.files.show_failure)
        workspace.design_opened.connect(self._on_workspace_design_opened)
        workspace.endpoint_approval_requested.connect(self.dialogs.ask_endpoint_approval)
        workspace.mcp_approval_requested.connect(self.dialogs.ask_mcp_approval)
        workspace.regression_test_ready.connect(self._on_workspace_regression_test_ready)
        workspace.regression_test_written.connect(self._on_workspace_regression_test_written)
        #: The progress dialog of a running thread import.
        self.import_progress = ImportProgressView(workspace.imports, self)
        workspace.document.modified_changed.connect(self._update_title)
        #: The guardrail lab's window, made when first opened (Lab menu, Ctrl+L).
        self.lab_view: LabView | None = None
        self._restore_geometry()
        # What a newcomer types first is a message: the window's first field was the threads' search, and "hello"
        # typed at once filtered the threads list to nothing.
        self.chat.input.setFocus()
        for problem in tool_problems:
            self._show_status(translate("MainWindow", "A tool file was skipped: {problem}").format(problem=problem))

    # ----------------------------------------------------------------------------------------- menus

    def _design_threshold(self, processor: str) -> float | None:
        """``processor``'s threshold in the design being edited. The Lab's controller that reads it is imported on
        the first details shown, not with the window: the first window loads nothing of the Lab
        (``tests/studio/test_startup_imports.py``)."""
        from studio.controllers.lab_thresholds import LabThresholds

        if self._lab_thresholds is None:
            self._lab_thresholds = LabThresholds(self.workspace.document, self.workspace.catalogue, parent=self)
        return self._lab_thresholds.threshold(processor)

    def _action(self, menu: Any, text: str, slot: Any, shortcut: Any = None, name: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if name:
            action.setObjectName(name)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(translate("MainWindow", "&File"))
        self._action(
            file_menu, translate("MainWindow", "&New agent"), self.workspace.new_design, name="action.new_design"
        )
        self._action(
            file_menu,
            translate("MainWindow", "Open the &sample agent"),
            self.workspace.open_sample,
            name="action.open_sample",
        )
        self._action(
            file_menu, translate("MainWindow", "&Open design…"), self.files.open_design, QKeySequence.StandardKey.Open
        )
        self._action(
            file_menu,
            translate("MainWindow", "&Save design as…"),
            self.files.save_design,
            QKeySequence.StandardKey.Save,
        )
        self._action(
            file_menu, translate("MainWindow", "&Export as Python script…"), self.files.export_script, "Ctrl+E"
        )
        file_menu.addSeparator()
        self._action(file_menu, translate("MainWindow", "&Import thread…"), self.files.import_thread)
        self._action(file_menu, translate("MainWindow", "E&xport thread…"), self.files.export_thread)
        file_menu.addSeparator()
        # Ctrl+Q everywhere: QKeySequence.StandardKey.Quit is empty on Windows and on Qt's offscreen platform.
        quit_action = self._action(file_menu, translate("MainWindow", "&Quit"), self.close, "Ctrl+Q")
        edit_menu = bar.addMenu(translate("MainWindow", "&Edit"))
        # the chain editor's actions already carry Ctrl+Z and Ctrl+Shift+Z (plus the platform's Redo, e.g. Ctrl+Y)
        edit_menu.addAction(self.chains.undo_action())
        edit_menu.addAction(self.chains.redo_action())
        self._undo_routing = EditorUndoRouting(self)  # Ctrl+Z from a text field with nothing of its own to undo
        # ... so from the chat box too: the status bar names the edit undone, whichever pane had the keyboard
        stack = self.workspace.document.undo_stack()
        announce_undo(stack, self.chains.undo_action(), self.chains.redo_action(), self._show_status)
        view_menu = bar.addMenu(translate("MainWindow", "&View"))
        self.editor_pane_action = self._pane_action(
            view_menu, translate("MainWindow", "&Editor pane"), self.left_column, "Ctrl+Shift+1"
        )
        self.inspector_pane_action = self._pane_action(
            view_menu, translate("MainWindow", "&Inspector pane"), self.inspector, "Ctrl+Shift+3"
        )
        view_menu.addSeparator()
        self._action(view_menu, translate("MainWindow", "&Reset layout"), self.reset_layout, name="action.reset_layout")
        chat_menu = bar.addMenu(translate("MainWindow", "&Chat"))
        self._action(
            chat_menu,
            translate("MainWindow", "&New thread"),
            self.workspace.threads.create,
            QKeySequence.StandardKey.New,
        )
        self._action(chat_menu, translate("MainWindow", "&Stop the reply"), self.workspace.stop)
        chat_menu.addSeparator()
        #: Replays the run selected in the inspector (the newest when none is) through the current chain.
        self.replay_action = self._action(
            chat_menu, translate("MainWindow", "&Replay the run through the current chain"), self._on_replay_run,
            REPLAY_SHORTCUT, name="action.replay_run",
        )  # fmt: skip
        self.inspector.run_actions = [self.replay_action]
        self.chat.add_message_action(self._replay_message_action)
        replay_menu = bar.addMenu(translate("MainWindow", "&Replay"))
        replay_menu.addAction(self.replay_action)
        #: Replays every run of the open thread, in order, through the current chain.
        self.replay_thread_action = self._action(
            replay_menu, translate("MainWindow", "Replay the whole &thread through the current chain"),
            self._on_replay_thread, REPLAY_THREAD_SHORTCUT, name="action.replay_thread",
        )  # fmt: skip
        lab_menu = bar.addMenu(translate("MainWindow", "&Lab"))
        self._action(
            lab_menu,
            translate("MainWindow", "Open the guardrail &lab"),
            self.open_lab,
            "Ctrl+L",
            name="action.open_lab",
        )
        settings_menu = bar.addMenu(translate("MainWindow", "&Settings"))
        settings_action = self._action(
            settings_menu, translate("MainWindow", "&API keys and connection…"), self.dialogs.open_settings, "Ctrl+,"
        )
        self._action(
            settings_menu, translate("MainWindow", "&Language…"), self.dialogs.open_language, name="action.language"
        )
        help_menu = bar.addMenu(translate("MainWindow", "&Help"))
        shortcuts_action = self._action(
            help_menu,
            translate("MainWindow", "&Keyboard shortcuts"),
            self.dialogs.show_shortcuts,
            QKeySequence.StandardKey.HelpContents,
        )
        self._action(
            help_menu, translate("MainWindow", "&About Processor Studio"), self.dialogs.show_about, name="action.about"
        )
        #: The studio's own shortcuts, which work in its other windows too (the Lab's): an action's shortcut is live
        #: in every window it was added to, so these are the menus' actions themselves, not copies.
        self.app_actions = [quit_action, settings_action, shortcuts_action]

    def _pane_action(self, menu: Any, text: str, pane: QWidget, shortcut: str) -> QAction:
        """A checkable action showing or hiding a side pane; it follows the pane when a splitter collapses it."""
        action = QAction(text, self)
        action.setCheckable(True)
        action.setChecked(True)
        action.setShortcut(QKeySequence(shortcut))
        action.setObjectName(f"action.{pane.objectName()}")
        action.toggled.connect(lambda shown: self._show_pane(pane, shown))
        self.splitter.splitterMoved.connect(lambda *_: action.setChecked(self._pane_shown(pane)))
        menu.addAction(action)
        return action

    def _pane_shown(self, pane: QWidget) -> bool:
        return pane.isVisibleTo(self) and self.splitter.sizes()[self.splitter.indexOf(pane)] > 0

    def _show_pane(self, pane: QWidget, shown: bool) -> None:
        if shown == self._pane_shown(pane):
            return
        pane.setVisible(shown)
        index = self.splitter.indexOf(pane)
        if shown and self.splitter.sizes()[index] == 0:  # collapsed by dragging: open it at its minimum width
            sizes = self.splitter.sizes()
            wanted = max(pane.minimumSizeHint().width(), 300)
            sizes[index] = wanted
            sizes[1] = max(0, sizes[1] - wanted)
            self.splitter.setSizes(sizes)

    # ----------------------------------------------------------------------------------------- replays
    def _replay_message_action(self, item: Any, menu: QMenu) -> QAction | None:
        """A message's menu entry replaying the run it came from."""
        run_id = getattr(item, "run_id", None)
        if not run_id:
            return None
        action = QAction(translate("MainWindow", "Replay through the current chain"), menu)
        action.setObjectName("chat.menu.replay")
        action.setShortcut(QKeySequence(REPLAY_SHORTCUT))
        action.triggered.connect(lambda _checked=False, run_id=run_id: self.open_replay(run_id))
        return action

    @Slot()
    def _on_replay_run(self) -> None:
        run_id = self.inspector.selected_run_id()
        if run_id is None:
            self._show_status(translate("MainWindow", "No run to replay in this thread yet."))
            return
        self.open_replay(run_id)

    @Slot()
    def _on_replay_thread(self) -> None:
        if self.workspace.thread_id is None:
            self._show_status(translate("MainWindow", "No thread is open."))
            return
        self.open_thread_replay(self.workspace.thread_id)

    @Slot(str)
    def open_thread_replay(self, thread_id: str) -> ThreadReplayView:
        """Open the replay view of a whole thread (non-modal) and start replaying its runs in order."""
        view = ThreadReplayView(self.workspace.replays, thread_id, self)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.thread_replay_view = view
        view.show()
        self.workspace.replays.replay_thread(thread_id)
        return view

    def open_replay(self, run_id: str) -> ReplayView:
        """Open the replay view of ``run_id`` (non-modal) and start replaying it through the current chain."""
        view = ReplayView(self.workspace.replays, run_id, self)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        view.export_test_requested.connect(self._on_replay_export_test_requested)
        view.reexport_test_requested.connect(self._on_replay_reexport_test_requested)
        self.replay_view = view
        view.show()
        self.workspace.replays.replay(run_id)
        return view

    @Slot(object)
    def _on_debug_paused(self, _pause: Any) -> None:
        self.inspector.show_tab(self.debug_panel)

    @Slot(str)
    def _on_replay_export_test_requested(self, run_id: str) -> None:
        self.workspace.make_regression_test(run_id)  # then _on_workspace_regression_test_ready asks for the file

    @Slot(str)
    def reexport_regression_test(self, run_id: str) -> ReplayView:
        """The thread menu's "export again": replay the exported run through the current chain, then rewrite its
        file with that replay and the design as it is now (the replay view shows what the test now asserts)."""
        view = self.open_replay(run_id)
        view.reexport_when_replayed = True
        return view

    @Slot(str)
    def _on_replay_reexport_test_requested(self, run_id: str) -> None:
        self.workspace.rewrite_regression_test(run_id)

    @Slot(str)
    def _on_workspace_regression_test_written(self, run_id: str) -> None:
        view = self.replay_view
        if view is not None and view.run_id == run_id and shiboken_valid(view):
            view.refresh_reexport()

    @Slot(str, str, list, str)
    def _on_workspace_regression_test_ready(self, run_id: str, script: str, kinds: list[str], path: str) -> None:
        """The test is made: when it holds values the guards masked, ask first (Cancel writes nothing); then write it
        over ``path``, or ask where it goes."""
        if kinds:
            ask_to_export_unmasked(
                self,
                kinds,
                accept=lambda: self._export_regression_test(run_id, script, path),
                cancel=lambda: self._on_workspace_regression_test_written(run_id),  # (the export ended)
            )
            return
        self._export_regression_test(run_id, script, path)

    def _export_regression_test(self, run_id: str, script: str, path: str) -> None:
        if path:
            self.workspace.save_regression_test(script, Path(path), run_id)
            return
        self.files.file_dialog(
            translate("MainWindow", "Export run as a regression test"),
            translate("MainWindow", "Python tests (*.py)"),
            save=True,
            accept=lambda path: self.workspace.save_regression_test(script, path, run_id),
            suggested=f"test_run_{run_id[-8:]}.py",
            note=regression_test_note(),
        )

    # ----------------------------------------------------------------------------------------- the lab
    @Slot()
    def open_lab(self) -> LabView:
        """Show the guardrail lab's window (made on first use); a case opened from it comes back here."""
        if self.lab_view is None:
            from studio.views.lab_view import LabView  # the lab loads when first opened, not before the window

            self.lab_view = LabView(self.workspace.lab, self)
            self.lab_view.setWindowFlag(Qt.WindowType.Window)
            screen = self.screen()
            available = screen.availableGeometry() if screen is not None else None
            self.lab_view.resize(*initial_size(available, QApplication.platformName(), LAB_SIZE))
            self.lab_view.addActions(self.app_actions)  # Ctrl+Q, Ctrl+, and F1 work in the Lab's window too
            self.workspace.lab.case_thread_ready.connect(self._on_lab_case_thread_ready)
            self.workspace.open_lab()
        self.lab_view.show()
        self.lab_view.raise_()
        self.lab_view.activateWindow()
        return self.lab_view

    @Slot(str)
    def _on_lab_case_thread_ready(self, _thread_id: str) -> None:
        self.raise_()
        self.activateWindow()

    # ----------------------------------------------------------------------------------------- slots
    @Slot(str)
    def _show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 8000)

    @Slot(object)
    def _on_thread_created(self, _record: object) -> None:
        """A new thread is for typing in: the keyboard goes to the chat box (it stayed on New, and the first words
        typed went to the threads list's keyboard search)."""
        self.chat.input.setFocus()

    @Slot(str)
    def _on_chat_tripwire_clicked(self, run_id: str) -> None:
        self.inspector.select_tripwire(run_id)

    @Slot(list)
    def _on_workspace_history_loaded(self, histories: list[Any]) -> None:
        self.inspector.load_history(histories, replace=True)

    @Slot(str)
    def _on_workspace_design_opened(self, _name: str) -> None:
        self._update_title()

    @Slot()
    def _update_title(self, *_args: Any) -> None:
        name = self.workspace.document.design().name
        self.setWindowTitle(translate("MainWindow", "{name} — Processor Studio").format(name=name))

    # ----------------------------------------------------------------------------------------- restart
    @Slot()
    def restart(self) -> None:
        """Close to start again (the picked language shows then); the chat box's unsent text is kept for it."""
        keep_draft(self.chat.input.toPlainText(), self.workspace.thread_id)
        self.restart_requested = True
        for dialog in self.findChildren(QDialog):
            dialog.close()
        self.close()

    def restore_draft(self) -> None:
        """Put back the chat box's text kept by a restart (nothing when there is none, or the box has text)."""
        text, _thread = take_draft()
        if text and not self.chat.input.toPlainText():
            self.chat.input.setPlainText(text)

    # ----------------------------------------------------------------------------------------- geometry
    @staticmethod
    def _settings() -> QSettings:
        """Window state lives with the user's data (a self-test or a test run never touches the real one)."""
        return QSettings(str(data_dir() / "window.ini"), QSettings.Format.IniFormat)

    def _restore_geometry(self) -> None:
        geometry = self._settings().value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if self.layout_memory.restore():
            self._sync_pane_actions()

    @Slot()
    def reset_layout(self) -> None:
        """Every pane shown at its default share (the saved layout of this screen size forgotten)."""
        self.layout_memory.reset()
        self._sync_pane_actions()

    def _sync_pane_actions(self) -> None:
        for action, pane in ((self.editor_pane_action, self.left_column), (self.inspector_pane_action, self.inspector)):
            action.setChecked(not pane.isHidden())

    def commit_pending_edits(self) -> None:
        """Commit what the user typed that still waits for typing to pause (an option's value), so that the quit's
        save has it: a value typed just before the window closes, Ctrl+Q or a logout is not lost."""
        self.options.flush()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._settings().setValue("window/geometry", self.saveGeometry())
        self.layout_memory.save()
        super().closeEvent(event)
