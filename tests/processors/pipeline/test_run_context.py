"""A processor prepared for a run (``Entry``): its hooks are the class's ``process_*`` callables and those set on the
instance; the class is listed once, not once per run (a lab run prepares every processor again for each case)."""

from __future__ import annotations

from typing import Any

from processors import Processor
from processors.pipeline.run_context import Entry


class CountingMeta(type):
    """Counts how often a class is listed (``dir(cls)`` asks the metaclass)."""

    def __init__(cls, *args: Any) -> None:
        super().__init__(*args)
        cls.listed = 0

    def __dir__(cls) -> list[str]:
        cls.listed += 1
        return list(super().__dir__())


def listed_class() -> Any:
    """A new processor class (a class is listed at most once: each test needs its own)."""

    class Listed(Processor, metaclass=CountingMeta):
        id = "listed"

        def process_input(self, args: Any) -> Any:
            return args.messages

        async def process_output_stream(self, args: Any) -> Any:
            return args.part

    return Listed


def test_a_class_is_listed_once_however_many_runs_prepare_it() -> None:
    listed = listed_class()
    entries = [Entry(listed(), index) for index in range(5)]
    assert listed.listed == 1
    assert all(sorted(entry.hooks) == ["process_input", "process_output_stream"] for entry in entries)
    assert entries[0].asyncs == {"process_input": False, "process_output_stream": True}


def test_hooks_set_on_the_instance_count_and_shadow_the_class() -> None:
    listed = listed_class()
    processor = listed()
    processor.process_input = None  # switched off on this instance
    processor.process_output_result = lambda args: args.messages
    entry = Entry(processor, 0)
    assert sorted(entry.hooks) == ["process_output_result", "process_output_stream"]
    assert Entry(listed(), 1).hooks.keys() == {"process_input", "process_output_stream"}, "other instances keep it"
