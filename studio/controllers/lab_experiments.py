"""The lab controller's experiments over more than one lab run: A/B of two designs (saved designs, or two
versions of one design) over one corpus, run one after the other and compared; and a replay of a ``model`` lab
run's recorded replies through the design as it is now, with no model call, compared with the run it replays.

The designs to choose from (:meth:`LabExperiments.load_design_choices`) are the studio's current design, the
designs saved in the store, every version of a design that a lab run or a chat run ran with (one per
fingerprint, newest first), and the design files the user loaded for A/B (:meth:`LabExperiments.add_design_file`:
a colleague's exported design, read through the same validation as File → Open design: a malformed file gets
the same error and nothing else changes; a key in it is refused when the run starts, as for any design). An A/B
run is two ordinary lab runs (each kept, listed, resumable and exportable) followed by their comparison, as
"Compare A/B" of two selected lab runs gives it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.controllers.lab_corpora import LabCorpora
from studio.controllers.lab_events import LabEvents
from studio.controllers.lab_records import case_of, recordings_of
from studio.controllers.lab_running import LabRunning, Prepared
from studio.controllers.lab_stored import LabStoredRuns
from studio.design.agent_design import AgentDesign, DesignError, load_design
from studio.error_texts import error_text
from studio.i18n import translate
from studio.lab.design import design_fingerprint

#: The key of the studio's current design among the choices.
CURRENT = "current"


@dataclass(frozen=True)
class DesignChoice:
    """A design the user may pick for A or B: ``key`` is ``current``, ``saved:<id>``, ``version:<fingerprint>`` or
    ``file:<path>``; ``design_json`` is None for the current design (read when the run starts, as it is then)."""

    key: str
    label: str
    design_json: str | None = None


class LabExperiments:
    """A/B of two designs and replays (see the module docstring). One collaborator of
    :class:`studio.controllers.lab_controller.LabController`: each experiment is lab runs of :class:`LabRunning`
    followed by a comparison of :class:`LabStoredRuns`."""

    def __init__(
        self,
        events: LabEvents,
        *,
        store: Any,
        corpora: LabCorpora,
        live: LabRunning,
        stored: LabStoredRuns,
        current_design: Callable[[], AgentDesign | None],
    ) -> None:
        self._events = events
        self._store = store
        self._corpora = corpora
        self._live = live
        self._stored = stored
        self._current_design = current_design
        self._choices: dict[str, DesignChoice] = {}
        #: Design files loaded for A/B, kept across reloads of the choices (by key, in the order loaded).
        self._files: dict[str, DesignChoice] = {}

    # ----------------------------------------------------------------------------------------- designs
    async def load_design_choices(self) -> list[DesignChoice]:
        """The current design, the saved designs and the versions runs ran with (see the module docstring)."""
        choices = [DesignChoice(CURRENT, translate("LabController", "Current design (as it is now)"))]
        seen: set[str] = set()
        current = self._current_design()
        if current is not None:
            seen.add(design_fingerprint(current))
        for record in await self._store.list_designs():
            design = _readable(record.json_text)
            if design is None:
                continue
            fingerprint = design_fingerprint(design)
            if fingerprint in seen:
                continue  # the current design as saved (autosave), or a copy of a design listed already
            seen.add(fingerprint)
            label = translate("LabController", "{name} (saved {when})").format(
                name=record.name, when=f"{record.updated_at.astimezone():%m-%d %H:%M}"
            )
            choices.append(DesignChoice(f"saved:{record.id}", label, record.json_text))
        for version in await self._store.lab_runs.design_versions():
            design = _readable(version.json_text)
            if design is None:
                continue
            fingerprint = design_fingerprint(design)
            if fingerprint in seen:
                continue  # the same chain as a choice already listed
            seen.add(fingerprint)
            when = f"{version.last_run_at.astimezone():%m-%d %H:%M}"  # as the lab runs list writes it
            label = (
                translate("LabController", "{name} (as in lab run {when})")
                if version.last_run_in == "lab"
                else translate("LabController", "{name} (as in a chat run {when})")
            ).format(name=design.name, when=when)
            choices.append(DesignChoice(f"version:{fingerprint}", label, version.json_text))
        choices.extend(self._files.values())
        choices = _told_apart(choices)
        self._choices = {choice.key: choice for choice in choices}
        self._events.design_choices_changed.emit(choices)
        return choices

    async def add_design_file(self, path: Path) -> DesignChoice | None:
        """Offer a design file for A and B (read off the UI thread, through
        :func:`studio.design.agent_design.load_design` as File → Open design reads it: a malformed file is refused with
        the same error, said with ``failed``, and the choices stay as they were; a key in it is refused when the run
        starts, before A or B runs). The file is read now: a later change to it is not run unless it is loaded again.
        Returns the new choice (also offered through ``design_choices_changed``)."""
        try:
            design, where = await asyncio.to_thread(_load_file, path)
        except DesignError as error:
            self._events.failed.emit(error_text(error))
            return None
        key = f"file:{where}"
        label = translate("LabController", "{name} (file {file})").format(name=design.name, file=path.name)
        choice = DesignChoice(key, label, design.to_json())
        self._files.pop(key, None)  # loaded again: the file as it is now, listed last
        self._files[key] = choice
        choices = [c for c in self._choices.values() if c.key != key] or [
            DesignChoice(CURRENT, translate("LabController", "Current design (as it is now)"))
        ]
        choices.append(choice)
        self._choices = {c.key: c for c in choices}
        self._events.design_choices_changed.emit(choices)
        self._events.status_message.emit(
            translate("LabController", "Design {name} read from {file}").format(name=design.name, file=path.name)
        )
        return choice

    def design_choices(self) -> list[DesignChoice]:
        """The choices last loaded (see :meth:`load_design_choices`)."""
        return list(self._choices.values())

    def _chosen_design(self, key: str) -> AgentDesign | None:
        if key == CURRENT:
            return self._current_design()
        choice = self._choices.get(key)
        return _readable(choice.design_json) if choice is not None and choice.design_json else None

    # ----------------------------------------------------------------------------------------- A/B
    def start_ab(self, a_key: str, b_key: str, *, mode: str = "guardrails", concurrency: int = 4) -> bool:
        """Run the chosen corpora on design A, then on design B, then compare them (``compared``). False, said,
        when it cannot start (a run going on, no corpus, a design that cannot be built or whose key is withheld)."""
        cases = self._live.cases_to_start(mode)
        if cases is None:
            return False
        first, second = self._chosen_design(a_key), self._chosen_design(b_key)
        if first is None or second is None:
            self._events.failed.emit(translate("LabController", "Choose a design for A and for B."))
            return False
        if a_key == b_key:  # two runs of one choice compare nothing (two lab runs of it compare from the list)
            self._events.failed.emit(
                translate(
                    "LabController",
                    "A and B are the same design: pick another for one of them (a saved design, a version an "
                    "earlier run ran with, or From file…).",
                )
            )
            return False
        corpora = self._corpora.described()
        names = ", ".join(str(item["name"]) for item in corpora)
        prepared = []
        for letter, design in zip("AB", (first, second), strict=True):
            name = translate("LabController", "{letter}: {design} · {corpora}").format(
                letter=letter, design=design.name, corpora=names
            )
            one = self._live.prepare(design, cases, mode=mode, concurrency=concurrency, name=name, corpora=corpora)
            if one is None:
                return False  # both are built before either runs: a broken B is said before A costs anything
            prepared.append(one)
        self._live.run_as_the_lab_task(self._ab(prepared[0], prepared[1], (first, second), mode), "lab A/B")
        return True

    async def _ab(
        self,
        a: Prepared,
        b: Prepared,
        designs: tuple[AgentDesign, AgentDesign],
        mode: str,
    ) -> None:
        for design in designs:  # both designs' MCP servers start before A runs (a broken B costs nothing)
            if not await self._live.servers_ready(design, mode):
                return
        for run, lab_run_id, create in (a, b):
            self._live.begin(run, lab_run_id, [])
            if await self._live.drive(run, create=create) != "finished":
                return  # cancelled: no B (or no comparison); what ran is kept and can be resumed
        await self._stored.compare_runs(a[1], b[1])

    # ----------------------------------------------------------------------------------------- replay
    def replay(self, lab_run_id: str, *, concurrency: int | None = None) -> bool:
        """Re-run a ``model`` (or ``replay``) lab run's cases from their recorded replies through the current
        design, with no model call, then compare the two (``compared``). False, said, when it cannot start."""
        if self._live.refuse_while_running():
            return False
        design = self._current_design()
        if design is None:
            self._events.failed.emit(translate("LabController", "There is no design to run."))
            return False
        self._live.run_as_the_lab_task(self._replay(lab_run_id, design, concurrency), f"lab replay {lab_run_id}")
        return True

    async def _replay(self, lab_run_id: str, design: AgentDesign, concurrency: int | None) -> None:
        loaded = await self._store.lab_runs.load_lab_run(lab_run_id)
        if loaded is None:
            self._live.stand_down()
            self._events.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return
        record, rows = loaded
        recordings = recordings_of(rows)
        if not recordings:
            self._live.stand_down()
            self._events.failed.emit(
                translate(
                    "LabController",
                    "This lab run has no recorded replies to replay: only a run in model mode records them.",
                )
            )
            return
        try:
            cases = [case_of(row) for row in rows if row.case_id in recordings]
        except ValueError as error:
            self._live.stand_down()
            self._events.failed.emit(
                translate("LabController", "The lab run cannot be replayed: {error}").format(error=error)
            )
            return
        name = translate("LabController", "Replay of {name} on {design}").format(name=record.name, design=design.name)
        prepared = self._live.prepare(
            design,
            cases,
            mode="replay",
            concurrency=concurrency or int(record.settings.get("concurrency", 4)),
            recordings=recordings,
            name=name,
            corpora=record.corpus,
            settings={"replay_of": lab_run_id},
        )
        if prepared is None or not await self._live.servers_ready(design, "replay"):
            self._live.stand_down()
            return
        run, replay_id, create = prepared
        self._live.begin(run, replay_id, [])
        left_out = len(rows) - len(cases)
        if left_out:
            self._events.status_message.emit(
                translate("LabController", "Left out %n case(s) with no recorded reply.", None, left_out)
            )
        if await self._live.drive(run, create=create) == "finished":
            await self._stored.compare_runs(lab_run_id, replay_id)


def _load_file(path: Path) -> tuple[AgentDesign, Path]:
    return load_design(path), path.resolve()


def _readable(json_text: str) -> AgentDesign | None:
    try:
        return AgentDesign.from_json(json_text)
    except DesignError:
        return None


def _told_apart(choices: list[DesignChoice]) -> list[DesignChoice]:
    """Choices of designs with the same name (a copy saved under the same name, two versions) get what differs:
    their chains' sizes, else a short fingerprint, so a user can tell A from B without opening them."""
    by_name: dict[str, list[tuple[DesignChoice, AgentDesign]]] = {}
    for choice in choices:
        design = _readable(choice.design_json) if choice.design_json else None
        if design is not None:
            by_name.setdefault(design.name, []).append((choice, design))
    told: dict[str, str] = {}
    for same in (group for group in by_name.values() if len(group) > 1):
        shapes = {choice.key: _shape(design) for choice, design in same}
        distinct = len(set(shapes.values())) == len(same)
        for choice, design in same:
            detail = shapes[choice.key] if distinct else design_fingerprint(design)[:6]
            told[choice.key] = f"{choice.label} · {detail}"
    return [DesignChoice(c.key, told.get(c.key, c.label), c.design_json) for c in choices]


def _shape(design: AgentDesign) -> str:
    """A design's chains in a few words: "input 3, output 2, tools 1"."""
    return translate("LabController", "input {input}, output {output}, tools {tools}").format(
        input=len(design.input), output=len(design.output), tools=len(design.tools)
    )


__all__ = ["CURRENT", "DesignChoice", "LabExperiments"]
