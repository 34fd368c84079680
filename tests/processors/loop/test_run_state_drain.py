"""What a guard lets out in answer to a ``data-*`` chunk a processor wrote is saved with the step (``RunState.drain``).

A hold-back guard (here PIIDetector, holding an address being written) lets out one part per call. After the
address comes whole it has three ready: the redacted address, the reasoning that waited behind it, the text after
it; the text stays queued until the guard's next call. When that call is for a ``data-*`` chunk a processor wrote
(drained after the model's chunk), the queued text comes out in answer to it, and the run must fold it into the
step's answer like any text (a drain that did not would save the thread without " today and ").
"""

from __future__ import annotations

from processors.builtin.pii_detector import PIIDetector
from tests.processors.helpers import DATA, THINK, guard_order


async def test_text_let_out_in_answer_to_a_written_data_chunk_is_saved_with_the_answer() -> None:
    pieces = ["Write to jo@exa", THINK, "mple.com today and more", DATA, " words."]
    _entered, left, result = await guard_order([PIIDetector(redaction_method="placeholder")], pieces)
    # the text queued behind the reasoning goes out in answer to the data chunk, before it
    assert left[left.index("reasoning-delta:r0") + 1 : left.index("data-note:0") + 1] == [
        "t: today and more",
        "data-note:0",
    ]
    answer = result.messages[-1]
    assert answer.text == result.text == "Write to [EMAIL] today and more words."
    assert [part.type for part in answer.content.parts] == ["step-start", "reasoning", "text", "data-note"]
