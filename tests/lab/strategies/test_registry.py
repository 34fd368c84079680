"""The strategy registry: the built-ins through the entry-point group, plug-ins from an installed distribution,
broken plug-ins listed without stopping the others, and ``--strategies`` values parsed."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from lab.corpus import Case
from lab.strategies import ENTRY_POINT_GROUP, StrategyContext, UnknownStrategyError, load_strategies
from lab.strategies.base import NAME
from lab.strategies.registry import BUILTIN_ENTRY_POINTS
from processors.models import ScriptedModel
from tests.support.distributions import fake_distribution

ROOT = Path(__file__).resolve().parents[3]

PLUGIN = '''
from lab.strategies import StrategyVariant


class Shout:
    """A strategy that needs no model: the seed in capitals."""

    name = "shout"
    description = "The seed in capitals."
    roles = ()
    variants_per_seed = 1

    @property
    def spec(self):
        return self.name

    def configure(self, argument):
        return self

    def plan(self, case, context):
        return []

    async def variants(self, case, context):
        yield StrategyVariant(case.id, self.spec, context.seed, (case.text.upper(),))


class Taken(Shout):
    name = "pair"


class BadRole(Shout):
    name = "bad-role"
    roles = ("oracle",)


NOT_A_STRATEGY = 42
'''


def test_the_builtins_load_without_errors() -> None:
    registry = load_strategies()
    assert registry.errors == []
    assert list(registry) == ["paraphrase", "translate", "tone", "tense", "pair", "crescendo"]
    assert set(registry.sources.values()) == {"builtin"}
    for name, strategy in registry.items():
        assert NAME.fullmatch(name) and strategy.name == name
        assert strategy.description.strip() and len(strategy.description) <= 100, name


def test_the_builtin_table_is_what_pyproject_registers() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"][ENTRY_POINT_GROUP] == dict(BUILTIN_ENTRY_POINTS)


def test_a_strategies_value_is_parsed_into_configured_strategies() -> None:
    chosen = load_strategies().parse("paraphrase, translate:zu+gd ,pair:3,crescendo")
    assert [strategy.spec for strategy in chosen] == ["paraphrase", "translate:zu+gd", "pair:3", "crescendo"]
    with pytest.raises(UnknownStrategyError) as caught:
        load_strategies().parse("paraphrase,gcg")
    assert caught.value.name == "gcg" and "crescendo" in str(caught.value)


async def test_a_plugin_distribution_adds_its_strategy_and_its_broken_ones_are_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = f"demo_strategies_{tmp_path.name.replace('-', '_')}"
    points = {
        "shout": f"{module}:Shout",
        "taken": f"{module}:Taken",
        "bad-role": f"{module}:BadRole",
        "number": f"{module}:NOT_A_STRATEGY",
        "broken": "missing_module_for_strategies:X",
    }
    fake_distribution(tmp_path, "demo-strategies", {ENTRY_POINT_GROUP: points}, modules={module: PLUGIN})
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        registry = load_strategies()
        assert registry.sources["shout"] == "plugin:demo-strategies"
        assert registry.sources["pair"] == "builtin"
        errors = {error.entry_point: error.message for error in registry.errors}
        assert sorted(errors) == ["bad-role", "broken", "number", "taken"]
        assert "taken (by builtin)" in errors["taken"]
        assert errors["number"] == "not a strategy: int"
        assert errors["bad-role"] == "bad-role: roles must be among attacker, judge, design"
        (shout,) = registry.parse("shout")
        (variant,) = [v async for v in shout.variants(Case(id="c", text="hi"), StrategyContext(seed=2))]
        assert variant.turns == ("HI",) and variant.chain == "shout"
    finally:
        sys.modules.pop(module, None)


def test_strategies_are_off_until_asked_nothing_calls_a_model_on_load() -> None:
    model = ScriptedModel([])
    load_strategies().parse("paraphrase,pair,crescendo")
    assert model.requests == []


def test_an_installed_package_registers_its_builtins_through_the_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Processor Studio's own metadata declaring the group (an installed wheel), the built-ins come from its
    entry points, not from the fallback table: one left out of the metadata is then missing."""
    points = {name: target for name, target in BUILTIN_ENTRY_POINTS if name != "builtin-crescendo"}
    fake_distribution(tmp_path, "processor-studio", {ENTRY_POINT_GROUP: points}, version="9.9")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = load_strategies()
    assert registry.errors == []
    assert "pair" in registry and "translate" in registry
    assert "crescendo" not in registry
