"""Sending the studio's runs to an OpenTelemetry backend: off unless the ``OTEL_*`` variables or Settings ask.

Where traces go is decided at each run's start, so a change in Settings applies to the next run:

- ``OTEL_SDK_DISABLED=true`` turns export off, whatever else is set;
- ``OTEL_EXPORTER_OTLP_ENDPOINT`` / ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` turn it on (the standard variables win
  over Settings, as every OpenTelemetry SDK does; ``OTEL_SERVICE_NAME`` names the service);
- otherwise the Settings switch and its OTLP/HTTP endpoint (kept in ``settings.ini``; an endpoint is not a secret).

Message and processor text goes with the spans only when the user asked (the GenAI conventions' rule): the
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` variable when it is set, else the Settings switch, off by
default; with it on, what the guardrails hid is sent as ``[REDACTED]`` (:class:`processors.tracing.otel.OtelTracer`).

The process keeps one exporter (:func:`shared`): its batching thread and connection outlive runs, and the SDK
flushes it when the program exits. Nothing here imports opentelemetry until export is on.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings

from processors.tracing.otel import capture_from_env, env_enabled, otel_available
from studio.system.paths import data_dir

if TYPE_CHECKING:
    from processors.tracing.otel import OtelTracer

logger = logging.getLogger(__name__)

__all__ = ["CONTENT", "DEFAULT_ENDPOINT", "Telemetry", "TelemetrySettings", "load_settings", "save_settings", "shared"]

#: An OpenTelemetry Collector (or Jaeger, Phoenix...) on this machine, OTLP over HTTP.
DEFAULT_ENDPOINT = "http://localhost:4318/v1/traces"
_ENABLED = "telemetry/enabled"
_ENDPOINT = "telemetry/endpoint"
_CAPTURE = "telemetry/capture_content"
#: The last element of :meth:`Telemetry.wanted` when message text is captured.
CONTENT = "content"


@dataclass(frozen=True)
class TelemetrySettings:
    """The Settings switches: export on or off, where to, and whether message text goes too (redacted)."""

    enabled: bool = False
    endpoint: str = DEFAULT_ENDPOINT
    capture_content: bool = False


def _settings() -> QSettings:
    return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def load_settings() -> TelemetrySettings:
    settings = _settings()
    enabled = str(settings.value(_ENABLED, "false")).lower() == "true"
    endpoint = str(settings.value(_ENDPOINT, "") or "").strip() or DEFAULT_ENDPOINT
    capture = str(settings.value(_CAPTURE, "false")).lower() == "true"
    return TelemetrySettings(enabled, endpoint, capture)


def save_settings(value: TelemetrySettings) -> None:
    settings = _settings()
    settings.setValue(_ENABLED, "true" if value.enabled else "false")
    settings.setValue(_ENDPOINT, value.endpoint.strip() or DEFAULT_ENDPOINT)
    settings.setValue(_CAPTURE, "true" if value.capture_content else "false")
    settings.sync()


def env_disabled(environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    return env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true"


class Telemetry:
    """The studio's exporter, rebuilt only when where traces go changed.

    Building one imports the SDK and the exporter (about half a second here): :meth:`prepare` does it on a thread
    ahead of time (when the studio starts, when Settings change), so a run's start only picks up the result.
    """

    def __init__(self) -> None:
        self._key: tuple[str, ...] | None = None
        self._tracer: OtelTracer | None = None
        self._building: threading.Thread | None = None

    def wanted(self, environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
        """Where traces should go now: ``()`` for nowhere, ``("env",)`` or ``("settings", endpoint)``, followed by
        :data:`CONTENT` when message text goes too."""
        if env_disabled(environ):
            return ()
        chosen = load_settings()
        captured = capture_from_env(environ)
        content = (CONTENT,) if (chosen.capture_content if captured is None else captured) else ()
        if env_enabled(environ):
            return ("env", *content)
        return ("settings", chosen.endpoint, *content) if chosen.enabled else ()

    def prepare(self) -> None:
        """Start building the exporter the settings ask for, off the calling thread (nothing when export is off)."""
        key = self.wanted()
        if key != self._key:
            self._replace(key)

    def tracers(self) -> list[OtelTracer]:
        """The tracers a run starting now gets: none when export is off (then runs pay nothing for it)."""
        self.prepare()
        self._settle()
        return [self._tracer] if self._tracer is not None else []

    def _settle(self) -> None:
        """Wait for a build in progress (usually long done)."""
        if self._building is not None:
            self._building.join()
            self._building = None

    def _replace(self, key: tuple[str, ...]) -> None:
        self._settle()
        old, self._tracer, self._key = self._tracer, None, key
        if old is not None:  # flushing may wait on a slow collector: never on the UI thread
            threading.Thread(target=old.shutdown, name="otel-shutdown", daemon=True).start()
        if not key:
            return
        if not otel_available():
            logger.warning("OpenTelemetry export is on, but opentelemetry-sdk is not installed: no traces sent")
            return
        self._building = threading.Thread(target=self._build, args=(key,), name="otel-setup", daemon=True)
        self._building.start()

    def _build(self, key: tuple[str, ...]) -> None:
        from processors.tracing.otel import otlp_tracer, tracer_from_env

        try:
            content = key[-1] == CONTENT
            self._tracer = (
                tracer_from_env(capture_content=content)
                if key[0] == "env"
                else otlp_tracer(key[1], capture_content=content)
            )
        except Exception:  # a malformed endpoint must not stop runs: say so and run without export
            logger.exception("OpenTelemetry export could not be set up")

    def shutdown(self) -> None:
        """Flush and stop the exporter (the program is quitting)."""
        self._settle()
        tracer, self._tracer, self._key = self._tracer, None, None
        if tracer is not None:
            tracer.shutdown()


_shared: Telemetry | None = None


def shared() -> Telemetry:
    """The process's exporter (one batching thread and connection for all runs)."""
    global _shared
    if _shared is None:
        _shared = Telemetry()
    return _shared
