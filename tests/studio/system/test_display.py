"""The studio says when its X display does not answer, in its own process, instead of Qt's abort blaming a library.

Each test starts a real X11-speaking server of its own on a Linux abstract socket (``@/tmp/.X11-unix/X<n>``, no
file created): one that never answers, one that refuses (an X server that has its maximum of clients), one that
accepts our question and then refuses Qt (a server that filled up in between).
"""

import os
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from studio.system.display import ask, display_problem, release

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 abstract sockets are Linux's")

ROOT = Path(__file__).resolve().parents[3]
TOO_MANY = "Maximum number of clients reached"


def refusal(reason: str) -> bytes:
    """X11's "Failed" setup reply with ``reason``."""
    padded = reason.encode() + b"\0" * (-len(reason) % 4)
    return struct.pack("<BBHHH", 0, len(reason), 11, 0, len(padded) // 4) + padded


def acceptance() -> bytes:
    """The first 8 bytes of a "Success" setup reply (all the check reads)."""
    return struct.pack("<BBHHH", 1, 0, 11, 0, 0)


class FakeDisplay:
    """A server on ``@/tmp/.X11-unix/X<n>``; ``reply(k)`` is what its k-th client gets: bytes, then the server waits
    for the client to leave (``left`` records who did); ``b""``: closed at once unanswered (a server resetting);
    None: no answer at all."""

    def __init__(self, reply: Callable[[int], bytes | None]) -> None:
        self.reply = reply
        self.clients = 0
        self.left: list[int] = []
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for number in range(700, 800):
            try:
                self.listener.bind(f"\0/tmp/.X11-unix/X{number}")
            except OSError:
                continue
            self.display = f":{number}"
            break
        else:
            raise RuntimeError("no free display number")
        self.listener.listen(8)
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.clients += 1
            answer = self.reply(self.clients)
            if answer is None:
                self.held.append(client)  # keep it open, say nothing
                continue
            threading.Thread(target=self._answer, args=(client, self.clients, answer), daemon=True).start()

    def _answer(self, client: socket.socket, number: int, answer: bytes) -> None:
        with client:
            try:
                client.recv(12)
                if not answer:
                    return
                client.sendall(answer)
                while client.recv(4096):  # until the client leaves
                    pass
                self.left.append(number)
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()
        for client in self.held:
            client.close()


@pytest.fixture
def serve() -> Iterator[Callable[[Callable[[int], bytes | None]], FakeDisplay]]:
    servers: list[FakeDisplay] = []

    def start(reply: Callable[[int], bytes | None]) -> FakeDisplay:
        servers.append(FakeDisplay(reply))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def test_a_display_that_accepts_clients_answers(serve: Callable[..., FakeDisplay]) -> None:
    server = serve(lambda _: acceptance())
    assert ask(server.display, timeout=5) == ask(server.display, timeout=5)
    assert display_problem({"DISPLAY": server.display}, timeout=5) is None


def test_a_display_that_asks_for_credentials_answers(serve: Callable[..., FakeDisplay]) -> None:
    """Qt sends the XAUTHORITY cookie the check does not: a request for it proves the server is there."""
    server = serve(lambda _: refusal("Authorization required, but no authorization protocol specified"))
    assert display_problem({"DISPLAY": server.display}, timeout=5) is None


def test_a_display_that_was_resetting_is_asked_again(serve: Callable[..., FakeDisplay]) -> None:
    """Xvfb resets when its last client leaves and drops connections meanwhile: a dropped question is asked again."""
    server = serve(lambda client: b"" if client == 1 else acceptance())
    assert display_problem({"DISPLAY": server.display}, timeout=5) is None
    assert server.clients == 2


def test_the_connection_that_answered_is_held_until_released(serve: Callable[..., FakeDisplay]) -> None:
    """Until Qt has connected, the server keeps a client, so it cannot reset in between."""
    server = serve(lambda _: acceptance())
    assert display_problem({"DISPLAY": server.display}, timeout=5, hold=True) is None
    time.sleep(0.3)
    assert server.left == []  # still connected
    release()
    deadline = time.monotonic() + 10
    while not server.left and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.left == [1]


def test_a_display_that_never_answers_is_said_as_such(serve: Callable[..., FakeDisplay]) -> None:
    server = serve(lambda _: None)
    problem = display_problem({"DISPLAY": server.display}, timeout=0.5)
    assert problem is not None
    assert f"The X display {server.display} does not answer" in problem
    assert "did not answer within 0.5 s" in problem


def test_a_full_display_gives_its_reason(serve: Callable[..., FakeDisplay]) -> None:
    server = serve(lambda _: refusal(TOO_MANY))
    problem = display_problem({"DISPLAY": server.display}, timeout=5)
    assert problem is not None and f"refused the connection: {TOO_MANY}" in problem


def test_no_server_at_all() -> None:
    problem = display_problem({"DISPLAY": ":799"}, timeout=5)
    assert problem is not None and "nothing listens there" in problem


def test_other_platforms_are_not_asked() -> None:
    assert display_problem({"DISPLAY": ":799", "QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"DISPLAY": ":799", "WAYLAND_DISPLAY": "w", "XDG_SESSION_TYPE": "wayland"}) is None


def start_studio(display: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env |= {"DISPLAY": display, "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-m", "studio", "--data-dir", str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )


def test_the_studio_says_its_display_is_full_instead_of_blaming_xcb_cursor(
    serve: Callable[..., FakeDisplay], tmp_path: Path
) -> None:
    server = serve(lambda _: refusal(TOO_MANY))
    result = start_studio(server.display, tmp_path)
    assert result.returncode == 1, result.stderr
    assert f"Processor Studio cannot start: The X display {server.display} does not answer" in result.stderr
    assert TOO_MANY in result.stderr
    assert "xcb-cursor0" not in result.stderr


def test_a_display_that_fills_up_between_the_check_and_qt_is_explained_before_qt_aborts(
    serve: Callable[..., FakeDisplay], tmp_path: Path
) -> None:
    """The check's connection is accepted, Qt's is refused: the studio still says the display refused it."""
    server = serve(lambda client: acceptance() if client == 1 else refusal(TOO_MANY))
    result = start_studio(server.display, tmp_path)
    assert result.returncode != 0
    assert server.clients >= 2  # the check, then Qt
    said = result.stderr[result.stderr.index("Processor Studio cannot start:") :]
    assert f"The X display {server.display} does not answer" in said and TOO_MANY in said, result.stderr
