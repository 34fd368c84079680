"""The guard services a design calls: each enabled service guard's key binding and the endpoint it sends to.

What the lab hands its worker processes the keys for (:func:`studio.keys.service_keys.bound_keys`): only the
endpoints the design's own service guards name, read from their options as the guards will read them.
"""

from __future__ import annotations

from typing import Any

from processors.builtin.base import InvalidOptionsError
from processors.builtin.guard_services.guard_service import GuardService
from processors.builtin.guard_services.keys import ServiceKey
from studio.design.agent_design import LANES, AgentDesign

__all__ = ["service_endpoints"]


def service_endpoints(design: AgentDesign, catalogue: Any) -> list[tuple[ServiceKey, str]]:
    """``(key binding, endpoint)`` of every enabled service guard of ``design`` (once each, in chain order)."""
    found: list[tuple[ServiceKey, str]] = []
    for lane in LANES:
        for entry in design.chain(lane):
            record = catalogue.get(entry.type) if entry.enabled else None
            cls = getattr(record, "cls", None)
            if not (isinstance(cls, type) and issubclass(cls, GuardService)):
                continue
            try:
                guard = cls(**entry.options)
            except InvalidOptionsError:
                continue  # a guard that cannot be built stops the run elsewhere, with its own message
            if guard.endpoint and (cls.key_binding, guard.endpoint) not in found:
                found.append((cls.key_binding, guard.endpoint))
    return found
