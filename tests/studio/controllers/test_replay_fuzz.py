"""Chunk-boundary fuzzing of a recorded run from the replay view: a split-sensitive user processor is listed with
the smallest cut that changes it, the built-ins are not; it runs off the UI thread with progress; Cancel stops it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot

from processors.builtin.registry import Catalogue, load_catalogue
from processors.models.recording import Recording
from processors.models.scripted import ScriptedModel, Turn
from studio.controllers.replay_controller import FuzzReport, ReplayController
from studio.controllers.run_controller import RunController
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.design.build import build_agent
from studio.store.database import Store
from studio.views.replay_view import ReplayView
from tests.studio.conftest import run

CHUNK_BY_CHUNK = '''
from processors import Processor


class ChunkByChunk(Processor):
    """A naive guard: it looks at each chunk alone, so a word cut in two slips through."""

    id = "chunk-by-chunk"

    def process_output_stream(self, args):
        part = args.part
        if part.type == "text-delta" and "secret" in part.payload.text:
            args.abort("secret in the reply")
        return part
'''


def recorded_run(loop: qasync.QEventLoop, tmp_path: Path) -> tuple[Store, Catalogue, AgentDesign, str]:
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "chunk_by_chunk.py").write_text(CHUNK_BY_CHUNK, encoding="utf-8")
    catalogue = load_catalogue(folder)
    design = AgentDesign(name="fuzzed", output=[ChainEntry(type="ChunkByChunk"), ChainEntry(type="PIIDetector")])
    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    controller = RunController(store)
    recording = Recording()
    model = ScriptedModel([Turn(text=["The code word is ", "secret", ", keep it."])])
    agent = build_agent(design, catalogue=catalogue, model=model, recording=recording)

    async def go() -> str:
        run_id = controller.start(
            agent, "What is the code word?", thread_id="t1", design_json=design.to_json(), recording=recording
        )
        await asyncio.wait_for(controller.wait_finished(), 60)
        return run_id

    return store, catalogue, design, loop.run_until_complete(go())


def test_fuzzing_lists_the_split_sensitive_processor_with_its_smallest_cut_and_not_the_built_ins(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    store, catalogue, design, run_id = recorded_run(qloop, tmp_path)
    controller = ReplayController(store, catalogue, current_design=lambda: design)
    view = ReplayView(controller, run_id)
    qtbot.addWidget(view)
    progress: list[tuple[int, int]] = []
    reports: list[FuzzReport] = []
    controller.fuzz_progress.connect(lambda _run, done, total: progress.append((done, total)))
    controller.fuzz_finished.connect(lambda _run, report: reports.append(report))

    view.fuzz_button.click()
    assert not view.fuzz_button.isEnabled() and view.fuzz_cancel.isVisibleTo(view)
    run(qloop, controller.wait_idle())
    run(qloop, asyncio.sleep(0.05))  # the queued progress signals from the fuzzing thread

    (report,) = reports
    assert report.processors == ["chunk-by-chunk", "pii-detector"]
    assert [finding.processor_id for finding in report.findings] == ["chunk-by-chunk"]
    finding = report.findings[0]
    assert finding.baseline.tripwire == ("chunk-by-chunk", "secret in the reply")
    assert finding.outcome.tripwire is None and "".join(finding.deltas) == report.text
    assert len(finding.deltas) == 2 and any(
        piece.endswith(("s", "se", "sec", "secr", "secre")) for piece in finding.deltas
    )
    shown = [view.fuzz_results.item(i).text() for i in range(view.fuzz_results.count())]
    assert len(shown) == 1 and shown[0].startswith("chunk-by-chunk changes with the cut")
    assert progress and progress[-1][0] == progress[-1][1] and progress[-1][1] > 2
    assert view.fuzz_button.isEnabled() and not view.fuzz_cancel.isVisibleTo(view)
    run(qloop, store.close())


def test_cancel_stops_the_fuzzing_and_says_so(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    store, catalogue, design, run_id = recorded_run(qloop, tmp_path)
    controller = ReplayController(store, catalogue, current_design=lambda: design)
    view = ReplayView(controller, run_id)
    qtbot.addWidget(view)
    finished: list[Any] = []
    controller.fuzz_finished.connect(lambda *args: finished.append(args))

    view.fuzz_button.click()
    view.fuzz_cancel.click()
    run(qloop, controller.wait_idle())

    assert finished == []
    assert [view.fuzz_results.item(i).text() for i in range(view.fuzz_results.count())] == ["Fuzzing cancelled."]
    assert view.fuzz_button.isEnabled()
    run(qloop, store.close())
