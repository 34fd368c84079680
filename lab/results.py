"""A lab case's result (:class:`CaseResult`, with the processors that did something to it) and the results file.

The results file is what makes a lab run resumable: one JSON line per finished case, appended with a single
``write`` as soon as the case finishes (a kill cannot interleave two), fsync'd at most every
:data:`FSYNC_INTERVAL` seconds; :func:`read_results` reads it back, ignoring a last line a kill tore.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lab.json_lines import file_lines

Outcome = Literal["blocked", "modified", "passed", "error"]
FSYNC_INTERVAL = 0.5


@dataclass
class Hit:
    """A processor that did something to a case: ``outcome`` is aborted, changed, dropped or raised."""

    processor: str
    hook: str
    outcome: str
    detail: str | None = None


@dataclass
class TurnResult:
    """What one user turn of a conversation case did (``turn`` counts from 1): its verdict, the processors that
    tripped in it, why, and the reply the user got."""

    turn: int
    user: str
    outcome: Outcome
    tripped: list[str] = field(default_factory=list)
    reason: str | None = None
    reply: str = ""
    latency_ms: float = 0.0


@dataclass
class CaseResult:
    """What one case did. ``tripped`` lists the processors that aborted, in the order they did.

    A conversation case (``Case.conversation``) also says how each turn went (``conversation``, the turns played:
    the lab stops at the first blocked or broken one) and ``tripped_turn``: the turn a processor stopped (or that
    broke), None when none did."""

    id: str
    text: str
    label: str | None
    category: str
    lang: str
    expect: str | None
    outcome: Outcome
    tripped: list[str] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    reason: str | None = None
    reply: str = ""
    latency_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = None
    error: str | None = None
    attempts: int = 1
    #: ``model`` mode: what the model said and the tools returned (base64 of :meth:`Recording.to_bytes`), so a
    #: ``replay`` run can put a changed chain around the same answers without calling the model.
    recording: str | None = None
    #: ``model`` and ``replay`` mode (:mod:`lab.assertions`): ``blocked``, ``refused``, ``succeeded``, ``resisted``
    #: (attacks), ``passed``, ``failed`` (benign) or ``error``; None in ``guardrails`` mode and in older results.
    verdict: str | None = None
    #: Did the model decline (the offline refusal detector)? None when no answer was judged.
    refused: bool | None = None
    #: Each assertion's result: ``{"type", "value", "passed": true|false|null, "reason"}``.
    assertions: list[dict[str, Any]] = field(default_factory=list)
    #: A conversation case: the turn (from 1) that was blocked or broke, None when every turn went through.
    tripped_turn: int | None = None
    #: A conversation case: each turn played, in order (empty for a one-call case).
    conversation: list[TurnResult] = field(default_factory=list)
    #: The score each scoring guard gave the case, by processor id (its highest in the run: the one its threshold
    #: decided on), for passing cases too; what the lab's histograms, curves and thresholds are made of.
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def changed(self) -> list[str]:
        """Processors that changed or dropped something (without aborting)."""
        return unique_in_order(hit.processor for hit in self.hits if hit.outcome in ("changed", "dropped"))

    @property
    def caught_by(self) -> list[str]:
        """Processors that tripped or changed the case: what the attack × processor matrix counts."""
        return unique_in_order(hit.processor for hit in self.hits if hit.outcome in ("aborted", "changed", "dropped"))

    @property
    def as_expected(self) -> bool | None:
        """Did the case do what it expects (None when it expects nothing)?"""
        if self.expect is None:
            return None
        if self.expect in ("blocked", "passed", "modified"):
            return self.outcome == self.expect
        return self.expect in self.tripped

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON data (what :func:`dataclasses.asdict` gives, ~20x faster: a 1,000-case run
        saves every result, some on the studio's loop)."""
        data = dict(self.__dict__)
        data["tripped"] = list(self.tripped)
        data["hits"] = [dict(hit.__dict__) for hit in self.hits]
        data["assertions"] = [dict(item) for item in self.assertions]
        data["conversation"] = [{**turn.__dict__, "tripped": list(turn.tripped)} for turn in self.conversation]
        data["scores"] = dict(self.scores)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CaseResult:
        fields = {key: value for key, value in data.items() if key in cls.__dataclass_fields__}
        fields["hits"] = [Hit(**hit) for hit in data.get("hits", [])]
        fields["conversation"] = [TurnResult(**turn) for turn in data.get("conversation") or []]
        return cls(**fields)


def unique_in_order(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def read_results(path: Path) -> tuple[dict[str, Any] | None, dict[str, CaseResult]]:
    """The header and finished cases of a results file. A torn last line (a kill mid-write) is ignored."""
    header: dict[str, Any] | None = None
    results: dict[str, CaseResult] = {}
    if not path.exists():
        return header, results
    for _number, line in file_lines(path):  # on "\n" only: a case's text may hold U+2028
        try:
            data = json.loads(line) if line is not None else None
        except json.JSONDecodeError:
            continue  # only a line cut by a kill can be torn; its case runs again
        if not isinstance(data, dict):
            continue
        if data.get("kind") == "header":
            header = data
        elif "id" in data and "outcome" in data:
            results[str(data["id"])] = CaseResult.from_dict(data)
    return header, results


class ResultsFile:
    """Appends one JSON line per finished case with a single ``os.write`` (a kill cannot interleave two)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._synced = time.monotonic()
        # A torn last line from a killed run must not glue itself to the next record.
        if path.stat().st_size:
            with path.open("rb") as file:
                file.seek(-1, os.SEEK_END)
                if file.read(1) != b"\n":
                    os.write(self._fd, b"\n")

    def append(self, data: dict[str, Any]) -> None:
        os.write(self._fd, (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8"))
        now = time.monotonic()
        if now - self._synced >= FSYNC_INTERVAL:
            os.fsync(self._fd)
            self._synced = now

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.fsync(self._fd)
        os.close(self._fd)
