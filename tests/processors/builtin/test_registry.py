"""The catalogue: built-ins and plug-ins via entry points (the only registry), user files, errors, creation."""

from __future__ import annotations

import json
import textwrap
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from processors import Agent
from processors.builtin import registry
from processors.builtin.base import BuiltinProcessor, InvalidOptionsError
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.registry import (
    ENTRY_POINT_GROUP,
    NOT_INSTALLED,
    Catalogue,
    UnknownProcessorTypeError,
    describe_class,
    load_catalogue,
)
from processors.models import ScriptedModel

ROOT = Path(__file__).resolve().parents[3]

#: The built-ins of this part of the project, with the lanes each fits and its id.
MINE = {
    "UnicodeNormalizer": ("unicode-normalizer", ("input",)),
    "RegexFilter": ("regex-filter", ("input", "output")),
    "TokenLimiter": ("token-limiter", ("input", "output")),
    "BatchParts": ("batch-parts", ("output",)),
    "ToolCallFilter": ("tool-call-filter", ("input",)),
    "PrefillErrorHandler": ("prefill-error-handler", ("error",)),
    "StreamErrorRetry": ("stream-error-retry-processor", ("error",)),
    "ResponseCache": ("response-cache", ("input",)),
    "CostGuard": ("cost-guard", ("input",)),
}


class FakeDist:
    def __init__(self, name: str) -> None:
        self.name = name


def entry_point(name: str, value: str, dist: str) -> EntryPoint:
    return EntryPoint(name, value, ENTRY_POINT_GROUP)._for(FakeDist(dist))  # type: ignore[attr-defined,no-any-return]


@pytest.fixture
def no_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """As when the package is not installed: the group is empty."""
    monkeypatch.setattr(registry, "entry_points", lambda group: [])


@pytest.mark.usefixtures("no_entry_points")
def test_without_entry_points_there_is_no_built_in_and_the_catalogue_says_why() -> None:
    """The entry points are the only registry (issue 27): no second list stands in for them."""
    catalogue = load_catalogue()
    assert "TokenLimiter" not in catalogue and len(catalogue) == 0
    assert catalogue.errors == [("builtin", NOT_INSTALLED)]


def test_the_installed_entry_points_are_the_built_ins_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][ENTRY_POINT_GROUP]
    catalogue = load_catalogue()
    builtins = {kind.type_name: kind for kind in catalogue if kind.source == "builtin"}
    assert set(builtins) == set(declared) and not catalogue.errors
    for type_name, (processor_id, lanes) in MINE.items():
        kind = builtins[type_name]
        assert (kind.id, kind.lanes, kind.needs_model) == (processor_id, lanes, False)


def test_each_builtin_declares_a_form_every_field_described_defaulted_and_bounded() -> None:
    catalogue = load_catalogue()
    for type_name in MINE:
        kind = catalogue[type_name]
        assert issubclass(kind.cls, BuiltinProcessor) and kind.configurable
        assert kind.description and kind.name and kind.hooks
        schema = kind.options_schema
        assert schema["type"] == "object" and "required" not in schema, type_name
        for field, spec in schema.get("properties", {}).items():
            assert spec.get("description"), f"{type_name}.{field} has no description"
            assert "default" in spec, f"{type_name}.{field} has no default"
        json.dumps(kind.describe())
    limits = catalogue["TokenLimiter"].options_schema["properties"]["limit"]
    assert limits["minimum"] == 1 and limits["maximum"] == 10_000_000


def test_installed_builtins_come_from_the_entry_point_group(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "acme_guards.py").write_text(
        textwrap.dedent("""
        from processors import Processor

        class ShoutFilter(Processor):
            id = "shout-filter"
            description = "Lower-cases shouting."

            def process_input(self, args):
                return args.messages

        NOT_A_CLASS = 42
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [
        entry_point("RegexFilter", "processors.builtin.regex_filter:RegexFilter", "processor-studio"),
        entry_point("ShoutFilter", "acme_guards:ShoutFilter", "acme-guards"),
        entry_point("Missing", "acme_missing_module:Thing", "acme-broken"),
        entry_point("Number", "acme_guards:NOT_A_CLASS", "acme-guards"),
        entry_point("RegexFilter", "acme_guards:ShoutFilter", "acme-guards"),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: points if group == ENTRY_POINT_GROUP else [])
    catalogue = load_catalogue()
    assert catalogue["RegexFilter"].source == "builtin"
    assert "TokenLimiter" not in catalogue  # only what the entry points name
    shout = catalogue["ShoutFilter"]
    assert (shout.source, shout.id, shout.lanes, shout.options_schema) == (
        "plugin:acme-guards",
        "shout-filter",
        ("input",),
        {},
    )
    assert shout.description == "Lower-cases shouting."
    errors = dict(catalogue.errors)
    assert "ModuleNotFoundError" in errors["plugin:acme-broken"]
    messages = [message for source, message in catalogue.errors if source == "plugin:acme-guards"]
    assert any("Number" in m and "not a class" in m for m in messages)
    assert any("'RegexFilter' is already provided by builtin" in m for m in messages)
    assert catalogue["RegexFilter"].id == "regex-filter"  # the first provider wins


GOOD = """
    from typing import ClassVar
    from pydantic import Field
    from processors import Processor
    from processors.builtin.base import BuiltinProcessor, ProcessorOptions

    class StarOptions(ProcessorOptions):
        stars: int = Field(default=3, ge=1, le=10, description="How many stars.")

    class StarAdder(BuiltinProcessor):
        Options: ClassVar[type[ProcessorOptions]] = StarOptions
        type_name: ClassVar[str] = "StarAdder"
        id = "star-adder"

        def process_output_stream(self, args):
            if args.part.type == "text-delta":
                return args.part.with_payload(text=args.part.payload.text + "*" * self.options.stars)
            return args.part

    class Recorder(Processor):
        '''Keeps every API error it sees.'''

        id = "recorder"

        def __init__(self, label="r"):
            self.label = label

        def process_api_error(self, args):
            return None

    class Helper:
        id = "not-a-processor"
"""


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return path


def test_a_user_folder_loads_good_files_and_reports_broken_ones(tmp_path: Path) -> None:
    write(tmp_path, "good.py", GOOD)
    syntax = write(tmp_path, "syntax.py", "def broken(:\n    pass\n")
    raising = write(tmp_path, "raising.py", "raise RuntimeError('no config file')\n")
    empty = write(tmp_path, "empty.py", "VALUE = 1\n")
    write(tmp_path, "_private.py", "raise RuntimeError('never imported')\n")
    write(tmp_path, "notes.txt", "not python")
    catalogue = load_catalogue(tmp_path)
    stars = catalogue["StarAdder"]
    assert stars.source == f"file:{tmp_path / 'good.py'}" and stars.lanes == ("output",)
    assert stars.options_schema["properties"]["stars"]["maximum"] == 10
    recorder = catalogue["Recorder"]
    assert recorder.options_schema == {} and recorder.lanes == ("error",) and not recorder.configurable
    assert recorder.description == "Keeps every API error it sees."
    assert "not-a-processor" not in {kind.id for kind in catalogue}
    errors = dict(catalogue.errors)
    assert errors[f"file:{syntax}"].startswith("SyntaxError")
    assert errors[f"file:{raising}"] == "RuntimeError: no config file"
    assert errors[f"file:{empty}"] == "defines no Processor subclass with an id"
    assert not any("_private" in source for source, _ in catalogue.errors)
    assert "RegexFilter" in catalogue  # the built-ins still loaded


async def test_created_processors_run(tmp_path: Path) -> None:
    write(tmp_path, "good.py", GOOD)
    catalogue = load_catalogue(tmp_path)
    stars = catalogue.create("StarAdder", {"stars": 2})
    guard = catalogue.create("RegexFilter", {"presets": ["pii"], "strategy": "redact"})
    recorder = catalogue.create("Recorder", {"label": "x"})
    assert recorder.label == "x"
    agent = Agent(
        id="a",
        model=ScriptedModel(["mail jo@example.com"]),
        output_processors=[guard, stars],
        error_processors=[recorder],
    )
    result = await agent.generate("hi")
    assert result.text == "mail [EMAIL]**"


def test_create_refuses_bad_options_and_unknown_types() -> None:
    catalogue = load_catalogue()
    with pytest.raises(InvalidOptionsError) as caught:
        catalogue.create("RegexFilter", {"rules": [{"name": "x", "pattern": "([a-z"}]})
    assert "rules.0.pattern" in str(caught.value)
    with pytest.raises(InvalidOptionsError, match="limit"):
        catalogue.create("TokenLimiter", {"limit": -3})
    with pytest.raises(InvalidOptionsError, match="max_cost"):
        catalogue.create("CostGuard", {"max_cost": -1})
    with pytest.raises(UnknownProcessorTypeError, match="unknown processor type 'Nope'"):
        catalogue.create("Nope", {})
    with pytest.raises(KeyError):
        catalogue["Nope"]


def test_lookups_by_lane_and_id() -> None:
    catalogue = load_catalogue()
    assert {k.type_name for k in catalogue.for_lane("error")} >= {"PrefillErrorHandler", "StreamErrorRetry"}
    assert "BatchParts" not in {k.type_name for k in catalogue.for_lane("input")}
    kind = catalogue.by_id("batch-parts")
    assert kind is not None and kind.type_name == "BatchParts"
    assert len(catalogue) == len(list(catalogue)) and "BatchParts" in catalogue


def test_describe_class_refuses_what_is_not_a_processor() -> None:
    class NoId:
        def process_input(self, args: Any) -> None:
            return None

    class NoHooks(BuiltinProcessor):
        id = "idle"

    with pytest.raises(TypeError, match="has no 'id'"):
        describe_class(NoId)
    with pytest.raises(TypeError, match="implements no processor hook"):
        describe_class(NoHooks)
    catalogue = Catalogue()
    assert catalogue.add(describe_class(RegexFilter)) and not catalogue.add(describe_class(RegexFilter))
    assert len(catalogue) == 1 and catalogue.errors[0][1].startswith("type 'RegexFilter' is already provided")


#: Plug-in files that raise a ``BaseException`` other than ``Exception`` at import (issue 9, item 13).
BASE_EXCEPTION_PLUGINS = {
    "interrupting.py": ("raise KeyboardInterrupt('pressed')\n", "KeyboardInterrupt: pressed"),
    "exiting.py": ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
    "closing.py": ("raise GeneratorExit('closed')\n", "GeneratorExit: closed"),
    "custom.py": (
        "class Abandon(BaseException):\n    pass\n\nraise Abandon('not an Exception')\n",
        "Abandon: not an Exception",
    ),
}


def test_a_user_file_raising_any_base_exception_at_import_is_skipped_and_reported(tmp_path: Path) -> None:
    for name, (source, _) in BASE_EXCEPTION_PLUGINS.items():
        write(tmp_path, name, source)
    write(tmp_path, "good.py", GOOD)
    catalogue = load_catalogue(tmp_path)
    errors = dict(catalogue.errors)
    for name, (_, message) in BASE_EXCEPTION_PLUGINS.items():
        assert errors[f"file:{tmp_path / name}"] == message
    assert "StarAdder" in catalogue and "RegexFilter" in catalogue  # the rest of the catalogue loaded


def test_an_entry_point_raising_any_base_exception_is_skipped_and_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    points = [entry_point("RegexFilter", "processors.builtin.regex_filter:RegexFilter", "processor-studio")]
    for name, (source, _) in BASE_EXCEPTION_PLUGINS.items():
        module = f"acme_base_{name.removesuffix('.py')}"
        write(tmp_path, f"{module}.py", source)
        points.append(entry_point(f"Guard{module}", f"{module}:Guard", f"acme-{module}"))
    # A class whose schema hook interrupts: describing it, not importing it, raises.
    write(
        tmp_path,
        "acme_base_schema.py",
        """
        from typing import ClassVar
        from processors.builtin.base import BuiltinProcessor, ProcessorOptions

        class Options(ProcessorOptions):
            @classmethod
            def model_json_schema(cls, *args, **kwargs):
                raise KeyboardInterrupt("schema")

        class Guard(BuiltinProcessor):
            Options: ClassVar[type[ProcessorOptions]] = Options
            id = "schema-guard"

            def process_input(self, args):
                return args.messages
    """,
    )
    points.append(entry_point("SchemaGuard", "acme_base_schema:Guard", "acme-schema"))
    points.append(entry_point("TokenLimiter", "processors.builtin.token_limiter:TokenLimiter", "processor-studio"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "entry_points", lambda group: points if group == ENTRY_POINT_GROUP else [])
    catalogue = load_catalogue()
    errors = dict(catalogue.errors)
    for name, (_, message) in BASE_EXCEPTION_PLUGINS.items():
        module = f"acme_base_{name.removesuffix('.py')}"
        assert errors[f"plugin:acme-{module}"] == f"Guard{module}: {message}"
    assert errors["plugin:acme-schema"] == "SchemaGuard: KeyboardInterrupt: schema"
    assert {"RegexFilter", "TokenLimiter"} <= set(catalogue.types)  # loaded before and after the broken ones
