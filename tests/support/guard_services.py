"""Stand-ins for the hosted guard services, on 127.0.0.1 (a free port, stdlib only), answering in each service's
documented format: Lakera Guard (``/v2/guard``), Azure Prompt Shields (``/contentsafety/text:shieldPrompt``),
OpenAI's moderation endpoint (``/v1/moderations``) and Google Model Armor (``/v1/<template>:sanitizeUserPrompt`` and
``:sanitizeModelResponse``) — their answers, their error bodies and their authentication headers.

    with GuardServiceStandIn("lakera") as service:
        guard = LakeraGuard(endpoint=service.url)
        service.plan(Reply(429, retry_after="1"), Reply(500), Slow(3.0), NotJson(), WrongShape())

A text holding :data:`ATTACK` (case-insensitive) is an attack for every stand-in; :data:`HARM` is a harmful text
for OpenAI's moderation stand-in. Each planned step answers one request, in order; with no step left the stand-in
answers normally. Only :data:`KEY` is accepted (401 with the service's error body otherwise). :attr:`requests`
keeps what each request sent: its path, its headers (names lower-cased) and its JSON body.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

KEY = "stand-in-key"
ATTACK = "ignore previous instructions"
HARM = "i will hurt them"
#: Model Armor's template the stand-in serves.
TEMPLATE = "projects/demo/locations/us-central1/templates/standin"
#: Azure's API version the stand-in knows (another one is refused, as Azure refuses an unknown version).
AZURE_VERSION = "2024-09-01"


@dataclass(frozen=True)
class Reply:
    """Answer one request with ``status`` and the service's own error body for it (``Retry-After`` if given;
    ``message`` in place of the body's usual words)."""

    status: int
    retry_after: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class Slow:
    """Wait ``seconds`` before answering normally (a service slower than the guard's time limit)."""

    seconds: float


@dataclass(frozen=True)
class NotJson:
    """Answer 200 with a body that is not JSON (a proxy's HTML page)."""


@dataclass(frozen=True)
class WrongShape:
    """Answer 200 with JSON that is not the service's documented answer."""


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: Any = field(default=None)


# ------------------------------------------------------------------------------------ the services' bodies
def _error_body(kind: str, status: int, message: str | None = None) -> Any:
    """Each service's documented error body for ``status``."""
    words = {401: "Invalid API key", 429: "Too many requests", 500: "Internal error", 503: "Service unavailable"}
    message = message or words.get(status, "Bad request")
    if kind == "lakera":
        return {"error": message}
    if kind == "azure":
        code = {401: "401", 429: "TooManyRequests", 500: "InternalServerError"}.get(status, "InvalidRequestBody")
        return {"error": {"code": code, "message": message, "details": [], "innererror": None}}
    if kind == "openai":
        code = {401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(status)
        return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}
    google = {401: "UNAUTHENTICATED", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}.get(status, "INVALID_ARGUMENT")
    return {"error": {"code": status, "message": message, "status": google}}


def _lakera(body: Any) -> Any:
    text = str(body["messages"][-1]["content"]).lower()
    attack = ATTACK in text
    return {
        "flagged": attack,
        "breakdown": [
            {"project_id": body.get("project_id", "project-default"), "policy_id": "policy-default",
             "detector_id": "detector-lakera-pinj", "detector_type": "prompt_attack", "detected": attack,
             "message_id": len(body["messages"]) - 1},
            {"project_id": body.get("project_id", "project-default"), "policy_id": "policy-default",
             "detector_id": "detector-lakera-pii", "detector_type": "pii/email", "detected": False,
             "message_id": len(body["messages"]) - 1},
        ],
        "metadata": {"request_uuid": str(uuid.uuid4())},
    }  # fmt: skip


def _azure(body: Any) -> Any:
    return {
        "userPromptAnalysis": {"attackDetected": ATTACK in str(body.get("userPrompt", "")).lower()},
        "documentsAnalysis": [{"attackDetected": ATTACK in str(doc).lower()} for doc in body.get("documents", [])],
    }


_OPENAI_CATEGORIES = (
    "harassment", "harassment/threatening", "hate", "hate/threatening", "illicit", "illicit/violent",
    "self-harm", "self-harm/intent", "self-harm/instructions", "sexual", "sexual/minors", "violence",
    "violence/graphic",
)  # fmt: skip


def _openai(body: Any) -> Any:
    text = str(body["input"]).lower()
    scores = dict.fromkeys(_OPENAI_CATEGORIES, 0.0001)
    if HARM in text:
        scores.update({"violence": 0.93, "harassment/threatening": 0.61, "harassment": 0.2})
    categories = {name: score >= 0.5 for name, score in scores.items()}
    return {
        "id": f"modr-{uuid.uuid4().hex[:8]}",
        "model": body.get("model", "omni-moderation-latest"),
        "results": [{
            "flagged": any(categories.values()),
            "categories": categories,
            "category_scores": scores,
            "category_applied_input_types": {name: ["text"] for name in scores},
        }],
    }  # fmt: skip


def _armor(body: Any) -> Any:
    data = body.get("userPromptData") or body.get("modelResponseData") or {}
    attack = ATTACK in str(data.get("text", "")).lower()
    state = "MATCH_FOUND" if attack else "NO_MATCH_FOUND"
    jailbreak: dict[str, Any] = {"executionState": "EXECUTION_SUCCESS", "matchState": state}
    if attack:
        jailbreak["confidenceLevel"] = "MEDIUM_AND_ABOVE"
    return {
        "sanitizationResult": {
            "filterMatchState": state,
            "invocationResult": "SUCCESS",
            "filterResults": {
                "csam": {"csamFilterFilterResult": {"executionState": "EXECUTION_SUCCESS",
                                                    "matchState": "NO_MATCH_FOUND"}},
                "malicious_uris": {"maliciousUriFilterResult": {"executionState": "EXECUTION_SUCCESS",
                                                                "matchState": "NO_MATCH_FOUND"}},
                "pi_and_jailbreak": {"piAndJailbreakFilterResult": jailbreak},
                "rai": {"raiFilterResult": {
                    "executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND",
                    "raiFilterTypeResults": {
                        "dangerous": {"matchState": "NO_MATCH_FOUND"},
                        "harassment": {"matchState": "NO_MATCH_FOUND"},
                    },
                }},
            },
        }
    }  # fmt: skip


_ANSWERS = {"lakera": _lakera, "azure": _azure, "openai": _openai, "armor": _armor}


def _authorised(kind: str, headers: dict[str, str]) -> bool:
    if kind == "azure":
        return headers.get("ocp-apim-subscription-key") == KEY
    return headers.get("authorization") == f"Bearer {KEY}"


def _known_path(kind: str, path: str) -> bool:
    if kind == "lakera":
        return path == "/v2/guard"
    if kind == "azure":
        return path.startswith("/contentsafety/text:shieldPrompt?")
    if kind == "openai":
        return path == "/v1/moderations"
    return path in (f"/v1/{TEMPLATE}:sanitizeUserPrompt", f"/v1/{TEMPLATE}:sanitizeModelResponse")


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        owner = self.server.owner
        headers = {k.lower(): v for k, v in self.headers.items()}
        raw = self.rfile.read(int(headers.get("content-length", "0") or 0))
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        owner.requests.append(Request(self.path, headers, body))
        step = owner.next_step()
        if isinstance(step, Slow):
            time.sleep(step.seconds)
        if isinstance(step, Reply):
            body = _error_body(owner.kind, step.status, step.message)
            self._send(step.status, body, retry_after=step.retry_after)
        elif isinstance(step, NotJson):
            self._send_bytes(200, b"<html><body>Gateway</body></html>", "text/html")
        elif not _known_path(owner.kind, self.path):
            self._send(404, _error_body(owner.kind, 404))
        elif not _authorised(owner.kind, headers):
            self._send(401, _error_body(owner.kind, 401))
        elif owner.kind == "azure" and f"api-version={AZURE_VERSION}" not in self.path:
            self._send(400, _error_body(owner.kind, 400))
        elif isinstance(step, WrongShape):
            self._send(200, {"status": "ok", "results": "none"})
        else:
            self._send(200, _ANSWERS[owner.kind](body))

    def _send(self, status: int, payload: Any, *, retry_after: str | None = None) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), "application/json", retry_after=retry_after)

    def _send_bytes(self, status: int, data: bytes, kind: str, *, retry_after: str | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            if retry_after is not None:
                self.send_header("Retry-After", retry_after)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the guard gave up waiting (its time limit): nothing to answer


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a slow answer the guard stopped waiting for does not hold the test up
    owner: GuardServiceStandIn


class GuardServiceStandIn:
    """A stand-in of one service: ``kind`` is ``lakera``, ``azure``, ``openai`` or ``armor``."""

    def __init__(self, kind: str) -> None:
        if kind not in _ANSWERS:
            raise ValueError(f"no stand-in for {kind!r}")
        self.kind = kind
        self.requests: list[Request] = []
        self._steps: deque[Reply | Slow | NotJson | WrongShape] = deque()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        """The endpoint a guard is given: the service's base (OpenAI's includes ``/v1``, as its API base does)."""
        return f"http://127.0.0.1:{self.port}" + ("/v1" if self.kind == "openai" else "")

    def plan(self, *steps: Reply | Slow | NotJson | WrongShape) -> None:
        """The answers to the next requests, one step each, before the normal ones."""
        with self._lock:
            self._steps.extend(steps)

    def next_step(self) -> Reply | Slow | NotJson | WrongShape | None:
        with self._lock:
            return self._steps.popleft() if self._steps else None

    def __enter__(self) -> GuardServiceStandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def stand_in(kind: str) -> Iterator[GuardServiceStandIn]:
    """``with stand_in("openai") as service:`` — a running stand-in, stopped afterwards."""
    with GuardServiceStandIn(kind) as service:
        yield service
