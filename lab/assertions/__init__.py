"""Assertions on a model's answer, and the verdict of a model-mode lab case they give (issue 29, item 4).

A case (its ``asserts``), a corpus (promptfoo's ``defaultTest: assert:``) or the command (``--assert KIND:VALUE``)
says what a good answer does; :func:`judge_answer` checks each assertion on the answer and gives the case's
verdict: ``blocked`` by a guard, ``refused`` by the model, the attack ``succeeded`` end to end (or was
``resisted``), a benign case ``passed`` or ``failed``. The kinds are in :mod:`lab.assertions.kinds`, the offline
refusal detector (en, zh-CN, zh-TW) in :mod:`lab.assertions.refusal`, the system-prompt leak in
:mod:`lab.assertions.leak`, the judge model's rubric in :mod:`lab.assertions.rubric`.
"""

from lab.assertions.checks import Answer, Check, ToolCallMade, check
from lab.assertions.kinds import (
    KINDS,
    Assertion,
    AssertionSpecError,
    assertion_from_text,
    parse_assertion,
    parse_assertions,
)
from lab.assertions.leak import leaked
from lab.assertions.refusal import is_refusal, refusal_phrase
from lab.assertions.verdict import VERDICTS, Judgement, Verdict, judge_answer, verdict_of

__all__ = [
    "KINDS",
    "VERDICTS",
    "Answer",
    "Assertion",
    "AssertionSpecError",
    "Check",
    "Judgement",
    "ToolCallMade",
    "Verdict",
    "assertion_from_text",
    "check",
    "is_refusal",
    "judge_answer",
    "leaked",
    "parse_assertion",
    "parse_assertions",
    "refusal_phrase",
    "verdict_of",
]
