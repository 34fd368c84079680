"""What the lab needs of a design, shared by the studio's Lab view and ``processor-studio lab``: its fingerprint
(which results may be resumed or compared as the same design) and a fresh agent per case, in this process
(:func:`agent_factory`) or in the lab's worker processes (:func:`agent_recipe`, a recipe they can be sent).

One module for both faces, so a figure in the studio equals the figure in CI.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lab.recipe import AgentRecipe
from processors.builtin.registry import Catalogue, load_catalogue, load_user_folder
from studio.build import build_agent
from studio.design import AgentDesign


def design_fingerprint(design: AgentDesign) -> str:
    """What the design does, without its identity: ids, entry uids and times left out, so two copies of the
    sample (each gets new ids) resume each other's results and an edited chain does not."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("id", "uid", "created_at", "updated_at")}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    text = json.dumps(strip(design.model_dump(mode="json")), sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def design_info(design: AgentDesign) -> dict[str, Any]:
    """The ``design`` object of the lab's results and reports."""
    return {"id": design.id, "name": design.name, "fingerprint": design_fingerprint(design)}


def agent_factory(design: AgentDesign, *, catalogue: Any, api_key: str | None = None) -> Callable[[], Any]:
    """A fresh agent per case (no processor's state leaks between cases). Builds one first, so a design that
    cannot be built raises :class:`studio.design.DesignError` once, here, rather than once per case."""

    def factory() -> Any:
        return build_agent(design, catalogue=catalogue, api_key=api_key)

    factory()
    return factory


def catalogue_folders(catalogue: Catalogue) -> list[str]:
    """The user processor folders ``catalogue`` loaded files from (what a worker process must load again)."""
    folders = [
        str(Path(record.source.removeprefix("file:")).parent)
        for record in catalogue
        if record.source.startswith("file:")
    ]
    return list(dict.fromkeys(folders))


def agent_recipe(design: AgentDesign, *, catalogue: Catalogue, api_key: str | None = None) -> AgentRecipe:
    """What a lab worker process needs to build ``design``'s agents: :func:`lab_agents` and plain data (the design
    as JSON, the catalogue's user folders, the key, sent in memory when the worker starts, never written)."""
    data = {"design_json": design.to_json(), "folders": catalogue_folders(catalogue), "api_key": api_key}
    return AgentRecipe(lab_agents, data)


def lab_agents(*, design_json: str, folders: list[str], api_key: str | None) -> Callable[[], Any]:
    """In a lab worker process: the catalogue loaded once (built-ins, plug-ins, the user folders), then a fresh
    agent per case."""
    catalogue = load_catalogue()
    for folder in folders:
        load_user_folder(catalogue, Path(folder))
    return agent_factory(AgentDesign.from_json(design_json), catalogue=catalogue, api_key=api_key)


__all__ = ["agent_factory", "agent_recipe", "catalogue_folders", "design_fingerprint", "design_info", "lab_agents"]
