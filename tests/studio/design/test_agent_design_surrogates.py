"""A design name with half an emoji in it is saved, to the store and to a file, instead of failing the save."""

from __future__ import annotations

from pathlib import Path

from processors.messages.surrogates import REPLACEMENT
from studio.design.agent_design import AgentDesign, load_design, save_design
from studio.store.database import Store


async def test_a_design_named_with_a_lone_surrogate_saves_to_a_file_and_the_store(tmp_path: Path) -> None:
    typed = AgentDesign(name="Helper \ud83d")  # as an edit could leave it
    text = typed.to_json()
    assert f'"name": "Helper {REPLACEMENT}"' in text
    save_design(typed, tmp_path / "helper.json")
    assert load_design(tmp_path / "helper.json").name == f"Helper {REPLACEMENT}"

    opened = AgentDesign.from_json('{"version": 1, "name": "From elsewhere \\ud83d\\ude00 \\udc00"}')
    assert opened.name == f"From elsewhere \U0001f600 {REPLACEMENT}"

    async with Store(f"sqlite:///{tmp_path / 'studio.db'}") as store:
        record = await store.save_design(typed.id, typed.name, text)
        assert record.name == f"Helper {REPLACEMENT}"
        assert (await store.list_designs())[0].json_text == text
