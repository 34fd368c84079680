"""Side by side: each guard of a design alone, on the same cases (issue 30 item 4).

A team choosing between guards compares them one by one, not as a chain (in a chain a guard after the one that
blocked never sees the case). :func:`design_guards` lists a design's guards: the enabled entries of its input lane
and those of its output lane that read tool results (``process_tool_result``), each named by the processor id it
has in the whole design (what lab results and the chain editor call it); :func:`guard_alone` is the design with only
that entry in its lane (the error lane kept: it retries the model, it blocks nothing). The lab then runs each of
those designs on the cases as it runs any design, and :func:`lab.metrics.guard_columns` makes their columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lab.results import CaseResult
from processors.builtin.registry import Catalogue
from studio.design.agent_design import AgentDesign
from studio.design.build import build_chains

__all__ = ["Guard", "design_guards", "design_processors", "guard_alone", "pick_guards", "renamed"]


@dataclass(frozen=True)
class Guard:
    """A guard of a design: its processor id in the whole design, the chain entry's uid, its type and lane, and
    the id it runs under alone (a second detector is ``prompt-injection-detector-2`` in the design, not alone)."""

    id: str
    uid: str
    type: str
    lane: str
    alone_id: str = ""


def _guards(design: AgentDesign, catalogue: Catalogue) -> tuple[list[Guard], list[Guard]]:
    """The design's guards (see the module docstring) and every enabled entry, both as :class:`Guard`."""
    guards: list[Guard] = []
    every: list[Guard] = []
    for lane, built in build_chains(design, catalogue).items():
        for item in built:
            guard = Guard(str(item.processor.id), item.entry.uid, item.entry.type, lane, item.default_id)
            every.append(guard)
            if lane == "input" or (lane == "output" and callable(getattr(item.processor, "process_tool_result", None))):
                guards.append(guard)
    return guards, every


def design_guards(design: AgentDesign, catalogue: Catalogue) -> list[Guard]:
    """The input and tool-result guards of ``design``, in chain order."""
    return _guards(design, catalogue)[0]


def design_processors(design: AgentDesign, catalogue: Catalogue) -> dict[str, Guard]:
    """Every enabled entry of ``design`` by the processor id it runs under (what lab results name)."""
    return {guard.id: guard for guard in _guards(design, catalogue)[1]}


def pick_guards(design: AgentDesign, catalogue: Catalogue, ids: Sequence[str]) -> list[Guard]:
    """The enabled entries named by processor ids (any lane), in the order asked. Raises ``ValueError`` naming an
    id the design has not, and the ids it has."""
    every = design_processors(design, catalogue)
    missing = [name for name in ids if name not in every]
    if missing:
        have = ", ".join(every) or "none"
        raise ValueError(f"the design has no processor {', '.join(missing)} (it has: {have})")
    return [every[name] for name in dict.fromkeys(ids)]


def guard_alone(design: AgentDesign, guard: Guard) -> AgentDesign:
    """A copy of ``design`` whose input and output lanes hold only ``guard``'s entry (its error lane kept)."""
    alone = design.model_copy(deep=True)
    alone.input = [entry for entry in alone.input if entry.uid == guard.uid]
    alone.output = [entry for entry in alone.output if entry.uid == guard.uid]
    return alone


def renamed(result: CaseResult, guard: Guard) -> CaseResult:
    """``result`` of ``guard``'s run alone with the guard under its id in the whole design (its tripwires, hits and
    score), so a stored run, a report and the threshold slider name the entry it came from. Changes ``result``."""
    if guard.alone_id and guard.alone_id != guard.id:
        result.tripped = [guard.id if name == guard.alone_id else name for name in result.tripped]
        for hit in result.hits:
            if hit.processor == guard.alone_id:
                hit.processor = guard.id
        result.scores = {guard.id if name == guard.alone_id else name: score for name, score in result.scores.items()}
    return result
