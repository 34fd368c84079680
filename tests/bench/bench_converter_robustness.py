"""The injection detector's robustness per attack converter, as a table (issue 29).

Run: ``.venv/bin/python tests/bench/bench_converter_robustness.py [--seed S] [--offline-scorer NAME] [--json FILE]``.
Prints a Markdown table, asserts nothing. Every starter attack written in the user's message (137 of the bundled
corpora's 190; the others hide in tool results) is converted by each registered converter with seed S (default 2026:
the figures in tests/bench/README.md) and sent through an agent whose only input processor is
``PromptInjectionDetector`` offline with ``offline_scorer`` NAME (default ``learned``, the detector's own default,
the model: the published table; ``heuristics`` for the phrase signals alone); the same code as
``tests/processors/builtin/test_injection_robustness.py`` (``tests/processors/builtin/robustness.py``). Columns: the
share of all those attacks detected once converted, and the share of the ones detected as written that are still
detected (the robustness proper), worst first.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from tests.processors.builtin.robustness import SEED, Probe, Row


async def table(seed: int, offline_scorer: str) -> list[Row]:
    probe = Probe(seed=seed, offline_scorer=offline_scorer)
    return [await probe.row(name) for name in probe.registry]


def main() -> None:
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else SEED
    scorer = sys.argv[sys.argv.index("--offline-scorer") + 1] if "--offline-scorer" in sys.argv else "learned"
    started = time.perf_counter()
    rows = asyncio.run(table(seed, scorer))
    seconds = time.perf_counter() - started
    print("| converter | detected | still detected (of those caught as written) |\n|---|---|---|")
    for row in sorted(rows, key=lambda row: (row.share_kept, row.converter)):
        print(
            f"| `{row.converter}` | {row.detected}/{row.cases} ({row.share_detected:.0%}) "
            f"| {row.kept}/{row.baseline} ({row.share_kept:.0%}) |"
        )
    load = os.getloadavg()[0]
    print(f"\noffline_scorer {scorer!r}; seed {seed}; {len(rows)} converters in {seconds:.1f} s; load {load:.1f}")
    if "--json" in sys.argv:
        target = Path(sys.argv[sys.argv.index("--json") + 1])
        target.write_text(json.dumps([row.as_json() for row in rows], indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
