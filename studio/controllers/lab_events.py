"""What the lab controller's collaborators share: the controller's signals, seen through :class:`LabEvents` (each
collaborator tells the view through them, and imports no other collaborator's class for it), and the lab run on
show (:class:`OnShow`), which a run that starts and a stored run that is opened both replace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from PySide6.QtCore import SignalInstance

from lab.results import CaseResult
from studio.store.database import LabRunRecord


class LabEvents(Protocol):
    """The signals of :class:`studio.controllers.lab_controller.LabController` (documented there)."""

    @property
    def status_message(self) -> SignalInstance: ...
    @property
    def failed(self) -> SignalInstance: ...
    @property
    def run_shown(self) -> SignalInstance: ...
    @property
    def results_reset(self) -> SignalInstance: ...
    @property
    def results_added(self) -> SignalInstance: ...
    @property
    def progress_changed(self) -> SignalInstance: ...
    @property
    def run_started(self) -> SignalInstance: ...
    @property
    def run_ended(self) -> SignalInstance: ...
    @property
    def case_thread_ready(self) -> SignalInstance: ...
    @property
    def compared(self) -> SignalInstance: ...
    @property
    def mcp_approval_requested(self) -> SignalInstance: ...
    @property
    def design_choices_changed(self) -> SignalInstance: ...
    @property
    def side_by_side_ready(self) -> SignalInstance: ...


@dataclass
class OnShow:
    """The lab run on show (None before any) and its results so far, in the order the view shows them."""

    record: LabRunRecord | None = None
    results: list[CaseResult] = field(default_factory=list)


__all__ = ["LabEvents", "OnShow"]
