"""Every studio run keeps its recording (what the model and tools said, below every processor) with the run in the
store: compressed (a 10,000-chunk run in at most 200 KB), never holding an API key."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import zlib
from contextlib import closing
from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot

from processors import Agent
from processors.models.recording import Recording, RecordingModel
from processors.models.scripted import ScriptedModel, Turn
from studio.controllers.run_controller import RunController
from studio.design.agent_design import AgentDesign, ModelConfig
from studio.design.build import build_agent
from studio.design.catalog import studio_catalogue
from studio.store.database import Store
from tests.studio.conftest import open_studio, run
from tests.support.openai_server import OpenAIServer, ToolCallReply

#: The issue's bound for a 10,000-chunk run's stored recording.
MAX_RECORDING_BYTES = 200_000


def drive(loop: qasync.QEventLoop, controller: RunController, agent: Agent, text: str, **options: Any) -> str:
    async def go() -> str:
        run_id = controller.start(agent, text, thread_id="t1", **options)
        await asyncio.wait_for(controller.wait_finished(), 300)
        return run_id

    return loop.run_until_complete(go())


def prose(deltas: int, seed: int = 7) -> list[str]:
    """Word-sized deltas of varied text (a vocabulary of 600 made-up words, numbers and punctuation): compresses
    like a model's reply, not like one word repeated."""
    rng = random.Random(seed)
    syllables = ["ka", "lo", "mi", "ter", "and", "su", "re", "ing", "pro", "ces", "or", "gu", "ard", "to", "ken"]
    vocabulary = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(600)]
    out: list[str] = []
    for index in range(deltas):
        word = rng.choice(vocabulary) if rng.random() > 0.05 else str(rng.randint(0, 99999))
        out.append((" " if index else "") + word + (rng.choice(".,;") if rng.random() < 0.08 else ""))
    return out


def test_a_10000_chunk_run_is_stored_with_its_run_in_at_most_200_kb(qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    controller = RunController(store)
    recording = Recording()
    deltas = prose(10_000)
    agent = Agent(id="a", model=RecordingModel(ScriptedModel([Turn(text=deltas)]), recording))

    run_id = drive(qloop, controller, agent, "Write a long story", recording=recording)

    stored = run(qloop, store.recordings.recording_bytes(run_id))
    again = run(qloop, store.recordings.get_recording(run_id))
    run(qloop, store.close())
    assert stored is not None and again is not None
    assert again.chunk_count >= 10_000
    assert "".join(str(event[1]) for event in again.steps[0].events if event[0] == "t") == "".join(deltas)
    assert len(stored) <= MAX_RECORDING_BYTES, len(stored)
    with closing(sqlite3.connect(tmp_path / "studio.db")) as connection:
        rows = connection.execute("SELECT run_id, chunk_count, length(data) FROM run_recordings").fetchall()
    assert rows == [(run_id, again.chunk_count, len(stored))]


def test_a_recorded_litellm_run_never_holds_the_api_key(
    qloop: qasync.QEventLoop, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    """The key really went to the server (in the Authorization header) and is nowhere in the database file, the
    stored recording or its decompressed JSON; the tool's result is kept."""
    key = "sk-test-NEVER-IN-THE-STORE-4711"
    openai_server.reply_tool_calls(ToolCallReply("lookup_customer", '{"customer_id": 42}', id="call_1"))
    openai_server.reply_text("Customer ", "42 is ", "Ada.")
    design = AgentDesign(
        name="keyed", model=ModelConfig(model="openai/test-model", api_base=openai_server.base_url),
        tools=["lookup_customer"],
    )  # fmt: skip
    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    controller = RunController(store)
    recording = Recording()
    agent = build_agent(design, catalogue=studio_catalogue(), api_key=key, recording=recording)

    run_id = drive(qloop, controller, agent, "Look up customer 42", recording=recording)

    stored = run(qloop, store.recordings.recording_bytes(run_id))
    run(qloop, store.close())
    assert any(key in str(headers) for headers in openai_server.request_headers), "the run really used the key"
    assert stored is not None
    plain = zlib.decompress(stored).decode()
    assert key not in plain and key.encode() not in stored
    assert key.encode() not in (tmp_path / "studio.db").read_bytes()
    again = Recording.from_bytes(stored)
    assert [call.tool_name for call in again.tool_calls] == ["lookup_customer"]
    assert "Ada" in plain and again.tool_calls[0].arguments == {"customer_id": 42}


def test_every_run_in_the_studio_is_recorded_with_its_tool_results(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")

    async def send() -> str | None:
        run_id = workspace.send("Please look up customer 42")
        await workspace.runs.wait_finished()
        return run_id

    run_id = run(qloop, send())
    assert run_id is not None
    recording = run(qloop, workspace.store.recordings.get_recording(run_id))
    recorded = run(qloop, workspace.store.recordings.recorded_runs(workspace.thread_id))
    run(qloop, workspace.shutdown())
    assert recording is not None and recorded == {run_id}
    assert len(recording.steps) == 2, "the tool-call step and the answer"
    assert [call.tool_name for call in recording.tool_calls] == ["lookup_customer"]
    assert "@" in str(recording.tool_calls[0].result), "the tool's raw result, before the PII guardrail"
