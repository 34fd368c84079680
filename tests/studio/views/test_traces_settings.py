"""Settings' traces row (issue 15 §2): the switch is kept at once and applies from the next run; the OTEL_*
variables, when they decide, lock it and say why."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from processors.tracing.otel import CAPTURE_VARIABLE
from studio.controllers.connection import check_connection
from studio.keys.secrets import SecretStore
from studio.telemetry import DEFAULT_ENDPOINT, Telemetry, TelemetrySettings, load_settings
from studio.views.settings_dialog import SettingsDialog
from studio.views.traces_settings import TracesSettings


@pytest.fixture(autouse=True)
def _no_otel_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED"):
        monkeypatch.delenv(name, raising=False)


def row(qtbot: QtBot, environ: dict[str, str] | None = None) -> TracesSettings:
    widget = TracesSettings(environ)
    qtbot.addWidget(widget)
    return widget


def test_the_switch_is_off_by_default_and_kept_at_once_for_the_next_run(qtbot: QtBot) -> None:
    widget = row(qtbot)
    assert not widget.enabled.isChecked() and widget.enabled.isEnabled()
    assert widget.endpoint.text() == DEFAULT_ENDPOINT
    assert Telemetry().wanted() == ()

    widget.endpoint.setText("http://127.0.0.1:4318/v1/traces")
    with qtbot.waitSignal(widget.changed) as kept:
        widget.enabled.click()
    assert kept.args == [TelemetrySettings(True, "http://127.0.0.1:4318/v1/traces")]
    assert load_settings() == TelemetrySettings(True, "http://127.0.0.1:4318/v1/traces")
    assert Telemetry().wanted() == ("settings", "http://127.0.0.1:4318/v1/traces")
    assert "OTLP/HTTP" in widget.note.text()
    assert row(qtbot).enabled.isChecked()  # the dialog opened again shows it


def test_an_endpoint_that_is_not_a_url_is_not_kept(qtbot: QtBot) -> None:
    widget = row(qtbot)
    widget.enabled.click()
    widget.endpoint.setText("localhost:4318")
    qtbot.keyClick(widget.endpoint, Qt.Key.Key_Return)
    assert widget.note.text() == "Not saved: the endpoint must be an http:// or https:// URL."
    assert load_settings() == TelemetrySettings(True, DEFAULT_ENDPOINT)


@pytest.mark.parametrize(
    ("environ", "note"),
    [
        ({"OTEL_SDK_DISABLED": "true"}, "OTEL_SDK_DISABLED is set: no traces are sent."),
        (
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"},
            "The OTEL_* environment variables send the traces; they take precedence over this setting.",
        ),
    ],
)
def test_the_environment_when_it_decides_locks_the_row_and_says_why(
    qtbot: QtBot, environ: dict[str, str], note: str
) -> None:
    widget = row(qtbot, environ)
    assert not widget.enabled.isEnabled() and not widget.endpoint.isEnabled()
    assert widget.note.text() == note


def test_the_settings_dialog_has_the_traces_row(qtbot: QtBot) -> None:
    dialog = SettingsDialog(SecretStore(), check_connection)
    qtbot.addWidget(dialog)
    assert dialog.findChild(TracesSettings, "settings.traces_row") is dialog.traces
    assert dialog.traces.enabled.text() == "Send traces to an &OpenTelemetry backend"


def test_message_text_is_off_by_default_says_what_it_would_send_and_is_kept(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CAPTURE_VARIABLE, raising=False)
    widget = row(qtbot)
    assert not widget.capture.isChecked() and widget.capture.isEnabled()
    assert "no message text" in widget.capture_note.text()
    widget.enabled.click()
    assert Telemetry().wanted() == ("settings", DEFAULT_ENDPOINT)

    with qtbot.waitSignal(widget.changed) as kept:
        widget.capture.click()
    assert kept.args == [TelemetrySettings(True, DEFAULT_ENDPOINT, capture_content=True)]
    assert Telemetry().wanted() == ("settings", DEFAULT_ENDPOINT, "content")
    assert "[REDACTED]" in widget.capture_note.text() and "80 characters" in widget.capture_note.text()
    assert row(qtbot).capture.isChecked()  # the dialog opened again shows it


def test_the_genai_variable_decides_message_text_and_locks_the_switch(qtbot: QtBot) -> None:
    widget = row(qtbot, {CAPTURE_VARIABLE: "true"})
    assert widget.capture.isChecked() and not widget.capture.isEnabled()
    assert widget.capture_note.text() == f"{CAPTURE_VARIABLE} is set: it decides whether message text is sent."
