"""What the lab needs of a design, shared by the studio's Lab view and ``processor-studio lab``: its fingerprint
(which results may be resumed or compared as the same design) and a fresh agent per case.

One module for both faces, so a figure in the studio equals the figure in CI.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

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


__all__ = ["agent_factory", "design_fingerprint", "design_info"]
