"""``scripts/trace-flow`` prints, for a chat message and two lab cases, each project module's entries and bounces."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_it_prints_a_table_per_flow_with_the_lane_runner_never_bounced_into() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "trace-flow")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
        check=True,
    )
    tables = done.stdout.split("== ")[1:]
    assert [table.splitlines()[0] for table in tables] == [
        "chat message",
        "lab case, attack (guardrails, sample design)",
        "lab case, benign (guardrails, sample design)",
    ]
    for table in tables:
        rows = {line.split()[-1]: line.split()[:2] for line in table.splitlines()[2:] if line.strip()}
        assert rows["processors.pipeline.runner"][1] == "0"
        assert "lab.case_run" in rows or table.startswith("chat")
