"""The lab's one plug-in registry: a new kind of plug-in is a subclass naming its group, its built-in table and
its check; loading, ordering, the fallback table and the listed failures are the registry's (the converters and
the strategies are two such kinds, tested in tests/lab/converters/ and tests/lab/strategies/)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from lab.plugin_registry import BUILTIN, LoadError, PluginRegistry
from tests.support.distributions import fake_distribution

GROUP = "processor_studio.test_toys"

TOYS = """
class Toy:
    def __init__(self, name):
        self.name = name
        self.toy = True


ALPHA = Toy("alpha")
BUNDLE = [Toy("beta"), Toy("gamma")]
NAMELESS = [Toy("")]
NUMBER = 42
"""


class ToyRegistry(PluginRegistry[Any]):
    group = GROUP
    noun = "toy"

    def is_one(self, loaded: object) -> bool:
        return hasattr(loaded, "toy")

    def problem(self, plugin: Any) -> str | None:
        return None if getattr(plugin, "name", "") else "a toy needs a name"


@pytest.fixture
def toys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    module = f"toys_{tmp_path.name.replace('-', '_')}"
    fake_distribution(tmp_path, "toy-box", {GROUP: {}}, modules={module: TOYS})
    monkeypatch.syspath_prepend(str(tmp_path))
    yield module
    sys.modules.pop(module, None)


def test_without_installed_builtins_the_table_loads_in_its_order(toys: str) -> None:
    class Builtins(ToyRegistry):
        builtin_entry_points = (("z-bundle", f"{toys}:BUNDLE"), ("a-alpha", f"{toys}:ALPHA"))

    registry = Builtins.load()
    assert list(registry) == ["beta", "gamma", "alpha"]
    assert set(registry.sources.values()) == {BUILTIN} and registry.errors == []


@pytest.mark.parametrize(
    ("table_order", "expected"), [(False, ["alpha", "beta", "gamma"]), (True, ["beta", "gamma", "alpha"])]
)
def test_installed_builtins_load_by_name_or_in_the_tables_order(
    tmp_path: Path, toys: str, table_order: bool, expected: list[str]
) -> None:
    table = (("z-bundle", f"{toys}:BUNDLE"), ("a-alpha", f"{toys}:ALPHA"))
    fake_distribution(tmp_path, "processor-studio", {GROUP: dict(table)}, version="9.9")

    class Installed(ToyRegistry):
        builtin_entry_points = table
        builtins_in_table_order = table_order

    assert list(Installed.load()) == expected


def test_a_plugins_failures_are_listed_and_a_builtin_keeps_its_name(tmp_path: Path, toys: str) -> None:
    points = {"again": f"{toys}:ALPHA", "nameless": f"{toys}:NAMELESS", "number": f"{toys}:NUMBER", "gone": "no_such:X"}
    fake_distribution(tmp_path, "toy-plugins", {GROUP: points})

    class WithPlugins(ToyRegistry):
        builtin_entry_points = (("alpha", f"{toys}:ALPHA"),)

    registry = WithPlugins.load()
    assert list(registry) == ["alpha"] and registry.sources == {"alpha": BUILTIN}
    assert sorted(registry.errors, key=lambda error: error.entry_point) == [
        LoadError("plugin:toy-plugins", "again", "the name 'alpha' is taken (by builtin)"),
        LoadError("plugin:toy-plugins", "gone", "ModuleNotFoundError: No module named 'no_such'"),
        LoadError("plugin:toy-plugins", "nameless", "a toy needs a name"),
        LoadError("plugin:toy-plugins", "number", "not a toy: int"),
    ]
    with pytest.raises(KeyError):
        registry["delta"]
