"""Issue 27 item 2: the studio translates codes, not English sentences. No module under ``studio/`` may recognise an
English sentence with a regular expression to translate it, except the one the store cannot yet carry a code for
(``studio/i18n/runtime_texts.py``: the trace's message-list summary), and that table only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

from studio.i18n.runtime_texts import PATTERNS

STUDIO = Path(__file__).resolve().parents[3] / "studio"
#: The sentence shapes still recognised (each needs a code column in the store to go).
LEFT = {
    "{messages} messages, {system} system; last: {last}",
    "{messages} messages, {system} system",
}


def test_the_sentence_table_only_shrinks() -> None:
    assert {pattern.template for pattern in PATTERNS} <= LEFT


def _translates_by_regex(tree: ast.Module) -> list[int]:
    """Lines where a regular expression is matched against a text and the match's groups fill a translated
    template: a ``fullmatch``/``match`` call in a function that also calls ``translate``."""
    found = []
    for function in (node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)):
        calls = [node for node in ast.walk(function) if isinstance(node, ast.Call)]
        names = {
            call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "") for call in calls
        }
        if {"fullmatch", "groupdict"} & names and "translate" in names:
            found.append(function.lineno)
    return found


def test_no_module_under_studio_translates_an_english_sentence_by_a_regex() -> None:
    offenders = {}
    for path in STUDIO.rglob("*.py"):
        lines = _translates_by_regex(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            offenders[str(path.relative_to(STUDIO))] = lines
    assert set(offenders) <= {"i18n/runtime_texts.py"}, offenders


def test_no_table_of_sentence_regexes_reappears() -> None:
    """A module-level table of ``(regex, translatable template)`` pairs, the shape the old tables had."""
    tables = []
    for path in STUDIO.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if path.name != "runtime_texts.py" and "QT_TRANSLATE_NOOP" in source:
            tree = ast.parse(source)
            for node in ast.walk(tree):
                if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                    first, second = node.elts
                    if (
                        isinstance(first, ast.Constant)
                        and isinstance(first.value, str)
                        and "(?P<" in first.value
                        and isinstance(second, ast.Call)
                        and getattr(second.func, "id", "") == "QT_TRANSLATE_NOOP"
                    ):
                        tables.append(f"{path.relative_to(STUDIO)}:{node.lineno}")
    assert not tables
