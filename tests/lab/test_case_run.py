"""A case's hits name the processors that changed its reply, not the stream guards that only held text back while
they read it (issue 26 §7: "changed" means the text changed)."""

from __future__ import annotations

import asyncio

from lab.case_run import run_case
from lab.corpus import Case
from studio.design.build import build_agent
from studio.design.sample import sample_design

REPLY = "Sure, I can help with that: write to ada.lovelace@example.com and we will answer within a day."


def test_a_guard_that_only_held_the_reply_back_is_not_a_hit() -> None:
    case = Case(id="c1", text="How do I reach support?", reply=REPLY)
    result = asyncio.run(run_case(case, build_agent(sample_design()), "guardrails"))
    assert result.outcome == "modified"  # the PII detector masked the address
    assert "ada.lovelace@example.com" not in result.reply
    assert result.changed == ["pii-detector-2"]
    assert "system-prompt-scrubber" not in result.caught_by
