"""A lab run's reports carry no value the guards hid (pii brief, 2026-12-07): ``processor-studio lab`` in model mode
with a design whose output PIIDetector masks the customer record the demo model reads out, every report written
(JSON, JUnit, HTML; the studio's Lab export writes the same three). A report quotes each case's text as the corpus
has it (the user's own file) and the reply as the chain let it out; the results file (``--results``) keeps each
case's recording, raw, for a replay run, as a thread's recording is kept in the store."""

from __future__ import annotations

import json
from pathlib import Path

from tests.studio.lab.test_cli import lab
from tests.studio.store.test_run_transfer_privacy import guarded, record_values


def test_no_report_holds_a_value_the_output_guard_masked(tmp_path: Path) -> None:
    design = tmp_path / "design.json"
    design.write_text(guarded().to_json(), encoding="utf-8")
    corpus = tmp_path / "corpus.jsonl"
    cases = [{"id": "c1", "text": "Please look up customer 42", "label": "benign", "category": "pii"}]
    corpus.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("json", "junit", "html")}
    out = lab(design, "--corpus", corpus, "--mode", "model",
              "--json", reports["json"], "--junit", reports["junit"], "--html", reports["html"])  # fmt: skip
    assert out.returncode == 0, out.stderr
    reply = json.loads(reports["json"].read_text(encoding="utf-8"))["cases"][0]["reply"]
    assert "Ada Lovelace" in reply and "2042" in reply  # the answer is there, masked (the last four digits kept)
    for kind, path in reports.items():
        text = path.read_text(encoding="utf-8")
        for value in record_values():
            assert value not in text, (kind, value)
