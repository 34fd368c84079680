"""API keys are bound to the endpoint they were saved for: a design naming another server gets no key until the
user approves that server, in a dialog that shows its host."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
import qasync
from pytestqt.qtbot import QtBot

from studio.controllers.workspace import Workspace
from studio.design.agent_design import AgentDesign, ModelConfig
from studio.keys.endpoints import (
    EndpointError,
    endpoint_host,
    is_default_endpoint,
    mixed_script_labels,
    normalise_endpoint,
    same_endpoint,
)
from studio.keys.secrets import SERVICE, KeyGrant, SecretStore
from studio.models.chat_items import AssistantItem, ErrorItem
from studio.views.endpoint_approval import EndpointApproval
from tests.studio.conftest import open_studio, run
from tests.studio.keys.test_secrets import MemoryKeyring
from tests.support.openai_server import OpenAIServer

KEY = "sk-user-secret-0123456789"


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    for variable in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(variable, raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


# --------------------------------------------------------------------------------------------- endpoints


@pytest.mark.parametrize(
    ("written", "normalised"),
    [
        (" HTTPS://API.OpenAI.com:443/v1/ ", "https://api.openai.com/v1"),
        ("http://127.0.0.1:80/", "http://127.0.0.1"),
        ("localhost:11434", "http://localhost:11434"),
        ("http://[::1]:8080/v1", "http://[::1]:8080/v1"),
        ("https://host.example/openai/v1?api-version=2", "https://host.example/openai/v1?api-version=2"),
    ],
)
def test_endpoints_are_normalised(written: str, normalised: str) -> None:
    assert normalise_endpoint(written) == normalised


@pytest.mark.parametrize("bad", ["ftp://host/v1", "http://", "file:///etc/passwd", "http://host:99999"])
def test_what_is_not_an_http_endpoint_is_refused(bad: str) -> None:
    with pytest.raises(EndpointError):
        normalise_endpoint(bad)


def test_the_host_shown_is_the_real_one() -> None:
    assert endpoint_host("https://api.openai.com@evil.example:8443/v1") == "evil.example:8443"
    assert endpoint_host("http://127.0.0.1:5000/v1") == "127.0.0.1:5000"


def test_what_counts_as_the_same_endpoint() -> None:
    assert same_endpoint("openai", None, None)
    assert same_endpoint("openai", None, "https://api.openai.com")  # the provider's own service
    assert not same_endpoint("openai", None, "http://api.openai.com/v1")  # not over plain http
    assert not same_endpoint("openai", None, "https://api.openai.com.evil.example/v1")
    assert same_endpoint("openai", "http://localhost:8000/v1", "http://localhost:8000/v1")
    assert not same_endpoint("openai", "http://localhost:8000/v1", "http://localhost:8001/v1")
    assert not same_endpoint("openai", "http://localhost:8000/v1", None)  # nor to the default, unasked


#: OpenAI's host with a Greek omicron for its first "o": it reads as OpenAI's in most fonts.
LOOK_ALIKE = "https://api.\u03bfpenai.com/v1"


def test_a_host_with_non_ascii_letters_is_shown_with_its_ascii_name_and_is_never_the_providers_own() -> None:
    assert endpoint_host(LOOK_ALIKE) == "api.\u03bfpenai.com (api.xn--penai-qce.com)"
    assert endpoint_host("https://b\u00fccher.de:8443") == "b\u00fccher.de (xn--bcher-kva.de):8443"
    assert endpoint_host("https://api.openai.com/v1") == "api.openai.com"  # ASCII: as it was
    assert endpoint_host("https://a\u200bb.example") == "a\u200bb.example (ab.example)"  # the invisible space goes
    assert endpoint_host("https://a\u00a0b.example") == "a\u00a0b.example (not a valid domain name)"
    assert not is_default_endpoint("openai", normalise_endpoint(LOOK_ALIKE))
    assert not same_endpoint("openai", None, normalise_endpoint(LOOK_ALIKE))
    # full-width letters map onto OpenAI's very name (UTS #46); still not taken as the provider's own unasked
    fullwidth = normalise_endpoint("https://\uff41\uff50\uff49.openai.com/v1")
    assert endpoint_host(fullwidth) == "\uff41\uff50\uff49.openai.com (api.openai.com)"
    assert not is_default_endpoint("openai", fullwidth)


def test_names_mixing_alphabets_are_told_from_names_in_one() -> None:
    assert mixed_script_labels(LOOK_ALIKE) == ["\u03bfpenai"]
    assert mixed_script_labels("https://\u0430\u0440\u0440\u04cf\u0435.com") == []  # all Cyrillic: punycode shows it
    assert mixed_script_labels("https://b\u00fccher.de") == []  # Latin with an umlaut
    assert mixed_script_labels("https://\u4f8b\u3048.\u30c6\u30b9\u30c8") == []  # Han with Hiragana, Katakana
    assert mixed_script_labels("https://\u4e2d\u6587api.cn") == []  # Han with Latin
    assert mixed_script_labels("https://p\u0430ypal.com") == ["p\u0430ypal"]  # Cyrillic a among Latin


def test_the_key_dialog_shows_the_ascii_name_and_warns_of_a_look_alike(qtbot: QtBot) -> None:
    grant = KeyGrant("openai", normalise_endpoint(LOOK_ALIKE), None, None, withheld=True)
    asking = EndpointApproval(grant)
    qtbot.addWidget(asking)
    assert "<b>api.\u03bfpenai.com (api.xn--penai-qce.com)</b>" in asking.text()
    informative = asking.informativeText()
    assert informative.startswith(
        "<b>Warning:</b> \u03bfpenai mixes letters of different alphabets, as names that imitate another server's "
        "do. Its real name is api.xn--penai-qce.com."
    )
    assert asking.defaultButton() is asking.refuse

    plain = EndpointApproval(KeyGrant("openai", normalise_endpoint("https://b\u00fccher.de/v1"), None, None))
    qtbot.addWidget(plain)
    assert "(xn--bcher-kva.de)" in plain.text() and "Warning" not in plain.informativeText()


# ------------------------------------------------------------------------------------------ the key store


def test_a_key_goes_only_where_it_was_saved_for_or_approved(memory_keyring: MemoryKeyring, tmp_path: Path) -> None:
    book = tmp_path / "endpoints.json"
    secrets = SecretStore(endpoints_file=book)
    secrets.set_key("openai", KEY)
    assert secrets.key_for("openai", None).key == KEY
    assert secrets.key_for("openai", "https://api.openai.com/v1/").key == KEY
    foreign = secrets.key_for("openai", "http://127.0.0.1:9/v1")
    assert (foreign.key, foreign.withheld, foreign.host) == (None, True, "127.0.0.1:9")

    secrets.approve("openai", "HTTP://127.0.0.1:9/v1/")
    assert SecretStore(endpoints_file=book).key_for("openai", "http://127.0.0.1:9/v1").key == KEY  # remembered
    assert KEY not in book.read_text()  # approvals are kept apart from the key
    secrets.set_key("openai", "sk-another-key-987654")  # a new key: approvals were given for the old one
    assert secrets.key_for("openai", "http://127.0.0.1:9/v1").key is None


def test_a_key_saved_for_a_base_url_goes_there_only(memory_keyring: MemoryKeyring, tmp_path: Path) -> None:
    secrets = SecretStore(endpoints_file=tmp_path / "endpoints.json")
    secrets.set_key("openai", KEY, endpoint="http://localhost:8000/v1/")
    assert secrets.saved_for("openai") == "http://localhost:8000/v1"
    assert secrets.key_for("openai", "http://LOCALHOST:8000/v1").key == KEY
    assert secrets.key_for("openai", None).withheld  # not even to OpenAI itself
    secrets.delete_key("openai")
    assert secrets.saved_for("openai") is None
    assert json.loads((tmp_path / "endpoints.json").read_text())["providers"] == {}


def test_keys_stored_by_provider_before_count_as_the_defaults(memory_keyring: MemoryKeyring, tmp_path: Path) -> None:
    memory_keyring.values[(SERVICE, "openai")] = KEY  # as an earlier version stored it: no endpoint recorded
    secrets = SecretStore(endpoints_file=tmp_path / "none-yet.json")
    assert secrets.key_for("openai", None).key == KEY
    assert secrets.key_for("openai", "http://127.0.0.1:9/v1").withheld


def test_the_environments_key_is_the_defaults(
    monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    secrets = SecretStore(endpoints_file=tmp_path / "endpoints.json")
    assert secrets.key_for("openai", None).key == KEY
    assert secrets.key_for("openai", "http://127.0.0.1:9/v1").withheld


# ---------------------------------------------------------------------------------- through a real run


def send_and_wait(qloop: qasync.QEventLoop, workspace: Workspace, text: str) -> None:
    async def go() -> None:
        assert workspace.send(text) is not None
        await workspace.runs.wait_finished()

    run(qloop, go())


def foreign_design(path: Path, api_base: str) -> Path:
    design = AgentDesign(name="Shared with me", model=ModelConfig(model="openai/gpt-4o-mini", api_base=api_base))
    path.write_text(design.to_json(), encoding="utf-8")
    return path


def test_a_design_naming_another_server_gets_the_key_only_once_the_user_approves_it(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    tmp_path: Path,
    openai_server: OpenAIServer,
    memory_keyring: MemoryKeyring,
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    workspace.secrets.set_key("openai", KEY)  # saved for OpenAI, as in Settings
    assert workspace.open_design_file(foreign_design(tmp_path / "shared.json", openai_server.base_url))
    openai_server.reply_text("first")
    openai_server.reply_text("second")

    send_and_wait(qloop, workspace, "hello")
    assert len(openai_server.requests) == 1  # a local server that needs no key still answers
    assert KEY not in json.dumps(openai_server.request_headers)
    notice = [item for item in workspace.chat.items if isinstance(item, ErrorItem)]
    host = endpoint_host(openai_server.base_url)
    assert len(notice) == 1
    assert f"Your openai API key was not sent to {host}" in notice[0].plain_text
    assert "api.openai.com" in notice[0].plain_text

    asking = window.findChild(EndpointApproval, "endpoint_approval")
    assert asking is not None
    qtbot.waitUntil(asking.isVisible)
    assert host in asking.text()
    assert openai_server.base_url.rstrip("/") in asking.informativeText()
    asking.allow.click()

    send_and_wait(qloop, workspace, "again")
    assert openai_server.request_headers[1]["authorization"] == f"Bearer {KEY}"
    assert SecretStore().key_for("openai", openai_server.base_url).key == KEY  # the approval is remembered
    run(qloop, workspace.shutdown())


def test_a_refused_endpoint_is_not_asked_about_again_and_gets_no_key(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    tmp_path: Path,
    openai_server: OpenAIServer,
    memory_keyring: MemoryKeyring,
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    workspace.secrets.set_key("openai", KEY)
    assert workspace.open_design_file(foreign_design(tmp_path / "shared.json", openai_server.base_url))
    asked: list[object] = []
    workspace.endpoint_approval_requested.connect(asked.append)
    openai_server.reply_text("one")
    openai_server.reply_text("two")
    send_and_wait(qloop, workspace, "hello")
    asking = window.findChild(EndpointApproval, "endpoint_approval")
    assert asking is not None
    asking.refuse.click()
    run(qloop, asyncio.sleep(0))
    send_and_wait(qloop, workspace, "again")
    assert len(asked) == 1
    assert KEY not in json.dumps(openai_server.request_headers)
    # The user chose: a local server that needs no key is not followed by the same notice at every message.
    notices = [item for item in workspace.chat.items if isinstance(item, ErrorItem)]
    assert len(notices) == 1 and "was not sent to" in notices[0].plain_text
    assert [item.text for item in workspace.chat.items if isinstance(item, AssistantItem)] == ["one", "two"]
    run(qloop, workspace.shutdown())


def test_a_key_saved_for_a_base_url_is_not_sent_to_the_provider_unasked(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    from studio.models.editor_commands import EditSetting

    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    workspace.secrets.set_key("openai", KEY, endpoint="http://localhost:8000/v1")
    document = workspace.document
    document.undo_stack().push(EditSetting(document, "model.model", "openai/gpt-4o-mini"))

    async def send() -> str | None:
        return workspace.send("hello")

    assert run(qloop, send()) is None  # nothing is sent at all: the default endpoint needs the key
    last = workspace.chat.items[-1]
    assert isinstance(last, ErrorItem)
    assert "was saved for localhost:8000" in last.plain_text
    run(qloop, workspace.shutdown())


def test_the_environments_key_is_not_sent_to_a_design_s_server_either(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    tmp_path: Path,
    openai_server: OpenAIServer,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no key given, litellm would read OPENAI_API_KEY itself and send it wherever the design points."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    assert workspace.open_design_file(foreign_design(tmp_path / "shared.json", openai_server.base_url))
    openai_server.reply_text("hi")
    send_and_wait(qloop, workspace, "hello")
    assert len(openai_server.requests) == 1
    assert KEY not in json.dumps(openai_server.request_headers)
    run(qloop, workspace.shutdown())
