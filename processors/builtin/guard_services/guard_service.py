"""What the hosted guard services share: the lanes they check, the call, the verdict, fail-open or fail-closed.

A service guard (:class:`GuardService`) sends one text at a time to its service and acts on the answer:

- **input lane** (``process_input``): the user's message (the last one, unless ``last_message_only`` is off);
- **tool results** (``process_tool_result``, output lane): each tool's result before the model reads it — the
  indirect prompt injection a web page or a file carries;
- **answers** (``process_output_result``, output lane), for services that screen model responses.

A flagged text ends the run with a tripwire (``strategy="block"``) or is reported and let through (``"warn"``);
either way the service's score goes into the tripwire's ``metadata["score"]`` and the processor's
``state["last_score"]`` (with ``max_score`` and the last ``scores``), its categories into ``metadata["categories"]``.

A call that gives no verdict (:mod:`.http_call`: time limit, 5xx, 429 beyond the time limit, 401, a malformed
answer, no key) follows ``on_failure``: ``fail-closed`` (the default) stops the run with a tripwire whose code names
the failure (``"LakeraGuard.timeout"``), ``fail-open`` lets the text through and counts the failure in the state
(``failures``, ``last_failure``). Every tripwire carries a code and its values; the studio translates codes.

The key is never an option: it comes from :mod:`.keys` for the endpoint the call goes to.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.guard_services.http_call import ServiceFailure, post_json
from processors.builtin.guard_services.keys import ServiceKey, normalise_url, service_key
from processors.builtin.text_checks import check_messages
from processors.builtin.violation_reports import report_violation
from processors.messages import Message
from processors.pipeline.processor import HookArgs, ProcessInputArgs, ProcessOutputResultArgs, ProcessToolResultArgs

__all__ = ["SERVICE_TEXTS", "GuardService", "GuardServiceOptions", "ServiceRequest", "ServiceVerdict"]

logger = logging.getLogger(__name__)

#: Scores kept in the processor's state per run (the lab and the inspector read them; a long run keeps the last).
STATE_SCORES = 200

Role = Literal["user", "tool", "assistant"]

#: The sentences every service guard writes, by key (the failure keys are :data:`.http_call.FAILURE_KINDS`).
SERVICE_TEXTS: Mapping[str, str] = {
    "flagged_input": "{service} flagged the input: {categories} (score {score:.2f})",
    "flagged_answer": "{service} flagged the answer: {categories} (score {score:.2f})",
    "flagged_tool": "{service} flagged the result of tool '{tool}': {categories} (score {score:.2f})",
    "timeout": "{service} gave no verdict within {seconds:g} s; blocked (fail-closed)",
    "rate_limited": "{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)",
    "server_error": "{service} failed (HTTP {status}); blocked (fail-closed)",
    "unauthorized": "{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)",
    "rejected": "{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)",
    "unreachable": "{service} at {host} cannot be reached ({detail}); blocked (fail-closed)",
    "malformed": "{service} answered in a form it does not document; blocked (fail-closed)",
    "no_key": "No API key for {service} at {host}: save one with the Key button, or set {variable}; "
    "blocked (fail-closed)",
    "no_endpoint": "{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)",
}


@dataclass(frozen=True)
class ServiceRequest:
    """What one call sends: where, with which headers (the key among them), and the JSON body."""

    url: str
    headers: Mapping[str, str]
    body: Any


@dataclass(frozen=True)
class ServiceVerdict:
    """A service's answer about one text: flagged or not, a score in [0, 1], the categories it named."""

    flagged: bool
    score: float
    categories: tuple[str, ...] = ()
    #: What else the service said that a reader may want (its request id, the detectors it ran ...).
    details: Mapping[str, Any] = field(default_factory=dict)


class GuardServiceOptions(ProcessorOptions):
    """The options every service guard has; each guard's ``Options`` adds its own and sets ``endpoint``'s default."""

    endpoint: str = Field(default="", description="The service's address; the API key is bound to it")
    time_limit: float = Field(
        default=5.0, gt=0.0, le=120.0, description="Seconds to wait for a verdict, waits for Retry-After included"
    )
    on_failure: Literal["fail-closed", "fail-open"] = Field(
        default="fail-closed",
        description="When the service gives no verdict (time limit, error, rate limit): block, or let the text through",
    )
    strategy: Literal["block", "warn"] = Field(default="block", description="block or warn")
    last_message_only: bool = Field(default=True, description="Check only the last user message")
    check_tool_results: bool = Field(default=True, description="In the output lane: check tool results too")


class GuardService(BuiltinProcessor):
    """Base of the hosted guard services (see the module). A subclass sets ``key_binding`` and ``service``, writes
    :meth:`request` and :meth:`read`, and defines ``process_output_result`` when its service screens answers."""

    texts: ClassVar[Mapping[str, str]] = SERVICE_TEXTS
    #: How its API key is found and bound (:mod:`.keys`).
    key_binding: ClassVar[ServiceKey]
    #: The service's name as its maker writes it (a brand: the same in every language).
    service: ClassVar[str] = ""
    Options = GuardServiceOptions
    options: GuardServiceOptions

    # ------------------------------------------------------------------------------------ the service's API
    def request(self, text: str, role: Role, key: str) -> ServiceRequest:
        """The call that asks the service about ``text`` (``role``: whose text it is)."""
        raise NotImplementedError

    def read(self, answer: Any, role: Role) -> ServiceVerdict:
        """The verdict in the service's answer; raises ``ServiceFailure("malformed")`` for any other shape."""
        raise NotImplementedError

    @property
    def endpoint(self) -> str:
        """The endpoint the calls go to, without a trailing slash."""
        return self.options.endpoint.strip().rstrip("/")

    @property
    def host(self) -> str:
        """The endpoint's host, as a person is shown it (never the key)."""
        endpoint = self.endpoint
        return normalise_url(endpoint).split("://", 1)[-1].split("/", 1)[0] if endpoint else ""

    async def screen(self, text: str, role: Role = "user") -> ServiceVerdict:
        """Ask the service about one text; raises :class:`ServiceFailure` when it gives no verdict."""
        if not self.endpoint:
            raise ServiceFailure("no_endpoint")
        key = service_key(self.key_binding, self.endpoint)
        if not key:
            raise ServiceFailure("no_key")
        call = self.request(text, role, key)
        try:
            answer = await post_json(call.url, headers=call.headers, body=call.body, time_limit=self.options.time_limit)
        except ServiceFailure as failure:
            if key in failure.detail:  # a service that echoes the key: it must not reach a log or a stored run
                failure.detail = failure.detail.replace(key, "***")
            raise
        return self.read(answer, role)

    # -------------------------------------------------------------------------------------------- hooks
    async def process_input(self, args: ProcessInputArgs) -> list[Message]:
        return await check_messages(
            args.messages,
            ("user",),
            lambda message, text: self._check(args, message, text, "user"),
            last_only=self.options.last_message_only,
        )

    async def process_tool_result(self, args: ProcessToolResultArgs) -> None:
        """Screen a tool's result before the model reads it (indirect prompt injection)."""
        if not self.options.check_tool_results:
            return
        result = args.result
        text = result if isinstance(result, str) else json.dumps(result, default=str, ensure_ascii=False)
        if text:
            await self._verdict(args, text, "tool", tool=args.tool_name)

    async def check_answer(self, args: ProcessOutputResultArgs) -> list[Message]:
        """Screen the completed answer: a subclass's ``process_output_result`` when its service screens answers."""
        return await check_messages(
            args.messages,
            ("assistant",),
            lambda message, text: self._check(args, message, text, "assistant"),
            last_only=True,
        )

    async def _check(self, args: HookArgs, message: Message, text: str, role: Role) -> Message:
        await self._verdict(args, text, role)
        return message

    async def _verdict(self, args: HookArgs, text: str, role: Role, *, tool: str | None = None) -> None:
        try:
            verdict = await self.screen(text, role)
        except ServiceFailure as failure:
            await self._failed(args, failure)
            return
        self._record(args, verdict.score, role, verdict.flagged)
        if not verdict.flagged:
            return
        key = {"user": "flagged_input", "assistant": "flagged_answer"}.get(role, "flagged_tool")
        params: dict[str, Any] = {
            "service": self.service,
            "categories": ", ".join(verdict.categories) or "flagged",
            "score": verdict.score,
        }
        if key == "flagged_tool":
            params["tool"] = tool
        tripwire = self.tripwire(key, **params)
        metadata: dict[str, Any] = {
            "score": verdict.score,
            "categories": list(verdict.categories),
            "service": type(self).type_name,
            "where": {"user": "input", "assistant": "answer"}.get(role, "tool_result"),
            "endpoint": self.host,
            **dict(verdict.details),
        }
        if self.options.strategy == "block":
            tripwire.metadata = metadata
            raise tripwire
        logger.warning("%s", tripwire.reason)
        outcome = report_violation(self, args.processor_id, tripwire.reason, metadata)
        if outcome is not None:
            await outcome

    async def _failed(self, args: HookArgs, failure: ServiceFailure) -> None:
        """No verdict: counted in the state, then fail-open (logged, let through) or fail-closed (a tripwire)."""
        state = args.state
        state["failures"] = state.get("failures", 0) + 1
        state["last_failure"] = failure.kind
        if self.options.on_failure == "fail-open":
            logger.warning("%s gave no verdict (%s); the text goes through (fail-open)", self.service, failure)
            return
        params: dict[str, Any] = {
            "service": self.service,
            "host": self.host,
            "status": failure.status or 0,
            "detail": failure.detail,
            "seconds": self.options.time_limit,
            "variable": self.key_binding.variable,
        }
        tripwire = self.tripwire(failure.kind, **params)
        tripwire.metadata = {
            "failure": failure.kind,
            "status": failure.status,
            "service": type(self).type_name,
            "endpoint": self.host,
        }
        raise tripwire

    @staticmethod
    def _record(args: HookArgs, score: float, role: Role, flagged: bool) -> None:
        """The score beside the verdict, in the processor's state: what traces and the lab read."""
        state = args.state
        state["checked"] = state.get("checked", 0) + 1
        if flagged:
            state["flagged"] = state.get("flagged", 0) + 1
        state["last_score"] = score
        state["max_score"] = max(state.get("max_score", 0.0), score)
        scores = state.setdefault("scores", [])
        scores.append({"where": role, "score": score, "flagged": flagged})
        del scores[:-STATE_SCORES]


def malformed(what: str) -> ServiceFailure:
    """The failure of an answer not in the documented shape (``what`` says which part was missing or wrong)."""
    return ServiceFailure("malformed", detail=what)


def as_mapping(value: Any, what: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else a malformed-answer failure naming ``what``."""
    if not isinstance(value, Mapping):
        raise malformed(what)
    return value
