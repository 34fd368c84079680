"""The palette's source: the processor catalogue as the studio sees it, loaded once per process.

Loading the catalogue imports every built-in, every entry-point plug-in and every file of the user's processors
folder, so the studio does it once and shares the result; :func:`reload` picks up files the user added or
edited (the palette's "Reload" action). Pass the catalogue on to the code that needs it (``build_agent``,
the option forms) rather than calling :func:`studio_catalogue` from deep inside: tests then use their own.
"""

from __future__ import annotations

import threading

from processors.builtin.registry import Catalogue, ProcessorType, load_catalogue
from studio.design.agent_design import LANES, Lane
from studio.system import paths

__all__ = ["palette_groups", "reload", "studio_catalogue"]

_lock = threading.Lock()
_cached: Catalogue | None = None


def studio_catalogue() -> Catalogue:
    """Built-ins, plug-ins and the user's processors folder; loaded on first use, then shared."""
    global _cached
    with _lock:
        if _cached is None:
            _cached = load_catalogue(paths.processors_folder())
        return _cached


def reload() -> Catalogue:
    """Load the catalogue again (user files re-imported) and make it the shared one."""
    global _cached
    fresh = load_catalogue(paths.processors_folder())
    with _lock:
        _cached = fresh
    return fresh


def palette_groups(catalogue: Catalogue) -> dict[Lane, list[ProcessorType]]:
    """Processor types by the lane they fit, sorted by display name; a type fits, and is listed, in every lane
    whose hooks it implements (``PIIDetector`` appears under both input and output)."""
    return {
        lane: sorted(catalogue.for_lane(lane), key=lambda record: (record.name.casefold(), record.type_name))
        for lane in LANES
    }
