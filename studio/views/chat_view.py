"""The live chat: the message list over :class:`~studio.models.chat_list_model.ChatListModel`, and the input.

``ChatView`` (a ``QWidget``) is thin: it shows the model, and turns key presses and clicks into requests
(``send_requested``, ``stop_requested``, ``tripwire_clicked``). Object names for automation: ``chat.view`` (the
message list), ``chat.input``, ``chat.send``, ``chat.stop``, ``chat.queue``. An empty conversation shows
:class:`EmptyChat` instead of the list.

A message sent while a reply runs is queued, shown as pending above the message box (removable), and sent when
the reply ends (:mod:`~studio.views.chat_queue`). A message's context menu offers Copy, and for the user's own
messages Edit and resend and Resend; other parts add their entries with :meth:`ChatView.add_message_action`.

The rest of the chat lives next to it, one job per module: :mod:`~studio.views.chat_list_view` (the virtualised
list), :mod:`~studio.views.chat_render` (measuring, painting, hit-testing a row), :mod:`~studio.views.chat_document`
(writing an item's document, updating a streamed reply in place), :mod:`~studio.views.chat_markdown` and
:mod:`~studio.views.chat_style`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QPoint, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QShortcut, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextDocumentLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.models.chat_items import AssistantItem, ChatItem, UserItem
from studio.models.chat_list_model import ChatListModel
from studio.views.chat_list_view import ChatListView
from studio.views.chat_queue import MessageQueue, QueuedMessages
from studio.views.wrapping_button import WrappingButton


class ChatInput(QPlainTextEdit):
    """The message box: Enter or Ctrl+Enter submits, Shift+Enter starts a new line."""

    #: Enter (or Ctrl+Enter) was pressed.
    submitted = Signal()

    def height_for_lines(self, count: int) -> int:
        """The box's height that shows ``count`` whole lines as it lays them out, a taller fallback font's (Chinese)
        included: three times the font's line spacing plus 16 px cut the third line at 200 % text size."""
        document = QTextDocument()
        document.setDefaultFont(self.font())
        layout = QPlainTextDocumentLayout(document)
        document.setDocumentLayout(layout)
        document.setPlainText("\n".join(["Ag 中文"] * count))
        block, lines = document.firstBlock(), 0.0
        while block.isValid():
            lines += layout.blockBoundingRect(block).height()
            block = block.next()
        return math.ceil(lines + 2 * self.document().documentMargin()) + 2 * self.frameWidth()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
            else:
                self.submitted.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class _EmptyChatPage(QScrollArea):
    """The empty chat in a vertical scroll area, as wide at least as the empty chat needs (a scroll area's own
    minimum ignores its content's, and the chat's minimum width is what the window's splitter keeps for it)."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        content = self.widget()
        if content is None:
            return hint
        # the content's own minimum, as when it stood in the chat without a scroll area (a scroll bar, shown only
        # when a large text size overflows a short window, then narrows the wrapped buttons a little)
        return QSize(max(hint.width(), content.minimumSizeHint().width()), hint.height())


class EmptyChat(QWidget):
    """What an empty conversation shows: a line on what to do, and suggestions that send themselves."""

    #: A suggestion was clicked (its text).
    suggestion_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chat.empty")
        self._layout = QVBoxLayout(self)
        self._layout.addStretch(1)
        title = QLabel(translate("ChatView", "<h3>Start the conversation</h3>Type below, or try one of these:"), self)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setWordWrap(True)
        self._layout.addWidget(title)
        self._buttons: list[QPushButton] = []
        self._layout.addStretch(2)

    def set_suggestions(self, suggestions: Sequence[str]) -> None:
        for button in self._buttons:
            button.deleteLater()
        self._buttons = []
        for index, text in enumerate(suggestions):
            button = WrappingButton(text, self)  # a long suggestion wraps in a narrow chat, not clipped
            button.setObjectName(f"chat.suggestion.{index}")
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.clicked.connect(lambda _checked=False, text=text: self.suggestion_clicked.emit(text))
            self._layout.insertWidget(2 + index, button, 0, Qt.AlignmentFlag.AlignHCenter)
            self._buttons.append(button)

    @property
    def buttons(self) -> list[QPushButton]:
        return list(self._buttons)


class ChatView(QWidget):
    """The chat: the message list over a :class:`ChatListModel`, a message box, Send and Stop."""

    #: The user asked to send this text (Enter, Ctrl+Enter or Send).
    send_requested = Signal(str)
    #: The user asked to stop the running reply (Stop or Esc).
    stop_requested = Signal()
    #: A tripwire banner was clicked: (run_id).
    tripwire_clicked = Signal(str)

    def __init__(self, model: ChatListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._running = False
        self._queue = MessageQueue()
        self._menu: QMenu | None = None
        #: Extra context-menu entries: each factory gets the message and its menu, and returns an action or None.
        self._action_factories: list[Callable[[ChatItem, QMenu], QAction | None]] = []

        self._list = ChatListView(self)
        self._list.setObjectName("chat.view")
        self._list.setModel(model)
        self._input = ChatInput(self)
        self._input.setObjectName("chat.input")
        self._input.setPlaceholderText(
            translate("ChatView", "Message the agent — Enter sends, Shift+Enter adds a line")
        )
        self._input.setTabChangesFocus(True)
        self._input.setFixedHeight(self._input.height_for_lines(3))
        self._send = QPushButton(translate("ChatView", "Send"), self)
        self._send.setObjectName("chat.send")
        self._send.setToolTip(translate("ChatView", "Send (Enter)"))
        self._stop = QPushButton(translate("ChatView", "Stop"), self)
        self._stop.setObjectName("chat.stop")
        self._stop.setToolTip(translate("ChatView", "Stop the reply (Esc)"))

        buttons = QVBoxLayout()
        buttons.addWidget(self._send)
        buttons.addWidget(self._stop)
        buttons.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addWidget(self._input, 1)
        bottom.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self._empty = EmptyChat(self)
        # in a scroll area: at a large text size in a short window its wrapped suggestions scroll, not clipped
        self._empty_page = _EmptyChatPage(self)
        self._empty_page.setObjectName("chat.empty.page")
        self._empty_page.setWidgetResizable(True)
        self._empty_page.setFrameShape(QFrame.Shape.NoFrame)
        self._empty_page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._empty_page.setWidget(self._empty)
        self._pages = QStackedWidget(self)
        self._pages.addWidget(self._empty_page)
        self._pages.addWidget(self._list)
        layout.addWidget(self._pages, 1)
        self._empty.suggestion_clicked.connect(self._on_empty_suggestion_clicked)
        model.rowsInserted.connect(self._update_page)
        model.rowsRemoved.connect(self._update_page)
        model.modelReset.connect(self._update_page)
        self._update_page()
        self._queued = QueuedMessages(self)
        self._queued.remove_requested.connect(self._on_queued_remove_requested)
        layout.addWidget(self._queued)
        layout.addLayout(bottom)

        self._input.submitted.connect(self._on_input_submitted)
        self._input.textChanged.connect(self._on_input_text_changed)
        self._send.clicked.connect(self._on_send_clicked)
        self._stop.clicked.connect(self._on_stop_clicked)
        self._list.tool_card_toggle_requested.connect(self._on_list_tool_card_toggle_requested)
        self._list.tripwire_clicked.connect(self._on_list_tripwire_clicked)
        self._list.context_menu_requested.connect(self._on_list_context_menu_requested)
        self._list.text_typed.connect(self._on_list_text_typed)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self._on_escape_activated)
        self._update_buttons()

    # ----------------------------------------------------------------------------------------- public
    def set_suggestions(self, suggestions: Sequence[str]) -> None:
        """What an empty conversation offers to send with one click."""
        self._empty.set_suggestions(suggestions)

    @property
    def empty_state(self) -> EmptyChat:
        return self._empty

    @Slot()
    def _update_page(self) -> None:
        self._pages.setCurrentWidget(self._list if self._model.rowCount() else self._empty_page)

    @Slot(str)
    def _on_empty_suggestion_clicked(self, text: str) -> None:
        if self._running:
            return
        self._input.setPlainText(text)
        self._submit()
        self._input.setFocus()  # the button is gone: without this the keyboard lands in the next pane

    @property
    def model(self) -> ChatListModel:
        return self._model

    @property
    def list_view(self) -> ChatListView:
        return self._list

    @property
    def input(self) -> ChatInput:
        return self._input

    @property
    def is_running(self) -> bool:
        return self._running

    @property
    def queued(self) -> list[str]:
        """Messages waiting for the running reply to end, oldest first."""
        return self._queue.texts

    @property
    def queue_view(self) -> QueuedMessages:
        return self._queued

    # ----------------------------------------------------------------------------------------- context menu
    def add_message_action(self, factory: Callable[[ChatItem, QMenu], QAction | None]) -> None:
        """Offer another entry in messages' context menus (replay, say): ``factory(item, menu)`` returns an
        action parented to ``menu``, or None when it does not apply to that message."""
        self._action_factories.append(factory)

    def message_menu(self, row: int) -> QMenu:
        """The context menu of the message in ``row``: Copy; Edit and resend and Resend for the user's own."""
        item = self._model.item(row)
        menu = QMenu(self)
        menu.setObjectName("chat.menu")
        copy = menu.addAction(translate("ChatView", "Copy"))
        copy.setObjectName("chat.menu.copy")
        copy.triggered.connect(lambda _checked=False, text=item.plain_text: self._copy(text))
        if isinstance(item, UserItem):
            edit = menu.addAction(translate("ChatView", "Edit and resend"))
            edit.setObjectName("chat.menu.edit")
            edit.triggered.connect(lambda _checked=False, text=item.text: self._edit(text))
            resend = menu.addAction(translate("ChatView", "Resend"))
            resend.setObjectName("chat.menu.resend")
            resend.triggered.connect(lambda _checked=False, text=item.text: self._resend(text))
        extra = [action for factory in self._action_factories if (action := factory(item, menu)) is not None]
        if extra:
            menu.addSeparator()
            for action in extra:
                menu.addAction(action)
        return menu

    @staticmethod
    def _copy(text: str) -> None:
        QApplication.clipboard().setText(text)

    def _edit(self, text: str) -> None:
        self._input.setPlainText(text)
        self._input.setFocus()
        self._input.moveCursor(self._input.textCursor().MoveOperation.End)

    def _resend(self, text: str) -> None:
        self._send_or_queue(text)
        # the menu handed the keyboard back to the message list: the follow-up goes to the chat box, as after Send
        self._input.setFocus()

    @Slot(str)
    def _on_list_text_typed(self, text: str) -> None:
        """Keys typed in the conversation are a message being written: the chat box takes them, after its text."""
        self._input.setFocus()
        self._input.moveCursor(self._input.textCursor().MoveOperation.End)
        self._input.insertPlainText(text)

    @Slot(int, QPoint)
    def _on_list_context_menu_requested(self, row: int, position: QPoint) -> None:
        if self._menu is not None:
            self._menu.deleteLater()
        self._menu = self.message_menu(row)
        self._menu.popup(position)  # never exec(): the UI keeps running

    def set_running(self, running: bool) -> None:
        """Whether a reply is running: Stop is enabled only then, Send only when not."""
        self._running = running
        self._update_buttons()

    def follow(self, controller: Any) -> None:
        """Track a :class:`~studio.controllers.run_controller.RunController`'s running state."""
        controller.run_started.connect(self._on_controller_run_started)
        controller.run_finished.connect(self._on_controller_run_finished)
        controller.run_failed.connect(self._on_controller_run_failed)

    # ----------------------------------------------------------------------------------------- slots
    def _update_buttons(self) -> None:
        self._stop.setEnabled(self._running)
        self._send.setEnabled(bool(self._input.toPlainText().strip()))
        self._send.setText(translate("ChatView", "Queue") if self._running else translate("ChatView", "Send"))
        self._send.setToolTip(
            translate("ChatView", "Queue: sent when the reply ends (Enter)")
            if self._running
            else translate("ChatView", "Send (Enter)")
        )

    def _submit(self) -> None:
        text = self._input.toPlainText().strip()
        if not text:
            return
        self._input.clear()
        self._send_or_queue(text)

    def _send_or_queue(self, text: str) -> None:
        """Send now, or, while a reply runs, queue it (shown as pending) to send when the reply ends."""
        if self._running:
            self._queue.append(text)
            self._queued.show_texts(self._queue.texts)
            return
        self._list.scroll_to_bottom()
        self.send_requested.emit(text)

    @Slot()
    def _send_next_queued(self) -> None:
        if self._running:
            return
        text = self._queue.take_first()
        self._queued.show_texts(self._queue.texts)
        if text is not None:
            self._list.scroll_to_bottom()
            self.send_requested.emit(text)

    @Slot(int)
    def _on_queued_remove_requested(self, index: int) -> None:
        self._queue.remove(index)
        self._queued.show_texts(self._queue.texts)

    @Slot()
    def _on_input_submitted(self) -> None:
        self._submit()

    @Slot()
    def _on_input_text_changed(self) -> None:
        self._update_buttons()

    @Slot()
    def _on_send_clicked(self) -> None:
        self._submit()
        # Send took the focus on the click and is disabled now the box is empty: Qt would hand the keyboard to
        # the next pane (the inspector), so a follow-up typed at once would go there
        self._input.setFocus()

    @Slot()
    def _on_stop_clicked(self) -> None:
        if self._running:
            self.stop_requested.emit()

    @Slot()
    def _on_escape_activated(self) -> None:
        if self._running:
            self.stop_requested.emit()

    @Slot(int, str)
    def _on_list_tool_card_toggle_requested(self, row: int, tool_call_id: str) -> None:
        item = self._model.item(row)
        if isinstance(item, AssistantItem):
            self._model.chat.toggle_tool_card(item, tool_call_id)

    @Slot(str)
    def _on_list_tripwire_clicked(self, run_id: str) -> None:
        self.tripwire_clicked.emit(run_id)

    @Slot(str, str)
    def _on_controller_run_started(self, _run_id: str, _thread_id: str) -> None:
        self.set_running(True)

    @Slot(str, object)
    def _on_controller_run_finished(self, _run_id: str, _result: object) -> None:
        self._reply_ended()

    @Slot(str, str)
    def _on_controller_run_failed(self, _run_id: str, _message: str) -> None:
        self._reply_ended()

    def _reply_ended(self) -> None:
        self.set_running(False)
        if len(self._queue):
            QTimer.singleShot(0, self._send_next_queued)  # after every listener has seen the run end


__all__ = ["ChatInput", "ChatView", "EmptyChat"]
