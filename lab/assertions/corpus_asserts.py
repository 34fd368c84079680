"""A corpus's (or a command's) assertions given to every case, and the judge model given to every LLM rubric.

A corpus carries assertions for all its cases in promptfoo's way, ``defaultTest: {assert: [...]}`` in a YAML file
(:mod:`lab.corpus` adds them to each test's own), and ``processor-studio lab --assert KIND:VALUE`` adds more to
every case of the run. The judge model of ``llm-rubric`` assertions is off unless asked: ``--judge-model`` (and
``--judge-api-base`` for a local server) fills the rubrics that name no ``provider`` of their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from lab.assertions.kinds import Assertion, AssertionSpecError, parse_assertion
from lab.corpus import Case

__all__ = ["with_assertions"]


def with_assertions(
    cases: Iterable[Case],
    extra: Sequence[Assertion] = (),
    *,
    judge_model: str | None = None,
    judge_api_base: str | None = None,
) -> list[Case]:
    """``cases`` with ``extra`` added to each one's assertions and the judge filled into their rubrics.

    Every assertion is read here, before anything runs: a bad one raises :class:`AssertionSpecError` naming the
    case and where it came from."""
    added = [assertion.to_dict() for assertion in extra]
    ready: list[Case] = []
    for case in cases:
        entries: list[dict[str, Any]] = []
        for entry in [*case.asserts, *added]:
            try:
                assertion = parse_assertion(entry)
            except AssertionSpecError as error:
                raise AssertionSpecError(f"{case.source or case.id}: case {case.id!r}: {error}") from None
            written = dict(entry)
            if assertion.kind == "llm-rubric" and not written.get("provider") and judge_model:
                written["provider"] = judge_model
                if judge_api_base:
                    written["api_base"] = judge_api_base
            entries.append(written)
        ready.append(dataclasses.replace(case, asserts=tuple(entries)) if entries or case.asserts else case)
    return ready
