"""``LabController``: the guardrail lab's use cases in the studio — choose corpora, run them against the design,
cancel, resume, keep every lab run in the store, compare two, export reports, open a case as a thread.

It is built in layers, each its own module: :mod:`lab_base` (signals, state, corpora, agents), :mod:`lab_stored`
(the stored lab runs: show, delete, compare, export, open a case as a thread) and :mod:`lab_running` (start,
cancel, resume, results saved and shown in batches as they arrive) and :mod:`lab_experiments` (A/B of two
designs over one corpus).
"""

from __future__ import annotations

from studio.controllers.lab_experiments import CURRENT, DesignChoice, LabExperiments
from studio.controllers.lab_records import Comparison
from studio.controllers.lab_running import FLUSH_INTERVAL, STUDIO_MODES

REPORT_KINDS = ("json", "junit", "html")


class LabController(LabExperiments):
    """The Lab view's controller (see the module docstring for its layers)."""


__all__ = [
    "CURRENT",
    "FLUSH_INTERVAL",
    "REPORT_KINDS",
    "STUDIO_MODES",
    "Comparison",
    "DesignChoice",
    "LabController",
]
