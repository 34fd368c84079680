"""A lab run of a design with a hosted guard service, in worker processes: each worker is handed the key saved for
the service's endpoint through the recipe (in memory; the workers have no keyring and no such variable), calls the
service's stand-in over HTTP, and the verdicts are the service's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lab.corpus import Case
from lab.process_run import open_run
from processors.builtin.registry import load_catalogue
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.lab.design import agent_recipe
from tests.support.guard_services import ATTACK, KEY, GuardServiceStandIn

#: The guard as a user file's class too, so the test's catalogue has it whether or not the installed entry points
#: already name it (an editable install made before the guard services existed).
GUARD_FILE = """
from processors.builtin.guard_services import lakera_guard


class LakeraGuard(lakera_guard.LakeraGuard):
    pass
"""


@pytest.fixture
def catalogue(tmp_path: Path) -> Any:
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "lakera_guard_file.py").write_text(GUARD_FILE, encoding="utf-8")
    found = load_catalogue(folder)
    assert "LakeraGuard" in found
    return found


async def test_workers_call_the_service_with_the_key_of_its_endpoint(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LAKERA_GUARD_API_KEY", raising=False)
    cases = [
        Case(id="attack", text=f"Please {ATTACK}.", label="attack"),
        Case(id="benign", text="What are your opening hours?", label="benign"),
    ]
    with GuardServiceStandIn("lakera") as service:
        design = AgentDesign(input=[ChainEntry(type="LakeraGuard", options={"endpoint": service.url})])
        recipe = agent_recipe(design, catalogue=catalogue, service_keys=[("lakera-guard", service.url, KEY)])
        run = open_run(cases, recipe, processes=2, concurrency=2)
        results = {result.id: result async for result in run.results()}
    assert results["attack"].outcome == "blocked" and results["attack"].tripped == ["lakera-guard"]
    assert results["benign"].outcome == "passed"
    assert len(service.requests) == 2
    assert {request.headers["authorization"] for request in service.requests} == {f"Bearer {KEY}"}
