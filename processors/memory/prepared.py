"""``Prepared``: a Core statement compiled once per database and run through the driver with ready rows.

``connection.execute(statement, rows)`` costs SQLAlchemy more per row than SQLite spends storing it: each row's
parameters are rebuilt from the compiled statement and every value goes through a generic type-processing loop
(a turn's 40 trace events were ~1.2 ms of it, ``tests/bench/bench_store.py``). A ``Prepared`` statement compiles
once for the connection's dialect, remembers the SQL text, the parameters' order and each parameter type's *own*
bind processor, and hands the driver plain tuples (or dicts, for drivers with named parameters) through
``exec_driver_sql``. What is stored is what ``execute`` would store: the same processors make the same JSON text
and the same stored times; the engine's events still run (the surrogate scrub, :mod:`processors.memory.scrub`) and a
driver error is still raised as SQLAlchemy's ``DBAPIError``. Any backend works: the dialect compiles the text
(PostgreSQL's ``%(name)s::JSON`` casts included).

Rows are mappings keyed by exactly the statement's bind names (an ``insert(table)``'s column keys, or the names given
to ``bindparam``), holding Python values as ``execute`` would take them. Exactly: ``execute`` would add a key named
after a column to an ``UPDATE``'s ``SET`` (and refuse one that names no column), so any other key is refused here
rather than ignored. A ``select``'s rows are the driver's values: :meth:`Prepared.readers` gives its columns' result
processors, for the columns that need them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection, CursorResult, Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

#: One parameter's bind processor (its type's, for this dialect): Python value → driver value.
BindProcessor = Callable[[Any], Any]

#: One selected column's result processor (its type's, for this dialect): driver value → Python value.
ResultProcessor = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Compiled:
    """The statement for one dialect: its text, its parameters in the driver's order, their processors."""

    sql: str
    #: Every parameter in the driver's order (a positional paramstyle names one more than once if it is used so).
    names: tuple[str, ...]
    #: The parameters the caller gives (the others have their value in the statement: SQLite's ``OFFSET 0``).
    asked: frozenset[str]
    #: The values of those others, by name.
    fixed: Mapping[str, Any]
    #: (position in ``names``, processor) for the parameters whose type has one; the others pass as they are.
    processing: tuple[tuple[int, BindProcessor], ...]
    #: The driver's parameter names (``names`` escaped as the dialect needs); None for a positional paramstyle.
    driver_names: tuple[str, ...] | None
    #: A ``select``'s columns' result processors, in order (None where the driver's value is the value).
    readers: tuple[ResultProcessor | None, ...]

    def row(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        if len(values) != len(self.asked):
            raise ValueError(f"expected exactly the parameters {sorted(self.asked)}, got {tuple(values)}")
        if self.fixed:
            values = {**self.fixed, **values}
        row = [values[name] for name in self.names]
        for index, process in self.processing:
            row[index] = process(row[index])
        if self.driver_names is None:
            return tuple(row)
        return dict(zip(self.driver_names, row, strict=True))


class Prepared:
    """A Core statement (an ``insert``, ``update``, ``delete`` or ``select`` with bound parameters) prepared per
    dialect. ``keys``: the columns an ``insert(table)`` without values binds (compiled as ``column_keys``)."""

    def __init__(self, statement: ClauseElement, *, keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.keys = tuple(keys) if keys is not None else None
        # One entry per dialect (a store has one engine; tests open many): dropped with its engine.
        self._compiled: weakref.WeakKeyDictionary[Dialect, _Compiled] = weakref.WeakKeyDictionary()

    def __repr__(self) -> str:
        return f"Prepared({self.statement})"

    def for_dialect(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect)
        if compiled is None:
            compiled = self._compiled[dialect] = self._compile(dialect)
        return compiled

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect, column_keys=list(self.keys) if self.keys else None)
        if not isinstance(compiled, SQLCompiler):
            raise TypeError(f"not a SQL statement: {self.statement!r}")
        positional = compiled.positional
        names = tuple(compiled.positiontup or ()) if positional else tuple(compiled.bind_names.values())
        processing = []
        fixed: dict[str, Any] = {}
        for index, name in enumerate(names):
            bind = compiled.binds[name]
            if not bind.required:
                if bind.callable is not None:
                    raise TypeError(f"{name}: a parameter whose value is computed at execution is not supported")
                fixed[name] = bind.value
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processing.append((index, process))
        escaped = compiled.escaped_bind_names
        driver_names = None if positional else tuple(escaped.get(name, name) for name in names)
        selected = getattr(self.statement, "selected_columns", ())
        readers = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None) for column in selected)
        asked = frozenset(names) - fixed.keys()
        return _Compiled(compiled.string, names, asked, fixed, tuple(processing), driver_names, readers)

    def readers(self, dialect: Dialect) -> tuple[ResultProcessor | None, ...]:
        """A ``select``'s columns' result processors for ``dialect`` (their types' own), for the rows
        :meth:`execute` returns as the driver gave them: what reading through SQLAlchemy would apply."""
        return self.for_dialect(dialect).readers

    def execute(self, connection: Connection, values: Mapping[str, Any] | None = None) -> CursorResult[Any]:
        """Run the statement once with ``values`` (none for a statement without parameters)."""
        compiled = self.for_dialect(connection.dialect)
        return connection.exec_driver_sql(compiled.sql, compiled.row(values or {}))

    def executemany(self, connection: Connection, rows: Iterable[Mapping[str, Any]]) -> CursorResult[Any] | None:
        """Run the statement once per row, in one driver ``executemany``; None (nothing run) when there is no row."""
        compiled = self.for_dialect(connection.dialect)
        params = [compiled.row(values) for values in rows]
        if not params:
            return None
        return connection.exec_driver_sql(compiled.sql, params)


__all__ = ["BindProcessor", "Prepared", "ResultProcessor"]
