"""The guardrail lab's engine: run attack and benign corpora through an agent and say which processor caught what.

Pure Python, no Qt: the studio's Lab view and the headless ``processor-studio lab`` command drive the same
engine, so a figure in the studio equals the figure in CI.

- :mod:`lab.corpus` — cases and their file formats (JSONL, CSV, plain text, promptfoo-style YAML);
- :mod:`lab.runner` — every case through a fresh agent, concurrently, cancellable and resumable;
- :mod:`lab.process_run` — the same run in worker processes (:mod:`lab.process_worker`), its agents made from an
  :mod:`lab.recipe` sent to them, started for the run or borrowed warm from a :mod:`lab.worker_pool`;
- :mod:`lab.case_run` — one case through one agent, and its verdict;
- :mod:`lab.rate_gate` — the run's shared pause when a provider rate-limits;
- :mod:`lab.results` — a case's result and the results file that makes a run resumable;
- :mod:`lab.metrics` — confusion matrices, attack × processor, contribution, A/B;
- :mod:`lab.reports` — JSON, JUnit XML and a self-contained HTML report.
- :mod:`lab.converters` — attack converters: seeded, chained rewrites of a corpus's attacks (plug-ins by entry point).
"""

from __future__ import annotations

from lab.corpus import Case, CorpusError, load_corpus
from lab.runner import CaseResult, LabRun, run_lab

__all__ = ["Case", "CaseResult", "CorpusError", "LabRun", "load_corpus", "run_lab"]
