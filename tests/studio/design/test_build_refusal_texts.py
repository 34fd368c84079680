"""A design's refused options and fields read without pydantic's "Value error, " and its report's English frame, in
the reader's language where the problem has a code (issue 27 item 2: texts by code)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from processors.builtin.registry import Catalogue, load_catalogue
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError
from studio.design.build import build_agent
from studio.error_texts import error_text

#: A plug-in processor that checks its options with its own pydantic model (not a ``BuiltinProcessor``): a bound
#: (pydantic's code) and a validator's plain ``ValueError`` (no code of its own).
CHECKED_FILE = """
from pydantic import BaseModel, Field, field_validator

from processors import Processor


class WordOptions(BaseModel):
    words: list[str] = []
    limit: int = Field(default=1, ge=1)

    @field_validator("words")
    @classmethod
    def _named(cls, value):
        if any(not word.strip() for word in value):
            raise ValueError("every word needs a letter")
        return value


class WordBlocker(Processor):
    id = "word-blocker"

    def __init__(self, **options):
        self.options = WordOptions(**options)

    def process_input(self, args):
        return args.messages
"""


@pytest.fixture
def checked_catalogue(tmp_path: Path) -> Catalogue:
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "words.py").write_text(CHECKED_FILE, encoding="utf-8")
    loaded = load_catalogue(folder)
    assert "WordBlocker" in loaded, loaded.errors
    return loaded


def _refusal(catalogue: Catalogue) -> DesignError:
    design = AgentDesign(input=[ChainEntry(type="WordBlocker", options={"words": [" "], "limit": 0})])
    with pytest.raises(DesignError) as caught:
        build_agent(design, catalogue=catalogue)
    return caught.value


def test_a_plugins_own_pydantic_refusal_names_its_fields_without_pydantics_frame(checked_catalogue: Catalogue) -> None:
    message = error_text(_refusal(checked_catalogue))

    assert message == (
        "Input chain, #1 (WordBlocker): Invalid options for WordBlocker: words: every word needs a letter; "
        "limit: Input should be greater than or equal to 1"
    )


def test_a_plugins_pydantic_refusal_reads_in_chinese_where_it_has_a_code(
    checked_catalogue: Catalogue, in_language: Any
) -> None:
    in_language("zh_CN")

    message = error_text(_refusal(checked_catalogue))

    assert "Value error" not in message
    assert "validation error" not in message
    assert "limit: 应大于或等于 1" in message
    assert "words: every word needs a letter" in message  # the plug-in's own words: no code, shown as written
    assert message.startswith("输入链")


def test_a_design_fields_pattern_reads_in_chinese(in_language: Any) -> None:
    in_language("zh_TW")
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_data({"version": 1, "mcp_servers": [{"name": "no spaces!", "command": "x"}]})

    message = error_text(caught.value)

    assert "String should match" not in message
    assert "mcp_servers[0].name:" in message
    assert "'^[A-Za-z0-9_.-]{1,64}$'" in message
