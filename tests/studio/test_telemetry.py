"""OpenTelemetry export from the studio (issue 15 §2): off by default, on by OTEL_* variables or Settings, and a
studio run's spans reach a real OTLP/HTTP receiver, batched off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import qasync

from studio.controllers.run_controller import RunController
from studio.design.agent_design import AgentDesign, ChainEntry, ModelConfig
from studio.design.build import build_agent
from studio.design.catalog import studio_catalogue
from studio.telemetry import DEFAULT_ENDPOINT, Telemetry, TelemetrySettings, load_settings, save_settings
from tests.support.openai_server import OpenAIServer, ToolCallReply
from tests.support.otlp_receiver import OtlpReceiver, ReceivedSpan

OTEL_VARIABLES = (
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_SDK_DISABLED",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
)


@pytest.fixture(autouse=True)
def _no_otel_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in OTEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "50")  # the batch goes out 50 ms after a span ends, not 5 s


@pytest.fixture
def receiver() -> Iterator[OtlpReceiver]:
    with OtlpReceiver() as started:
        yield started


@pytest.fixture
def telemetry() -> Iterator[Telemetry]:
    made = Telemetry()
    yield made
    made.shutdown()


def test_export_is_off_by_default_and_settings_round_trip(telemetry: Telemetry) -> None:
    assert load_settings() == TelemetrySettings(enabled=False, endpoint=DEFAULT_ENDPOINT)
    assert telemetry.tracers() == []
    save_settings(TelemetrySettings(enabled=True, endpoint=" http://127.0.0.1:9/v1/traces "))
    assert load_settings() == TelemetrySettings(enabled=True, endpoint="http://127.0.0.1:9/v1/traces")
    assert telemetry.wanted() == ("settings", "http://127.0.0.1:9/v1/traces")
    first = telemetry.tracers()
    assert len(first) == 1
    assert telemetry.tracers() == first  # the same exporter for every run while nothing changed
    save_settings(TelemetrySettings(enabled=False, endpoint="http://127.0.0.1:9/v1/traces"))
    assert telemetry.tracers() == []


def test_the_otel_variables_win_over_settings_and_otel_sdk_disabled_wins_over_all(
    telemetry: Telemetry, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_settings(TelemetrySettings(enabled=True, endpoint="http://127.0.0.1:9/v1/traces"))
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    assert telemetry.wanted() == ("env",)
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert telemetry.wanted() == ()
    assert telemetry.tracers() == []


def studio_run(qloop: qasync.QEventLoop, controller: RunController, openai_server: OpenAIServer) -> str:
    """A run as the studio makes it: a design built by the studio, a litellm model over HTTP, a tool call, chains."""
    openai_server.reply_tool_calls(ToolCallReply("lookup_customer", '{"customer_id": 42}', id="call_1"))
    openai_server.reply_text("Customer ", "42 is ", "Ada.")
    rule = {"name": "swap", "pattern": r"\bforty-two\b", "replacement": "42"}
    design = AgentDesign(
        name="support",
        model=ModelConfig(model="openai/test-model", api_base=openai_server.base_url),
        tools=["lookup_customer"],
        input=[ChainEntry(type="RegexFilter", options={"rules": [rule], "strategy": "redact", "phase": "input"})],
    )
    agent = build_agent(design, catalogue=studio_catalogue(), api_key="sk-test")

    async def go() -> str:
        run_id = controller.start(agent, "Look up customer forty-two", thread_id="thread-7")
        await asyncio.wait_for(controller.wait_finished(), 60)
        return run_id

    return qloop.run_until_complete(go())


def root_of(spans: list[ReceivedSpan]) -> ReceivedSpan | None:
    return next((s for s in spans if s.name.startswith("invoke_agent ")), None)


def test_a_studio_run_reaches_a_real_otlp_receiver_through_the_settings_switch(
    qloop: qasync.QEventLoop, openai_server: OpenAIServer, receiver: OtlpReceiver, telemetry: Telemetry
) -> None:
    save_settings(TelemetrySettings(enabled=True, endpoint=receiver.endpoint))
    controller = RunController(telemetry=telemetry)
    finished: list[object] = []
    controller.run_finished.connect(lambda _run_id, result: finished.append(result))

    run_id = studio_run(qloop, controller, openai_server)

    # Nothing is flushed by hand: the SDK's batch thread sends the spans on its own.
    spans = receiver.wait_for(lambda got: root_of(got) is not None and len(got) >= 4)
    root = root_of(spans)
    assert root is not None
    assert root.parent_span_id == ""
    assert root.resource["service.name"] == "processor-studio"
    assert root.scope == "processors"
    assert root.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert root.attributes["gen_ai.conversation.id"] == "thread-7"
    assert root.attributes["processor.run_id"] == run_id
    assert root.attributes["gen_ai.response.finish_reasons"] == ("stop",)
    in_run = [s for s in spans if s.trace_id == root.trace_id and s is not root]
    assert all(s.parent_span_id == root.span_id for s in in_run)
    chats = sorted((s for s in in_run if s.name.startswith("chat ")), key=lambda s: s.start_ns)
    assert [s.name for s in chats] == ["chat test-model", "chat test-model"]
    assert [s.attributes["gen_ai.response.finish_reasons"] for s in chats] == [("tool-calls",), ("stop",)]
    assert {s.attributes["gen_ai.provider.name"] for s in chats} == {"openai"}
    hooks = {(s.attributes["processor.hook"], s.attributes["processor.outcome"]) for s in in_run if s not in chats}
    assert ("process_input", "changed") in hooks  # the RegexFilter rewrote "forty-two"
    assert receiver.rejected == []
    assert len(finished) == 1


def test_the_otel_variables_alone_send_a_studio_run(
    qloop: qasync.QEventLoop,
    openai_server: OpenAIServer,
    receiver: OtlpReceiver,
    telemetry: Telemetry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.base_url)
    monkeypatch.setenv("OTEL_SERVICE_NAME", "guardrail-lab")
    controller = RunController(telemetry=telemetry)

    studio_run(qloop, controller, openai_server)

    spans = receiver.wait_for(lambda got: root_of(got) is not None)
    root = root_of(spans)
    assert root is not None and root.resource["service.name"] == "guardrail-lab"


def test_a_studio_run_sends_nothing_when_export_is_off(
    qloop: qasync.QEventLoop, openai_server: OpenAIServer, telemetry: Telemetry
) -> None:
    controller = RunController(telemetry=telemetry)
    seen: list[object] = []
    controller.trace_event_received.connect(lambda _run_id, event: seen.append(event))
    studio_run(qloop, controller, openai_server)
    assert seen  # the inspector still gets its events
    assert telemetry.tracers() == []
