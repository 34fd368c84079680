"""RunController: a real Agent on a ScriptedModel, driven on a qasync loop from sync tests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from processors import Agent, Processor, TraceEvent, Violation
from processors.models.scripted import ScriptedModel, Turn
from studio.controllers.run_controller import RunController, outcome_of, readable_failure


class Recorder:
    """Every signal of a controller, in order: (signal name, args)."""

    def __init__(self, controller: RunController) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        for name in (
            "run_started",
            "chunk_received",
            "trace_event_received",
            "violation_recorded",
            "run_finished",
            "run_failed",
        ):
            getattr(controller, name).connect(lambda *args, _name=name: self.calls.append((_name, args)))

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]

    def of(self, name: str) -> list[tuple[Any, ...]]:
        return [args for signal, args in self.calls if signal == name]


class Shout(Processor):
    """A pass-through input processor: its hook calls are traced."""

    id = "shout"

    def process_input(self, args: Any) -> Any:
        return args.messages


class BlockSecrets(Processor):
    id = "block-secrets"

    def __init__(self, controller: RunController | None = None) -> None:
        self.controller = controller

    def process_input(self, args: Any) -> Any:
        if "secret" in args.messages[-1].text:
            args.abort("secret in input", metadata={"k": 1})
        return args.messages

    def on_violation(self, violation: Violation) -> None:
        if self.controller is not None:
            self.controller.record_violation(self.id, violation)


def run(loop: qasync.QEventLoop, controller: RunController, agent: Agent, text: str = "hi", **options: Any) -> str:
    """Start a run from inside the loop (as a slot would) and wait for its end."""

    async def go() -> str:
        run_id = controller.start(agent, text, thread_id=options.pop("thread_id", "t1"), **options)
        await asyncio.wait_for(controller.wait_finished(), 10)
        return run_id

    return loop.run_until_complete(go())


def test_signals_arrive_in_order_with_every_chunk(loop: qasync.QEventLoop, qtbot: Any) -> None:
    controller = RunController()
    recorder = Recorder(controller)
    model = ScriptedModel(["Hello there, how are you?"])
    agent = Agent(id="a", model=model, input_processors=[Shout()])

    run_id = run(loop, controller, agent)

    names = recorder.names()
    assert names[0] == "run_started"
    assert recorder.of("run_started") == [(run_id, "t1")]
    assert names[-1] == "run_finished"
    assert "run_failed" not in names
    chunks = [chunk for rid, chunk in recorder.of("chunk_received")]
    assert all(rid == run_id for rid, _ in recorder.of("chunk_received"))
    types = [chunk.type for chunk in chunks]
    assert types[0] == "start" and types[-1] == "finish"
    assert "".join(c.payload.text for c in chunks if c.type == "text-delta") == "Hello there, how are you?"
    ((finished_id, result),) = recorder.of("run_finished")
    assert finished_id == run_id
    assert result.text == "Hello there, how are you?" and result.finish_reason == "stop"
    assert not controller.is_running and controller.run_id is None


def test_trace_events_are_re_emitted(loop: qasync.QEventLoop, qtbot: Any) -> None:
    controller = RunController()
    recorder = Recorder(controller)
    agent = Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[Shout()])

    run_id = run(loop, controller, agent)

    events = recorder.of("trace_event_received")
    assert events, "no trace events"
    assert all(rid == run_id and isinstance(event, TraceEvent) for rid, event in events)
    assert ("process_input", "shout") in [(event.hook, event.processor_id) for _, event in events]
    # trace events come between run_started and run_finished
    names = recorder.names()
    assert names.index("trace_event_received") > names.index("run_started")
    assert max(i for i, n in enumerate(names) if n == "trace_event_received") < names.index("run_finished")


def test_stop_mid_stream_closes_the_model_stream_and_finishes_with_abort(loop: qasync.QEventLoop, qtbot: Any) -> None:
    controller = RunController()
    recorder = Recorder(controller)
    model = ScriptedModel([Turn(text="word " * 200, delay=0.01)])
    agent = Agent(id="a", model=model)
    deltas: list[str] = []

    async def go() -> str:
        first_deltas = asyncio.Event()

        def on_chunk(_run_id: str, chunk: Any) -> None:
            if chunk.type == "text-delta":
                deltas.append(chunk.payload.text)
                if len(deltas) == 5:
                    first_deltas.set()

        controller.chunk_received.connect(on_chunk)
        run_id = controller.start(agent, "go", thread_id="t1")
        assert controller.is_running
        await asyncio.wait_for(first_deltas.wait(), 5)
        controller.stop()
        await asyncio.wait_for(controller.wait_finished(), 5)
        return run_id

    run_id = loop.run_until_complete(go())

    assert model.closed_early == 1
    assert 5 <= len(deltas) < 200
    ((finished_id, result),) = recorder.of("run_finished")
    assert finished_id == run_id
    assert result.finish_reason == "abort"
    assert recorder.names()[-1] == "run_finished" and "run_failed" not in recorder.names()
    assert not controller.is_running


def test_stop_right_after_start_still_finishes_once_with_abort(loop: qasync.QEventLoop, qtbot: Any) -> None:
    controller = RunController()
    recorder = Recorder(controller)
    model = ScriptedModel([Turn(text="never streamed", delay=0.01)])

    async def go() -> None:
        controller.start(Agent(id="a", model=model), "go", thread_id="t1")
        controller.stop()
        await asyncio.wait_for(controller.wait_finished(), 5)

    loop.run_until_complete(go())

    assert recorder.names() == ["run_started", "run_finished"]
    assert recorder.of("run_finished")[0][1].finish_reason == "abort"
    assert model.requests == []


class MeltedMemory:
    """A memory whose store is gone: loading the thread raises an ordinary exception inside the agent."""

    async def load_messages(
        self, thread_id: str, *, resource_id: str | None = None, last_messages: int | None = None
    ) -> list[Any]:
        raise RuntimeError("the socket melted")

    async def save_messages(self, thread_id: str, messages: list[Any], *, resource_id: str | None = None) -> None:
        pass


def test_a_store_that_fails_inside_the_agent_finishes_the_run_with_a_readable_error_not_a_dialog(
    loop: qasync.QEventLoop, qtbot: Any
) -> None:
    controller = RunController()
    recorder = Recorder(controller)
    agent = Agent(id="a", model=ScriptedModel(["unused"]), memory=MeltedMemory())

    run_id = run(loop, controller, agent)

    assert recorder.names() == ["run_started", "chunk_received", "chunk_received", "run_finished"]
    finished = recorder.of("run_finished")[0]
    assert finished[0] == run_id and finished[1].finish_reason == "error"
    assert finished[1].error == "The conversation's history could not be loaded: RuntimeError: the socket melted"
    assert not controller.is_running
    assert QApplication.activeModalWidget() is None
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, (QDialog, QMessageBox)) and w.isVisible()]


def test_an_exception_from_the_agent_is_a_readable_run_failed_not_a_dialog(loop: qasync.QEventLoop, qtbot: Any) -> None:
    def melted_lane(request_context: Any) -> list[Any]:  # a lane given as a callable, resolved by stream()
        raise RuntimeError("the socket melted")

    controller = RunController()
    recorder = Recorder(controller)
    agent = Agent(id="a", model=ScriptedModel(["unused"]), input_processors=melted_lane)

    run_id = run(loop, controller, agent)

    assert recorder.of("run_failed") == [(run_id, "The run failed: RuntimeError: the socket melted")]
    assert "run_finished" not in recorder.names()
    assert not controller.is_running
    assert QApplication.activeModalWidget() is None
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, (QDialog, QMessageBox)) and w.isVisible()]


def test_an_exception_in_the_model_adapter_finishes_with_a_readable_error(loop: qasync.QEventLoop, qtbot: Any) -> None:
    controller = RunController()
    recorder = Recorder(controller)
    agent = Agent(id="a", model=ScriptedModel([Turn(error=RuntimeError("the socket melted"))]))

    run_id = run(loop, controller, agent)

    ((finished_id, result),) = recorder.of("run_finished")
    assert finished_id == run_id and result.finish_reason == "error"
    assert result.error == "Model call failed: the model adapter for 'scripted' raised RuntimeError: the socket melted"
    assert recorder.of("run_failed") == []
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, (QDialog, QMessageBox)) and w.isVisible()]


def test_a_misconfigured_agent_is_a_run_failed_too(loop: qasync.QEventLoop, qtbot: Any) -> None:
    controller = RunController()
    recorder = Recorder(controller)
    agent = Agent(id="a", model=ScriptedModel(["x"]), input_processors=lambda context: [object()])

    run_id = run(loop, controller, agent)

    assert recorder.names() == ["run_started", "run_failed"]
    ((failed_id, message),) = recorder.of("run_failed")
    assert failed_id == run_id and message.startswith("The run failed: TypeError: ") and "needs a non-empty" in message
    assert not controller.is_running


def test_tripwires_and_model_errors_finish_normally(loop: qasync.QEventLoop, qtbot: Any) -> None:
    from processors.errors import ModelAPIError

    controller = RunController()
    recorder = Recorder(controller)
    blocked = Agent(id="a", model=ScriptedModel(["unused"]), input_processors=[BlockSecrets(controller)])
    run(loop, controller, blocked, "my secret")
    failing = Agent(id="b", model=ScriptedModel([Turn(error=ModelAPIError(429, "slow down", False))]))
    run(loop, controller, failing, "hello")

    (first, tripped), (_second, errored) = recorder.of("run_finished")
    assert tripped.tripwire.reason == "secret in input" and tripped.finish_reason == "other"
    assert errored.finish_reason == "error" and "slow down" in errored.error
    assert recorder.of("run_failed") == []
    ((vid, processor_id, violation),) = recorder.of("violation_recorded")
    assert (vid, processor_id, violation.message) == (first, "block-secrets", "secret in input")
    assert outcome_of(tripped) == "tripwire" and outcome_of(errored) == "error"


def test_a_second_start_while_running_is_refused(loop: qasync.QEventLoop, qtbot: Any) -> None:
    controller = RunController()
    model = ScriptedModel([Turn(text="a b c d e f", delay=0.01)])

    async def go() -> None:
        controller.start(Agent(id="a", model=model), "one", thread_id="t1")
        with pytest.raises(RuntimeError, match="already in progress"):
            controller.start(Agent(id="a", model=model), "two", thread_id="t1")
        await controller.wait_finished()

    loop.run_until_complete(go())
    assert not controller.is_running


def test_start_without_a_running_loop_says_so(qtbot: Any) -> None:
    controller = RunController()
    with pytest.raises(RuntimeError):
        controller.start(Agent(id="a", model=ScriptedModel(["x"])), "hi", thread_id="t1")
    assert not controller.is_running


def test_readable_failure_has_no_traceback() -> None:
    assert readable_failure(ValueError("bad value")) == "The run failed: ValueError: bad value"
    assert readable_failure(KeyError()) == "The run failed: KeyError"


# ------------------------------------------------------------------------------------------------ the store
@pytest.fixture
def store(loop: qasync.QEventLoop, tmp_path: Any) -> Iterator[Any]:
    from studio.store.database import Store

    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    loop.run_until_complete(store.open())
    yield store
    loop.run_until_complete(store.close())


def test_runs_trace_events_and_violations_are_saved(loop: qasync.QEventLoop, store: Any, qtbot: Any) -> None:
    controller = RunController(store=store)
    recorder = Recorder(controller)
    agent = Agent(id="a", model=ScriptedModel(["Fine, thanks."]), input_processors=[Shout(), BlockSecrets(controller)])

    ok_id = run(loop, controller, agent, "how are you?", design_id="design-1")
    blocked_id = run(loop, controller, agent, "my secret", design_id="design-1")

    ok = loop.run_until_complete(store.get_run(ok_id))
    assert (ok.outcome, ok.finish_reason, ok.thread_id, ok.design_id, ok.model) == (
        "finished",
        "stop",
        "t1",
        "design-1",
        "scripted",
    )
    assert ok.finished_at is not None and ok.usage
    blocked = loop.run_until_complete(store.get_run(blocked_id))
    assert blocked.outcome == "tripwire" and blocked.tripwire["reason"] == "secret in input"
    trace = loop.run_until_complete(store.trace_for_run(ok_id))
    emitted = [event for rid, event in recorder.of("trace_event_received") if rid == ok_id]
    assert [(e["hook"], e["processorId"]) for e in trace] == [(e.hook, e.processor_id) for e in emitted]
    violations = loop.run_until_complete(store.violations_for_run(blocked_id))
    assert [(v.processor_id, v.message) for v in violations] == [("block-secrets", "secret in input")]
    tripwires = loop.run_until_complete(store.tripwires_for_thread("t1"))
    assert [(t.run_id, t.reason, t.processor_id) for t in tripwires] == [
        (blocked_id, "secret in input", "block-secrets")
    ]


def test_a_stopped_run_is_saved_as_stopped(loop: qasync.QEventLoop, store: Any, qtbot: Any) -> None:
    controller = RunController(store=store)
    model = ScriptedModel([Turn(text="word " * 100, delay=0.01)])

    async def go() -> str:
        run_id = controller.start(Agent(id="a", model=model), "go", thread_id="t9")
        while not model.requests:  # the model's paced stream has started: the stop comes mid-stream
            await asyncio.sleep(0)
        controller.stop()
        await controller.wait_finished()
        return run_id

    run_id = loop.run_until_complete(go())
    saved = loop.run_until_complete(store.get_run(run_id))
    assert (saved.outcome, saved.finish_reason) == ("stopped", "abort")
    assert model.closed_early == 1


class BrokenStore:
    """A store whose disk is gone: every write raises (it records the calls it got)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        async def fail(*args: Any, **kwargs: Any) -> None:
            self.calls.append(name)
            raise OSError("disk I/O error")

        return fail


def test_a_failing_store_never_breaks_the_run(
    loop: qasync.QEventLoop, qtbot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    broken = BrokenStore()
    controller = RunController(store=broken)
    recorder = Recorder(controller)

    run(loop, controller, Agent(id="a", model=ScriptedModel(["still here"]), input_processors=[Shout()]))

    assert recorder.of("run_finished")[0][1].text == "still here"
    assert broken.calls == ["start_run", "add_trace_events", "finish_run"]
    assert "could not save the run" in caplog.text
