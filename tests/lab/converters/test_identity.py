"""The identity converter, and that every built-in converter belongs to a module whose tests pin its output."""

from __future__ import annotations

from lab.converters import characters, chinese, encodings, identity, wrappers
from tests.lab.converters.samples import EN, ZH, convert, registry


def test_identity_changes_nothing_and_reverts() -> None:
    assert convert("identity", EN) == EN
    assert convert("identity", ZH) == ZH
    assert registry()["identity"].revert(ZH) == ZH


def test_every_builtin_is_in_a_module_with_exact_output_tests() -> None:
    """Each module's test file checks its table covers the module's converters; together they cover all."""
    modules = (identity, encodings, characters, wrappers, chinese)
    names = [converter.name for module in modules for converter in module.CONVERTERS]
    assert sorted(names) == sorted(registry())
    assert len(names) == len(set(names)) >= 30
