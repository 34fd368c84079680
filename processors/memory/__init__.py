"""Thread memory: the protocol, an in-process store, and (``SqlMemory``) SQLAlchemy persistence."""

from __future__ import annotations

from typing import Any

from processors.memory.base import InMemoryMemory, Memory

__all__ = ["InMemoryMemory", "Memory", "SqlMemory"]


def __getattr__(name: str) -> Any:
    # SQLAlchemy is imported only by those who use the SQL store.
    if name == "SqlMemory":
        from processors.memory.sql import SqlMemory

        return SqlMemory
    raise AttributeError(name)
