"""An exported run, imported into another studio, reads in the reader's language as the original did: the codes of
its violations, trace summaries, stream aborts and tripwire travel in the file; a file written before codes still
imports, its texts shown as recorded (issue 27 item 2)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import qasync

from processors.memory.errors import ThreadImportError
from studio.controllers.run_controller import RunController
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.design.build import build_agent
from studio.error_texts import reason_text, tripwire_text
from studio.models.trace_data import event_from_dict
from studio.models.trace_model import summaries
from studio.store.database import Store
from studio.store.run_transfer import EXTENSION
from studio.texts.problems import change_reason
from tests.studio.conftest import run

DESIGN = AgentDesign(
    input=[ChainEntry(type="RegexFilter", options={"presets": ["pii"], "strategy": "warn", "phase": "input"})],
    output=[ChainEntry(type="TokenLimiter", options={"limit": 1, "strategy": "abort"})],
)


def _guarded_thread(loop: qasync.QEventLoop, store: Store) -> tuple[str, str]:
    """A run of the demo model through a warning RegexFilter and a TokenLimiter that stops the stream."""
    controller = RunController(store)
    agent = build_agent(DESIGN, on_violation=controller.record_violation, memory=store.memory)

    async def go() -> str:
        thread = await store.memory.create_thread(title="guarded")
        controller.start(agent, "call me at 415-555-2671", thread_id=thread.id)
        await asyncio.wait_for(controller.wait_finished(), 60)
        return thread.id

    thread_id = loop.run_until_complete(go())
    (record,) = run(loop, store.runs_for_thread(thread_id))
    return thread_id, record.id


def _texts(loop: qasync.QEventLoop, store: Store, run_id: str) -> list[str]:
    """Every text of the run the inspector words by code: violations, trace summaries and reasons, the tripwire."""
    texts = [
        tripwire_text({"reason": v.message, "code": v.code, "params": v.params})
        for v in run(loop, store.violations_for_run(run_id))
    ]
    for row in run(loop, store.trace_for_run(run_id)):
        event = event_from_dict(row)
        texts += summaries(event)
        if event.detail:
            texts.append(reason_text(event.detail))
        for change in (event.chunk_stats or {}).get("changes", []):
            reason = change_reason(change)
            if reason:
                texts.append(reason_text(reason))
    record = run(loop, store.get_run(run_id))
    assert record is not None and record.tripwire is not None
    texts.append(tripwire_text(record.tripwire))
    return texts


def _export(loop: qasync.QEventLoop, tmp_path: Path) -> tuple[dict[str, Any], str, list[str]]:
    source = Store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        thread_id, run_id = _guarded_thread(loop, source)
        document = run(loop, source.export_thread(thread_id))
        originals = _texts(loop, source, run_id)
    finally:
        run(loop, source.close())
    return document, run_id, originals


def _imported_texts(loop: qasync.QEventLoop, tmp_path: Path, document: dict[str, Any], run_id: str) -> list[str]:
    target = Store(f"sqlite:///{tmp_path / 'b.db'}")
    try:
        run(loop, target.import_thread(json.dumps(document)))
        return _texts(loop, target, run_id)
    finally:
        run(loop, target.close())


def test_an_imported_run_reads_in_chinese_as_the_original(
    qloop: qasync.QEventLoop, tmp_path: Path, in_language: Any
) -> None:
    in_language("zh_CN")
    document, run_id, originals = _export(qloop, tmp_path)
    (exported,) = document["extensions"][EXTENSION]
    assert [v["code"] for v in exported["violations"]] == ["RegexFilter.warn_report", "TokenLimiter.limit_exceeded"]
    assert any("summary" in event for event in exported["trace"])

    imported = _imported_texts(qloop, tmp_path, document, run_id)

    assert imported == originals
    joined = " ".join(originals)
    assert "正则过滤器" in joined and "超出 1 个令牌的上限" in joined and "条消息" in joined
    assert "Regex filter" not in joined and "Token limit" not in joined


def test_an_export_written_before_codes_imports_with_its_texts_as_recorded(
    qloop: qasync.QEventLoop, tmp_path: Path, in_language: Any
) -> None:
    document, run_id, english = _export(qloop, tmp_path)
    (exported,) = document["extensions"][EXTENSION]
    for violation in exported["violations"]:
        del violation["code"], violation["params"]
    for event in exported["trace"]:
        event.pop("summary", None)
        for change in (event.get("chunkStats") or {}).get("changes", []):
            change.pop("code", None), change.pop("params", None)
    exported["tripwire"].pop("code"), exported["tripwire"].pop("params", None)
    in_language("zh_CN")

    imported = _imported_texts(qloop, tmp_path, document, run_id)

    assert len(imported) == len(english)
    # no code: each as the runtime wrote it (a stream step's counts still read in Chinese: they are numbers)
    assert imported[0] == "Regex filter: matched patterns: phone"
    assert imported[-1] == english[-1] == "Token limit of 1 exceeded (current: 2)"
    assert "1 messages, 0 system; last: 'call me at 415-555-2671'" in imported


def test_a_malformed_code_refuses_the_import_naming_its_place(qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    document, _run_id, _texts = _export(qloop, tmp_path)
    (exported,) = document["extensions"][EXTENSION]
    exported["trace"][0]["summary"] = ["not", "a", "mapping"]
    exported["violations"][0]["code"] = 7

    target = Store(f"sqlite:///{tmp_path / 'b.db'}")
    try:
        with pytest.raises(ThreadImportError) as caught:
            run(qloop, target.import_thread(json.dumps(document)))
        threads = run(qloop, target.memory.list_threads())
    finally:
        run(qloop, target.close())
    problems = " ".join(caught.value.problems)
    assert f"{EXTENSION}[0].trace.0.summary" in problems and f"{EXTENSION}[0].violations.0.code" in problems
    assert threads == [], "nothing was written"
