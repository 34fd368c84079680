"""Fuzzing the design load path: whatever a design file holds, loading it gives a design or a ``DesignError``.

A design is shared data (issue 9: opening someone else's design must be safe). Every property here feeds
hostile JSON — random values in every field, NaN/Infinity, lone surrogates, NULs, deep nesting, random bytes —
through ``AgentDesign.from_json`` / ``load_design`` and checks that nothing but ``DesignError`` escapes, and that
a design that did load can be saved to JSON and loaded back unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.design.agent_design import AgentDesign, DesignError, load_design
from studio.design.sample import sample_design
from tests.support.fuzz import TOO_DEEP_TEXT, dumps, json_values, nasty_text, writable

FIELDS = [
    "version",
    "id",
    "name",
    "instructions",
    "model",
    "tools",
    "input",
    "output",
    "error",
    "max_processor_retries",
    "max_steps",
]


def load_or_refuse(text: str | bytes) -> AgentDesign | None:
    """``from_json``; None when refused with a ``DesignError`` that names where. Anything else fails the test."""
    refusal: DesignError | None = None
    try:
        design = AgentDesign.from_json(text)
    except DesignError as error:
        refusal = error
    if refusal is not None:
        assert refusal.message and refusal.path is not None and refusal.problems
        return None
    assert not has_lone_surrogate(design.model_dump())  # replaced on load (issue 9 item 5): it can be saved
    again = AgentDesign.from_json(design.to_json())  # a loaded design saves and loads back as it was
    assert again == design
    return design


def has_lone_surrogate(value: Any) -> bool:
    """Whether a string anywhere in ``value`` (keys included) holds a lone surrogate."""
    if isinstance(value, str):
        return any("\ud800" <= character <= "\udfff" for character in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(key) or has_lone_surrogate(child) for key, child in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(child) for child in value)
    return False


@given(value=json_values())
def test_any_json_document_loads_or_is_refused(value: Any) -> None:
    load_or_refuse(dumps(value))


@given(data=st.binary(max_size=300))
def test_any_bytes_load_or_are_refused(data: bytes) -> None:
    load_or_refuse(data)


@pytest.mark.parametrize("text", TOO_DEEP_TEXT, ids=["lists", "objects", "unclosed"])
def test_documents_too_deep_to_parse_are_refused(text: str) -> None:
    assert load_or_refuse(text) is None


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every location in a JSON value (the value itself included)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _replace(value[head], rest, new)
    return copy


SAMPLE = json.loads(sample_design().to_json())
SAMPLE_PATHS = _paths(SAMPLE)


@given(
    edits=st.lists(st.tuples(st.sampled_from(SAMPLE_PATHS), json_values(max_leaves=6)), min_size=1, max_size=3),
)
def test_a_real_design_with_any_value_anywhere_loads_or_is_refused(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    data: Any = SAMPLE
    for path, value in edits:
        try:
            data = _replace(data, path, value)
        except (KeyError, IndexError, TypeError):  # an earlier edit removed this location
            continue
    load_or_refuse(dumps(data))


@given(
    key=nasty_text(),
    value=json_values(),
    lane=st.sampled_from(["input", "output", "error"]),
    kind=st.sampled_from(["RegexFilter", "TokenLimiter", "Nope", ""]),
)
def test_free_form_fields_take_any_value_or_are_refused(key: str, value: Any, lane: str, kind: str) -> None:
    """``model.extra`` and chain options are free-form dicts: the limits must hold there too."""
    data = {
        "version": 1,
        "model": {"model": "demo", "extra": {key: value}},
        lane: [{"type": kind, "options": {key: value}}],
    }
    design = load_or_refuse(dumps(data))
    if design is not None:
        assert design.model.extra == writable({key: value})


@given(name=nasty_text(surrogates=False), instructions=nasty_text(surrogates=False))
def test_a_loaded_design_file_round_trips_through_the_disk(tmp_path_factory: Any, name: str, instructions: str) -> None:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "design.json"
    path.write_text(dumps({"version": 1, "name": name, "instructions": instructions}), encoding="utf-8")
    design = load_design(path)
    assert (design.name, design.instructions) == (name, instructions)
    for broken in (path.read_bytes()[:-2], b"\xff\xfe" + path.read_bytes()):
        path.write_bytes(broken)
        with pytest.raises(DesignError):
            load_design(path)
