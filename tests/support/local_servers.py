"""Tiny HTTP servers that answer model listings like Ollama, LM Studio, llama.cpp server and vLLM (127.0.0.1, free
port, stdlib only), for the local-server probe and the Settings dialog's "Find local servers".

    with LocalModelServer("ollama", ["llama3.2:latest"]) as server:
        scan = await find_local_servers([ServerKind("ollama", "Ollama", server.port)])

Ollama answers ``GET /api/tags`` (``{"models": [{"name": ...}]}``) and ``GET /v1/models``; the others only
``/v1/models`` (``{"object": "list", "data": [{"id": ...}]}``) and 404 elsewhere, like the real ones.
:attr:`LocalModelServer.request_headers` keeps each request's headers (names lower-cased), so a test can check
no API key was sent. :func:`silent_port` is a port that accepts connections and never answers; :func:`free_port`
one nobody listens on. Kind ``html`` answers every path with an HTML page (another program on the port);
kind ``web`` answers 404 to everything.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        owner = self.server.owner
        owner.request_headers.append({k.lower(): v for k, v in self.headers.items()})
        owner.paths.append(self.path)
        if owner.kind == "html":  # something else on the port: a web app's login page
            data = b"<html><body>Sign in</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif self.path == "/api/tags" and owner.kind == "ollama":
            self._send(200, {"models": [{"name": name, "model": name, "size": 1} for name in owner.models]})
        elif self.path == "/v1/models" and owner.kind != "web":
            self._send(200, {"object": "list", "data": [{"id": name, "object": "model"} for name in owner.models]})
        else:
            self._send(404, {"error": "not found"})

    def do_POST(self) -> None:
        owner = self.server.owner
        owner.request_headers.append({k.lower(): v for k, v in self.headers.items()})
        owner.paths.append(self.path)
        self._send(404, {"error": "not found"})

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: LocalModelServer


class LocalModelServer:
    """A listing server of one ``kind`` (``ollama``, ``lmstudio``, ``llamacpp``, ``vllm``) serving ``models``."""

    def __init__(self, kind: str, models: Sequence[str]) -> None:
        self.kind = kind
        self.models = list(models)
        self.request_headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name=f"local-{kind}", daemon=True)

    def __enter__(self) -> LocalModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def free_port() -> int:
    """A port nothing listens on (bound, read, released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def silent_port() -> Iterator[int]:
    """A port that accepts connections (the kernel's backlog does) and never answers: a hung server."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]
