"""Views do no controller work: no module under ``studio/views/`` starts a coroutine (issue 27, item 6).

A view connects a signal to a controller method or calls a plain one; the controller starts and keeps its own tasks
(:class:`studio.controllers.tasks.TaskKeeper`), so a failure is said in one place and the view never holds a
coroutine. Read from the source (an import-linter contract cannot see a call): any call named ``spawn``,
``create_task``, ``ensure_future`` or ``run_coroutine_threadsafe`` in a view fails this test, with where it is.
"""

from __future__ import annotations

import ast
from pathlib import Path

import studio.views

#: Calls that start a coroutine as a task.
TASK_STARTERS = frozenset({"spawn", "create_task", "ensure_future", "run_coroutine_threadsafe"})
VIEWS = Path(studio.views.__file__).parent


def task_starts(source: str) -> list[tuple[int, str]]:
    """The (line, name) of each call in ``source`` that starts a task (``x.spawn(...)``, ``create_task(...)``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            callee = node.func
            name = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", "")
            if name in TASK_STARTERS:
                found.append((node.lineno, name))
    return sorted(found)


def test_no_view_starts_a_task() -> None:
    starts = [
        f"{path.relative_to(VIEWS.parent.parent)}:{line} calls {name}()"
        for path in sorted(VIEWS.rglob("*.py"))
        for line, name in task_starts(path.read_text(encoding="utf-8"))
    ]
    assert starts == [], "views ask their controller instead:\n" + "\n".join(starts)


def test_the_check_sees_each_way_of_starting_a_task() -> None:
    source = (
        "def wire(view, controller, loop):\n"
        "    view.clicked.connect(lambda: controller.spawn(controller.load()))\n"
        "    asyncio.get_event_loop().create_task(work())\n"
        "    ensure_future(work())\n"
        "    controller.load_later()\n"
    )
    assert task_starts(source) == [(2, "spawn"), (3, "create_task"), (4, "ensure_future")]
