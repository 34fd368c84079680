"""The identity converter: the case as written, the baseline every other converter's figures are read against."""

from __future__ import annotations

from lab.converters.base import FunctionConverter, fixed

CONVERTERS = (
    FunctionConverter("identity", "The text unchanged (the baseline).", fixed(lambda text: text), lambda text: text),
)
