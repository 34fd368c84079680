"""The inspector's before/after diff on big chunk JSON: the diff itself and the details pane's HTML for it.

    .venv/bin/python tests/bench/bench_diff.py            # the diff as the studio makes it now
    .venv/bin/python tests/bench/bench_diff.py --ndiff    # and difflib.ndiff, which the studio used before (slow)

Inputs: the pretty-printed JSON of text chunks (seven lines a chunk, as the inspector shows them), a quarter of
its lines changed in one stretch; ~400 and ~1,600 lines as in issue #31 item 8. Prints the time (best of three);
asserts nothing.
"""

from __future__ import annotations

import argparse
import difflib
import time
from collections.abc import Callable
from functools import partial

from studio.models.trace_rows import line_diff, to_json
from studio.views.inspector_details import diff_table


def chunk_json(lines: int) -> tuple[str, str]:
    """A chunk JSON of about ``lines`` lines and a copy in which a guard rewrote a quarter of it in one stretch
    (every line of the middle chunks changed: the case ``ndiff`` compares pair by pair)."""
    chunks = [
        {"type": "text-delta", "payload": {"id": f"t{i}", "text": f"word {i} of the reply "}} for i in range(lines // 7)
    ]
    before = to_json(chunks).splitlines()
    start = len(before) // 3
    after = before[:start] + [
        line.replace("word", "WORD").replace('"t', '"u') for line in before[start : start + lines // 4]
    ]
    after += before[start + lines // 4 :]
    return "\n".join(before), "\n".join(after)


def ndiff(before: str, after: str) -> list[str]:
    return list(difflib.ndiff(before.splitlines(), after.splitlines()))


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ndiff", action="store_true", help="also time difflib.ndiff (117 s at 1,600 lines)")
    args = parser.parse_args()
    for lines in (400, 1_600):
        before, after = chunk_json(lines)
        count = len(before.splitlines())
        diff = best_of(3, partial(line_diff, before, after))
        html = best_of(3, partial(diff_table, before, after))
        print(f"{count} lines: line_diff {diff * 1000:.1f} ms, details HTML {html * 1000:.1f} ms")
        if args.ndiff:
            old = best_of(1, partial(ndiff, before, after))
            print(f"{count} lines: difflib.ndiff {old:.1f} s")


if __name__ == "__main__":
    main()
