"""A violation keeps its message's code and values in the store (migration s0007), so RegexFilter's warn report reads
in the reader's language by its code — also after a reopen, and with reworded English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel
from processors.tripwire import Violation
from studio.error_texts import tripwire_text
from studio.store.database import Store


class Reporting(RegexFilter):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.violations: list[Violation] = []

    def on_violation(self, violation: Violation) -> None:
        self.violations.append(violation)


async def test_a_warn_report_keeps_its_code_through_the_store(tmp_path: Path, in_language: Any) -> None:
    guard = Reporting(presets=["pii"], strategy="warn", phase="input")
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[guard]).generate("call 415-555-2671")
    report = guard.violations[0]
    assert report.message == "Regex filter: matched patterns: phone"
    assert (report.code, report.params) == ("RegexFilter.warn_report", {"names": "phone"})
    assert "code" not in Violation(processor_id="p", message="free").model_dump()  # a free message: as before

    url = f"sqlite:///{tmp_path / 'studio.db'}"
    store = Store(url)
    await store.start_run("r1", thread_id="t1")
    await store.add_violation("r1", report.processor_id, report.message, report.detail, code=report.code,
                              params=report.params)  # fmt: skip
    await store.add_violation("r1", "old", "Regex filter: matched patterns: email")  # a row without a code
    await store.close()
    reopened = Store(url)
    try:
        stored, old = await reopened.violations_for_run("r1")
    finally:
        await reopened.close()
    assert (stored.code, stored.params) == ("RegexFilter.warn_report", {"names": "phone"})
    assert old.code is None
    in_language("zh_CN")
    chinese = tripwire_text({"reason": stored.message, "code": stored.code, "params": stored.params})
    assert chinese == "正则过滤器：匹配到以下模式：phone"
    assert tripwire_text({"reason": "Regex found: phone", "code": stored.code, "params": stored.params}) == chinese
    assert tripwire_text({"reason": old.message, "code": old.code, "params": old.params}) == old.message
