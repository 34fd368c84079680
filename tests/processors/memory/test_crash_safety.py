"""Crash safety: a process SIGKILLed while it streams and saves leaves a sound database with every finished turn.

A child process runs an Agent with SqlMemory on a SQLite file and a ScriptedModel, turn after turn, printing
``TURN <label> DONE`` once each ``generate`` has returned (so its save has committed). The parent kills it at
seeded-random moments — mostly mid-conversation, sometimes while it is still starting up or migrating the
database — and reuses the same file for the next child. After every kill the file must pass
``PRAGMA integrity_check``, hold both messages of every turn reported done, and hold no half turn (a question
without its complete answer). Every child opening the file again is the "it opens" check; the last one is
done by the test itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from processors.memory import SqlMemory

ROOT = Path(__file__).resolve().parents[3]
KILLS = 22
SEED = 20261129
FILLER = "lorem ipsum dolor sit amet " * 30

CHILD = f"""
import asyncio, sys
from processors import Agent
from processors.memory import SqlMemory
from processors.models import ScriptedModel
from processors.models.scripted import Turn

FILLER = {FILLER!r}

async def main(url: str, child: str) -> None:
    memory = SqlMemory(url, last_messages=20)
    await memory.open()
    label = ""
    model = ScriptedModel([lambda request: Turn(text=f"answer {{label}} " + FILLER)], repeat=True)
    agent = Agent(id="crash", model=model, memory=memory)
    print("READY", flush=True)
    turn = 0
    while True:
        label = f"{{child}}-{{turn}}"
        stream = agent.stream(f"question {{label}}", thread_id="crash", resource_id="tester")
        async for _chunk in stream:
            pass
        await stream.result()
        print(f"TURN {{label}} DONE", flush=True)
        turn += 1

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


class Child:
    """A child process whose stdout lines are collected by a thread (so the parent never blocks on a pipe)."""

    def __init__(self, url: str, name: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, url, name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        self.lines: list[str] = []
        self.errors = ""
        self.ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.strip())
            if line.startswith("READY"):
                self.ready.set()
        self.ready.set()  # EOF: do not let the parent wait for a child that died

    def kill(self) -> list[str]:
        """SIGKILL; returns the labels of the turns it reported done."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._reader.join(timeout=10)
        assert self.process.stdout is not None
        assert self.process.stderr is not None
        self.errors = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()
        assert self.process.returncode == -signal.SIGKILL, self.errors
        return [line.split()[1] for line in self.lines if line.startswith("TURN ") and line.endswith(" DONE")]

    def wait_ready(self) -> None:
        if not (self.ready.wait(timeout=30) and "READY" in self.lines):
            self.kill()
            pytest.fail(f"the child never got ready:\n{self.errors}")


def turns_in(path: Path) -> dict[str, list[tuple[str, str]]]:
    """The stored turns: {label: [(role, text) ...]} in stored order, after an integrity check."""
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = connection.execute("SELECT role, content FROM messages WHERE thread_id = 'crash' ORDER BY seq")
        turns: dict[str, list[tuple[str, str]]] = {}
        current = ""
        for role, content in rows:
            text = "".join(p["text"] for p in json.loads(content)["parts"] if p["type"] == "text")
            if role == "user":
                current = text.removeprefix("question ")
            turns.setdefault(current, []).append((role, text))
        return turns
    finally:
        connection.close()


@pytest.mark.timeout(360)  # KILLS child processes, each importing the runtime: minutes on a loaded machine
def test_sigkill_while_streaming_and_saving_loses_no_finished_turn(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    url = f"sqlite:///{path}"
    rng = random.Random(SEED)
    done: list[str] = []
    started = time.monotonic()
    for kill in range(KILLS):
        child = Child(url, f"c{kill}")
        if kill % 5 == 0:  # sometimes while it imports, opens or migrates the database (kill 0: creates it)
            time.sleep(rng.uniform(0.3, 0.9))
        else:
            child.wait_ready()
            time.sleep(rng.uniform(0.0, 0.3))
        done += child.kill()
        if not path.exists():
            continue  # killed before the database was created
        turns = turns_in(path)
        for label in done:
            assert turns.get(label) == [("user", f"question {label}"), ("assistant", f"answer {label} {FILLER}")], (
                f"after kill {kill}: turn {label} was reported done but is not stored whole"
            )
        for label, messages in turns.items():  # no half turn: a question is saved with its answer or not at all
            assert messages == [("user", f"question {label}"), ("assistant", f"answer {label} {FILLER}")], label
    elapsed = time.monotonic() - started
    assert len(done) > KILLS, f"only {len(done)} turns finished in {KILLS} runs: the kills tested little"

    async def reopen() -> int:
        memory = SqlMemory(url)
        try:
            return await memory.count_messages("crash")
        finally:
            await memory.close()

    assert asyncio.run(reopen()) == 2 * len(turns_in(path))
    print(f"{KILLS} kills, {len(done)} finished turns, {elapsed:.1f} s")


@pytest.fixture(autouse=True)
def _posix_only() -> None:
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("SIGKILL is POSIX-only")
