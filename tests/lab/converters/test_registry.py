"""The converter registry: built-ins through the entry-point group, plug-ins from a real installed distribution,
and broken plug-ins listed as errors without stopping the others."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.converters import ENTRY_POINT_GROUP, UnknownConverterError, load_converters
from lab.converters.chain import NAME
from lab.converters.registry import BUILTIN_ENTRY_POINTS

ROOT = Path(__file__).resolve().parents[3]

PLUGIN_MODULE = '''
import random


class Shout:
    """A converter written as a plain class, registered by its class (the registry makes one); not reversible,
    so it needs no revert."""

    name = "shout"
    description = "The text in capitals, with a bang."
    reversible = False

    def convert(self, text: str, rng: random.Random) -> str:
        return text.upper() + "!"


class Rot1:
    name = "rot1"
    description = "Each letter one further (a becomes b)."
    reversible = True

    def convert(self, text, rng):
        return "".join(chr(ord(c) + 1) if c.isalpha() else c for c in text)

    def revert(self, text):
        return "".join(chr(ord(c) - 1) if c.isalpha() else c for c in text)


BUNDLE = [Rot1()]


class BadName(Shout):
    name = "Bad Name"


class TakenName(Shout):
    name = "base64"


class NoRevert(Shout):
    name = "no-revert"
    reversible = True


class Blank(Shout):
    name = "blank"
    description = "   "


class NoFlag:
    name = "no-flag"
    description = "Lacks reversible."

    def convert(self, text, rng):
        return text


HALF_BUNDLE = [NoFlag()]


NOT_A_CONVERTER = 42
'''


@pytest.fixture
def plugin_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A distribution installed into a temp folder on sys.path: its module and a dist-info with entry points."""
    module = f"demo_converters_{tmp_path.name.replace('-', '_')}"
    site = tmp_path / "site"
    (site / f"{module}.py").parent.mkdir(parents=True)
    (site / f"{module}.py").write_text(PLUGIN_MODULE, encoding="utf-8")
    (site / "broken_converters_module.py").write_text("raise ImportError('the plug-in is broken')\n", encoding="utf-8")
    info = site / "demo_converters-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: demo-converters\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\n"
        f"shout = {module}:Shout\n"
        f"rot-bundle = {module}:BUNDLE\n"
        "broken = broken_converters_module:ANYTHING\n"
        f"bad-name = {module}:BadName\n"
        f"taken = {module}:TakenName\n"
        f"no-revert = {module}:NoRevert\n"
        f"blank = {module}:Blank\n"
        f"half-bundle = {module}:HALF_BUNDLE\n"
        f"number = {module}:NOT_A_CONVERTER\n"
        "[some.other.group]\n"
        f"ignored = {module}:Shout\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(site))
    yield site
    for name in (module, "broken_converters_module"):
        sys.modules.pop(name, None)


def test_the_builtins_load_without_errors() -> None:
    registry = load_converters()
    assert registry.errors == []
    assert len(registry) >= 30
    assert set(registry.sources.values()) == {"builtin"}
    for name, converter in registry.items():
        assert NAME.fullmatch(name) and converter.name == name
        assert converter.description.strip() and "\n" not in converter.description, name
        assert len(converter.description) <= 100, name


def test_the_builtin_table_is_what_pyproject_registers() -> None:
    """The fallback used from a source checkout lists exactly the entry points the package declares."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = project["entry-points"][ENTRY_POINT_GROUP]
    assert declared == dict(BUILTIN_ENTRY_POINTS)


def test_a_plugin_distribution_adds_its_converters_and_its_broken_ones_are_listed(plugin_site: Path) -> None:
    registry = load_converters()
    assert registry.sources["shout"] == "plugin:demo-converters"
    assert registry.sources["rot1"] == "plugin:demo-converters"
    assert "ignored" not in registry
    assert registry.chain("rot1|shout").variant("c", "abc", 1).turns == ("BCD!",)
    assert registry["rot1"].revert("bcd") == "abc"
    # the built-ins are all still there, and base64 is still the built-in one
    assert registry.sources["base64"] == "builtin"
    assert len([source for source in registry.sources.values() if source == "builtin"]) >= 30
    errors = {error.entry_point: error for error in registry.errors}
    assert sorted(errors) == ["bad-name", "blank", "broken", "half-bundle", "no-revert", "number", "taken"]
    assert all(error.source == "plugin:demo-converters" for error in errors.values())
    assert errors["broken"].message == "ImportError: the plug-in is broken"
    assert "'Bad Name'" in errors["bad-name"].message
    assert "taken (by builtin)" in errors["taken"].message
    assert errors["number"].message == "not a converter: int"
    assert errors["half-bundle"].message.startswith("not a converter: NoFlag lacks")
    assert errors["blank"].message == "blank: the description is empty"
    assert "reversible, but has no revert" in errors["no-revert"].message


def test_an_installed_package_registers_its_builtins_through_the_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Processor Studio's own metadata declaring the group (an installed wheel), the built-ins come from its
    entry points, not from the fallback table: one bundle left out of the metadata is then missing."""
    info = tmp_path / "processor_studio-9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: processor-studio\nVersion: 9.9\n", encoding="utf-8")
    points = [f"{name} = {target}" for name, target in BUILTIN_ENTRY_POINTS if name != "builtin-chinese"]
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n" + "\n".join(points) + "\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = load_converters()
    assert registry.errors == []
    assert "base64" in registry and "identity" in registry
    assert "pinyin" not in registry


def test_without_the_plugin_it_is_unknown() -> None:
    registry = load_converters()
    assert "shout" not in registry
    with pytest.raises(UnknownConverterError) as caught:
        registry["shout"]
    assert caught.value.name == "shout"


def test_a_plugin_cannot_replace_a_builtin_even_when_its_entry_point_sorts_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Processor Studio's own entry points load first whatever their names, so a plug-in's ``base64`` is refused."""
    own = tmp_path / "processor_studio-9.9.dist-info"
    own.mkdir()
    (own / "METADATA").write_text("Metadata-Version: 2.1\nName: processor_studio\nVersion: 9.9\n", encoding="utf-8")
    points = "\n".join(f"{name} = {target}" for name, target in BUILTIN_ENTRY_POINTS)
    (own / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{points}\n", encoding="utf-8")
    module = f"early_converters_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{module}.py").write_text(
        "class Fake:\n    name = 'base64'\n    description = 'Not base64.'\n    reversible = False\n"
        "    def convert(self, text, rng):\n        return 'fake'\n",
        encoding="utf-8",
    )
    other = tmp_path / "early_converters-1.0.dist-info"
    other.mkdir()
    (other / "METADATA").write_text("Metadata-Version: 2.1\nName: early-converters\nVersion: 1.0\n", encoding="utf-8")
    (other / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\naaa = {module}:Fake\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        registry = load_converters()
    finally:
        sys.modules.pop(module, None)
    assert registry.sources["base64"] == "builtin"
    assert registry.chain("base64").variant("c", "hi", 1).turns == ("aGk=",)
    assert [(error.source, error.entry_point) for error in registry.errors] == [("plugin:early-converters", "aaa")]
