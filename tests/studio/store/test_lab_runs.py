"""Lab runs in the studio's store (a real SQLite file): saved with their cases, results as they finish, a
cancelled or resumed run kept as such, listed, loaded and deleted."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from studio.store.database import RunNotFoundError, Store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    yield opened
    await opened.close()


def cases(count: int) -> list[dict[str, Any]]:
    return [{"id": f"c{index}", "text": f"case {index}", "label": "attack"} for index in range(count)]


def result(case_id: str, outcome: str = "blocked") -> dict[str, Any]:
    return {"id": case_id, "text": "t", "label": "attack", "outcome": outcome, "tripped": ["guard"]}


async def create(
    store: Store, lab_run_id: str = "lab1", count: int = 3, design_json: str = '{"name": "Sample"}'
) -> None:
    await store.lab_runs.create_lab_run(
        lab_run_id,
        name="Sample · 3 cases",
        design_json=design_json,
        design_id="d1",
        design_fingerprint="abc",
        mode="guardrails",
        cases=cases(count),
        corpus=[{"name": "direct.jsonl", "cases": count}],
        settings={"concurrency": 4},
    )


async def test_a_new_lab_run_is_running_with_its_cases_in_order_and_no_results(store: Store) -> None:
    await create(store)
    loaded = await store.lab_runs.load_lab_run("lab1")
    assert loaded is not None
    record, rows = loaded
    assert (record.status, record.total, record.done, record.resumes) == ("running", 3, 0, 0)
    assert (record.design_json, record.design_fingerprint, record.mode) == ('{"name": "Sample"}', "abc", "guardrails")
    assert record.corpus == [{"name": "direct.jsonl", "cases": 3}]
    assert record.settings == {"concurrency": 4}
    assert [row.case_id for row in rows] == ["c0", "c1", "c2"]
    assert rows[1].case == {"id": "c1", "text": "case 1", "label": "attack"}
    assert all(row.result is None for row in rows)


async def test_results_are_saved_as_they_finish_and_counted(store: Store) -> None:
    await create(store)
    assert await store.lab_runs.save_lab_results("lab1", [result("c2"), result("c0", "passed")]) == 2
    assert (
        await store.lab_runs.save_lab_results("lab1", [result("c2", "modified")]) == 2
    )  # a case saved twice counts once
    loaded = await store.lab_runs.load_lab_run("lab1")
    assert loaded is not None
    record, rows = loaded
    assert record.done == 2
    assert [row.result["outcome"] if row.result else None for row in rows] == ["passed", None, "modified"]


async def test_a_cancelled_run_stays_cancelled_and_a_resume_is_counted(store: Store) -> None:
    await create(store)
    await store.lab_runs.save_lab_results("lab1", [result("c0")])
    cancelled = await store.lab_runs.set_lab_run_status("lab1", "cancelled", summary={"recall": 1.0})
    assert (cancelled.status, cancelled.done, cancelled.summary) == ("cancelled", 1, {"recall": 1.0})
    assert cancelled.finished_at is not None
    resumed = await store.lab_runs.set_lab_run_status("lab1", "running", resumed=True)
    assert (resumed.status, resumed.resumes, resumed.finished_at) == ("running", 1, None)
    assert resumed.summary == {"recall": 1.0}  # kept until the resumed run says otherwise
    finished = await store.lab_runs.set_lab_run_status("lab1", "finished", summary={"recall": 0.5})
    assert (finished.status, finished.resumes, finished.summary) == ("finished", 1, {"recall": 0.5})


async def test_lab_runs_are_listed_newest_first_and_deleted_with_their_cases(store: Store, tmp_path: Path) -> None:
    await create(store, "old")
    await create(store, "new", count=1)
    assert [record.id for record in await store.lab_runs.list_lab_runs()] == ["new", "old"]
    assert await store.lab_runs.delete_lab_run("old") is True
    assert await store.lab_runs.delete_lab_run("old") is False
    assert [record.id for record in await store.lab_runs.list_lab_runs()] == ["new"]
    assert await store.lab_runs.load_lab_run("old") is None
    import sqlite3
    from contextlib import closing

    await store.close()
    with closing(sqlite3.connect(tmp_path / "studio.db")) as connection:
        remaining = connection.execute("SELECT lab_run_id FROM lab_cases").fetchall()
    assert remaining == [("new",)]


async def test_a_case_remembers_the_thread_it_was_opened_as(store: Store) -> None:
    await create(store)
    await store.lab_runs.set_lab_case_thread("lab1", "c1", "thread-9")
    loaded = await store.lab_runs.load_lab_run("lab1")
    assert loaded is not None
    assert [row.thread_id for row in loaded[1]] == [None, "thread-9", None]


async def test_an_unknown_lab_run_is_said(store: Store) -> None:
    await store.open()
    with pytest.raises(RunNotFoundError):
        await store.lab_runs.save_lab_results("nope", [])
    with pytest.raises(RunNotFoundError):
        await store.lab_runs.set_lab_run_status("nope", "finished")


async def test_design_versions_are_the_snapshots_runs_ran_with_newest_first_once_each(store: Store) -> None:
    await create(store, "lab1")  # design '{"name": "Sample"}'
    await store.start_run("r1", design_json='{"name": "Edited"}')
    await store.start_run("r2", design_json='{"name": "Sample"}')  # the same snapshot again, later, in the chat
    await store.start_run("r3")  # a run without a snapshot is no version
    versions = await store.lab_runs.design_versions()
    assert [(v.json_text, v.last_run_in) for v in versions] == [
        ('{"name": "Sample"}', "chat"),
        ('{"name": "Edited"}', "chat"),
    ]
    assert versions[0].last_run_at > versions[1].last_run_at and versions[0].last_run_at.tzinfo is not None
    await create(store, "lab2", design_json='{"name": "Edited"}')  # the edited version, run last in the lab
    newest = (await store.lab_runs.design_versions())[0]
    assert (newest.json_text, newest.last_run_in) == ('{"name": "Edited"}', "lab")
