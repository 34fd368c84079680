"""A thread export carries the studio's runs — record, trace, violations, recording — and an import brings them back
into another studio's store; a bad run refuses the whole import; the runtime alone imports the messages."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import pytest
import qasync

from processors import Agent, Processor
from processors.memory.errors import ThreadImportError
from processors.memory.sql import SqlMemory
from processors.models.recording import Recording, RecordingModel
from processors.models.scripted import ScriptedModel, Turn
from studio.controllers.run_controller import RunController
from studio.store.database import Store
from studio.store.run_transfer import EXTENSION
from tests.studio.conftest import run


class Upper(Processor):
    id = "upper"

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == "text-delta":
            return args.part.with_payload(text=args.part.payload.text.upper())
        return args.part


def recorded_thread(loop: qasync.QEventLoop, store: Store) -> tuple[str, str]:
    """A thread with one recorded run through a real agent with memory: (thread id, run id)."""
    controller = RunController(store)
    recording = Recording()
    model = RecordingModel(ScriptedModel([Turn(text=["Hello ", "there"])]), recording)
    agent = Agent(id="a", model=model, output_processors=[Upper()], memory=store.memory)

    async def go() -> str:
        thread = await store.memory.create_thread(title="kept")
        controller.start(agent, "hi", thread_id=thread.id, recording=recording)
        await asyncio.wait_for(controller.wait_finished(), 60)
        return thread.id

    thread_id = loop.run_until_complete(go())
    runs = run(loop, store.runs_for_thread(thread_id))
    return thread_id, runs[0].id


def test_an_exported_thread_comes_back_with_its_runs_trace_and_recording(
    qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    source = Store(f"sqlite:///{tmp_path / 'a.db'}")
    thread_id, run_id = recorded_thread(qloop, source)
    document = run(qloop, source.export_thread(thread_id))
    original = run(qloop, source.recordings.recording_bytes(run_id))
    trace = run(qloop, source.trace_for_run(run_id))
    run(qloop, source.close())
    text = json.dumps(document)  # what the file holds

    target = Store(f"sqlite:///{tmp_path / 'b.db'}")
    imported = run(qloop, target.import_thread(text))
    runs = run(qloop, target.runs_for_thread(imported))
    again = run(qloop, target.recordings.recording_bytes(run_id))
    trace_again = run(qloop, target.trace_for_run(run_id))
    messages = run(qloop, target.memory.all_messages(imported))
    run(qloop, target.close())

    assert imported == thread_id
    assert [record.id for record in runs] == [run_id] and runs[0].outcome == "finished"
    assert runs[0].input_text == "hi"
    assert again == original and Recording.from_bytes(again).chunk_count > 0
    assert [(e["hook"], e["processorId"], e["outcome"]) for e in trace_again] == [
        (e["hook"], e["processorId"], e["outcome"]) for e in trace
    ]
    assert [m.text for m in messages] == ["hi", "HELLO THERE"]


def test_a_damaged_recording_refuses_the_whole_import(qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    source = Store(f"sqlite:///{tmp_path / 'a.db'}")
    thread_id, _ = recorded_thread(qloop, source)
    document = run(qloop, source.export_thread(thread_id))
    run(qloop, source.close())
    document["extensions"][EXTENSION][0]["recording"] = base64.b64encode(b"not zlib at all").decode()

    target = Store(f"sqlite:///{tmp_path / 'b.db'}")
    with pytest.raises(ThreadImportError) as caught:
        run(qloop, target.import_thread(json.dumps(document)))
    threads = run(qloop, target.memory.list_threads())
    run(qloop, target.close())
    assert f"extensions.{EXTENSION}[0].recording: not a readable recording" in str(caught.value)
    assert threads == [], "nothing was written"


def test_the_runtime_alone_imports_the_messages_of_a_studio_export(qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    source = Store(f"sqlite:///{tmp_path / 'a.db'}")
    thread_id, _ = recorded_thread(qloop, source)
    document = run(qloop, source.export_thread(thread_id))
    run(qloop, source.close())
    assert EXTENSION in document["extensions"]

    memory = SqlMemory(f"sqlite:///{tmp_path / 'plain.db'}")
    imported = run(qloop, memory.import_thread(json.dumps(document)))
    messages = run(qloop, memory.all_messages(imported))
    run(qloop, memory.close())
    assert [m.text for m in messages] == ["hi", "HELLO THERE"]
