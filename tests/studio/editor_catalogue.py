"""The catalogue the editor's tests use: the real built-ins, plus one plain processor from a "user file".

Lanes of the types the tests lean on (from the built-ins' hooks):

=======================  ===============  ==========================================================
type                     lanes            options used in tests
=======================  ===============  ==========================================================
``UnicodeNormalizer``    input            booleans only
``PIIDetector``          input, output    strategy (enum), threshold (0..1), detection types (list)
``RegexFilter``          input, output    rules (objects; a pattern must compile), presets (list)
``BatchParts``           output           ``batch_size`` (integer ≥ 1)
``StreamErrorRetry``     error            ``max_retries`` (integer 0..100), ``matchers`` (strings)
``Echo``                 output           none: a plain ``Processor`` (not a ``BuiltinProcessor``)
=======================  ===============  ==========================================================
"""

from __future__ import annotations

import functools
from typing import Any

from processors.builtin.registry import Catalogue, describe_class, load_catalogue
from processors.pipeline.processor import Processor
from studio.design.catalog import palette_groups


class Echo(Processor):
    """Passes the final answer through unchanged."""

    id = "echo"
    name = "Echo"

    def process_output_result(self, args: Any) -> Any:
        return args.messages


@functools.cache
def make_catalogue() -> Catalogue:
    """Built-ins (entry points or the built-in list) and ``Echo``; loaded once per test session."""
    catalogue = load_catalogue(None)
    catalogue.add(describe_class(Echo, source="file:tests/echo.py"))
    assert not catalogue.errors, catalogue.errors
    return catalogue


def groups(catalogue: Catalogue) -> dict[str, list[Any]]:
    return dict(palette_groups(catalogue))
