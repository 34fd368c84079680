"""The OpenTelemetry spans carry no value a PII guard hid, for every kind a user types (pii brief, 2026-12-07): a
design with PIIDetector on input and output, a message with an e-mail address, a phone number, a card number and an
IBAN (invented test values), and a customer record the output guard masks as the answer streams, exported to a real
OTLP/HTTP receiver with message capture on (the text goes, redacted) and off (no text). ``test_telemetry_privacy.py``
holds the sample design to it for an e-mail address and a phone number; this adds the card, the IBAN and the
placeholder and mask methods."""

from __future__ import annotations

import asyncio

import pytest
import qasync

from processors.demo.offline import demo_model
from processors.tracing.redactions import HIDDEN
from studio.controllers.run_controller import RunController
from studio.design.build import build_agent
from studio.design.catalog import studio_catalogue
from studio.telemetry import Telemetry, TelemetrySettings, save_settings
from tests.studio.store.test_run_transfer_privacy import MESSAGE, TYPED, guarded, record_values
from tests.support.otlp_receiver import OtlpReceiver

pytestmark = pytest.mark.usefixtures("no_otel_environment")


def conversation(qloop: qasync.QEventLoop, receiver: OtlpReceiver, telemetry: Telemetry) -> None:
    controller = RunController(telemetry=telemetry)
    agent = build_agent(guarded(), catalogue=studio_catalogue())
    agent.model = demo_model(delay=0)
    messages = (MESSAGE, "Please look up customer 42")

    async def go() -> None:
        for message in messages:
            controller.start(agent, message, thread_id="thread-pii")
            await asyncio.wait_for(controller.wait_finished(), 60)

    qloop.run_until_complete(go())
    receiver.wait_for(lambda spans: sum(s.name.startswith("invoke_agent ") for s in spans) == len(messages))
    telemetry.shutdown()


@pytest.mark.parametrize("capture", [True, False])
def test_no_masked_value_reaches_the_spans(
    qloop: qasync.QEventLoop, otlp_receiver: OtlpReceiver, capture: bool
) -> None:
    save_settings(TelemetrySettings(enabled=True, endpoint=otlp_receiver.endpoint, capture_content=capture))
    conversation(qloop, otlp_receiver, Telemetry())
    exported = b"".join(otlp_receiver.bodies)
    assert exported
    for value in [*TYPED, *record_values()]:
        assert value.encode() not in exported, value
    befores = [str(s.attributes.get("processor.before", "")) for s in otlp_receiver.spans]
    assert any(HIDDEN in text for text in befores) is capture  # the text went, redacted, only when captured
