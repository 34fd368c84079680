"""The plug-in registry at its edges: what it logs for a plug-in it skips (the only place a user running the lab
sees why a plug-in is missing), a built-in of the fallback table that fails, targets naming a whole module or a
dotted attribute, an installed built-in the table does not list, and a distribution whose metadata cannot be read.

Each test here pins a behaviour mutation testing found unchecked (issue 25; see tests/README.md).
"""

from __future__ import annotations

import logging
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, ClassVar

import pytest

from lab.plugin_registry import BUILTIN, LoadError, PluginRegistry
from tests.support.distributions import fake_distribution

GROUP = "processor_studio.test_edge_toys"
LOGGER = "lab.plugin_registry"

TOYS = """
class Toy:
    def __init__(self, name):
        self.name = name
        self.toy = True


class Shelf:
    TOP = Toy("top")


ALPHA = Toy("alpha")
DELTA = Toy("delta")
NAMELESS = Toy("")
"""


class ToyRegistry(PluginRegistry[Any]):
    group = GROUP
    noun = "toy"
    builtin_entry_points: ClassVar[tuple[tuple[str, str], ...]] = ()

    def is_one(self, loaded: object) -> bool:
        return hasattr(loaded, "toy")

    def problem(self, plugin: Any) -> str | None:
        return None if getattr(plugin, "name", "") else "a toy needs a name"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A directory on ``sys.path`` holding the module of toys (its name unique to the test)."""
    module = f"edge_toys_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{module}.py").write_text(TOYS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path, module
    sys.modules.pop(module, None)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]


def test_each_skipped_plugin_is_logged_with_its_source_and_why(
    site: tuple[Path, str], caplog: pytest.LogCaptureFixture
) -> None:
    path, module = site
    points = {"nameless": f"{module}:NAMELESS", "gone": "no_such_toy_module:X"}
    fake_distribution(path, "toy-plugins", {GROUP: points})
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        registry = ToyRegistry.load()
    assert len(registry) == 0
    assert sorted(warnings(caplog)) == [
        "Toy plug-in gone (plugin:toy-plugins) failed to load: ModuleNotFoundError: No module named "
        "'no_such_toy_module'",
        "Toy plug-in nameless (plugin:toy-plugins) skipped: a toy needs a name",
    ]


def test_a_builtin_of_the_fallback_table_that_fails_is_listed_under_its_entry_point(site: tuple[Path, str]) -> None:
    _, module = site

    class Broken(ToyRegistry):
        builtin_entry_points = (("alpha", f"{module}:ALPHA"), ("missing", f"{module}:NOT_THERE"))

    registry = Broken.load()
    assert list(registry) == ["alpha"]
    assert registry.errors == [
        LoadError(BUILTIN, "missing", f"AttributeError: module '{module}' has no attribute 'NOT_THERE'")
    ]


def test_a_target_may_name_a_dotted_attribute_or_a_whole_module(site: tuple[Path, str]) -> None:
    _, module = site

    class Targets(ToyRegistry):
        builtin_entry_points = (("nested", f"{module}:Shelf.TOP"), ("whole", module))

    registry = Targets.load()
    assert list(registry) == ["top"]
    assert registry.errors == [LoadError(BUILTIN, "whole", "not a toy: module")]  # a module is no toy, nor a list


def test_an_installed_builtin_the_table_does_not_list_loads_after_the_tables(site: tuple[Path, str]) -> None:
    path, module = site
    table = (("z-delta", f"{module}:DELTA"), ("a-alpha", f"{module}:ALPHA"))
    fake_distribution(path, "processor-studio", {GROUP: {**dict(table), "m-top": f"{module}:Shelf.TOP"}}, version="9.9")

    class Installed(ToyRegistry):
        builtin_entry_points = table
        builtins_in_table_order = True

    registry = Installed.load()
    assert list(registry) == ["delta", "alpha", "top"]
    assert set(registry.sources.values()) == {BUILTIN}


def test_metadata_that_cannot_be_read_is_logged_and_the_builtin_table_loads(
    site: tuple[Path, str], caplog: pytest.LogCaptureFixture
) -> None:
    path, module = site
    info = fake_distribution(path, "toy-broken", {GROUP: {}})
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nthis line names no target\n", encoding="utf-8")
    with pytest.raises((TypeError, ValueError)) as reading:  # importlib.metadata's, for the line (words vary)
        entry_points(group=GROUP)

    class Fallback(ToyRegistry):
        builtin_entry_points = (("alpha", f"{module}:ALPHA"),)

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        registry = Fallback.load()
    assert list(registry) == ["alpha"] and registry.errors == []
    assert warnings(caplog) == [f"Reading the {GROUP} entry points failed: {reading.value}"]


def test_a_plugin_of_a_distribution_without_a_name_is_from_plugin_unknown(site: tuple[Path, str]) -> None:
    path, module = site
    info = fake_distribution(path, "nameless-box", {GROUP: {"delta": f"{module}:DELTA"}})
    (info / "METADATA").write_text("Metadata-Version: 2.1\nVersion: 1.0\n", encoding="utf-8")  # no Name
    registry = ToyRegistry.load()
    assert list(registry) == ["delta"]
    assert registry.sources == {"delta": "plugin:unknown"}
