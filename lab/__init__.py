"""The guardrail lab's engine: run attack and benign corpora through an agent and say which processor caught what.

Pure Python, no Qt: the studio's Lab view and the headless ``processor-studio lab`` command drive the same
engine, so a figure in the studio equals the figure in CI.

- :mod:`lab.corpus` — cases and their file formats (JSONL, CSV, plain text, promptfoo-style YAML, PyRIT
  conversations: :mod:`lab.corpus_import`);
- :mod:`lab.runner` — every case through a fresh agent, concurrently, cancellable and resumable;
- :mod:`lab.process_run` — the same run in worker processes (:mod:`lab.process_worker`), its agents made from an
  :mod:`lab.recipe` sent to them, started for the run or borrowed warm from a :mod:`lab.worker_pool`;
- :mod:`lab.case_run` — one case through one agent, and its verdict; :mod:`lab.conversation_run` — a conversation
  case played turn by turn on one thread;
- :mod:`lab.rate_gate` — the run's shared pause when a provider rate-limits;
- :mod:`lab.results` — a case's result and the results file that makes a run resumable;
- :mod:`lab.metrics` — confusion matrices, attack × processor, contribution, A/B;
- :mod:`lab.reports` — JSON, JUnit XML and a self-contained HTML report.
- :mod:`lab.converters` — attack converters: seeded, chained rewrites of a corpus's attacks (plug-ins by entry point).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lab.corpus import Case, CorpusError, load_corpus
    from lab.results import CaseResult
    from lab.runner import LabRun, run_lab

#: Each name the package offers → the module it lives in. Read on first use (PEP 562), so importing one part
#: (``lab.metrics`` for the figures, ``lab.texts``) does not import the runtime that the runner needs.
_HOMES = {
    "Case": "lab.corpus",
    "CorpusError": "lab.corpus",
    "load_corpus": "lab.corpus",
    "CaseResult": "lab.results",
    "LabRun": "lab.runner",
    "run_lab": "lab.runner",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'lab' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


__all__ = ["Case", "CaseResult", "CorpusError", "LabRun", "load_corpus", "run_lab"]
