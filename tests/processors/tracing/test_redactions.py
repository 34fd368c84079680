"""What the guards hid never leaves in a trace (issue 26 §4): the values are kept only while an exporter watches
the run, and every exported text — even a span made before the guard ran — is scrubbed of them."""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from processors import Processor, tool
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer, RunFinished
from processors.tracing.otel import OtelTracer, capture_from_env
from processors.tracing.redactions import HIDDEN, hidden, note_hidden, release, scrub, watch
from tests.processors.helpers import make_agent, run_stream

KEY = "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56"


class Looks(Processor):
    """Changes nothing; its trace entries quote the messages as they were before the guards behind it."""

    id = "looks"

    def process_input(self, args: Any) -> Any:
        return None

    def process_input_step(self, args: Any) -> Any:
        return None


@tool
def read_config(name: str) -> str:
    """Read a configuration value.

    Args:
        name: The setting's name.
    """
    return f"{name} = {KEY}"


def test_scrub_replaces_every_value_and_the_start_of_one_cut_off_at_the_end() -> None:
    values = ["ada.lovelace@example.com", "+1 415 555 2042"]
    text = "last: 'write to ada.lovelace@example.com or +1 415 555 2042, or ada.lovel'"
    assert scrub(text, values) == f"last: 'write to {HIDDEN} or {HIDDEN}, or {HIDDEN}'"
    assert scrub("nothing here", values) == "nothing here"
    assert scrub("an ab cd", ["ab", "b c"]) == "an ab cd"  # too short to scrub: it would blot out words


def test_values_are_kept_only_while_an_exporter_watches_the_run() -> None:
    note_hidden("run-x", ["ada@example.com"])
    assert hidden("run-x") == frozenset()  # nobody watches: nothing kept
    watch("run-x")
    watch("run-x")
    note_hidden("run-x", ["ada@example.com"])
    release("run-x")
    assert hidden("run-x") == {"ada@example.com"}  # a second exporter still watches
    release("run-x")
    assert hidden("run-x") == frozenset()


def exporter_and_tracer(capture: bool) -> tuple[InMemorySpanExporter, OtelTracer]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter, OtelTracer(provider, capture_content=capture)


def exported_text(exporter: InMemorySpanExporter) -> str:
    return "\n".join(span.to_json() for span in exporter.get_finished_spans())


async def test_with_capture_on_text_a_guard_masked_later_is_sent_redacted() -> None:
    exporter, tracer = exporter_and_tracer(capture=True)
    guard = PIIDetector(detection_types=["email"], strategy="redact")
    agent = make_agent(ScriptedModel(["Noted."]), input_processors=[Looks(), guard])
    _, result = await run_stream(agent, "Mail me at ada.lovelace@example.com please", tracers=[tracer])
    assert result.finish_reason == "stop"
    text = exported_text(exporter)
    assert "ada.lovelace@example.com" not in text
    befores = [str((s.attributes or {}).get("processor.before", "")) for s in exporter.get_finished_spans()]
    assert any(f"Mail me at {HIDDEN} please" in before for before in befores)  # "looks" ran before the guard
    assert hidden(result.run_id) == frozenset()  # forgotten once sent


class Peek:
    """Reads what the exporters were told was hidden when the run ends (told before the exporter forgets it)."""

    def __init__(self) -> None:
        self.hidden: frozenset[str] = frozenset()

    def on_trace_event(self, event: Any) -> None:
        pass

    def on_run_event(self, event: Any) -> None:
        if isinstance(event, RunFinished):
            self.hidden = hidden(event.run_id)


async def test_a_secret_redacted_on_the_stream_or_in_a_message_is_hidden_from_exporters() -> None:
    exporter, tracer = exporter_and_tracer(capture=True)
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("read_config", {"name": "api_key"}, id="c1")]),
            Turn(text=["The key is ", KEY[:10], KEY[10:], "."]),
        ]
    )
    other = KEY.replace("Ab12", "Zz99")
    guards = [RegexFilter(presets=["secrets"], strategy="redact", phase=phase) for phase in ("input", "output")]
    agent = make_agent(model, tools=[read_config], input_processors=[Looks(), guards[0]], output_processors=[guards[1]])
    peek, recording = Peek(), RecordingTracer()
    _, result = await run_stream(agent, f"Is {other} the API key?", tracers=[peek, tracer, recording])
    assert KEY not in result.text
    assert peek.hidden == {KEY, other}  # the stream's redaction and the input message's
    assert any(other in event.before for event in recording.events)  # the local trace keeps it for the inspector
    text = exported_text(exporter)
    assert other not in text and KEY not in text
    assert f"Is {HIDDEN} the API key?" in text


async def test_with_capture_off_no_processor_text_is_sent() -> None:
    exporter, tracer = exporter_and_tracer(capture=False)
    agent = make_agent(ScriptedModel(["Noted."]), input_processors=[Looks()])
    await run_stream(agent, "my favourite colour is teal", tracers=[tracer])
    spans = exporter.get_finished_spans()
    assert spans and "teal" not in exported_text(exporter)
    assert not [s for s in spans if {"processor.before", "processor.after"} & set(s.attributes or {})]


def test_the_genai_variable_reads_true_false_or_unset() -> None:
    variable = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
    assert capture_from_env({}) is None
    assert capture_from_env({variable: "TRUE"}) is True
    assert capture_from_env({variable: "false"}) is False
    assert capture_from_env({variable: "no"}) is False
