"""Traces never carry what the guardrails hid (issue 26 §4): the sample design's first minute, exported to a real
OTLP/HTTP receiver, holds no masked value in any byte — with message capture off (the default: no message text at
all) and on (the text goes, redacted)."""

from __future__ import annotations

import asyncio

import pytest
import qasync

from processors.demo.offline import demo_model, lookup_customer
from processors.tracing.otel import CAPTURE_VARIABLE
from processors.tracing.redactions import HIDDEN
from studio.controllers.run_controller import RunController
from studio.design.build import build_agent
from studio.design.catalog import studio_catalogue
from studio.design.sample import sample_design
from studio.telemetry import Telemetry, TelemetrySettings, save_settings
from tests.support.otlp_receiver import OtlpReceiver

#: What the sample's first minute types: a customer whose record has an e-mail and a phone number (masked by the
#: output PII detector as the answer streams), and a message with the user's own address (masked on input).
MESSAGES = ("Please look up customer 42", "Hi, my email is jo.smith@example.com, can you help?")


pytestmark = pytest.mark.usefixtures("no_otel_environment")


def masked_values() -> list[str]:
    record = asyncio.run(lookup_customer.call({"customer_id": 42}))
    return [record["email"], record["phone"], "jo.smith@example.com"]


def sample_conversation(qloop: qasync.QEventLoop, receiver: OtlpReceiver, telemetry: Telemetry) -> list[str]:
    """The sample agent (its own offline demo model) answers :data:`MESSAGES` in one thread, traced to
    ``receiver``; returns the replies the chat showed."""
    controller = RunController(telemetry=telemetry)
    replies: list[str] = []
    controller.run_finished.connect(lambda _run_id, result: replies.append(result.text))
    agent = build_agent(sample_design(), catalogue=studio_catalogue())
    agent.model = demo_model(delay=0)

    async def go() -> None:
        for message in MESSAGES:
            controller.start(agent, message, thread_id="thread-privacy")
            await asyncio.wait_for(controller.wait_finished(), 60)

    qloop.run_until_complete(go())
    receiver.wait_for(lambda spans: sum(s.name.startswith("invoke_agent ") for s in spans) == len(MESSAGES))
    telemetry.shutdown()  # everything batched is sent
    return replies


def test_with_capture_off_no_message_text_and_no_masked_value_is_exported(
    qloop: qasync.QEventLoop, otlp_receiver: OtlpReceiver
) -> None:
    save_settings(TelemetrySettings(enabled=True, endpoint=otlp_receiver.endpoint))
    replies = sample_conversation(qloop, otlp_receiver, Telemetry())

    secrets = masked_values()
    assert all(secret not in reply for secret in secrets for reply in replies)  # the chat showed them masked
    exported = b"".join(otlp_receiver.bodies)
    assert exported and len(otlp_receiver.spans) > 10
    for secret in secrets:
        assert secret.encode() not in exported, secret
    assert b"look up customer" not in exported and b"my email is" not in exported  # no message text at all
    assert not [
        s for s in otlp_receiver.spans if "processor.before" in s.attributes or "processor.after" in s.attributes
    ]


def test_with_capture_on_message_text_is_exported_redacted(
    qloop: qasync.QEventLoop, otlp_receiver: OtlpReceiver
) -> None:
    save_settings(TelemetrySettings(enabled=True, endpoint=otlp_receiver.endpoint, capture_content=True))
    telemetry = Telemetry()
    assert telemetry.wanted() == ("settings", otlp_receiver.endpoint, "content")
    sample_conversation(qloop, otlp_receiver, telemetry)

    exported = b"".join(otlp_receiver.bodies)
    for secret in masked_values():
        assert secret.encode() not in exported, secret
    befores = [str(s.attributes.get("processor.before", "")) for s in otlp_receiver.spans]
    assert any("Please look up customer 42" in text for text in befores)  # the text is there: capture is on
    assert any(HIDDEN in text for text in befores)  # and what the guards masked is in it as [REDACTED]


def test_the_genai_variable_turns_capture_on_or_off_whatever_settings_say(monkeypatch: pytest.MonkeyPatch) -> None:
    save_settings(TelemetrySettings(enabled=True, endpoint="http://127.0.0.1:9/v1/traces", capture_content=True))
    monkeypatch.setenv(CAPTURE_VARIABLE, "false")
    assert Telemetry().wanted() == ("settings", "http://127.0.0.1:9/v1/traces")
    save_settings(TelemetrySettings(enabled=True, endpoint="http://127.0.0.1:9/v1/traces"))
    monkeypatch.setenv(CAPTURE_VARIABLE, "true")
    assert Telemetry().wanted() == ("settings", "http://127.0.0.1:9/v1/traces", "content")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    assert Telemetry().wanted() == ("env", "content")
