"""A real OTLP/HTTP trace receiver for tests (127.0.0.1, free port): what a collector, Jaeger or Phoenix would get.

It accepts ``POST /v1/traces`` with a protobuf ``ExportTraceServiceRequest`` (opentelemetry-proto's own message),
decodes it and keeps every span, flattened with its resource and attributes as plain Python values::

    with OtlpReceiver() as receiver:
        ... export to receiver.endpoint ...
        receiver.wait_for(lambda spans: any(s.name == "invoke_agent a" for s in spans))
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue


@dataclass
class ReceivedSpan:
    name: str
    trace_id: str
    span_id: str
    parent_span_id: str
    kind: int
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    resource: dict[str, Any]
    scope: str
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    status_code: int = 0


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return tuple(_value(v) for v in value.array_value.values)
    if kind == "kvlist_value":
        return _attributes(value.kvlist_value.values)
    return getattr(value, kind) if kind else None


def _attributes(pairs: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    pair: KeyValue
    for pair in pairs:
        out[pair.key] = _value(pair.value)
    return out


class OtlpReceiver:
    """An OTLP/HTTP (protobuf) endpoint on a thread. ``endpoint`` is the full traces URL."""

    def __init__(self) -> None:
        self.spans: list[ReceivedSpan] = []
        self.requests: list[dict[str, str]] = []  # the headers of each export
        self.bodies: list[bytes] = []  # each export's bytes as they arrived (what a privacy check must search)
        self.rejected: list[str] = []
        self._changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
                    receiver._reject(f"{self.path} {self.headers.get('Content-Type')}")
                    self.send_response(404)
                    self.end_headers()
                    return
                request = ExportTraceServiceRequest()
                request.ParseFromString(body)
                reply = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)
                receiver._received(dict(self.headers.items()), request, body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="otlp-receiver", daemon=True)

    @property
    def endpoint(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1/traces"

    @property
    def base_url(self) -> str:
        """For ``OTEL_EXPORTER_OTLP_ENDPOINT`` (the exporter appends ``/v1/traces``)."""
        return self.endpoint.removesuffix("/v1/traces")

    def _reject(self, what: str) -> None:
        with self._changed:
            self.rejected.append(what)
            self._changed.notify_all()

    def _received(self, headers: dict[str, str], request: ExportTraceServiceRequest, body: bytes) -> None:
        spans: list[ReceivedSpan] = []
        for resource_spans in request.resource_spans:
            resource = _attributes(resource_spans.resource.attributes)
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    spans.append(
                        ReceivedSpan(
                            name=span.name,
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_span_id=span.parent_span_id.hex(),
                            kind=span.kind,
                            start_ns=span.start_time_unix_nano,
                            end_ns=span.end_time_unix_nano,
                            attributes=_attributes(span.attributes),
                            resource=resource,
                            scope=scope_spans.scope.name,
                            events=[(e.name, _attributes(e.attributes)) for e in span.events],
                            status_code=span.status.code,
                        )
                    )
        with self._changed:
            self.requests.append(headers)
            self.bodies.append(body)
            self.spans.extend(spans)
            self._changed.notify_all()

    def wait_for(self, condition: Callable[[list[ReceivedSpan]], bool], timeout: float = 20.0) -> list[ReceivedSpan]:
        """Block until ``condition(spans)`` holds (raises TimeoutError, with what arrived, if it never does)."""
        with self._changed:
            if not self._changed.wait_for(lambda: condition(list(self.spans)), timeout):
                raise TimeoutError(f"spans received: {[s.name for s in self.spans]}; rejected: {self.rejected}")
            return list(self.spans)

    def start(self) -> OtlpReceiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def __enter__(self) -> OtlpReceiver:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
