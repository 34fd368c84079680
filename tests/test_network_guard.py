"""The suite-wide network guard (tests/conftest.py): remote access fails at once, loopback still works.

Every test here first swaps the guard's reference to the real socket function for one that fails the test, so
even a broken guard cannot send a packet anywhere.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import conftest as guard

REMOTE = ("10.255.255.1", 80)  # never reached: the guard refuses before the real connect() is called
MESSAGE = r"Unplanned network access to .* in a test: tests must use ScriptedModel or the local openai_server fixture"


@pytest.fixture
def no_real_remote_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace the real socket functions behind the guard by tripwires for remote targets; return what ran."""
    calls: list[str] = []

    def fake(name: str) -> Callable[..., Any]:
        real = guard._real[name]

        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            text = repr(args)
            if "10.255.255.1" in text or "example.com" in text:
                pytest.fail(f"the guard let {name}{args!r} through to the real socket function")
            return real(*args, **kwargs)

        return call

    for name in list(guard._real):
        monkeypatch.setitem(guard._real, name, fake(name))
    return calls


@pytest.fixture
def echo_server() -> Iterator[tuple[str, int]]:
    """A one-connection echo server on 127.0.0.1."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(5)

    def serve() -> None:
        try:
            conn, _ = server.accept()
        except OSError:
            return
        with conn:
            conn.sendall(conn.recv(1024))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[:2]
    server.close()
    thread.join(5)


def test_guard_is_installed() -> None:
    assert socket.socket.connect is guard._guarded_connect
    assert socket.getaddrinfo is guard._guarded_getaddrinfo


def test_connect_to_remote_address_raises_at_once(no_real_remote_calls: list[str]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(RuntimeError, match=MESSAGE):
        sock.connect(REMOTE)
    assert no_real_remote_calls == []  # refused before any packet: no real connection was attempted


def test_connect_ex_and_sendto_to_remote_address_raise(no_real_remote_calls: list[str]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(RuntimeError, match=MESSAGE):
        sock.connect_ex(REMOTE)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp, pytest.raises(RuntimeError, match=MESSAGE):
        udp.sendto(b"x", REMOTE)
    assert no_real_remote_calls == []


def test_dns_lookup_of_remote_name_raises(no_real_remote_calls: list[str]) -> None:
    with pytest.raises(RuntimeError, match=MESSAGE):
        socket.create_connection(("example.com", 443), timeout=1)
    with pytest.raises(RuntimeError, match=MESSAGE):
        socket.gethostbyname("example.com")
    assert no_real_remote_calls == []


async def test_asyncio_connections_to_remote_hosts_raise(no_real_remote_calls: list[str]) -> None:
    with pytest.raises(RuntimeError, match=MESSAGE):
        await asyncio.open_connection("example.com", 443)
    with pytest.raises(RuntimeError, match=MESSAGE):
        await asyncio.open_connection(*REMOTE)
    assert no_real_remote_calls == []


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_loopback_still_works(host: str, echo_server: tuple[str, int], no_real_remote_calls: list[str]) -> None:
    _, port = echo_server
    with socket.create_connection((host, port), timeout=5) as sock:
        sock.sendall(b"ping")
        assert sock.recv(1024) == b"ping"
    assert "connect" in no_real_remote_calls


async def test_asyncio_loopback_still_works(echo_server: tuple[str, int]) -> None:
    reader, writer = await asyncio.open_connection(*echo_server)
    writer.write(b"ping")
    await writer.drain()
    assert await reader.read(1024) == b"ping"
    writer.close()
    await writer.wait_closed()


def test_unix_sockets_still_work(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(path)
        server.listen(1)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(path)
            conn, _ = server.accept()
            with conn:
                client.sendall(b"ping")
                assert conn.recv(1024) == b"ping"
