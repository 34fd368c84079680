"""The converters' errors, each with a stable ``code`` and its parameters (the studio translates codes; the CLI
prints ``str()``)::

    ConverterError (ValueError)
    ├── ChainSyntaxError        a chain string that cannot be read ("base64||hex", "")
    ├── UnknownConverterError   a chain names a converter nobody registered
    ├── ConverterFailedError    a converter raised or returned something else than text or Turns
    └── NotReversibleError      (lab.converters.base) revert asked of a one-way converter
"""

from __future__ import annotations

from collections.abc import Iterable


class ConverterError(ValueError):
    """Root of the converters' errors."""

    code = "converter-error"


class ChainSyntaxError(ConverterError):
    """A chain string that is not ``name|name|…`` with known-shaped names."""

    code = "converter-chain-syntax"

    def __init__(self, spec: str, problem: str) -> None:
        self.spec = spec
        self.problem = problem
        super().__init__(f"cannot read the converter chain {spec!r}: {problem}")


class UnknownConverterError(ConverterError, KeyError):
    """A chain names a converter that is not registered; says which ones are."""

    code = "converter-unknown"

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = tuple(sorted(known))
        super().__init__(f"unknown converter {name!r}; known converters: {', '.join(self.known)}")

    def __str__(self) -> str:  # KeyError's str() would quote the whole message
        return str(self.args[0])


class ConverterFailedError(ConverterError):
    """A converter raised, or returned neither a text nor :class:`~lab.converters.base.Turns`, while a chain ran
    (a plug-in's bug): names the converter so a run can report it and go on with the next variant."""

    code = "converter-failed"

    def __init__(self, name: str, problem: str) -> None:
        self.name = name
        self.problem = problem
        super().__init__(f"the converter {name!r} failed: {problem}")
