"""Designs at their edges: exact messages for what a user wrote wrong, credentials in URLs, finding an entry,
and the format upgrades. Each pins a behaviour mutation testing found unchecked
(issue 16; see tests/README.md)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

import studio.design.agent_design
from processors.json_limits import NOT_FINITE
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError, ModelConfig, load_design


# ------------------------------------------------------------------------------------------------- reading
@pytest.mark.parametrize(
    ("text", "kind"),
    [('"design"', "a string"), ("null", "null"), ("true", "a boolean"), ("3", "a number"), ("2.5", "a number")],
)
def test_a_file_that_is_not_an_object_says_what_it_is(text: str, kind: str) -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_json(text)
    assert caught.value.message == f"An agent design is a JSON object, not {kind}"
    assert caught.value.path == ""


def test_a_binary_file_is_refused_for_the_whole_file() -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_json(b'{"name": "\xff"}')
    assert caught.value.message.startswith("Not a text file: ")
    assert caught.value.path == ""
    assert caught.value.problems == [("", caught.value.message)]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "x"}, "version: missing — this does not look like an agent design file"),
        ({"version": "1"}, 'version: must be a whole number, got "1"'),
        ({"version": True}, "version: must be a whole number, got true"),
        ({"version": -2}, "version: unknown design format -2"),
    ],
)
def test_version_problems_say_exactly_what_is_wrong(data: dict[str, Any], message: str) -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_data(data)
    assert caught.value.message == message
    assert caught.value.path == "version"


def test_every_limit_problem_is_listed_one_a_line() -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_data({"version": 1, "model": {"extra": {"a": float("nan"), "b": float("inf")}}})
    assert caught.value.message == (
        f"Invalid agent design:\n- model.extra.a: {NOT_FINITE}\n- model.extra.b: {NOT_FINITE}"
    )
    assert caught.value.problems == [
        ("model.extra.a", NOT_FINITE),
        ("model.extra.b", NOT_FINITE),
    ]
    assert caught.value.path == "model.extra.a"


def test_every_field_problem_is_listed_one_a_line() -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_data({"version": 1, "input": 3, "output": "x"})
    assert caught.value.message == (
        "Invalid agent design:\n- input: Input should be a valid list\n- output: Input should be a valid list"
    )


def test_a_design_error_without_a_path_lists_no_problem() -> None:
    assert DesignError("something").problems == []
    assert DesignError("something", path="").problems == [("", "something")]
    assert DesignError("x", path="a", problems=[("b", "y")]).problems == [("b", "y")]


def test_a_file_that_cannot_be_read_says_why_for_the_whole_file(tmp_path: Path) -> None:
    with pytest.raises(DesignError) as caught:
        load_design(tmp_path / "missing.json")
    assert caught.value.message == "missing.json: cannot read the file: No such file or directory"
    assert caught.value.path == ""
    assert caught.value.problems == [("", caught.value.message)]


def test_a_file_with_several_problems_lists_them_all_under_its_name(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"version": 1, "colour": "red", "max_steps": 0}', encoding="utf-8")
    with pytest.raises(DesignError) as caught:
        load_design(path)
    assert caught.value.message == (
        "bad.json: Invalid agent design:\n- max_steps: Input should be greater than or equal to 1\n"
        "- colour: unknown field"
    )
    assert caught.value.problems == [
        ("max_steps", "Input should be greater than or equal to 1"),
        ("colour", "unknown field"),
    ]


# ------------------------------------------------------------------------------------------------- upgrades
def test_an_older_design_is_upgraded_one_format_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The upgrade chain runs every step from the file's format to the current one, each on a copy."""
    seen: list[tuple[int, dict[str, Any]]] = []

    def step(number: int, rename: tuple[str, str] | None) -> Any:
        def upgrade(data: dict[str, Any]) -> dict[str, Any]:
            seen.append((number, dict(data)))
            if rename is not None:
                data[rename[1]] = data.pop(rename[0])
            return data

        return upgrade

    monkeypatch.setattr(studio.design.agent_design, "DESIGN_VERSION", 3)
    monkeypatch.setitem(studio.design.agent_design._UPGRADES, 1, step(1, ("title", "heading")))
    monkeypatch.setitem(studio.design.agent_design._UPGRADES, 2, step(2, ("heading", "name")))
    original = {"version": 1, "title": "Old agent"}
    design = AgentDesign.from_data(original)
    assert design.name == "Old agent"
    assert design.version == 3
    assert seen == [(1, {"version": 1, "title": "Old agent"}), (2, {"version": 2, "heading": "Old agent"})]
    assert original == {"version": 1, "title": "Old agent"}  # the caller's data is not changed
    assert AgentDesign.from_data({"version": 2, "heading": "Newer"}).name == "Newer"
    assert [number for number, _ in seen[2:]] == [2]


# ------------------------------------------------------------------------------------------------- writing
def test_option_values_are_written_as_json_values() -> None:
    design = AgentDesign(input=[ChainEntry(uid="e1", type="X", options={"since": datetime.date(2026, 12, 1)})])
    data = json.loads(design.to_json())
    assert data["input"][0]["options"] == {"since": "2026-12-01"}


# ------------------------------------------------------------------------------------------------- credentials
@pytest.mark.parametrize(
    "api_base",
    [
        "me:secret@localhost:11434",  # no scheme: read as http://
        "https://sk-abc123@api.example.com/v1",  # a user name alone is a credential (a key in the user part)
        "http://localhost:8080/v1?api_key=",  # a key parameter, even empty
    ],
)
def test_credentials_in_an_api_base_are_refused_with_the_reason(api_base: str) -> None:
    with pytest.raises(DesignError) as caught:
        ModelConfig(model="openai/gpt-4o-mini", api_base=api_base).call_settings()
    assert caught.value.message == (
        "model.api_base: credentials (a user name and password, or a key in the query) must not be saved in a "
        "design, where anyone it is shared with reads them; the studio reads API keys from the keyring when a run "
        "starts"
    )
    assert caught.value.path == "model.api_base"


def test_an_api_base_that_is_not_a_url_is_not_called_a_credential() -> None:
    config = ModelConfig(model="openai/gpt-4o-mini", api_base="http://[::1", temperature=0.5)
    assert config.call_settings() == {"temperature": 0.5}


@pytest.mark.parametrize("name", ["userPassword", "authToken", "clientSecret"])
def test_camel_case_credential_names_are_refused(name: str) -> None:
    with pytest.raises(DesignError) as caught:
        ModelConfig(model="openai/gpt-4o-mini", extra={name: "x"}).call_settings()
    assert caught.value.path == f"model.extra.{name}"


# ------------------------------------------------------------------------------------------------- entries
def test_find_names_the_lane_and_position_of_an_entry() -> None:
    design = AgentDesign(
        input=[ChainEntry(uid="a", type="X")],
        output=[ChainEntry(uid="b", type="X"), ChainEntry(uid="c", type="Y")],
        error=[ChainEntry(uid="d", type="Z")],
    )
    found = design.find("c")
    assert found is not None and found[:2] == ("output", 1) and found[2] is design.output[1]
    found = design.find("d")
    assert found is not None and found[:2] == ("error", 0) and found[2] is design.error[0]
    assert design.find("a") == ("input", 0, design.input[0])
    assert design.find("nobody") is None


# ------------------------------------------------------------------------------------------------- model settings
def test_call_settings_are_the_extras_then_the_named_fields_that_are_set() -> None:
    config = ModelConfig(model="openai/x", temperature=0.5, extra={"temperature": 1.5, "seed": 7})
    assert config.call_settings() == {"temperature": 0.5, "seed": 7}
    assert ModelConfig(model="openai/x", max_tokens=10, top_p=0.2).call_settings() == {"max_tokens": 10, "top_p": 0.2}
    assert ModelConfig(model="openai/x").call_settings() == {}


@pytest.mark.parametrize(
    ("extra", "message", "path"),
    [
        (
            {"api_key": "sk-1"},
            "model.extra.api_key: API keys must not be saved in a design; the studio reads them from the keyring "
            "when a run starts",
            "model.extra.api_key",
        ),
        (
            {"base_url": "http://x"},
            "model.extra.base_url: 'base_url' is set by the model settings themselves, not as an extra setting",
            "model.extra.base_url",
        ),
        (
            {"extra_headers": {"X-Token": "t"}},
            "model.extra.extra_headers.X-Token: credentials (keys, tokens, secrets, Authorization headers) must not "
            "be saved in a design, where anyone it is shared with reads them; the studio reads API keys from the "
            "keyring when a run starts",
            "model.extra.extra_headers.X-Token",
        ),
    ],
)
def test_refused_extra_settings_say_why(extra: dict[str, Any], message: str, path: str) -> None:
    with pytest.raises(DesignError) as caught:
        ModelConfig(model="openai/x", extra=extra).call_settings()
    assert caught.value.message == message
    assert caught.value.path == path


def test_the_demo_model_is_named_demo_whatever_the_spaces() -> None:
    assert ModelConfig(model=" demo ").is_demo
    assert ModelConfig().is_demo
    assert not ModelConfig(model="openai/demo").is_demo


def test_a_design_error_keeps_the_entry_it_names() -> None:
    error = DesignError("Output chain, #2 (X): bad", path="output[1]", lane="output", index=1, uid="u1")
    assert (error.lane, error.index, error.uid, error.path) == ("output", 1, "u1", "output[1]")
    assert (DesignError("x").lane, DesignError("x").index, DesignError("x").uid) == (None, None, None)


def test_new_entries_get_twelve_hex_digit_uids() -> None:
    uids = {ChainEntry(type="X").uid for _ in range(50)}
    assert len(uids) == 50
    assert all(len(uid) == 12 and int(uid, 16) >= 0 for uid in uids)


# ------------------------------------------------------------------------------------------------- option errors
@pytest.mark.parametrize(
    ("options", "path", "expected"),
    [
        ({"rules": '[{"pattern": "a"'}, "rules", "Not valid JSON: Expecting ',' delimiter: line 1 column 17 (char 16)"),
        ({"rules": '  {"a": '}, "rules.0.pattern", "Not valid JSON: Expecting value: line 1 column 9 (char 8)"),
        ({"rules": '[{"pattern": "a"}]'}, "rules", "Input should be a valid list"),  # JSON after all: pydantic's word
        ({"rules": "plain words"}, "rules", "Input should be a valid list"),  # not meant as JSON
        ({"rules": 3}, "rules", "Input should be a valid list"),
        ({}, "rules", "Input should be a valid list"),
    ],
)
def test_an_option_typed_as_broken_json_says_so(options: dict[str, Any], path: str, expected: str) -> None:
    assert studio.design.agent_design.explain_option_error(options, path, "Input should be a valid list") == expected
