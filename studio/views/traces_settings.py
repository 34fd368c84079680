"""The Settings dialog's traces row: send each run to an OpenTelemetry backend (OTLP over HTTP), off by default.

The switch and endpoint are kept at once (``studio.telemetry.save_settings``) and apply from the next run. When the
standard ``OTEL_*`` variables decide (an endpoint set, or ``OTEL_SDK_DISABLED=true``) the row says so and is
disabled: the environment wins, as in every OpenTelemetry SDK. Without the ``otel`` extra it says what to install.

Below it, the message-text switch (off by default, the GenAI conventions' rule) says what it sends; the
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` variable, when set, decides instead and locks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from processors.tracing.otel import CAPTURE_VARIABLE, capture_from_env, env_enabled, otel_available
from studio import i18n
from studio.telemetry import (
    DEFAULT_ENDPOINT,
    TelemetrySettings,
    env_disabled,
    load_settings,
    save_settings,
    shared,
)

translate = i18n.translate


def valid_endpoint(url: str) -> bool:
    parts = urlsplit(url.strip())
    return parts.scheme in ("http", "https") and bool(parts.netloc)


class TracesSettings(QWidget):
    #: The switch or the endpoint was changed and kept: the new settings.
    changed = Signal(object)

    def __init__(self, environ: Mapping[str, str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settings.traces_row")
        kept = load_settings()
        self.enabled = QCheckBox(translate("TracesSettings", "Send traces to an &OpenTelemetry backend"))
        self.enabled.setObjectName("settings.traces")
        self.enabled.setChecked(kept.enabled)
        self.endpoint = QLineEdit(kept.endpoint)
        self.endpoint.setObjectName("settings.traces_endpoint")
        self.endpoint.setPlaceholderText(DEFAULT_ENDPOINT)
        self.endpoint.setToolTip(translate("TracesSettings", "The OTLP/HTTP traces URL of a collector or backend"))
        self.note = QLabel()
        self.note.setObjectName("settings.traces_note")
        self.note.setWordWrap(True)
        self.capture = QCheckBox(translate("TracesSettings", "Include message &text in traces (redacted)"))
        self.capture.setObjectName("settings.traces_content")
        self.capture.setChecked(kept.capture_content)
        self.capture_note = QLabel()
        self.capture_note.setObjectName("settings.traces_content_note")
        self.capture_note.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.enabled)
        row.addWidget(self.endpoint, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.note)
        layout.addWidget(self.capture)
        layout.addWidget(self.capture_note)
        self._set_up_capture(environ)

        if env_disabled(environ):
            self._lock(translate("TracesSettings", "OTEL_SDK_DISABLED is set: no traces are sent."))
        elif env_enabled(environ):
            self._lock(
                translate(
                    "TracesSettings",
                    "The OTEL_* environment variables send the traces; they take precedence over this setting.",
                )
            )
        elif not otel_available():
            self._lock(
                translate(
                    "TracesSettings", "Traces need the OpenTelemetry packages: pip install 'processor-studio[otel]'."
                )
            )
        else:
            self._show_note()
            self.enabled.toggled.connect(self._on_changed)
            self.endpoint.editingFinished.connect(self._on_changed)

    def _set_up_capture(self, environ: Mapping[str, str] | None) -> None:
        decided = capture_from_env(environ)
        if decided is not None:
            self.capture.setChecked(decided)
            self.capture.setEnabled(False)
            self.capture_note.setText(
                translate("TracesSettings", "{variable} is set: it decides whether message text is sent.").format(
                    variable=CAPTURE_VARIABLE
                )
            )
            return
        self._show_capture_note()
        self.capture.toggled.connect(self._on_changed)

    def _show_capture_note(self) -> None:
        self.capture_note.setText(
            translate(
                "TracesSettings",
                "On: each processor's before/after summary (it quotes the latest message, up to 80 characters), "
                "guardrail reasons and error messages are sent too, with what a guardrail masked, dropped or "
                "blocked sent as [REDACTED].",
            )
            if self.capture.isChecked()
            else translate(
                "TracesSettings",
                "Off: traces carry names, outcomes, times and token counts — no message text, no guardrail "
                "reason, no error message.",
            )
        )

    def _lock(self, why: str) -> None:
        self.enabled.setEnabled(False)
        self.endpoint.setEnabled(False)
        self.note.setText(why)

    def _show_note(self) -> None:
        self.note.setText(
            translate(
                "TracesSettings",
                "Each run is sent as spans over OTLP/HTTP from the next run on "
                "(Jaeger, Grafana Tempo, Langfuse, Arize Phoenix).",
            )
            if self.enabled.isChecked()
            else ""
        )

    @Slot()
    def _on_changed(self) -> None:
        url = self.endpoint.text().strip() or DEFAULT_ENDPOINT
        if not valid_endpoint(url):
            self.note.setText(
                translate("TracesSettings", "Not saved: the endpoint must be an http:// or https:// URL.")
            )
            return
        chosen = TelemetrySettings(self.enabled.isChecked(), url, self.capture.isChecked())
        save_settings(chosen)
        shared().prepare()  # the exporter for the next run is set up now, on a thread
        self._show_note()
        if self.capture.isEnabled():
            self._show_capture_note()
        self.changed.emit(chosen)
