"""``Prepared`` stores exactly what SQLAlchemy's ``execute`` stores, on real databases.

The same statement runs both ways — ``prepared.execute/executemany`` and ``connection.execute(prepared.statement,
...)`` — into two identical tables, and the stored values are compared as the database holds them (SQLite: each
value's storage class and its SQL literal, so ``'null'`` text is not NULL and ``1`` is not ``'1'``): JSON text,
stored times, lone surrogates scrubbed, NULLs, in the same order. Hypothesis draws the rows.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.memory.engine import make_engine
from processors.memory.prepared import Prepared
from processors.memory.schema import SeqKey, TolerantJSON, UTCDateTime
from processors.memory.scrub import scrub_parameters


def table(metadata: sa.MetaData, name: str) -> sa.Table:
    return sa.Table(
        name,
        metadata,
        sa.Column("seq", SeqKey, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(255), nullable=False),
        sa.Column("number", sa.Integer, nullable=True),
        sa.Column("moment", sa.Float, nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("data", TolerantJSON, nullable=True),
        sa.Column("more", TolerantJSON, nullable=True),
        sa.Column("at", UTCDateTime, nullable=True),
    )


COLUMNS = ("key", "number", "moment", "text", "data", "more", "at")

#: Any text, lone surrogates included (the scrub's case); JSON keys too.
any_text = st.text(st.characters(blacklist_categories=()), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | any_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12,
)
moments = st.datetimes(
    min_value=datetime(1900, 1, 1),
    max_value=datetime(2200, 1, 1),
    timezones=st.sampled_from([None, UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=8))]),
)
rows = st.fixed_dictionaries(
    {
        "key": any_text,
        "number": st.none() | st.integers(-(2**63), 2**63 - 1),
        "moment": st.none() | st.floats(allow_nan=False),
        "text": st.none() | any_text,
        "data": json_values,
        "more": json_values,
        "at": st.none() | moments,
    }
)


class Twins:
    """Two identical tables on one engine: ``fast`` written through ``Prepared``, ``reference`` through ``execute``."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        sa.event.listen(engine, "before_cursor_execute", scrub_parameters, retval=True)  # as SqlMemory's engine
        suffix = uuid.uuid4().hex[:8]
        self.metadata = sa.MetaData()
        self.fast = table(self.metadata, f"fast_{suffix}")
        self.reference = table(self.metadata, f"reference_{suffix}")
        self.metadata.create_all(engine)

    def stored(self, target: sa.Table) -> list[tuple[Any, ...]]:
        """Every row as the database holds it, in insertion order."""
        with self.engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                columns = ", ".join(f'typeof("{name}"), quote("{name}")' for name in COLUMNS)
                sql = f'SELECT {columns} FROM "{target.name}" ORDER BY seq'
                return [tuple(row) for row in connection.exec_driver_sql(sql)]
            query = sa.select(*(sa.cast(target.c[name], sa.Text) for name in COLUMNS)).order_by(target.c.seq)
            return [tuple(row) for row in connection.execute(query)]

    def clear(self) -> None:
        with self.engine.begin() as connection:
            connection.execute(self.fast.delete())
            connection.execute(self.reference.delete())


@pytest.fixture
def sqlite_twins(tmp_path: Path) -> Iterator[Twins]:
    engine = make_engine(sa.make_url(f"sqlite:///{tmp_path / 'twins.db'}"))
    yield Twins(engine)
    engine.dispose()


def insert_both(twins: Twins, batch: list[dict[str, Any]]) -> None:
    fast = Prepared(sa.insert(twins.fast), keys=COLUMNS)
    with twins.engine.begin() as connection:
        if len(batch) == 1:
            fast.execute(connection, batch[0])
            connection.execute(sa.insert(twins.reference), batch[0])
        else:
            fast.executemany(connection, batch)
            connection.execute(sa.insert(twins.reference), batch)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(rows, min_size=1, max_size=6))
def test_an_insert_stores_what_execute_stores(sqlite_twins: Twins, batch: list[dict[str, Any]]) -> None:
    sqlite_twins.clear()
    insert_both(sqlite_twins, batch)
    stored = sqlite_twins.stored(sqlite_twins.fast)
    assert len(stored) == len(batch)
    assert stored == sqlite_twins.stored(sqlite_twins.reference)


def updater(target: sa.Table) -> sa.Update:
    return (
        sa.update(target)
        .where(target.c.key == sa.bindparam("b_key"))
        .values(
            number=sa.bindparam("number"), text=sa.bindparam("text"), data=sa.bindparam("data"), at=sa.bindparam("at")
        )
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(rows, min_size=1, max_size=4, unique_by=lambda row: row["key"]), new=st.lists(rows, max_size=4))
def test_an_update_stores_what_execute_stores(
    sqlite_twins: Twins, batch: list[dict[str, Any]], new: list[dict[str, Any]]
) -> None:
    sqlite_twins.clear()
    insert_both(sqlite_twins, batch)
    changes = [
        {"b_key": row["key"], **{name: change[name] for name in ("number", "text", "data", "at")}}
        for row, change in zip(batch, new, strict=False)
    ]
    with sqlite_twins.engine.begin() as connection:
        for change in changes:  # one at a time: rowcount is what the store reads ("no run with that id")
            fast = Prepared(updater(sqlite_twins.fast)).execute(connection, change).rowcount
            assert fast == connection.execute(updater(sqlite_twins.reference), change).rowcount == 1
        Prepared(updater(sqlite_twins.fast)).executemany(connection, changes)
        if changes:
            connection.execute(updater(sqlite_twins.reference), changes)
    assert sqlite_twins.stored(sqlite_twins.fast) == sqlite_twins.stored(sqlite_twins.reference)


def test_a_select_binds_its_parameters_and_reads_the_driver_values(sqlite_twins: Twins) -> None:
    insert_both(sqlite_twins, [{**dict.fromkeys(COLUMNS), "key": key, "number": n} for key, n in (("a", 1), ("b", 2))])
    pick = Prepared(sa.select(sqlite_twins.fast.c.number).where(sqlite_twins.fast.c.key == sa.bindparam("key")))
    with sqlite_twins.engine.connect() as connection:
        assert pick.execute(connection, {"key": "b"}).scalars().all() == [2]
        assert pick.execute(connection, {"key": "c"}).first() is None


def test_only_the_statements_parameters_are_taken(sqlite_twins: Twins) -> None:
    """``execute`` would SET a column named by an extra key of an update: refused, never silently ignored."""
    insert_both(sqlite_twins, [{**dict.fromkeys(COLUMNS), "key": "a"}])
    update = Prepared(updater(sqlite_twins.fast))
    with sqlite_twins.engine.begin() as connection:
        with pytest.raises(ValueError, match="exactly the parameters"):
            update.execute(connection, {"b_key": "a", "number": 1, "text": None, "data": None, "at": None, "key": "b"})
        with pytest.raises(KeyError):
            update.execute(connection, {"b_key": "a", "number": 1, "text": None, "data": None, "key": "b"})


def test_no_rows_run_nothing(sqlite_twins: Twins) -> None:
    with sqlite_twins.engine.begin() as connection:
        assert Prepared(sa.insert(sqlite_twins.fast), keys=COLUMNS).executemany(connection, []) is None
    assert sqlite_twins.stored(sqlite_twins.fast) == []


def test_a_driver_error_is_sqlalchemys(sqlite_twins: Twins) -> None:
    """Callers (the store's file diagnosis) catch ``DBAPIError``: a constraint broken through the driver is one."""
    with sqlite_twins.engine.begin() as connection, pytest.raises(sa.exc.IntegrityError):
        Prepared(sa.insert(sqlite_twins.fast), keys=COLUMNS).execute(connection, dict.fromkeys(COLUMNS))


SAMPLE_ROWS: list[dict[str, Any]] = [
    {
        "key": "k1",
        "number": 7,
        "moment": 1.5,
        "text": "héllo \ud83d half an emoji",
        "data": {"seen": 1, "nested": [1, 2.5, None, "é"]},
        "more": None,
        "at": datetime(2026, 12, 7, 2, 30, tzinfo=UTC),
    },
    {
        "key": "k2",
        "number": None,
        "moment": math.pi,
        "text": None,
        "data": [],
        "more": "text",
        "at": datetime(2026, 12, 7, 8, 0, tzinfo=timezone(timedelta(hours=5, minutes=30))),
    },
]


def test_postgresql_stores_what_execute_stores(postgres_url: str) -> None:
    """Named parameters (psycopg's ``%(name)s``) and its JSON casts: compiled by the dialect, the same rows."""
    engine = make_engine(sa.make_url(postgres_url))
    try:
        twins = Twins(engine)
        insert_both(twins, SAMPLE_ROWS)
        insert_both(twins, SAMPLE_ROWS[:1])
        assert len(twins.stored(twins.fast)) == 3
        assert twins.stored(twins.fast) == twins.stored(twins.reference)
        twins.metadata.drop_all(engine)
    finally:
        engine.dispose()
