"""Issue 27 item 2: the studio translates codes, not English sentences. No module under ``studio/`` recognises an
English sentence with a regular expression to translate it (``studio/i18n/runtime_texts.py`` and
``problem_texts.py``, the tables that did, are gone); these tests fail if such a translation or table reappears."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

STUDIO = Path(__file__).resolve().parents[3] / "studio"


def test_the_sentence_tables_are_gone() -> None:
    for name in ("studio.i18n.runtime_texts", "studio.i18n.problem_texts"):
        assert importlib.util.find_spec(name) is None, name


def _translates_by_regex(tree: ast.Module) -> list[int]:
    """Lines where a regular expression is matched against a text and the match's groups fill a translated
    template: a ``fullmatch``/``groupdict`` call in a function that also calls ``translate``."""
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
    assert not offenders


def test_no_table_of_sentence_regexes_reappears() -> None:
    """A table of ``(regex with named groups, translatable template)`` pairs, the shape the old tables had."""
    tables = []
    for path in STUDIO.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if "QT_TRANSLATE_NOOP" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call | ast.Tuple):
                parts = node.args if isinstance(node, ast.Call) else node.elts
                if len(parts) == 2:
                    first, second = parts
                    if (
                        isinstance(first, ast.Constant)
                        and isinstance(first.value, str)
                        and "(?P<" in first.value
                        and isinstance(second, ast.Call)
                        and getattr(second.func, "id", "") == "QT_TRANSLATE_NOOP"
                    ):
                        tables.append(f"{path.relative_to(STUDIO)}:{node.lineno}")
    assert not tables
