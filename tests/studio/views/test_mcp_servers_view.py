"""The agent settings' MCP servers: add, edit, remove (each an undo step), list a real server's tools with their
schemas off the UI's way, enable tools one by one; credentials refused in the design and kept in the keyring."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
import qasync
import shiboken6
from PySide6.QtCore import Qt

from studio.design.agent_design import AgentDesign, McpServerConfig
from studio.keys.secrets import SecretStore
from studio.mcp.approvals import CommandApprovals
from studio.models.design_document import DesignDocument
from studio.views.agent_settings import AgentSettingsView
from studio.views.mcp_servers_view import McpServerDialog, McpServersView
from tests.studio.conftest import run
from tests.studio.editor_catalogue import make_catalogue
from tests.studio.keys.test_secrets import MemoryKeyring

SERVER = str(Path(__file__).parents[2] / "support" / "mcp_server.py")


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def document(qapp: Any) -> DesignDocument:
    return DesignDocument(make_catalogue(), AgentDesign(name="Support"))


@pytest.fixture
def view(document: DesignDocument, qtbot: Any, tmp_path: Path) -> Iterator[McpServersView]:
    """The servers' part of the real agent settings (kept alive by the settings view it belongs to)."""
    settings = AgentSettingsView(document, [])
    qtbot.addWidget(settings)
    settings.show()
    widget = settings.mcp_servers
    widget.approvals = CommandApprovals(tmp_path / "approvals.json")
    yield widget
    settings.close()


def open_dialog(view: McpServersView, qtbot: Any, button: Any) -> McpServerDialog:
    button.click()
    [dialog] = [found for found in view.findChildren(McpServerDialog) if found.isVisible()]  # not the closed ones
    return dialog


def add_stdio(view: McpServersView, qtbot: Any, name: str = "test-tools") -> None:
    dialog = open_dialog(view, qtbot, view.add)
    dialog.name.setText(name)
    dialog.command.setText(sys.executable)
    dialog.args.setText(f"{SERVER} stdio")
    dialog.env.setPlainText("LOG_LEVEL=debug")
    dialog.ok.click()
    assert not dialog.isVisible()


def test_a_server_typed_here_is_added_allowed_to_run_and_undoable(
    view: McpServersView, document: DesignDocument, qtbot: Any
) -> None:
    add_stdio(view, qtbot)
    [config] = document.design().mcp_servers
    assert config == McpServerConfig(
        name="test-tools", command=sys.executable, args=[SERVER, "stdio"], env={"LOG_LEVEL": "debug"}
    )
    assert view.approvals.is_approved(config)  # the user typed it: runs without asking
    assert view.tree.topLevelItemCount() == 1
    assert view.tree.topLevelItem(0).text(0).startswith("test-tools — ")
    document.undo_stack().undo()
    assert document.design().mcp_servers == []
    assert view.tree.topLevelItemCount() == 0


def test_the_dialog_refuses_credentials_and_duplicates_and_stays_open(
    view: McpServersView, document: DesignDocument, qtbot: Any
) -> None:
    add_stdio(view, qtbot)
    dialog = open_dialog(view, qtbot, view.add)
    dialog.name.setText("test-tools")
    dialog.command.setText("x")
    dialog.ok.click()
    assert dialog.isVisible()
    assert dialog.error.text() == "Another server is already called 'test-tools'."
    dialog.name.setText("gh")
    dialog.env.setPlainText("GITHUB_TOKEN=ghp_123")
    dialog.ok.click()
    assert dialog.isVisible()
    assert "env.GITHUB_TOKEN: credentials must not be saved in a design" in dialog.error.text()
    assert [config.name for config in document.design().mcp_servers] == ["test-tools"]
    dialog.reject()


def test_an_http_server_s_credential_goes_to_the_keyring_not_the_design(
    view: McpServersView, document: DesignDocument, qtbot: Any, memory_keyring: MemoryKeyring
) -> None:
    view.secrets = SecretStore(endpoints_file=Path(view.approvals._file()).with_name("endpoints.json"))
    dialog = open_dialog(view, qtbot, view.add)
    dialog.name.setText("search")
    dialog.transport.setCurrentIndex(1)
    assert not dialog.command.isVisible() and dialog.url.isVisible() and dialog.credential.isVisible()
    dialog.url.setText("http://127.0.0.1:8000/mcp")
    dialog.headers.setPlainText("X-Team: lab")
    dialog.credential.setText("Bearer team-token")
    dialog.ok.click()
    [config] = document.design().mcp_servers
    assert config.headers == {"X-Team": "lab"}
    assert "team-token" not in document.design().to_json()
    assert view.secrets.mcp_credential("http://127.0.0.1:8000/mcp") == "Bearer team-token"
    assert "keyring" in view.message.text()


def test_listing_tools_shows_their_schemas_and_ticking_one_enables_it(
    view: McpServersView, document: DesignDocument, qtbot: Any, qloop: qasync.QEventLoop
) -> None:
    add_stdio(view, qtbot)
    view.tree.setCurrentItem(view.tree.topLevelItem(0))
    view.list_tools.click()
    run(qloop, view.wait_idle())
    top = view.tree.topLevelItem(0)
    tools = {top.child(row).text(0): top.child(row) for row in range(top.childCount())}
    assert {"add", "fetch_page", "show_env"} <= set(tools)
    assert "Add two integers." in tools["add"].toolTip(0)
    assert '"a"' in tools["add"].toolTip(0)  # its JSON schema
    assert all(item.checkState(0) == Qt.CheckState.Unchecked for item in tools.values())
    assert "offers" in view.message.text()

    tools["add"].setCheckState(0, Qt.CheckState.Checked)
    assert document.design().mcp_servers[0].enabled_tools == ["add"]
    # the tick was committed from inside the item's own setData: the item must outlive it (deleting it there
    # crashed the studio now and then); the tree is rebuilt once the event loop is back
    assert shiboken6.isValid(tools["add"])
    qtbot.waitUntil(lambda: not shiboken6.isValid(tools["add"]))
    top = view.tree.topLevelItem(0)
    assert (
        next(top.child(row) for row in range(top.childCount()) if top.child(row).text(0) == "add").checkState(0)
        == Qt.CheckState.Checked
    )
    fetch = next(top.child(row) for row in range(top.childCount()) if top.child(row).text(0) == "fetch_page")
    fetch.setCheckState(0, Qt.CheckState.Checked)
    assert set(document.design().mcp_servers[0].enabled_tools) == {"add", "fetch_page"}
    document.undo_stack().undo()
    assert document.design().mcp_servers[0].enabled_tools == ["add"]


def test_a_server_from_a_file_is_not_started_to_list_its_tools_until_allowed(
    view: McpServersView, document: DesignDocument, qloop: qasync.QEventLoop
) -> None:
    foreign = McpServerConfig(name="shared", command=sys.executable, args=[SERVER, "stdio"], enabled_tools=["add"])
    document.open_design(AgentDesign(mcp_servers=[foreign]))
    top = view.tree.topLevelItem(0)
    assert top.child(0).text(0) == "add"  # enabled in the design, shown before any listing
    view.tree.setCurrentItem(top)
    view.list_tools.click()
    run(qloop, view.wait_idle())
    assert "has not been allowed to run" in view.message.text()
    assert top.childCount() == 1


def test_remove_takes_the_selected_server_out(view: McpServersView, document: DesignDocument, qtbot: Any) -> None:
    add_stdio(view, qtbot, "one")
    add_stdio(view, qtbot, "two")
    view.tree.setCurrentItem(view.tree.topLevelItem(0))
    view.remove.click()
    assert [config.name for config in document.design().mcp_servers] == ["two"]


def test_the_dialog_refuses_in_the_readers_language(
    view: McpServersView, document: DesignDocument, qtbot: Any, in_language: Any
) -> None:
    in_language("zh_CN")
    dialog = open_dialog(view, qtbot, view.add)
    dialog.name.setText("gh")
    dialog.command.setText("x")
    dialog.env.setPlainText("GITHUB_TOKEN=ghp_123")
    dialog.ok.click()
    assert dialog.isVisible()
    assert dialog.error.text() == (
        "env.GITHUB_TOKEN：凭据不得保存在设计中，否则任何拿到该设计的人都能读到；工作室会从系统密钥环读取"
    )
    dialog.reject()


def test_the_dialog_shows_only_the_fields_of_the_chosen_transport(view: McpServersView, qtbot: Any) -> None:
    """A program (stdio) asks for no URL, headers or credential; a URL asks for no command, arguments or
    environment; their labels go with them."""
    from PySide6.QtWidgets import QLabel

    dialog = open_dialog(view, qtbot, view.add)

    def shown() -> set[str]:
        fields = (dialog.command, dialog.args, dialog.env, dialog.url, dialog.headers, dialog.credential)
        return {field.objectName().split(".")[1] for field in fields if field.isVisible()}

    def labels() -> set[str]:
        return {label.text() for label in dialog.findChildren(QLabel) if label.isVisible() and label.buddy()}

    assert shown() == {"command", "args", "env"}
    assert "&URL" not in labels() and "Cre&dential" not in labels() and "&Command" in labels()
    dialog.transport.setCurrentIndex(1)
    assert shown() == {"url", "headers", "credential"}
    assert "&URL" in labels() and "&Command" not in labels()
    dialog.transport.setCurrentIndex(0)
    assert shown() == {"command", "args", "env"}
    dialog.reject()
