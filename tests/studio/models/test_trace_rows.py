"""The before/after line diff of the inspector: correct hunks, folded unchanged runs, and a cap said aloud.

``difflib.ndiff`` took 3.6 s on a 400-line chunk JSON with 100 changed lines and 117 s on 1,600 (on the UI
thread); the diff now compares opcodes of at most ``MAX_DIFF_LINES`` lines a side. The speed is measured by
``tests/bench/bench_diff.py``, never asserted here; these tests pin what the diff says.
"""

from __future__ import annotations

import json
from html import escape

from studio.models.trace_rows import FOLDED, MAX_DIFF_LINES, line_diff
from studio.views.inspector_details import diff_table

#: Lines of the big input: more than the cap, so its tail is left out.
BIG = 1_600


def chunk_lines(count: int) -> list[str]:
    """A chunk log's JSON lines, each different (as pretty-printed chunks are, line by line)."""
    return [json.dumps({"seq": seq, "type": "text-delta", "text": f"word {seq}"}) for seq in range(count)]


def test_a_1600_line_input_is_diffed_up_to_the_cap_with_correct_hunks_and_says_what_it_left_out() -> None:
    before = chunk_lines(BIG)
    after = list(before)
    changed = list(range(5, BIG, 16))  # 100 changed lines, spread over the whole input
    for seq in changed:
        after[seq] = after[seq].replace("word", "WORD")
    del after[40]  # one removed line
    after.insert(100, '{"seq": "new"}')  # one added line
    diff = line_diff("\n".join(before), "\n".join(after))

    assert (diff.cut_before, diff.cut_after) == (BIG - MAX_DIFF_LINES, BIG - MAX_DIFF_LINES)
    assert diff.capped
    removed = [text for kind, text in diff.rows if kind == "-"]
    added = [text for kind, text in diff.rows if kind == "+"]
    within = [seq for seq in changed if seq < MAX_DIFF_LINES]
    assert removed == sorted([before[seq] for seq in within] + [before[40]], key=before.index)
    assert [text for text in added if "WORD" in text] == [after[after.index(before[seq].replace("word", "WORD"))]
                                                          for seq in within]  # fmt: skip
    assert '{"seq": "new"}' in added
    # Every line of the first MAX_DIFF_LINES of each side is in the diff once, in order, and nothing past the cap.
    assert [text for kind, text in diff.rows if kind != "+"] == before[:MAX_DIFF_LINES]
    assert [text for kind, text in diff.rows if kind != "-"] == after[:MAX_DIFF_LINES]

    html = diff_table("\n".join(before), "\n".join(after))
    assert "Only the first 1,000 lines of each side are compared; 600 more line(s) before and 600 after" in html
    assert escape(before[MAX_DIFF_LINES - 1]) in html  # the last compared line is shown (as context of a change)
    assert escape(before[MAX_DIFF_LINES]) not in html and escape(before[BIG - 1]) not in html  # said, not shown


def test_long_unchanged_runs_fold_to_one_row_with_three_lines_of_context() -> None:
    before = chunk_lines(40)
    after = list(before)
    after[20] = "changed"
    diff = line_diff("\n".join(before), "\n".join(after), context=3)
    assert diff.rows == [
        (FOLDED, "17"),
        *((" ", line) for line in before[17:20]),
        ("-", before[20]),
        ("+", "changed"),
        *((" ", line) for line in before[21:24]),
        (FOLDED, "16"),
    ]
    assert not diff.capped
    html = diff_table("\n".join(before), "\n".join(after))
    assert "⋯ 17 unchanged lines not shown" in html and "⋯ 16 unchanged lines not shown" in html
    assert escape(before[0]) not in html and escape(before[17]) in html
    assert "are compared" not in html  # no cap note under the cap


def test_a_short_diff_shows_every_line() -> None:
    assert line_diff("a\nb", "a\nc", context=3).rows == [(" ", "a"), ("-", "b"), ("+", "c")]
