"""What the guards hid stays hidden in a thread export (DESIGN §6, privacy), on the user's path: the real window over
a real SQLite store, a design with PIIDetector on input and output, a chat that sends an e-mail address, a phone
number, a card number and an IBAN (invented test values) and asks for a customer record that holds an e-mail
address and a phone number (masked as the answer streams), then the thread exported to a file by the workspace's
export action. The run's typed message, its trace (summaries, states, the streamed chunks a guard held or changed)
and its recording held every value raw before the export scrubbed them (``run_transfer.scrub_run``)."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot

from processors import Agent
from processors.builtin.pii_detector import PIIDetector
from processors.demo.offline import lookup_customer
from processors.models.recording import Recording, RecordingModel
from processors.models.scripted import ScriptedModel, Turn
from processors.tracing.redactions import HIDDEN
from studio.controllers.run_controller import RunController
from studio.design.agent_design import DEMO_MODEL, AgentDesign, ChainEntry, ModelConfig
from studio.store.database import Store
from studio.store.run_transfer import EXTENSION, ExportedRun, scrub_run
from tests.processors.builtin.test_user_patterns import SLOW, SLOW_TEXT
from tests.studio.conftest import open_studio, run
from tests.studio.test_app import reply

TYPED = ["ada.test@example.org", "+44 20 7946 0018", "4111 1111 1111 1111", "DE89 3704 0044 0532 0130 00"]
MESSAGE = f"Mail {TYPED[0]}, call {TYPED[1]}, card {TYPED[2]}, IBAN {TYPED[3]}"
PII = {
    "strategy": "redact",
    "redaction_method": "placeholder",
    "detection_types": ["email", "phone", "credit-card", "iban"],
}


def record_values() -> list[str]:
    record = asyncio.run(lookup_customer.call({"customer_id": 42}))
    return [record["email"], record["phone"]]


def chat_and_export(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, design: AgentDesign) -> str:
    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    workspace.document.open_design(design)
    reply(qloop, workspace, MESSAGE)
    reply(qloop, workspace, "Please look up customer 42")
    target = tmp_path / "thread.json"
    run(qloop, workspace.export_thread(target))
    run(qloop, workspace.shutdown())
    return target.read_text(encoding="utf-8")


def guarded() -> AgentDesign:
    return AgentDesign(
        name="PII both ways",
        model=ModelConfig(model=DEMO_MODEL),
        tools=["lookup_customer"],
        input=[ChainEntry(type="PIIDetector", options=PII)],
        output=[ChainEntry(type="PIIDetector", options={**PII, "redaction_method": "mask"})],
    )


def test_a_thread_export_carries_no_value_the_guards_hid(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    exported = chat_and_export(qtbot, qloop, tmp_path, guarded())

    for value in [*TYPED, *record_values()]:
        assert value not in exported, (
            value,
            exported[max(0, exported.find(value) - 1500) : exported.find(value) + 100],
        )
        assert json.dumps(value)[1:-1] not in exported, value  # nor JSON-escaped
    data = json.loads(exported)
    runs = data["extensions"][EXTENSION]
    assert len(runs) == 2 and all(run_data["trace"] for run_data in runs)  # the runs travel, scrubbed
    assert runs[0]["inputText"] == f"Mail {HIDDEN}, call {HIDDEN}, card {HIDDEN}, IBAN {HIDDEN}"
    for run_data in runs:  # each recording is still one, with the values the model or a tool said hidden
        recording = Recording.from_bytes(base64.b64decode(run_data["recording"]))
        plain = json.dumps(recording.to_json(), ensure_ascii=False)
        assert all(value not in plain for value in record_values())
    assert HIDDEN in json.dumps(Recording.from_bytes(base64.b64decode(runs[1]["recording"])).to_json())


def test_the_scrubbed_export_imports_into_another_store(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    exported = chat_and_export(qtbot, qloop, tmp_path, guarded())
    other = Store(f"sqlite:///{tmp_path / 'other.db'}")
    thread_id = run(qloop, other.import_thread(exported))
    again = run(qloop, other.export_thread(thread_id))
    assert len(again["extensions"][EXTENSION]) == 2
    assert all(value not in json.dumps(again) for value in TYPED)


def test_a_run_without_a_hiding_guard_is_exported_as_typed(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """The scrub is the guards': a design with none (or one that only warns) exports its runs as they were stored."""
    warned = AgentDesign(
        name="warn only",
        model=ModelConfig(model=DEMO_MODEL),
        tools=["lookup_customer"],
        input=[ChainEntry(type="PIIDetector", options={**PII, "strategy": "warn"})],
    )
    exported = chat_and_export(qtbot, qloop, tmp_path, warned)
    runs = json.loads(exported)["extensions"][EXTENSION]
    assert runs[0]["inputText"] == MESSAGE


def test_names_codes_and_times_are_kept_whatever_value_they_begin_with() -> None:
    """A piece of a value is hidden where it begins a text (a streamed chunk: ``"0018, call"``), but not in a time,
    a code or a name: a violation's time that begins with a phone number's last four digits stays a time, and the
    run still imports."""
    design = guarded().model_dump_json()
    run_data = {
        "id": "run_1", "designJson": design, "startedAt": "2026-12-07T10:00:00Z", "inputText": "call +44 20 7946 2026",
        "trace": [{"hook": "process_input", "processorId": "pii-detector", "startedAt": 1.0, "endedAt": 2.0,
                   "outcome": "changed", "before": "last: 'call +44 20 7946 2026'", "after": "last: 'call [PHONE]'"}],
        "violations": [
            {"processorId": "pii-detector", "message": "2026 is in a phone number", "at": "2026-12-07T10:00:00Z"}
        ],
    }  # fmt: skip
    scrubbed = scrub_run(run_data)
    assert scrubbed["inputText"] == f"call {HIDDEN}"
    assert scrubbed["trace"][0]["before"] == f"last: 'call {HIDDEN}'"
    assert scrubbed["violations"][0]["at"] == "2026-12-07T10:00:00Z"
    assert scrubbed["violations"][0]["message"] == f"{HIDDEN} is in a phone number"
    assert scrubbed["trace"][0]["processorId"] == "pii-detector"
    ExportedRun.model_validate(scrubbed)


def test_a_guard_that_cannot_search_the_thread_stops_its_export(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """A user's rule that times out on the thread's text cannot say what it would hide: the thread is not written
    (unchecked text never leaves), and the window says why instead of the error escaping into a task."""
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    slow = {"rules": [{"name": "slow-ab", "pattern": SLOW}], "strategy": "redact", "phase": "input"}
    workspace.document.open_design(
        AgentDesign(
            name="slow", model=ModelConfig(model=DEMO_MODEL), input=[ChainEntry(type="RegexFilter", options=slow)]
        )
    )
    reply(qloop, workspace, SLOW_TEXT)  # the run itself ends with the rule's time-out
    target = tmp_path / "thread.json"
    run(qloop, workspace.export_thread(target))
    assert not target.exists()
    assert window.statusBar().currentMessage().startswith("The thread was not exported: ")
    assert "slow-ab" in window.statusBar().currentMessage()
    run(qloop, workspace.shutdown())


def test_a_run_stored_without_its_design_is_scrubbed_by_what_its_trace_says_ran(
    qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """An agent built in code and run through the run controller keeps no design with its runs: its trace names the
    PII detector that ran, and every type it can find is scrubbed (its options are not known)."""
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    controller = RunController(store)
    recording = Recording()
    model = RecordingModel(ScriptedModel([Turn(text=["Card ", "4111 1111 ", "1111 1111", " noted"])]), recording)
    guard = PIIDetector(detection_types=["credit-card"])
    agent = Agent(id="a", model=model, input_processors=[guard], output_processors=[guard], memory=store.memory)

    async def go() -> str:
        thread = await store.memory.create_thread(title="coded")
        controller.start(agent, f"my IBAN is {TYPED[3]}, card {TYPED[2]}", thread_id=thread.id, recording=recording)
        await asyncio.wait_for(controller.wait_finished(), 60)
        return thread.id

    thread_id = run(qloop, go())
    exported = run(qloop, store.export_thread(thread_id))
    run(qloop, store.close())
    document, runs = json.dumps(exported), json.dumps(exported["extensions"][EXTENSION])
    assert HIDDEN in runs and TYPED[2] not in document
    assert "4111 1111 " not in document  # the card's first chunk, in the trace's held chunks and the recording
    assert TYPED[3] not in runs  # every type is scrubbed from the runs (the stored message keeps it: not hidden)


def test_a_regex_filter_s_redactions_stay_hidden_too(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    regex = {"presets": ["pii"], "strategy": "redact"}
    design = AgentDesign(
        name="RegexFilter both ways",
        model=ModelConfig(model=DEMO_MODEL),
        tools=["lookup_customer"],
        input=[ChainEntry(type="RegexFilter", options=regex)],
        output=[ChainEntry(type="RegexFilter", options=regex)],
    )
    exported = chat_and_export(qtbot, qloop, tmp_path, design)
    for value in [*TYPED, *record_values()]:
        assert value not in exported, value
    assert json.loads(exported)["extensions"][EXTENSION][0]["inputText"].count(HIDDEN) == 4


def test_an_output_guard_hides_only_what_the_output_lane_saw(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """A design that guards its output only: the user's own address, typed and never repeated by the model, was
    hidden by no guard and is exported as typed; the customer record's address, masked in the answer, is not."""
    design = guarded().model_copy(update={"input": []})
    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    workspace.document.open_design(design)
    greeting = "Hello, I am jo.user@example.net"
    reply(qloop, workspace, greeting)
    reply(qloop, workspace, "Please look up customer 42")
    target = tmp_path / "thread.json"
    run(qloop, workspace.export_thread(target))
    run(qloop, workspace.shutdown())
    exported = target.read_text(encoding="utf-8")
    data = json.loads(exported)
    assert data["messages"][0]["content"]["content"] == greeting
    assert data["extensions"][EXTENSION][0]["inputText"] == greeting
    assert all(value not in exported for value in record_values())
