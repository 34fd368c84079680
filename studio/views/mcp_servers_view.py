"""The design's MCP servers in the agent settings: add, edit and remove servers, list their tools with their
schemas, and enable tools one by one.

Every change is an :class:`~studio.models.editor_commands.EditSetting` of ``mcp_servers`` (undoable). Listing a
server's tools starts it for a moment as a task on the qasync loop (the UI never waits) and stops it again. A stdio
command typed here counts as allowed to run (the user wrote it); one from a design opened from a file is listed
only once allowed (the first run asks). An HTTP server's credential goes to the keyring, bound to its URL, never to
the design.
"""

from __future__ import annotations

import asyncio
import json
import shlex
from functools import partial
from typing import Any

import shiboken6
from pydantic import ValidationError
from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from processors.tools.mcp import McpServerError
from studio.controllers.mcp_launcher import McpLauncher
from studio.design.agent_design import McpServerConfig
from studio.error_texts import error_text, validation_text
from studio.i18n import translate
from studio.keys.secrets import SecretStore
from studio.mcp.approvals import CommandApprovals
from studio.mcp.servers import ListedTool, launch_key
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import EditSetting

__all__ = ["McpServerDialog", "McpServersView"]

_ROLE = Qt.ItemDataRole.UserRole


class McpServerDialog(QDialog):
    """One server's settings; OK checks them as a design would and stays open with the reason if refused."""

    #: The user confirmed valid settings: (McpServerConfig, credential typed for an HTTP server, "" if none).
    server_accepted = Signal(object, str)

    def __init__(
        self, config: McpServerConfig | None = None, taken: set[str] | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mcp_server_dialog")
        self.setWindowTitle(translate("McpServerDialog", "MCP server"))
        self._taken = taken or set()
        self._enabled = list(config.enabled_tools) if config is not None else []
        self.name = QLineEdit(config.name if config else "")
        self.name.setObjectName("mcp_server.name")
        self.transport = QComboBox()
        self.transport.setObjectName("mcp_server.transport")
        self.transport.addItem(translate("McpServerDialog", "A program (stdio)"), "stdio")
        self.transport.addItem(translate("McpServerDialog", "A URL (Streamable HTTP)"), "http")
        self.transport.setCurrentIndex(1 if config is not None and config.transport == "http" else 0)
        self.command = QLineEdit(config.command if config else "")
        self.command.setObjectName("mcp_server.command")
        self.command.setPlaceholderText(translate("McpServerDialog", "e.g. npx, uvx or a path to a program"))
        self.args = QLineEdit(shlex.join(config.args) if config else "")
        self.args.setObjectName("mcp_server.args")
        self.args.setPlaceholderText(
            translate("McpServerDialog", "Arguments, as in a shell: -y @modelcontextprotocol/server-filesystem .")
        )
        self.env = QPlainTextEdit("\n".join(f"{k}={v}" for k, v in config.env.items()) if config else "")
        self.env.setObjectName("mcp_server.env")
        self.env.setPlaceholderText(translate("McpServerDialog", "NAME=value, one per line (no keys or tokens)"))
        self.env.setFixedHeight(56)
        self.url = QLineEdit(config.url if config else "")
        self.url.setObjectName("mcp_server.url")
        self.url.setPlaceholderText("http://127.0.0.1:8000/mcp")
        self.headers = QPlainTextEdit("\n".join(f"{k}: {v}" for k, v in config.headers.items()) if config else "")
        self.headers.setObjectName("mcp_server.headers")
        self.headers.setPlaceholderText(translate("McpServerDialog", "Name: value, one per line (no credentials)"))
        self.headers.setFixedHeight(56)
        self.credential = QLineEdit()
        self.credential.setObjectName("mcp_server.credential")
        self.credential.setEchoMode(QLineEdit.EchoMode.Password)
        self.credential.setPlaceholderText(
            translate("McpServerDialog", "Authorization value, e.g. Bearer …: kept in the keyring")
        )
        self.error = QLabel()
        self.error.setObjectName("mcp_server.error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("QLabel { color: #c0392b; }")
        self.error.hide()

        form = self._form = QFormLayout()
        form.addRow(translate("McpServerDialog", "&Name"), self.name)
        form.addRow(translate("McpServerDialog", "&Runs as"), self.transport)
        form.addRow(translate("McpServerDialog", "&Command"), self.command)
        form.addRow(translate("McpServerDialog", "&Arguments"), self.args)
        form.addRow(translate("McpServerDialog", "&Environment"), self.env)
        form.addRow(translate("McpServerDialog", "&URL"), self.url)
        form.addRow(translate("McpServerDialog", "&Headers"), self.headers)
        form.addRow(translate("McpServerDialog", "Cre&dential"), self.credential)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setObjectName("mcp_server.ok")
        buttons.accepted.connect(self._on_buttons_accepted)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.transport.currentIndexChanged.connect(self._on_transport_current_index_changed)
        self._on_transport_current_index_changed()

    def config(self) -> McpServerConfig:
        """The settings as a design entry; ``ValueError`` (or pydantic's ``ValidationError``) says what is wrong."""
        stdio = self.transport.currentData() == "stdio"
        try:
            args = shlex.split(self.args.text()) if stdio else []
        except ValueError as error:
            raise ValueError(translate("McpServerDialog", "Arguments: {error}").format(error=error)) from None
        return McpServerConfig(
            name=self.name.text().strip(),
            transport="stdio" if stdio else "http",
            command=self.command.text().strip() if stdio else "",
            args=args,
            env=_pairs(self.env.toPlainText(), "=") if stdio else {},
            url="" if stdio else self.url.text().strip(),
            headers={} if stdio else _pairs(self.headers.toPlainText(), ":"),
            enabled_tools=self._enabled,
        )

    @Slot()
    def _on_transport_current_index_changed(self, *_args: Any) -> None:
        # Only the rows of the chosen transport show: a program asks for no URL or credential, a URL for no command.
        stdio = self.transport.currentData() == "stdio"
        for widget in (self.command, self.args, self.env):
            self._form.setRowVisible(widget, stdio)
        for widget in (self.url, self.headers, self.credential):
            self._form.setRowVisible(widget, not stdio)
        self.adjustSize()

    @Slot()
    def _on_buttons_accepted(self) -> None:
        try:
            config = self.config()
            if config.name in self._taken:
                raise ValueError(
                    translate("McpServerDialog", "Another server is already called '{name}'.").format(name=config.name)
                )
        except ValidationError as error:
            self._refuse(validation_text(error))
            return
        except ValueError as error:
            self._refuse(str(error))
            return
        self.server_accepted.emit(config, self.credential.text().strip() if config.transport == "http" else "")
        self.accept()

    def _refuse(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()


class McpServersView(QWidget):
    """The design's servers, each with its tools (checkable) under it; buttons to add, edit, remove and list."""

    def __init__(
        self,
        document: DesignDocument,
        *,
        approvals: CommandApprovals | None = None,
        secrets: SecretStore | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("settings.mcp_servers_view")
        self._document = document
        #: Where typed stdio launches are recorded as allowed; the window passes the workspace's.
        self.approvals = approvals if approvals is not None else CommandApprovals()
        #: Where HTTP servers' credentials go; the window passes the workspace's.
        self.secrets = secrets if secrets is not None else SecretStore()
        #: Starts a server for a moment to list its tools; the window passes the workspace's.
        self.launcher = McpLauncher(self.approvals)
        #: Tools each server listed: server launch → [(name, description, schema)].
        self._listed: dict[str, list[ListedTool]] = {}
        self._loading = False

        self.tree = QTreeWidget()
        self.tree.setObjectName("settings.mcp_servers")
        self.tree.setHeaderHidden(True)
        self.tree.setMaximumHeight(160)
        self.tree.setMinimumHeight(4 * self.tree.fontMetrics().lineSpacing() + 8)  # a server and its tools, not one row
        self.add = QPushButton(translate("McpServersView", "Add…"))
        self.add.setObjectName("settings.mcp_servers.add")
        self.edit = QPushButton(translate("McpServersView", "Edit…"))
        self.edit.setObjectName("settings.mcp_servers.edit")
        self.remove = QPushButton(translate("McpServersView", "Remove"))
        self.remove.setObjectName("settings.mcp_servers.remove")
        self.list_tools = QPushButton(translate("McpServersView", "List tools"))
        self.list_tools.setObjectName("settings.mcp_servers.list")
        self.list_tools.setToolTip(
            translate("McpServersView", "Start the selected server for a moment and show the tools it offers")
        )
        self.message = QLabel()
        self.message.setObjectName("settings.mcp_servers.message")
        self.message.setWordWrap(True)
        buttons = QGridLayout()  # two by two: four in a row would set the editor pane's minimum width at 1280x720
        buttons.addWidget(self.add, 0, 0)
        buttons.addWidget(self.edit, 0, 1)
        buttons.addWidget(self.remove, 1, 0)
        buttons.addWidget(self.list_tools, 1, 1)
        buttons.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        layout.addLayout(buttons)
        layout.addWidget(self.message)

        self.add.clicked.connect(self._on_add_clicked)
        self.edit.clicked.connect(self._on_edit_clicked)
        self.remove.clicked.connect(self._on_remove_clicked)
        self.list_tools.clicked.connect(self._on_list_tools_clicked)
        #: True while a tool's tick is being committed (see _on_document_settings_changed).
        self._ticking = False
        self.tree.itemChanged.connect(self._on_tree_item_changed)
        document.settings_changed.connect(self._on_document_settings_changed)
        document.design_replaced.connect(self._load)
        self._load()

    # ------------------------------------------------------------------------------------------- public
    def servers(self) -> list[McpServerConfig]:
        return [config.model_copy(deep=True) for config in self._document.setting("mcp_servers")]

    def selected_index(self) -> int | None:
        item = self.tree.currentItem()
        if item is None:
            return None
        parent = item.parent()
        while parent is not None:
            item, parent = parent, parent.parent()
        return int(item.data(0, _ROLE))

    async def wait_idle(self) -> None:
        """Wait for tool listings in flight (tests)."""
        await self.launcher.wait_listed()

    # ---------------------------------------------------------------------------------------- internals
    def _commit(self, servers: list[McpServerConfig], text: str) -> None:
        self._document.undo_stack().push(EditSetting(self._document, "mcp_servers", servers, merge=False))
        self.message.setText(text)

    @Slot()
    def _load(self) -> None:
        current = self.selected_index()
        self._loading = True
        try:
            self.tree.clear()
            for index, config in enumerate(self.servers()):
                where = config.command_line() if config.transport == "stdio" else config.url
                top = QTreeWidgetItem([f"{config.name} — {where}"])
                top.setData(0, _ROLE, index)
                top.setToolTip(0, where)
                listed = self._listed.get(launch_key(config))
                names = [name for name, _d, _s in listed] if listed is not None else []
                shown = names + [name for name in config.enabled_tools if name not in names]
                for name in shown:
                    found = next((entry for entry in listed or [] if entry[0] == name), None)
                    label = (
                        name
                        if found is not None or listed is None
                        else translate("McpServersView", "{name} (not offered)").format(name=name)
                    )
                    child = QTreeWidgetItem([label])
                    child.setData(0, _ROLE, name)
                    child.setFlags(child.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    child.setCheckState(
                        0, Qt.CheckState.Checked if name in config.enabled_tools else Qt.CheckState.Unchecked
                    )
                    if found is not None:
                        child.setToolTip(0, f"{found[1]}\n\n{json.dumps(found[2], indent=2)}")
                    top.addChild(child)
                self.tree.addTopLevelItem(top)
                top.setExpanded(True)
                if index == current:
                    self.tree.setCurrentItem(top)
        finally:
            self._loading = False

    @Slot(str)
    def _on_document_settings_changed(self, name: str) -> None:
        if name != "mcp_servers":
            return
        if self._ticking:
            # A tick is committed from inside the item's own setData (itemChanged): rebuilding the tree now would
            # delete that item under Qt's feet (a crash). Rebuild once the event loop is back.
            QTimer.singleShot(0, self, self._load)
        else:
            self._load()

    @Slot(QTreeWidgetItem, int)
    def _on_tree_item_changed(self, item: QTreeWidgetItem, _column: int) -> None:
        top = item.parent()
        if self._loading or top is None:
            return
        servers = self.servers()
        config = servers[int(top.data(0, _ROLE))]
        children = [child for row in range(top.childCount()) if (child := top.child(row)) is not None]
        config.enabled_tools = [
            str(child.data(0, _ROLE)) for child in children if child.checkState(0) == Qt.CheckState.Checked
        ]
        self._ticking = True
        try:
            self._commit(servers, "")
        finally:
            self._ticking = False

    @Slot()
    def _on_add_clicked(self) -> None:
        self._open_dialog(None)

    @Slot()
    def _on_edit_clicked(self) -> None:
        index = self.selected_index()
        if index is not None:
            self._open_dialog(index)

    def _open_dialog(self, index: int | None) -> None:
        servers = self.servers()
        taken = {config.name for position, config in enumerate(servers) if position != index}
        dialog = McpServerDialog(servers[index] if index is not None else None, taken, self)
        dialog.server_accepted.connect(lambda config, credential: self._on_server_accepted(index, config, credential))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _on_server_accepted(self, index: int | None, config: McpServerConfig, credential: str) -> None:
        servers = self.servers()
        if index is None:
            servers.append(config)
        else:
            servers[index] = config
        self.approvals.approve(config)  # typed here: the user's own command
        note = ""
        if credential:
            where = self.secrets.set_mcp_credential(config.url, credential)
            note = (
                translate("McpServersView", " Its credential is in the keyring.")
                if where == "keyring"
                else translate("McpServersView", " No keyring here: its credential is kept for this session only.")
            )
        self._commit(servers, translate("McpServersView", "MCP server '{name}' saved.").format(name=config.name) + note)

    @Slot()
    def _on_remove_clicked(self) -> None:
        index = self.selected_index()
        if index is None:
            return
        servers = self.servers()
        removed = servers.pop(index)
        self._commit(servers, translate("McpServersView", "MCP server '{name}' removed.").format(name=removed.name))

    @Slot()
    def _on_list_tools_clicked(self) -> None:
        index = self.selected_index()
        if index is None:
            self.message.setText(translate("McpServersView", "Select a server first."))
            return
        config = self.servers()[index]
        if not self.approvals.is_approved(config):
            self.message.setText(
                translate(
                    "McpServersView",
                    "The program of '{name}' came with the design and has not been allowed to run: send a message "
                    "to be asked, or edit the server.",
                ).format(name=config.name)
            )
            return
        self.message.setText(
            translate("McpServersView", "Starting '{name}' to list its tools…").format(name=config.name)
        )
        self.launcher.list_tools(config, self.secrets).add_done_callback(partial(self._show_listed, config))

    def _show_listed(self, config: McpServerConfig, task: asyncio.Task[list[ListedTool]]) -> None:
        if task.cancelled() or not shiboken6.isValid(self):
            return
        error = task.exception()
        if isinstance(error, McpServerError):
            self.message.setText(error_text(error))
            return
        if error is not None:
            raise error
        listed = task.result()
        self._listed[launch_key(config)] = listed
        self._load()
        tools = len(listed)  # a plain name: lupdate finds a plural text only so
        self.message.setText(
            translate(
                "McpServersView", "'{name}' offers %n tool(s); tick those the agent may use.", None, tools
            ).format(name=config.name)
        )


def _pairs(text: str, separator: str) -> dict[str, str]:
    """``NAME=value`` (or ``Name: value``) lines as a dict; a line without the separator is refused."""
    pairs: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, found, value = line.partition(separator)
        if not found or not name.strip():
            raise ValueError(f"'{line.strip()}': expected name{separator}value")
        pairs[name.strip()] = value.strip()
    return pairs
